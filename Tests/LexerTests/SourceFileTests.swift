import XCTest
@testable import Lexer

final class SourceFileTests: XCTestCase {
    func testLocationsAreOneBasedUTF8Columns() {
        let file = SourceFile(path: "a.swift", text: "let é = 1\r\nx\n")
        XCTAssertEqual(file.location(of: 0), SourceLocation(line: 1, column: 1))
        XCTAssertEqual(file.location(of: 4), SourceLocation(line: 1, column: 5))  // é starts
        XCTAssertEqual(file.location(of: 6), SourceLocation(line: 1, column: 7))  // after é (2 bytes)
        XCTAssertEqual(file.location(of: 12), SourceLocation(line: 2, column: 1))
        XCTAssertEqual(file.location(of: 14), SourceLocation(line: 3, column: 1))
    }

    func testLineRangeDropsTerminators() {
        let file = SourceFile(path: "a.swift", text: "ab\r\ncd\nef")
        XCTAssertEqual(file.text(file.lineRange(1)), "ab")
        XCTAssertEqual(file.text(file.lineRange(2)), "cd")
        XCTAssertEqual(file.text(file.lineRange(3)), "ef")
        XCTAssertEqual(file.lineRange(9), 9..<9)
    }
}
