import XCTest
@testable import Lexer

final class StringLiteralTests: XCTestCase {
    func testSingleLineStringWithEscapes() {
        XCTAssertEqual(lexed(#"x = "a\"b\\c\u{1F600}\n""#), [
            "identifier x", "equal =", "string_quote \"", #"string_segment a\"b\\c\u{1F600}\n"#, "string_quote \"",
        ])
        XCTAssertEqual(lexed(#""""#), ["string_quote \"", "string_quote \""])
    }

    func testInterpolationIsOrdinaryCode() {
        XCTAssertEqual(lexed(#""a\(b + c(d))e""#), [
            "string_quote \"", "string_segment a", "string_interpolation_start \\(", "identifier b",
            "binary_operator +", "identifier c", "left_paren (", "identifier d", "right_paren )",
            "string_interpolation_end )", "string_segment e", "string_quote \"",
        ])
    }

    func testNestedInterpolationsWithStringsAndClosures() {
        let source = #""outer \("inner \(x.map { "\($0)" }) done") end""#
        XCTAssertEqual(texts(source), [
            "\"", "outer ", "\\(", "\"", "inner ", "\\(", "x", ".", "map", "{", "\"", "\\(", "$0", ")", "\"", "}",
            ")", " done", "\"", ")", " end", "\"",
        ])
        let result = Lexer.tokenize(SourceFile(path: "a.swift", text: source))
        // Each interpolation start is paired with its end.
        for (index, token) in result.code.enumerated() where token.kind == .stringInterpolationStart {
            let partner = Int(result.partner[index])
            XCTAssertGreaterThan(partner, index)
            XCTAssertEqual(result.code[partner].kind, .stringInterpolationEnd)
        }
    }

    func testMultiLineStringWithIndentationAndContinuation() {
        let source = "let s = \"\"\"\n    one \\\n    two \\(x)\n    \"\"\"\nnext"
        XCTAssertEqual(lexed(source), [
            "keyword let", "identifier s", "equal =", "string_quote \"\"\"",
            "string_segment \n    one \\\n    two ", "string_interpolation_start \\(", "identifier x",
            "string_interpolation_end )", "string_segment \n    ", "string_quote \"\"\"", "identifier next",
        ])
        // Two quotes inside do not close a multi-line string.
        XCTAssertEqual(texts("\"\"\"\na\"\"b\n\"\"\""), ["\"\"\"", "\na\"\"b\n", "\"\"\""])
    }

    func testRawStrings() {
        XCTAssertEqual(lexed(##"#"a\(b)"c\#(d)"#"##), [
            "string_raw_delimiter #", "string_quote \"", #"string_segment a\(b)"c"#,
            "string_interpolation_start \\#(", "identifier d", "string_interpolation_end )",
            "string_quote \"", "string_raw_delimiter #",
        ])
        XCTAssertEqual(texts(###"##"a"#b"##"###), ["##", "\"", "a\"#b", "\"", "##"])
        // `#"""#` is a one-line raw string holding a quote.
        XCTAssertEqual(lexed(##"#"""#"##), [
            "string_raw_delimiter #", "string_quote \"", "string_segment \"", "string_quote \"", "string_raw_delimiter #",
        ])
        XCTAssertEqual(texts("#\"\"\"\n  a \"# \n  \"\"\"#"), ["#", "\"\"\"", "\n  a \"# \n  ", "\"\"\"", "#"])
    }

    func testSingleQuotesLexAsStringPiecesForRecovery() {
        XCTAssertEqual(lexed("'a'"), ["string_quote '", "string_segment a", "string_quote '"])
    }

    func testUnterminatedStringEndsAtLineEndAndIsFlagged() {
        let result = Lexer.tokenize(SourceFile(path: "a.swift", text: "let s = \"abc\nlet t = 1"))
        let texts = result.code.map { result.text(of: $0) }
        XCTAssertEqual(texts, ["let", "s", "=", "\"", "abc", "let", "t", "=", "1"])
        XCTAssertTrue(result.code[4].isUnterminated)
        XCTAssertFalse(result.code[5].isUnterminated)
    }

    func testUnterminatedMultiLineStringAndInterpolationRunToEndOfFile() {
        let result = Lexer.tokenize(SourceFile(path: "a.swift", text: "let s = \"\"\"\nabc\n"))
        XCTAssertEqual(result.code.last.map { result.text(of: $0) }, "\nabc\n")
        XCTAssertTrue(result.code.last?.isUnterminated ?? false)

        let open = Lexer.tokenize(SourceFile(path: "a.swift", text: "\"\"\"\n\\(foo(1, "))
        XCTAssertTrue(open.code.last?.isUnterminated ?? false)
        XCTAssertEqual(open.code.last.map { open.text(of: $0) }, ",")
    }

    func testNewlineEndsInterpolationOfSingleLineString() {
        let result = Lexer.tokenize(SourceFile(path: "a.swift", text: "\"a\\(b\nc"))
        XCTAssertEqual(result.code.map { result.text(of: $0) }, ["\"", "a", "\\(", "b", "c"])
        XCTAssertTrue(result.code[3].isUnterminated)
        XCTAssertEqual(result.code[4].kind, .identifier)
    }
}
