import XCTest
@testable import Rules

final class OSVersionTests: XCTestCase {
    func testParsesDeploymentTargetSpellings() {
        XCTAssertEqual(OSVersion(parsing: "15.4"), OSVersion(15, 4))
        XCTAssertEqual(OSVersion(parsing: "v15_4"), OSVersion(15, 4))
        XCTAssertEqual(OSVersion(parsing: "16"), OSVersion(16))
        XCTAssertEqual(OSVersion(parsing: "14.0.1"), OSVersion(14, 0, 1))
        XCTAssertNil(OSVersion(parsing: "fifteen"))
        XCTAssertNil(OSVersion(parsing: "15..4"))
        XCTAssertNil(OSVersion(parsing: ""))
    }

    func testOrdersByComponents() {
        XCTAssertLessThan(OSVersion(15, 3), OSVersion(15, 4))
        XCTAssertLessThan(OSVersion(9, 9), OSVersion(15))
        XCTAssertEqual(OSVersion(15, 4).description, "15.4")
    }
}
