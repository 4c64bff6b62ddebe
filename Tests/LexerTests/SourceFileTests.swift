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

    /// The line table is read eight bytes at a time: line feeds at every offset of a word,
    /// runs of them, bytes that differ from a line feed in one bit only (0x0B, 0x8A, 0x0E),
    /// and a tail shorter than a word give the lines a byte-by-byte count gives.
    func testLineStartsAgreeWithCountingByteByByte() {
        let alphabet: [UInt8] = [0x0A, 0x0A, 0x61, 0x0B, 0x8A, 0x0E, 0x0D, 0x00, 0xFF, 0x4A]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15  // xorshift: the same inputs every run
        func next() -> UInt8 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return alphabet[Int(state % UInt64(alphabet.count))]
        }
        for length in 0..<70 {
            for _ in 0..<20 {
                let bytes = (0..<length).map { _ in next() }
                let expected = [0] + bytes.indices.filter { bytes[$0] == 0x0A }.map { $0 + 1 }
                XCTAssertEqual(SourceFile(path: "a.swift", bytes: bytes).lineStarts, expected, "\(bytes)")
            }
        }
    }

    func testLineRangeDropsTerminators() {
        let file = SourceFile(path: "a.swift", text: "ab\r\ncd\nef")
        XCTAssertEqual(file.text(file.lineRange(1)), "ab")
        XCTAssertEqual(file.text(file.lineRange(2)), "cd")
        XCTAssertEqual(file.text(file.lineRange(3)), "ef")
        XCTAssertEqual(file.lineRange(9), 9..<9)
    }
}
