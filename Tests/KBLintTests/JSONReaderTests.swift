import XCTest
@testable import KBLint

final class JSONReaderTests: XCTestCase {
    func read(_ text: String) throws -> JSONValue { try JSONReader.value(of: Array(text.utf8)) }

    /// The error reading `bytes` gives, or a failure when it is read.
    func syntaxError(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> JSONReader.SyntaxError? {
        do {
            let value = try JSONReader.value(of: bytes)
            XCTFail("read \(String(decoding: bytes.prefix(80), as: UTF8.self)) as \(value)", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    func syntaxError(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> JSONReader.SyntaxError? {
        syntaxError(Array(text.utf8), file: file, line: line)
    }

    func testDocumentsKeepStructureAndMemberOrder() throws {
        XCTAssertEqual(
            try read(" {\"b\": [1, -2, {\"c\": null}], \"a\": {}, \"e\": [], \"t\": true, \"f\": false, \"s\": \"x\"}\r\n\t"),
            .object([
                ("b", .array([.int(1), .int(-2), .object([("c", .null)])])),
                ("a", .object([])), ("e", .array([])), ("t", .bool(true)), ("f", .bool(false)), ("s", .string("x")),
            ]))
        XCTAssertEqual(try read("\"top\""), .string("top"))
        XCTAssertEqual(try read("null"), .null)
        XCTAssertEqual(try read("[[[]]]"), .array([.array([.array([])])]))
        XCTAssertEqual(try read("{\"\": \"\"}"), .object([("", .string(""))]))
    }

    func testRepeatedMembersAreKeptAndTheLastOneIsLookedUp() throws {
        let object = try read("{\"k\": 1, \"other\": 2, \"k\": 3}")
        XCTAssertEqual(object, .object([("k", .int(1)), ("other", .int(2)), ("k", .int(3))]))
        XCTAssertEqual(object[member: "k"], .int(3))
        XCTAssertNil(object[member: "missing"])
        XCTAssertNil(JSONValue.array([])[member: "k"])
    }

    func testEveryEscape() throws {
        XCTAssertEqual(
            try read(#""\"\\\/\b\f\n\r\t\u0041\u00e9\u20AC\u0000\u001F""#),
            .string("\"\\/\u{08}\u{0C}\n\r\tAé€\u{00}\u{1F}"))
        XCTAssertEqual(try read(#""plain \u0061nd escaped""#), .string("plain and escaped"))
        for bad in [#""\x""#, #""\U0041""#, #""\'""#, #""\u12G4""#, #""\u""#] {
            XCTAssertNotNil(syntaxError(bad), bad)
        }
        XCTAssertEqual(syntaxError(#"["ok", "\q"]"#)?.description, "line 1, column 9: invalid escape '\\q'")
    }

    func testSurrogatePairsMakeOneScalarAndLoneSurrogatesAreRefused() throws {
        XCTAssertEqual(try read(#""\uD83D\uDE00""#), .string("😀"))
        XCTAssertEqual(try read(#""\ud83d\ude00 \uDBFF\uDFFF""#), .string("😀 \u{10FFFF}"))
        for lone in [#""\uD83D""#, #""\uD83Dx""#, #""\uDE00""#, #""\uD83D\u0041""#, #""\uD83D\uD83D""#, #""\uDE00\uD83D""#] {
            XCTAssertEqual(syntaxError(lone)?.reason.hasPrefix("unpaired surrogate"), true, lone)
        }
    }

    func testNumbers() throws {
        let cases: [(String, JSONValue)] = [
            ("0", .int(0)), ("-0", .int(0)), ("123", .int(123)), ("-45", .int(-45)),
            ("9223372036854775807", .int(Int.max)), ("-9223372036854775808", .int(Int.min)),
            ("9223372036854775808", .double(9223372036854775808)),
            ("1.5", .double(1.5)), ("-0.25", .double(-0.25)), ("1.0", .double(1)),
            ("1e3", .double(1000)), ("1E+3", .double(1000)), ("2.5e-3", .double(0.0025)), ("0e0", .double(0)),
            ("1e308", .double(1e308)), ("5e-324", .double(.leastNonzeroMagnitude)),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(try read(text), expected, text)
            XCTAssertEqual(try read("[\(text)]"), .array([expected]), text)
        }
        for invalid in ["01", "-01", "+1", ".5", "1.", "-", "1e", "1e+", "0x10", "NaN", "Infinity", "-Infinity", "1.e3", "--1", "1 2"] {
            XCTAssertNotNil(syntaxError(invalid), invalid)
        }
        XCTAssertEqual(syntaxError("[1e400]")?.description, "line 1, column 2: number 1e400 is out of range")
        XCTAssertEqual(syntaxError("[-]")?.description, "line 1, column 3: expected a digit after '-', found ']'")
    }

    func testTrailingCommasAndOtherExtensionsAreRefused() {
        XCTAssertEqual(syntaxError("[1, 2,]")?.description, "line 1, column 6: trailing comma before ']'")
        XCTAssertEqual(syntaxError("{\"a\": 1,\n}")?.description, "line 1, column 8: trailing comma before '}'")
        for text in ["[,1]", "[1,,2]", "{,}", "[1 2]", "{\"a\" 1}", "{\"a\": 1 \"b\": 2}", "{a: 1}", "{'a': 1}", "['a']",
                     "[1] // comment", "/* c */ 1", "True", "nul", "[true false]", "{\"a\":}", "[\"a\": 1]"] {
            XCTAssertNotNil(syntaxError(text), text)
        }
    }

    func testDeepNestingIsAnErrorNotAStackOverflow() throws {
        let deepest = String(repeating: "[", count: JSONReader.maximumDepth) + String(repeating: "]", count: JSONReader.maximumDepth)
        XCTAssertNoThrow(try read(deepest))
        let tooDeep = "[" + deepest + "]"
        XCTAssertEqual(syntaxError(tooDeep)?.reason, "nested more than 512 levels deep")
        let brackets = syntaxError(String(repeating: "[", count: 10_000))
        XCTAssertEqual(brackets?.column, 513)
        XCTAssertEqual(brackets?.reason, "nested more than 512 levels deep")
        XCTAssertEqual(syntaxError(String(repeating: "{\"k\":", count: 10_000))?.reason, "nested more than 512 levels deep")
    }

    func testTruncatedInput() {
        let cases: [(String, String)] = [
            ("", "line 1, column 1: expected a value, found the end of the input"),
            ("  \n ", "line 2, column 2: expected a value, found the end of the input"),
            ("[", "line 1, column 2: expected a value, found the end of the input"),
            ("[1", "line 1, column 3: expected ',' or ']', found the end of the input"),
            ("{", "line 1, column 2: expected a member name in double quotes, found the end of the input"),
            ("{\"a\"", "line 1, column 5: expected ':' after the member name, found the end of the input"),
            ("{\"a\":", "line 1, column 6: expected a value, found the end of the input"),
            ("\"abc", "line 1, column 1: string not closed"),
            ("\"abc\\", "line 1, column 5: string not closed"),
            ("\"\\u12", "line 1, column 2: \\u needs four hex digits"),
            ("tru", "line 1, column 1: expected a value, found 't'"),
            ("1.", "line 1, column 3: expected a digit after '.', found the end of the input"),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(syntaxError(text)?.description, expected, text)
        }
    }

    func testErrorsNameLineAndCharacterColumn() {
        XCTAssertEqual(syntaxError("{\n  \"a\": 1,\n  \"b\": ]\n}")?.description, "line 3, column 8: expected a value, found ']'")
        XCTAssertEqual(syntaxError("[\"é😀\", x]")?.description, "line 1, column 8: expected a value, found 'x'")
        XCTAssertEqual(syntaxError("{} {}")?.description, "line 1, column 4: expected the end of the input after the value, found '{'")
        XCTAssertEqual(syntaxError("[\"a\nb\"]")?.description, "line 1, column 4: control character U+000A in a string; write it as an escape")
    }

    func testUTF8IsCheckedAndAByteOrderMarkIsSkipped() throws {
        XCTAssertEqual(try read("\"é€😀\""), .string("é€😀"))
        XCTAssertEqual(try JSONReader.value(of: [0xEF, 0xBB, 0xBF] + Array("{\"a\": 1}".utf8)), .object([("a", .int(1))]))
        // Columns on line 1 are counted after the mark, as editors show them.
        XCTAssertEqual(syntaxError([0xEF, 0xBB, 0xBF] + Array("[x]".utf8))?.description, "line 1, column 2: expected a value, found 'x'")
        // Only at the start, and only once.
        XCTAssertNotNil(syntaxError([0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array("1".utf8)))
        XCTAssertNotNil(syntaxError([0x20, 0xEF, 0xBB, 0xBF] + Array("1".utf8)))
        let invalid: [[UInt8]] = [
            [0x22, 0xFF, 0x22],  // not a UTF-8 byte
            [0x22, 0xC0, 0xAF, 0x22],  // overlong "/"
            [0x22, 0xED, 0xA0, 0x80, 0x22],  // an encoded surrogate
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // above U+10FFFF
            [0x22, 0xE2, 0x82, 0x22],  // truncated sequence
            [0x22, 0x80, 0x22],  // a lone continuation byte
        ]
        for bytes in invalid {
            XCTAssertEqual(syntaxError(bytes)?.description, "line 1, column 2: invalid UTF-8", "\(bytes)")
        }
        // UTF-16 (here with its byte order mark) is not UTF-8.
        XCTAssertEqual(syntaxError([0xFF, 0xFE, 0x7B, 0x00, 0x7D, 0x00])?.reason, "expected a value, found invalid UTF-8 (byte 0xFF)")
    }

    /// Whatever the writer writes, the reader reads back unchanged.
    func testReadsWhatTheWriterWrites() throws {
        let every = String(String.UnicodeScalarView((0..<0x80).compactMap(Unicode.Scalar.init))) + "é€😀\u{2028}\u{FEFF}"
        let value = JSONValue.object([
            ("text", .string(every)), ("list", [1, -7, "a", true, .null]), ("empty", .object([])),
            ("fraction", .double(0.1)), ("large", .double(1e300)), ("tiny", .double(-.leastNonzeroMagnitude)),
        ])
        XCTAssertEqual(try read(value.rendered()), value)
    }
}
