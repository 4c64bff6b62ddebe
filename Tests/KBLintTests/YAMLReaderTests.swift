import XCTest
import Lexer
@testable import KBLint

final class YAMLReaderTests: XCTestCase {
    private func read(_ text: String) throws -> YAMLNode? {
        try YAMLReader.read(text, path: "test.yml")
    }

    private func readError(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> ConfigurationError? {
        do {
            let node = try YAMLReader.read(text, path: "test.yml")
            XCTFail("expected an error, read \(String(describing: node))", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    /// A plain-Swift picture of a node, so tests can compare whole documents at once.
    private func shape(_ node: YAMLNode?) -> String {
        guard let node else { return "nil" }
        switch node.content {
        case .scalar(let scalar):
            return scalar.style == .plain ? scalar.text : "'\(scalar.text)'"
        case .sequence(let items):
            return "[" + items.map(shape).joined(separator: ", ") + "]"
        case .mapping(let entries):
            return "{" + entries.map { "\($0.key): \(shape($0.value))" }.joined(separator: ", ") + "}"
        }
    }

    func testEmptyDocumentsHaveNoRoot() throws {
        XCTAssertNil(try read(""))
        XCTAssertNil(try read("\n\n# only a comment\n   \n"))
    }

    func testBlockMappingsAndSequences() throws {
        let text = """
        # kblint
        included:
          - Sources
          - "App Sources"
        excluded:
        - Pods   # same indentation as the key is allowed
        - 'Vendor/**'
        strict: true
        rules:
          keyboard_duration_hardcoded:
            severity: error
            check_fallbacks: true
          other: {severity: off}
        empty:
        """
        XCTAssertEqual(
            shape(try read(text)),
            "{included: [Sources, 'App Sources'], excluded: [Pods, 'Vendor/**'], strict: true, "
                + "rules: {keyboard_duration_hardcoded: {severity: error, check_fallbacks: true}, "
                + "other: {severity: off}}, empty: }"
        )
    }

    func testCompactNestedCollections() throws {
        XCTAssertEqual(shape(try read("- a: 1\n  b: 2\n- - x\n  - y\n-\n  z: 3\n-\n")), "[{a: 1, b: 2}, [x, y], {z: 3}, ]")
    }

    func testFlowCollectionsMaySpanLines() throws {
        let text = """
        list: [a, 'b c', "d",]
        map: {
          x: [1, 2],   # comment
          y: {},
          z:
        }
        empty: []
        """
        XCTAssertEqual(shape(try read(text)), "{list: [a, 'b c', 'd'], map: {x: [1, 2], y: {}, z: }, empty: []}")
    }

    func testScalarsKeepTheirTextAndStyle() throws {
        let node = try XCTUnwrap(try read("a: 15.0\nb: '15.0'\nc: off\nd: -1\ne: a:b\nf: x # note\ng: it's\n"))
        let entries = try XCTUnwrap(node.mapping)
        let scalars = entries.compactMap(\.value.scalar)
        XCTAssertEqual(scalars.map(\.text), ["15.0", "15.0", "off", "-1", "a:b", "x", "it's"])
        XCTAssertEqual(scalars[0].double, 15.0)
        XCTAssertNil(scalars[1].double, "a quoted number is a string")
        XCTAssertTrue(scalars[2].isString, "YAML 1.2: off is a string, not false")
        XCTAssertEqual(scalars[3].int, -1)
    }

    func testQuotedScalarEscapes() throws {
        let node = try read(#"['it''s', "tab\there", "quote\" slash\\ \u00e9 \x41 \U0001F600 \/", '\n']"#)
        XCTAssertEqual(node?.sequence?.compactMap(\.scalar?.text), ["it's", "tab\there", "quote\" slash\\ é A 😀 /", "\\n"])
    }

    func testNodesCarryLineAndColumn() throws {
        let node = try XCTUnwrap(try read("a:\n  - x\n  - {k: v}\nb: 'q'\n"))
        let entries = try XCTUnwrap(node.mapping)
        XCTAssertEqual(node.location, SourceLocation(line: 1, column: 1))
        XCTAssertEqual(entries[0].keyLocation, SourceLocation(line: 1, column: 1))
        XCTAssertEqual(entries[0].value.location, SourceLocation(line: 2, column: 3))
        let items = try XCTUnwrap(entries[0].value.sequence)
        XCTAssertEqual(items[0].location, SourceLocation(line: 2, column: 5))
        XCTAssertEqual(items[1].location, SourceLocation(line: 3, column: 5))
        XCTAssertEqual(items[1].mapping?.first?.value.location, SourceLocation(line: 3, column: 9))
        XCTAssertEqual(entries[1].keyLocation, SourceLocation(line: 4, column: 1))
        XCTAssertEqual(entries[1].value.location, SourceLocation(line: 4, column: 4))
    }

    func testCRLFAndByteOrderMark() throws {
        XCTAssertEqual(shape(try read("\u{FEFF}a: 1\r\nb:\r\n  - c\r\n")), "{a: 1, b: [c]}")
    }

    func testErrorsPrintLikeCompilerDiagnostics() {
        let error = readError("a: 1\nb: [1, 2\n")
        XCTAssertEqual(error?.description, "test.yml:2:4: error: '[' is never closed")
    }

    func testConstructsOutsideTheSubsetAreNamed() {
        let cases: [(String, SourceLocation, String)] = [
            ("a: &x 1", SourceLocation(line: 1, column: 4), "anchors"),
            ("a: *x", SourceLocation(line: 1, column: 4), "aliases"),
            ("excluded:\n  - *.swift", SourceLocation(line: 2, column: 5), "quote values that start with '*'"),
            ("a: !!str 1", SourceLocation(line: 1, column: 4), "tags"),
            ("a: |\n  text", SourceLocation(line: 1, column: 4), "block scalars"),
            ("a: >\n  text", SourceLocation(line: 1, column: 4), "block scalars"),
            ("a: 1\n---\nb: 2", SourceLocation(line: 2, column: 1), "document markers"),
            ("---\na: 1", SourceLocation(line: 1, column: 1), "document markers"),
            ("a: 1\n...", SourceLocation(line: 2, column: 1), "document markers"),
            ("%YAML 1.2\na: 1", SourceLocation(line: 1, column: 1), "directives"),
            ("a:\n\tb: 1", SourceLocation(line: 2, column: 1), "tabs"),
            ("a: 1\na: 2", SourceLocation(line: 2, column: 1), "duplicate key 'a'"),
            ("m: {a: 1, a: 2}", SourceLocation(line: 1, column: 11), "duplicate key 'a'"),
            ("? a\n: b", SourceLocation(line: 1, column: 1), "explicit keys"),
            ("[a]: b", SourceLocation(line: 1, column: 1), "complex keys"),
            ("a: 'open", SourceLocation(line: 1, column: 4), "unterminated string"),
            ("a: \"open\nb: c\"", SourceLocation(line: 1, column: 4), "unterminated string"),
            ("a: \"\\q\"", SourceLocation(line: 1, column: 5), "unknown escape sequence '\\q'"),
            ("a: \"\\uD800\"", SourceLocation(line: 1, column: 11), "not a Unicode scalar"),
            ("a: b: c", SourceLocation(line: 1, column: 5), "a mapping cannot start on the line of its key"),
            ("a: - b", SourceLocation(line: 1, column: 4), "a list cannot start on the line of its key"),
            ("a: 1\n  b: 2", SourceLocation(line: 2, column: 3), "unexpected indentation"),
            ("a: x\n  continued", SourceLocation(line: 2, column: 3), "unexpected indentation"),
            ("a:\n  - x\n  y: 1", SourceLocation(line: 3, column: 3), "expected '- '"),
            ("a: 1\n- b", SourceLocation(line: 2, column: 1), "expected a key, found a list entry"),
            ("  a: 1\nb: 2", SourceLocation(line: 2, column: 1), "unexpected content after the end of the document"),
            ("a: ['x' 'y']", SourceLocation(line: 1, column: 9), "expected ',' or ']'"),
            ("a: [1, , 2]", SourceLocation(line: 1, column: 8), "expected a value before ','"),
            ("a: [x: 1]", SourceLocation(line: 1, column: 6), "'key: value' pairs inside [ ]"),
            ("a: {x}", SourceLocation(line: 1, column: 6), "expected ':' after the key 'x'"),
            ("a: [1}", SourceLocation(line: 1, column: 6), "expected ',' or ']'"),
            ("a: ]", SourceLocation(line: 1, column: 4), "expected a value"),
            ("a: [1] x", SourceLocation(line: 1, column: 8), "unexpected text after the value"),
            ("a: 'x'#c", SourceLocation(line: 1, column: 7), "put a space before '#'"),
            ("a\nb", SourceLocation(line: 2, column: 1), "unexpected content after the end of the document"),
            ("key", SourceLocation(line: 1, column: 1), ""),
            ("a: 1\u{7}", SourceLocation(line: 1, column: 5), "control character U+0007"),
            ("a: 1\rb: 2", SourceLocation(line: 1, column: 5), "carriage return"),
        ]
        for (text, location, message) in cases {
            if message.isEmpty {
                XCTAssertNoThrow(try read(text), text)
                continue
            }
            guard let error = readError(text) else { continue }
            XCTAssertEqual(error.location, location, "\(text): \(error)")
            XCTAssertTrue(error.message.contains(message), "\(text): \(error)")
            XCTAssertTrue(error.description.hasPrefix("test.yml:\(location.line):\(location.column): error: "), "\(error)")
        }
    }

    func testInvalidUTF8IsAnErrorAtItsPosition() {
        XCTAssertThrowsError(try YAMLReader.read([0x61, 0x3A, 0x20, 0x0A, 0x62, 0x3A, 0x20, 0xC3, 0x28], path: "t.yml")) { error in
            XCTAssertEqual((error as? ConfigurationError)?.description, "t.yml:2:4: error: the file is not valid UTF-8")
        }
    }

    func testDeepNestingIsAnErrorNotACrash() {
        for text in [
            String(repeating: "[", count: 100_000),
            String(repeating: "{a: ", count: 10_000),
            String(repeating: "- ", count: 10_000) + "x",
            (0..<200).map { String(repeating: " ", count: $0) + "k:" }.joined(separator: "\n"),
        ] {
            let error = readError(text)
            XCTAssertTrue(error?.message.contains("nesting deeper than") ?? false, "\(String(describing: error))")
        }
        XCTAssertNoThrow(try read(String(repeating: "[", count: 30) + String(repeating: "]", count: 30)))
    }

    /// Reading must stay linear: an accidental copy of a growing list per line once made a
    /// 50,000-line list take many seconds. The bound is loose so a busy machine passes.
    func testLargeDocumentsReadInLinearTime() throws {
        var text = "excluded:\n"
        for index in 0..<50_000 { text += "  - \"Folder\(index)/**/x\"\n" }
        text += "rules: {" + (0..<20_000).map { "k\($0): [\($0), {a: b}]" }.joined(separator: ", ") + "}\n"
        let clock = ContinuousClock()
        let start = clock.now
        let node = try read(text)
        XCTAssertLessThan(clock.now - start, .seconds(8))
        XCTAssertEqual(node?.mapping?.first?.value.sequence?.count, 50_000)
        XCTAssertEqual(node?.mapping?.last?.value.mapping?.count, 20_000)
    }

    /// Mutations of a valid document: every one must end in a node or a located error,
    /// never in a trap or a hang.
    func testMutatedDocumentsNeverTrap() {
        let seed = Array("""
        included: [Sources, "A\\tB"]
        excluded:
          - Pods # c
          - 'x''y'
        rules:
          r: {severity: off, n: [1, {a: b}]}
          - q: 1
        """.utf8)
        let alphabet = Array("-:#[]{},'\"\\ \t\n\r&*!|>?%@`ab1.".utf8) + [0xC3, 0xFF, 0x00]
        var generator = SplitMix(seed: 42)
        for _ in 0..<3_000 {
            var bytes = seed
            for _ in 0..<Int(generator.next() % 4 + 1) {
                let position = Int(generator.next() % UInt64(bytes.count + 1))
                let byte = alphabet[Int(generator.next() % UInt64(alphabet.count))]
                switch generator.next() % 3 {
                case 0: bytes.insert(byte, at: position)
                case 1 where position < bytes.count: bytes[position] = byte
                default: if position < bytes.count { bytes.remove(at: position) }
                }
            }
            do {
                _ = try YAMLReader.read(bytes, path: "fuzz.yml")
            } catch {
                XCTAssertNotNil(error.location, "\(error)")
                XCTAssertTrue(error.description.hasPrefix("fuzz.yml:"))
            }
        }
    }
}

/// A small deterministic generator so the mutation test is the same on every run.
private struct SplitMix {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
