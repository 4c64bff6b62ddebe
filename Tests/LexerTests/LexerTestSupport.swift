import XCTest
@testable import Lexer

/// `kind text` for each token of `source` (code tokens, or all tokens with comments).
func lexed(_ source: String, comments: Bool = false) -> [String] {
    let result = Lexer.tokenize(SourceFile(path: "test.swift", text: source))
    return (comments ? result.tokens : result.code).map { "\($0.kind.dumpName) \(result.text(of: $0))" }
}

/// The code tokens' texts only.
func texts(_ source: String) -> [String] {
    let result = Lexer.tokenize(SourceFile(path: "test.swift", text: source))
    return result.code.map { result.text(of: $0) }
}

/// Tokens plus the bytes between them must give back the file.
func assertRoundTrip(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
    let result = Lexer.tokenize(SourceFile(path: "x.swift", bytes: bytes))
    var previousEnd = 0
    var rebuilt: [UInt8] = []
    rebuilt.reserveCapacity(bytes.count)
    for token in result.tokens {
        XCTAssertLessThanOrEqual(previousEnd, Int(token.start), "tokens overlap or go backwards", file: file, line: line)
        XCTAssertLessThan(Int(token.start), Int(token.end), "empty token", file: file, line: line)
        guard previousEnd <= Int(token.start), Int(token.end) <= bytes.count else { return }
        rebuilt += bytes[previousEnd..<Int(token.start)]
        rebuilt += bytes[Int(token.start)..<Int(token.end)]
        previousEnd = Int(token.end)
    }
    rebuilt += bytes[previousEnd...]
    XCTAssertEqual(rebuilt, bytes, file: file, line: line)
}
