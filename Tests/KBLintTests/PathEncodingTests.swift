import Foundation
import XCTest
@testable import KBLint
@testable import Rules

/// File names that are not UTF-8, or that hold control characters: opened as named, shown
/// escaped.
final class PathEncodingTests: XCTestCase {
    /// `caf\xE9.swift`: Latin-1, not UTF-8.
    static let latin1Name: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".swift".utf8)

    func testDecodingAndEncodingAreExactInverses() {
        var generator = SystemRandomNumberGenerator()
        let interesting: [UInt8] = [0x2F, 0x41, 0x80, 0xBF, 0xC0, 0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xED, 0xA0, 0xF0, 0xF4, 0x8F, 0xBC, 0xFF]
        for _ in 0..<2000 {
            let bytes = (0..<Int.random(in: 0...12, using: &generator)).map { _ in interesting.randomElement(using: &generator)! }
            XCTAssertEqual(PathEncoding.bytes(PathEncoding.decode(bytes)), bytes, "\(bytes)")
        }
        // A name that really holds one of the escape scalars keeps its bytes too.
        let escapeScalar = Array("\u{10FF41}".utf8)
        XCTAssertEqual(PathEncoding.bytes(PathEncoding.decode(escapeScalar)), escapeScalar)
        XCTAssertEqual(PathEncoding.decode(Array("Ünïcode 表.swift".utf8)), "Ünïcode 表.swift")
    }

    func testDisplayEscapesBytesAndControlCharacters() {
        XCTAssertEqual(PathEncoding.display(PathEncoding.decode(Self.latin1Name)), "caf\\xE9.swift")
        XCTAssertEqual(PathEncoding.display("a\u{1B}[31mb\nc\\d.swift"), "a\\x1B[31mb\\nc\\\\d.swift")
        XCTAssertEqual(PathEncoding.display("plain/Ünï code.swift"), "plain/Ünï code.swift")
    }

    func makeFile(_ folder: String, name: [UInt8], _ text: String) throws {
        let path = Array(folder.utf8) + [0x2F] + name
        let descriptor = (path.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer {
            open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        _ = Array(text.utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
    }

    func read(_ folder: String, name: [UInt8]) -> [UInt8]? {
        try? FileSystem.readFile(PathEncoding.decode(Array(folder.utf8) + [0x2F] + name))
    }

    /// The reproduction: the name became U+FFFD and opening it failed.
    func testFileNamedInLatin1IsLintedFixedAndShownEscaped() throws {
        #if os(macOS)
        throw XCTSkip("APFS and HFS+ refuse names that are not UTF-8")
        #else
        let tree = try TemporaryDirectory()
        try makeFile(tree.path, name: Self.latin1Name, "let forbidden = 1\n")
        let run = runTool(["--fix", "--reporter", "xcode", "."], in: tree.path)
        XCTAssertFalse(run.standardError.contains("No such file"), run.standardError)
        XCTAssertTrue(run.standardError.contains("Fixed 1 finding ("), run.standardError)
        XCTAssertTrue(run.standardError.contains(") in 1 file."), run.standardError)
        XCTAssertEqual(read(tree.path, name: Self.latin1Name), Array("let allowed = 1\n".utf8))
        try makeFile(tree.path, name: Self.latin1Name, "let forbidden = 1\n")
        let report = runTool(["--reporter", "xcode", "."], in: tree.path)
        XCTAssertTrue(report.standardOutput.hasPrefix("\(tree.path)/caf\\xE9.swift:1:5: warning:"), report.standardOutput)
        #endif
    }

    func testStagedFileNamedInLatin1IsReadFromTheIndexAndShownEscaped() throws {
        #if os(macOS)
        throw XCTSkip("APFS and HFS+ refuse names that are not UTF-8")
        #else
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: BinaryHarness.executable.path),
                          "kblint executable not built next to the tests")
        let repository = try GitSandbox()
        try makeFile(repository.path, name: Self.latin1Name, "// kblint:disable:next some_rule\nlet a = 1\n")
        try repository.git("add", ".")
        let run = try BinaryHarness.run(["--staged", "--reporter", "xcode"], in: repository.path, environment: GitSandbox.environment)
        XCTAssertEqual(run.standardOutput,
                       "\(repository.path)/caf\\xE9.swift:1:24: warning: 'some_rule' is not a kblint rule id (superfluous_disable_command)\n",
                       run.standardError)
        #endif
    }

    /// A file name that would recolor the terminal or start a new line reaches no reporter raw.
    func testControlCharactersInFileNamesAreEscapedByEveryLineReporter() throws {
        let tree = try TemporaryDirectory()
        try tree.write("evil\u{1B}]0;title\u{07}\n::error file=x::.swift", "let forbidden = 1\n")
        for reporter in ["pretty", "xcode", "github"] {
            let run = runTool(["--reporter", reporter, "."], in: tree.path)
            XCTAssertEqual(run.status, 0, run.standardError)
            XCTAssertFalse(run.standardOutput.contains("\u{1B}"), "\(reporter): \(run.standardOutput)")
            XCTAssertFalse(run.standardOutput.contains("\u{07}"), "\(reporter): \(run.standardOutput)")
            XCTAssertTrue(run.standardOutput.contains("evil\\x1B]0;title\\x07\\n"), "\(reporter): \(run.standardOutput)")
            XCTAssertEqual(run.standardOutput.split(separator: "\n").filter { $0.contains("evil") }.count,
                           1, "\(reporter): one line per finding")
        }
    }
}
