import XCTest
@testable import Lexer

final class RegexLiteralTests: XCTestCase {
    func testBareRegexInExpressionPosition() {
        XCTAssertEqual(lexed("let r = /a+b/"), [
            "keyword let", "identifier r", "equal =", "regex_delimiter /", "regex_pattern a+b", "regex_delimiter /",
        ])
        XCTAssertEqual(lexed("f(/[a-z]\\/x/)"), [
            "identifier f", "left_paren (", "regex_delimiter /", "regex_pattern [a-z]\\/x", "regex_delimiter /",
            "right_paren )",
        ])
    }

    func testDivisionIsNotARegex() {
        XCTAssertEqual(texts("let d = a / b / c"), ["let", "d", "=", "a", "/", "b", "/", "c"])
        XCTAssertEqual(texts("x = (a/2) + (b/3)"), ["x", "=", "(", "a", "/", "2", ")", "+", "(", "b", "/", "3", ")"])
        // In an argument list a spaced slash is an operator reference, not a regex.
        XCTAssertEqual(lexed("foo(/ a /, 1)")[2], "binary_operator /")
        // A closing slash after a space means division when the literal could be either.
        XCTAssertEqual(texts("x = /a /2"), ["x", "=", "/", "a", "/", "2"])
        // An unbalanced `)` means the slashes are operators.
        XCTAssertEqual(texts("(x /y) / z"), ["(", "x", "/", "y", ")", "/", "z"])
    }

    func testPrefixOperatorBeforeRegex() {
        XCTAssertEqual(lexed("x = !/abc/"), [
            "identifier x", "equal =", "prefix_operator !", "regex_delimiter /", "regex_pattern abc", "regex_delimiter /",
        ])
    }

    func testOperatorDeclarationsAreNotRegexes() {
        XCTAssertEqual(texts("prefix operator /^/"), ["prefix", "operator", "/^/"])
        XCTAssertEqual(texts("static func /(a: A, b: A) {}"), ["static", "func", "/", "(", "a", ":", "A", ",", "b", ":", "A", ")", "{", "}"])
    }

    func testExtendedRegexLiterals() {
        XCTAssertEqual(lexed("#/a/b/#"), ["regex_delimiter #/", "regex_pattern a/b", "regex_delimiter /#"])
        XCTAssertEqual(lexed("##/x/#y/##"), ["regex_delimiter ##/", "regex_pattern x/#y", "regex_delimiter /##"])
        XCTAssertEqual(texts("let r = #/\n  (\\d+) # digits\n  /#\nnext"), [
            "let", "r", "=", "#/", "\n  (\\d+) # digits\n  ", "/#", "next",
        ])
    }

    func testRegexAfterTryQuestionMark() {
        XCTAssertEqual(lexed("try? /^ x/.wholeMatch(s)")[2], "regex_delimiter /")
    }

    func testUnterminatedExtendedRegexIsFlagged() {
        let result = Lexer.tokenize(SourceFile(path: "a.swift", text: "#/abc\nx"))
        XCTAssertEqual(result.code.map { result.text(of: $0) }, ["#/", "abc", "x"])
        XCTAssertTrue(result.code[1].isUnterminated)
    }
}
