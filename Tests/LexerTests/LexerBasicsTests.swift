import XCTest
@testable import Lexer

final class LexerBasicsTests: XCTestCase {
    func testKeywordsIdentifiersAndPunctuation() {
        XCTAssertEqual(lexed("let x: Int = f(a, b)[0]; _ = self"), [
            "keyword let", "identifier x", "colon :", "identifier Int", "equal =", "identifier f",
            "left_paren (", "identifier a", "comma ,", "identifier b", "right_paren )", "left_square [",
            "integer_literal 0", "right_square ]", "semicolon ;", "keyword _", "equal =", "keyword self",
        ])
    }

    func testContextualKeywordsAreIdentifiers() {
        XCTAssertEqual(lexed("override weak get set async await some"), [
            "identifier override", "identifier weak", "identifier get", "identifier set",
            "identifier async", "identifier await", "identifier some",
        ])
        let result = Lexer.tokenize(SourceFile(path: "a.swift", text: "willSet foo"))
        XCTAssertTrue(result.isContextualKeyword(result.code[0]))
        XCTAssertFalse(result.isContextualKeyword(result.code[1]))
    }

    func testOperatorsFollowWhitespaceRules() {
        XCTAssertEqual(lexed("a...b"), ["identifier a", "binary_operator ...", "identifier b"])
        XCTAssertEqual(lexed("x?.y!"), ["identifier x", "postfix_question_mark ?", "period .",
                                        "identifier y", "exclamation_mark !"])
        XCTAssertEqual(lexed("a>>=b"), ["identifier a", "binary_operator >>=", "identifier b"])
        XCTAssertEqual(lexed("-x"), ["prefix_operator -", "identifier x"])
        XCTAssertEqual(lexed("x++ ;"), ["identifier x", "postfix_operator ++", "semicolon ;"])
        XCTAssertEqual(lexed("a ? b : c"), ["identifier a", "infix_question_mark ?", "identifier b",
                                            "colon :", "identifier c"])
        XCTAssertEqual(lexed("f(&x) -> Y"), ["identifier f", "left_paren (", "prefix_ampersand &",
                                             "identifier x", "right_paren )", "arrow ->", "identifier Y"])
    }

    func testCommentsAreTokensButNotCode() {
        XCTAssertEqual(lexed("a // x\n/* b /* c */ */ d /// doc", comments: true), [
            "identifier a", "comment_line // x", "comment_block /* b /* c */ */", "identifier d",
            "comment_doc_line /// doc",
        ])
        XCTAssertEqual(lexed("a // x\nb"), ["identifier a", "identifier b"])
    }

    func testBracketTablePairsGroups() {
        let result = Lexer.tokenize(SourceFile(path: "a.swift", text: "f(a[1], { x }) \"\\(y)\""))
        let texts = result.code.map { result.text(of: $0) }
        XCTAssertEqual(texts, ["f", "(", "a", "[", "1", "]", ",", "{", "x", "}", ")", "\"", "\\(", "y", ")", "\""])
        XCTAssertEqual(result.partner[1], 10)
        XCTAssertEqual(result.partner[10], 1)
        XCTAssertEqual(result.partner[3], 5)
        XCTAssertEqual(result.partner[7], 9)
        XCTAssertEqual(result.partner[12], 14)
        XCTAssertEqual(result.partner[0], -1)
    }
}
