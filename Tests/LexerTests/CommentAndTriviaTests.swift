import XCTest
@testable import Lexer

final class CommentAndTriviaTests: XCTestCase {
    func testCommentKinds() {
        XCTAssertEqual(lexed("// a\n/// b\n//// c\n/* d */\n/** e */\n/**/\n/*** f */\n/* /* nested */ still */", comments: true), [
            "comment_line // a", "comment_doc_line /// b", "comment_doc_line //// c", "comment_block /* d */",
            "comment_doc_block /** e */", "comment_block /**/", "comment_doc_block /*** f */",
            "comment_block /* /* nested */ still */",
        ])
    }

    func testShebangOnlyAtStartOfFile() {
        XCTAssertEqual(lexed("#!/usr/bin/swift\nprint(1)", comments: true).first, "comment_shebang #!/usr/bin/swift")
        XCTAssertEqual(lexed("x\n#!/usr/bin/swift", comments: true)[1], "pound #")
    }

    func testUnterminatedBlockCommentRunsToEndOfFile() {
        let result = Lexer.tokenize(SourceFile(path: "a.swift", text: "a /* b /* c */ d"))
        XCTAssertEqual(result.tokens.count, 2)
        XCTAssertEqual(result.tokens[1].kind, .commentBlock)
        XCTAssertTrue(result.tokens[1].isUnterminated)
        XCTAssertEqual(result.code.count, 1)
    }

    func testBOMAndCRLFAreTrivia() {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("let a = 1\r\nlet b = 2\r\n".utf8)
        let result = Lexer.tokenize(SourceFile(path: "a.swift", bytes: bytes))
        XCTAssertEqual(result.code.map { result.text(of: $0) }, ["let", "a", "=", "1", "let", "b", "=", "2"])
        XCTAssertEqual(result.file.location(of: Int(result.code[4].start)), SourceLocation(line: 2, column: 1))
        assertRoundTrip(bytes)
    }

    func testFlags() {
        let result = Lexer.tokenize(SourceFile(path: "a.swift", text: "a b\n  c/*x*/d /* \n */ e"))
        let code = result.code
        XCTAssertEqual(code.map { result.text(of: $0) }, ["a", "b", "c", "d", "e"])
        XCTAssertTrue(code[0].isAtStartOfLine)
        XCTAssertFalse(code[1].isAtStartOfLine)
        XCTAssertTrue(code[2].isAtStartOfLine)
        XCTAssertFalse(code[3].isAtStartOfLine)
        XCTAssertTrue(code[4].isAtStartOfLine, "a newline inside a block comment separates lines")
        XCTAssertFalse(code[0].flags.contains(.leadingTrivia))
        XCTAssertTrue(code[0].flags.contains(.trailingTrivia))
        XCTAssertTrue(code[2].flags.contains(.trailingTrivia), "a comment follows c")
        XCTAssertTrue(code[3].flags.contains(.leadingTrivia), "a comment precedes d")
        XCTAssertFalse(code[4].flags.contains(.trailingTrivia))
    }
}
