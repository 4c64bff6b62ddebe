import Foundation
import XCTest
@testable import Lexer

/// The lexer must accept any bytes: no trap, no hang, no recursion on nesting depth, and a
/// result whose tokens still tile the file.
final class RobustnessTests: XCTestCase {
    /// Tokens in order, non-empty, inside the file; the bracket table symmetric.
    func assertWellFormed(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
        let result = Lexer.tokenize(SourceFile(path: "x.swift", bytes: bytes))
        var previousEnd = 0
        for token in result.tokens {
            guard Int(token.start) >= previousEnd, token.end > token.start, Int(token.end) <= bytes.count else {
                XCTFail("bad token \(token) after \(previousEnd) in \(bytes.count) bytes", file: file, line: line)
                return
            }
            previousEnd = Int(token.end)
        }
        XCTAssertEqual(result.partner.count, result.code.count, file: file, line: line)
        for (index, partner) in result.partner.enumerated() where partner >= 0 {
            XCTAssertEqual(result.partner[Int(partner)], Int32(index), file: file, line: line)
        }
        assertRoundTrip(bytes, file: file, line: line)
    }

    func testInvalidUTF8AndControlBytesBecomeUnknownTokens() {
        let bytes: [UInt8] = Array("let a = ".utf8) + [0xFF, 0xFE, 0x00, 0x01] + Array(" + b".utf8) + [0xE2, 0x82]
        let result = Lexer.tokenize(SourceFile(path: "a.swift", bytes: bytes))
        XCTAssertEqual(result.code.map(\.kind), [.keyword, .identifier, .equal, .unknown, .binaryOperator, .identifier, .unknown])
        XCTAssertEqual(result.code[3].length, 4, "one unknown token per run of bad bytes")
        assertWellFormed(bytes)
    }

    func testUnterminatedConstructsAtEndOfFile() {
        let sources = ["\"abc", "\"\"\"\nabc", "#\"abc", "##\"\"\"\nabc\"#", "\"a\\(b", "\"\"\"\n\\(x(\"\\(", "/* a /* b */",
                       "#/abc", "#/\nabc", "`abc", "x = /abc", "\"a\\", "\"\"\"\n\\", "@", "#", "0x", "1e", "0x1p",
                       "'a", "\"\\u{12", "\\(", "#!"]
        for source in sources {
            assertWellFormed(Array(source.utf8))
        }
        for source in ["\"abc", "\"\"\"\nabc", "/* a", "#/abc", "\"a\\(b"] {
            let result = Lexer.tokenize(SourceFile(path: "a.swift", text: source))
            XCTAssertTrue(result.tokens.contains { $0.isUnterminated }, source)
        }
    }

    func testDeepNestingNeedsNoRecursion() {
        let depth = 10_000
        let parens = String(repeating: "(", count: depth) + "x" + String(repeating: ")", count: depth)
        let result = Lexer.tokenize(SourceFile(path: "a.swift", text: parens))
        XCTAssertEqual(result.code.count, 2 * depth + 1)
        XCTAssertEqual(result.partner[0], Int32(2 * depth))
        XCTAssertEqual(result.partner[depth - 1], Int32(depth + 1))

        let interpolations = String(repeating: "\"\\(", count: depth) + "x" + String(repeating: ")\"", count: depth)
        let nested = Lexer.tokenize(SourceFile(path: "a.swift", text: interpolations))
        XCTAssertEqual(nested.code.count, 4 * depth + 1)
        XCTAssertFalse(nested.tokens.contains { $0.isUnterminated })
        XCTAssertEqual(nested.partner[1], Int32(4 * depth - 1))

        let comments = String(repeating: "/*", count: depth) + String(repeating: "*/", count: depth)
        XCTAssertEqual(Lexer.tokenize(SourceFile(path: "a.swift", text: comments)).tokens.count, 1)
        assertWellFormed(Array((String(repeating: "[{(<", count: depth) + String(repeating: ">)}]", count: depth)).utf8))
        assertWellFormed(Array(String(repeating: "Array<", count: depth).utf8))
    }

    /// Inputs that would make a careless lexer rescan the rest of the line again and again.
    func testPathologicalLinesStayLinear() {
        let patterns = ["a<b", "/(", "x = /a ", "#\"\"\"", "`", "\"\\(", "/*", "(/", " / ", "f<T>(", "0x1.", "\\.?",
                        "#/", "a?.b!", "'\\("]
        for pattern in patterns {
            let line = String(repeating: pattern, count: 120_000 / pattern.utf8.count)
            let start = Date()
            assertWellFormed(Array(line.utf8))
            XCTAssertLessThan(Date().timeIntervalSince(start), 10, "pattern \(pattern) took too long")
        }
    }

    func testOneMegabyteLine() {
        let line = String(repeating: "let value = (a + b) * \"text \\(c)\" ?? d; ", count: 26_000)
        XCTAssertGreaterThan(line.utf8.count, 1_000_000)
        let result = Lexer.tokenize(SourceFile(path: "a.swift", text: line))
        XCTAssertEqual(result.code.count, 26_000 * 18)
    }

    func testRandomBytesAndMutatedSwift() {
        var generator = SplitMix64(seed: 0x6B626C696E74)
        let sample = Array("""
        let s = #"raw \\#(x) "# + "\\(a.map { "\\($0)" })" ; let r = /[a-z]+/ ; x?.y! ..< z
        /* c /* d */ */ @objc func f<T: P>(_ x: Array<T>?) -> Int { return 0x1p-2 }
        """.utf8)
        let alphabet = Array("\"\\#()/*`'<>?!.\n\r{}[]$@0xe_ ".utf8)
        for round in 0..<2_000 {
            var bytes: [UInt8]
            if round % 2 == 0 {
                bytes = (0..<Int(generator.next() % 300)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            } else {
                bytes = sample
                for _ in 0..<Int(generator.next() % 8) + 1 {
                    let index = Int(generator.next() % UInt64(bytes.count))
                    switch generator.next() % 3 {
                    case 0: bytes[index] = alphabet[Int(generator.next() % UInt64(alphabet.count))]
                    case 1: bytes.remove(at: index)
                    default: bytes.insert(alphabet[Int(generator.next() % UInt64(alphabet.count))], at: index)
                    }
                }
            }
            assertWellFormed(bytes)
        }
    }
}

/// A small deterministic generator, so that a failing input can be reproduced.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
