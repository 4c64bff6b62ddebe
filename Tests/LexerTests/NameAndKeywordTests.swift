import XCTest
@testable import Lexer

final class NameAndKeywordTests: XCTestCase {
    func testUnicodeAndEmojiIdentifiers() {
        XCTAssertEqual(lexed("let é = 🐶 + naïve"), [
            "keyword let", "identifier é", "equal =", "identifier 🐶", "binary_operator +", "identifier naïve",
        ])
    }

    func testBacktickedAndRawIdentifiers() {
        XCTAssertEqual(lexed("let `default` = `class`"), [
            "keyword let", "identifier `default`", "equal =", "identifier `class`",
        ])
        XCTAssertEqual(lexed("func `test with spaces`()"), [
            "keyword func", "identifier `test with spaces`", "left_paren (", "right_paren )",
        ])
        // A backtick without a partner on its line is punctuation.
        XCTAssertEqual(lexed("a ` b\nc`"), ["identifier a", "backtick `", "identifier b", "identifier c", "backtick `"])
    }

    func testDollarIdentifiers() {
        XCTAssertEqual(lexed("$0 + $12 + $name + $x.y + $"), [
            "identifier $0", "binary_operator +", "identifier $12", "binary_operator +", "identifier $name",
            "binary_operator +", "identifier $x", "period .", "identifier y", "binary_operator +", "identifier $",
        ])
    }

    /// Each reserved word's flavor, against the list of the words whose flavor is not
    /// `other`; a word one byte longer, shorter or different is not reserved.
    func testReservedWordFlavors() {
        let reserved = Self.reservedWords
        let flavors: [String: LexingPass.KeywordFlavor] = [
            "nil": .expressionValue, "Any": .expressionValue, "true": .expressionValue, "false": .expressionValue,
            "self": .expressionValue, "Self": .expressionValue, "super": .expressionValue,
            "func": .funcKeyword, "operator": .operatorKeyword, "try": .tryKeyword,
        ]
        func flavor(_ word: String) -> LexingPass.KeywordFlavor? {
            Array(word.utf8).withUnsafeBufferPointer { KeywordTable.reserved($0.baseAddress!, $0.count) }
        }
        func expected(_ word: String) -> LexingPass.KeywordFlavor? {
            reserved.contains(word) ? flavors[word] ?? .other : nil
        }
        for word in reserved {
            for variant in [word, word + "s", "x" + word, String(word.dropLast()), String(word.dropFirst()) + "z"]
            where !variant.isEmpty {
                XCTAssertEqual(flavor(variant), expected(variant), variant)
            }
        }
        for word in ["get", "set", "some", "any", "await", "open", "nill", "Self_", "funcs"] {
            XCTAssertNil(flavor(word), word)
        }
    }

    /// Swift's reserved words: keywords wherever they stand, unless used as a name.
    static let reservedWords = ["associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import",
        "init", "inout", "internal", "let", "operator", "private", "precedencegroup",
        "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias", "var",
        "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough",
        "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while",
        "Any", "as", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "_"]

    func testReservedWordsAreKeywords() {
        for word in Self.reservedWords + ["open_"] {
            let expected = word == "open_" ? "identifier open_" : "keyword \(word)"
            XCTAssertEqual(lexed(word), [expected], word)
        }
    }

    func testKeywordsUsedAsNamesAreIdentifiers() {
        XCTAssertEqual(lexed("x.default.as(y)"), [
            "identifier x", "period .", "identifier default", "period .", "identifier as", "left_paren (",
            "identifier y", "right_paren )",
        ])
        XCTAssertEqual(lexed("f(for: a, in: b)"), [
            "identifier f", "left_paren (", "identifier for", "colon :", "identifier a", "comma ,",
            "identifier in", "colon :", "identifier b", "right_paren )",
        ])
        XCTAssertEqual(lexed("func f(in range: R, _ x: X)"), [
            "keyword func", "identifier f", "left_paren (", "identifier in", "identifier range", "colon :",
            "identifier R", "comma ,", "keyword _", "identifier x", "colon :", "identifier X", "right_paren )",
        ])
        XCTAssertEqual(lexed("func f(_ protocol: P)")[4], "identifier protocol")
        XCTAssertEqual(lexed("s[as: T.self]")[2], "identifier as")
        XCTAssertEqual(lexed("[true: 1]")[1], "keyword true")
        XCTAssertEqual(lexed("} else: {")[1], "identifier else")
        XCTAssertEqual(lexed("}\ndefault:")[1], "keyword default")
        XCTAssertEqual(lexed("@rethrows protocol P {}")[1], "identifier rethrows")
        XCTAssertEqual(lexed("x.self + x.init"), [
            "identifier x", "period .", "keyword self", "binary_operator +", "identifier x", "period .", "keyword init",
        ])
    }

    func testAttributes() {
        XCTAssertEqual(lexed("@objc @available(iOS 15.0, *) @MainActor"), [
            "at_sign @", "identifier objc", "at_sign @", "identifier available", "left_paren (",
            "identifier iOS", "integer_literal 15", "period .", "integer_literal 0", "comma ,",
            "binary_operator *", "right_paren )", "at_sign @", "identifier MainActor",
        ])
    }

    func testPoundKeywordsAndMacros() {
        XCTAssertEqual(lexed("#if os(iOS)\n#elseif DEBUG\n#else\n#endif"), [
            "pound_keyword #if", "identifier os", "left_paren (", "identifier iOS", "right_paren )",
            "pound_keyword #elseif", "identifier DEBUG", "pound_keyword #else", "pound_keyword #endif",
        ])
        XCTAssertEqual(lexed("if #available(iOS 16.4.1, *) {} else if #unavailable(iOS 13) {}"), [
            "keyword if", "pound_keyword #available", "left_paren (", "identifier iOS", "integer_literal 16",
            "period .", "integer_literal 4", "period .", "integer_literal 1", "comma ,", "binary_operator *",
            "right_paren )", "left_brace {", "right_brace }", "keyword else", "keyword if",
            "pound_keyword #unavailable", "left_paren (", "identifier iOS", "integer_literal 13", "right_paren )",
            "left_brace {", "right_brace }",
        ])
        XCTAssertEqual(lexed("#selector(f) #keyPath(A.b) #file #sourceLocation() #_hasSymbol(x) #Preview"), [
            "pound #", "identifier selector", "left_paren (", "identifier f", "right_paren )",
            "pound #", "identifier keyPath", "left_paren (", "identifier A", "period .", "identifier b",
            "right_paren )", "pound #", "identifier file", "pound_keyword #sourceLocation", "left_paren (",
            "right_paren )", "pound #", "identifier _hasSymbol", "left_paren (", "identifier x", "right_paren )",
            "pound #", "identifier Preview",
        ])
        // Outside availability lists a version-looking number stays a float.
        XCTAssertEqual(lexed("#if swift(>=5.9)"), [
            "pound_keyword #if", "identifier swift", "left_paren (", "prefix_operator >=", "float_literal 5.9",
            "right_paren )",
        ])
    }

    func testContextualKeywordQuery() {
        let result = Lexer.tokenize(SourceFile(path: "a.swift", text: "get set willSet didSet override weak await x"))
        let flags = result.code.map { result.isContextualKeyword($0) }
        XCTAssertEqual(flags, [true, true, true, true, true, true, true, false])
    }
}
