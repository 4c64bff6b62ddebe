import Foundation
import XCTest
@testable import Lexer

final class TokenDumpTests: XCTestCase {
    func testFormatAndEscaping() {
        let source = Lexer.tokenize(SourceFile(path: "a.swift", text: "let s = \"a\\\\b\tc\" // é\r\n  x"))
        XCTAssertEqual(dumpTokens(source, includeComments: true), """
        1\t1\tkeyword\tlet
        1\t5\tidentifier\ts
        1\t7\tequal\t=
        1\t9\tstring_quote\t"
        1\t10\tstring_segment\ta\\\\\\\\b\\tc
        1\t16\tstring_quote\t"
        1\t18\tcomment_line\t// é
        2\t3\tidentifier\tx

        """)
        XCTAssertFalse(dumpTokens(source, includeComments: false).contains("comment"))
    }

    func testMultiLineTokensEscapeLineBreaks() {
        let source = Lexer.tokenize(SourceFile(path: "a.swift", text: "\"\"\"\r\na\r\n\"\"\""))
        XCTAssertEqual(dumpTokens(source, includeComments: false), """
        1\t1\tstring_quote\t\"\"\"
        1\t4\tstring_segment\t\\r\\na\\r\\n
        3\t1\tstring_quote\t\"\"\"

        """)
    }

    func testEveryKindHasADistinctDocumentedName() {
        let names = TokenKind.allCases.map(\.dumpName)
        XCTAssertEqual(Set(names).count, names.count)
        for name in names {
            XCTAssertTrue(name.allSatisfy { $0.isLowercase || $0 == "_" }, name)
        }
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        guard let text = try? String(contentsOf: readme, encoding: .utf8) else { return XCTFail("README.md missing") }
        for name in names {
            XCTAssertTrue(text.contains("`\(name)`"), "README does not document \(name)")
        }
    }

    /// Golden dumps of realistic files. Set KBLINT_UPDATE_GOLDENS=1 to rewrite them after an
    /// intended change, then review the diff.
    func testGoldenDumps() throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        let names = try FileManager.default.contentsOfDirectory(atPath: fixtures.path)
            .filter { $0.hasSuffix(".swift") }.sorted()
        XCTAssertGreaterThanOrEqual(names.count, 3)
        let update = ProcessInfo.processInfo.environment["KBLINT_UPDATE_GOLDENS"] == "1"
        for name in names {
            let source = fixtures.appendingPathComponent(name)
            let golden = source.deletingPathExtension().appendingPathExtension("tokens")
            let bytes = [UInt8](try Data(contentsOf: source))
            let dump = dumpTokens(Lexer.tokenize(SourceFile(path: name, bytes: bytes)), includeComments: true)
            if update {
                try Data(dump.utf8).write(to: golden)
                continue
            }
            let expected = try String(contentsOf: golden, encoding: .utf8)
            if dump != expected {
                let got = dump.split(separator: "\n", omittingEmptySubsequences: false)
                let want = expected.split(separator: "\n", omittingEmptySubsequences: false)
                let line = (0..<min(got.count, want.count)).first { got[$0] != want[$0] } ?? min(got.count, want.count)
                XCTFail("\(name): dump differs at line \(line + 1): got \(line < got.count ? got[line] : "<end>"), "
                        + "expected \(line < want.count ? want[line] : "<end>")")
            }
        }
    }
}
