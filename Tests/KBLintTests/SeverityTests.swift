import XCTest
@testable import Rules

final class SeverityTests: XCTestCase {
    func testSeveritiesAreOrdered() {
        XCTAssertEqual(Severity.allCases.sorted(), [.info, .warning, .error])
        XCTAssertEqual(Severity.allCases.max(), .error)
    }
}
