import XCTest
@testable import Lexer

final class OperatorAndGenericTests: XCTestCase {
    func testDotOperators() {
        XCTAssertEqual(lexed("a..<b ..<c d... x.y"), [
            "identifier a", "binary_operator ..<", "identifier b", "prefix_operator ..<", "identifier c",
            "identifier d", "postfix_operator ...", "identifier x", "period .", "identifier y",
        ])
        // A dot continues only an operator that starts with a dot.
        XCTAssertEqual(texts("a+.b"), ["a", "+", ".", "b"])
    }

    func testPostfixBangAndQuestionMarkSplitFromFollowingOperators() {
        XCTAssertEqual(lexed("a!=b"), ["identifier a", "exclamation_mark !", "equal =", "identifier b"])
        XCTAssertEqual(lexed("a != b"), ["identifier a", "binary_operator !=", "identifier b"])
        XCTAssertEqual(lexed("x ?? y"), ["identifier x", "binary_operator ??", "identifier y"])
        XCTAssertEqual(lexed("!x"), ["prefix_operator !", "identifier x"])
    }

    func testCustomAndUnicodeOperators() {
        XCTAssertEqual(lexed("a <*> b ∘ c ≥ d"), [
            "identifier a", "binary_operator <*>", "identifier b", "binary_operator ∘", "identifier c",
            "binary_operator ≥", "identifier d",
        ])
        XCTAssertEqual(lexed("x &+= 1; y ^= 2; z |= w"), [
            "identifier x", "binary_operator &+=", "integer_literal 1", "semicolon ;", "identifier y",
            "binary_operator ^=", "integer_literal 2", "semicolon ;", "identifier z", "binary_operator |=", "identifier w",
        ])
    }

    func testCommentStartInsideOperatorRun() {
        XCTAssertEqual(lexed("a +/* c */ b", comments: true), [
            "identifier a", "prefix_operator +", "comment_block /* c */", "identifier b",
        ].map { $0 == "prefix_operator +" ? "binary_operator +" : $0 })
    }

    func testGenericBrackets() {
        XCTAssertEqual(lexed("Array<Int>.self"), [
            "identifier Array", "left_angle <", "identifier Int", "right_angle >", "period .", "keyword self",
        ])
        XCTAssertEqual(lexed("foo<T>(x)"), [
            "identifier foo", "left_angle <", "identifier T", "right_angle >", "left_paren (", "identifier x",
            "right_paren )",
        ])
        XCTAssertEqual(lexed("a < b"), ["identifier a", "binary_operator <", "identifier b"])
        XCTAssertEqual(lexed("a<b>c"), ["identifier a", "binary_operator <", "identifier b", "binary_operator >", "identifier c"])
        XCTAssertEqual(lexed("if a < b, c > d {}")[2], "binary_operator <")
    }

    func testNestedGenericClosersAreSplit() {
        XCTAssertEqual(texts("Set<Array<Int>>()"), ["Set", "<", "Array", "<", "Int", ">", ">", "(", ")"])
        XCTAssertEqual(lexed("let b: Box<Task<Int>?>? = nil"), [
            "keyword let", "identifier b", "colon :", "identifier Box", "left_angle <", "identifier Task",
            "left_angle <", "identifier Int", "right_angle >", "postfix_question_mark ?", "right_angle >",
            "postfix_question_mark ?", "equal =", "keyword nil",
        ])
        XCTAssertEqual(texts("x as Dictionary<String, Int>?"), ["x", "as", "Dictionary", "<", "String", ",", "Int", ">", "?"])
        XCTAssertEqual(lexed("a >> b"), ["identifier a", "binary_operator >>", "identifier b"])
    }

    func testGenericDeclarations() {
        XCTAssertEqual(texts("func ==<T>(a: T, b: T)").prefix(6), ["func", "==", "<", "T", ">", "("])
        XCTAssertEqual(lexed("static func * <T>(a: T)")[3], "left_angle <")
        XCTAssertEqual(lexed("init?<S: P>(_ s: S)")[2], "left_angle <")
        XCTAssertEqual(lexed("typealias X<T> = Array<T>\nlet y = 1")[9], "right_angle >")
        XCTAssertEqual(lexed("struct S<T> where T: P {}")[4], "right_angle >")
    }

    func testGenericVariadicParameter() {
        XCTAssertEqual(texts("var f: (Node<T>...) -> Node<U> { get }").prefix(9),
                       ["var", "f", ":", "(", "Node", "<", "T", ">", "..."])
        XCTAssertEqual(lexed("(Node<T>...)")[2], "left_angle <")
    }

    func testEditorPlaceholderIsOneIdentifier() {
        XCTAssertEqual(lexed("f(<#value#>) < #x"), [
            "identifier f", "left_paren (", "identifier <#value#>", "right_paren )", "binary_operator <",
            "pound #", "identifier x",
        ])
    }

    func testSplitClosersKeepTheirTriviaFlags() {
        let result = Lexer.tokenize(SourceFile(path: "a.swift", text: "let b: A<B<C>> = x"))
        let closers = result.code.filter { $0.kind == .rightAngle }
        XCTAssertEqual(closers.count, 2)
        XCTAssertFalse(closers[0].flags.contains(.leadingTrivia))
        XCTAssertFalse(closers[0].flags.contains(.trailingTrivia))
        XCTAssertTrue(closers[1].flags.contains(.trailingTrivia))
        XCTAssertEqual(closers.map { Int($0.start) }, [12, 13])
    }

    func testGenericBracketsArePartnered() {
        let result = Lexer.tokenize(SourceFile(path: "a.swift", text: "Set<Array<Int>>()"))
        XCTAssertEqual(result.partner[1], 6)
        XCTAssertEqual(result.partner[3], 5)
        XCTAssertEqual(result.partner[7], 8)
    }
}
