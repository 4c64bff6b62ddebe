import Foundation
import XCTest
@testable import KBLint

/// The built `kblint` binary on the fixture project (Fixtures/Project, copied to a temporary
/// folder): every reporter's output against its golden file, exit codes, standard input,
/// nested configuration and suppression. After an intended change (new rules, new format),
/// regenerate with `KBLINT_RECORD_GOLDENS=1 swift test --filter KBLintTests.EndToEndTests`
/// and review the diff.
final class EndToEndTests: XCTestCase {
    static let goldens = BinaryHarness.fixtures.appendingPathComponent("ProjectGoldens")

    override func setUpWithError() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: BinaryHarness.executable.path),
                          "kblint executable not built next to the tests")
    }

    /// Output with the temporary folder's path and kblint's version replaced, so goldens do
    /// not depend on them.
    func normalized(_ text: String, root: String) -> String {
        text.replacingOccurrences(of: root, with: "$ROOT")
            .replacingOccurrences(of: "\"version\": \"\(ProjectInfo.version)\"", with: "\"version\": \"$VERSION\"")
    }

    func assertGolden(_ text: String, _ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let url = Self.goldens.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["KBLINT_RECORD_GOLDENS"] == "1" {
            try FileManager.default.createDirectory(at: Self.goldens, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
            return
        }
        let expected = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        XCTAssertEqual(text, expected, "output differs from \(name)", file: file, line: line)
    }

    func testEveryReporterMatchesItsGoldenFile() throws {
        let project = try BinaryHarness.copyFixture("Project")
        for kind in ReporterKind.allCases {
            let run = try BinaryHarness.run(["--reporter", kind.rawValue], in: project.path)
            XCTAssertEqual(run.status, 1, "\(kind): an error-severity finding fails the run")
            try assertGolden(normalized(run.standardOutput, root: project.path), "\(kind.rawValue).txt")
        }
    }

    func testOutputDoesNotDependOnTheJobCount() throws {
        let project = try BinaryHarness.copyFixture("Project")
        let one = try BinaryHarness.run(["--reporter", "json", "--jobs", "1"], in: project.path)
        for jobs in ["2", "5"] {
            let many = try BinaryHarness.run(["--reporter", "json", "--jobs", jobs], in: project.path)
            XCTAssertEqual(many.standardOutput, one.standardOutput, "--jobs \(jobs)")
            XCTAssertEqual(many.status, one.status)
        }
    }

    func testSummaryLineExitCodeAndNoProgressOutsideTerminals() throws {
        let project = try BinaryHarness.copyFixture("Project")
        let run = try BinaryHarness.run(["--reporter", "xcode", "--jobs", "3"], in: project.path)
        try assertGolden(normalized(run.standardError, root: project.path), "stderr.txt")
        XCTAssertFalse(run.standardError.contains("\r"), "no progress line when stderr is a pipe")
        let quiet = try BinaryHarness.run(["--reporter", "xcode", "--quiet"], in: project.path)
        XCTAssertEqual(quiet.standardError, "")
        XCTAssertEqual(try BinaryHarness.run(["App/Suppressions.swift"], in: project.path).status, 0, "warnings only")
    }

    func testReportersToFilesAndStandardOutputAtOnce() throws {
        let project = try BinaryHarness.copyFixture("Project")
        let run = try BinaryHarness.run(
            ["--reporter", "github", "--reporter", "sarif", "--output", "out.sarif", "--quiet"], in: project.path)
        XCTAssertEqual(normalized(run.standardOutput, root: project.path) + "",
                       String(decoding: try Data(contentsOf: Self.goldens.appendingPathComponent("github.txt")), as: UTF8.self))
        let sarif = String(decoding: try Data(contentsOf: URL(fileURLWithPath: project.path + "/out.sarif")), as: UTF8.self)
        XCTAssertEqual(normalized(sarif, root: project.path),
                       String(decoding: try Data(contentsOf: Self.goldens.appendingPathComponent("sarif.txt")), as: UTF8.self))
    }

    func testStandardInputModeReportsUnderTheGivenPath() throws {
        let project = try BinaryHarness.copyFixture("Project")
        let source = try Data(contentsOf: URL(fileURLWithPath: project.path + "/Legacy/OldKeyboard.swift"))
        let run = try BinaryHarness.run(
            ["--use-stdin", "--stdin-path", "Legacy/Edited.swift", "--reporter", "xcode", "--quiet"],
            in: project.path, standardInput: Array(source))
        XCTAssertEqual(run.status, 1, "the nested configuration makes the superfluous comment an error")
        XCTAssertTrue(run.standardOutput.hasPrefix("\(project.path)/Legacy/Edited.swift:4:"), run.standardOutput)
        // Excluded paths are honoured in stdin mode with --force-exclude (editors pass it).
        let excluded = try BinaryHarness.run(
            ["--use-stdin", "--stdin-path", "Generated/Strings.swift", "--force-exclude", "--reporter", "xcode", "--quiet"],
            in: project.path, standardInput: Array("// kblint:disable:next all\nlet x = 1\n".utf8))
        XCTAssertEqual(excluded.standardOutput, "")
        XCTAssertEqual(excluded.status, 0)
    }

    func testUsageAndIOErrorsExitTwo() throws {
        let project = try BinaryHarness.copyFixture("Project")
        let unknown = try BinaryHarness.run(["--strcit"], in: project.path)
        XCTAssertEqual(unknown.status, 2)
        XCTAssertEqual(unknown.standardError, "kblint: error: unknown option '--strcit' for 'kblint lint'; did you mean '--strict'? See 'kblint lint --help'.\n")
        let missing = try BinaryHarness.run(["App", "Missing", "--reporter", "xcode", "--quiet"], in: project.path)
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.standardOutput.contains("App/Suppressions.swift"), "other paths are still linted")
        XCTAssertEqual(missing.standardError, "kblint: error: Missing: no such file or directory\n")
        try "rules: [".write(toFile: project.path + "/.kblint.yml", atomically: true, encoding: .utf8)
        let broken = try BinaryHarness.run([], in: project.path)
        XCTAssertEqual(broken.status, 2)
        XCTAssertEqual(broken.standardError, ".kblint.yml:1:8: error: '[' is never closed\n")
        let version = try BinaryHarness.run(["--version"], in: project.path)
        XCTAssertEqual(version.standardOutput, "\(ProjectInfo.version)\n")
    }

    /// `--diff` and `--fix` agree, write only through `--fix`, and a second `--fix` finds
    /// nothing left to change. (In-process tests with a test rule cover CRLF, BOM and
    /// permissions; this runs the shipped rules.)
    func testFixRoundTripWithTheBinary() throws {
        let project = try BinaryHarness.copyFixture("Project")
        let files = ["App/ChatViewController.swift", "App/Suppressions.swift", "App/Latin1.swift", "Legacy/OldKeyboard.swift"]
        let before = try files.map { try project.read($0) }
        let diff = try BinaryHarness.run(["--diff"], in: project.path)
        XCTAssertEqual(try files.map { try project.read($0) }, before, "--diff writes nothing")
        try assertGolden(normalized(diff.standardOutput, root: project.path), "diff.txt")

        let fix = try BinaryHarness.run(["--fix", "--reporter", "xcode"], in: project.path)
        let changed = try zip(files, before).filter { try project.read($0.0) != $0.1 }.map(\.0)
        XCTAssertEqual(changed.isEmpty, diff.standardOutput.isEmpty, "--fix changes files exactly when --diff shows changes")
        XCTAssertEqual(diff.status, diff.standardOutput.isEmpty ? 0 : 1)
        let again = try BinaryHarness.run(["--diff"], in: project.path)
        XCTAssertEqual(again.standardOutput, "", "after --fix nothing is left to fix")
        XCTAssertEqual(again.status, 0)
        XCTAssertTrue(fix.standardError.contains("Fixed "), fix.standardError)
    }

    /// A shipped rule's fix through the binary on a CRLF file with a byte order mark and
    /// restrictive permissions: all three survive, and a second run changes nothing.
    func testBinaryFixKeepsCRLFBOMAndPermissions() throws {
        let tree = try TemporaryDirectory()
        let lines = [
            "import UIKit",
            "final class NotesViewController: UIViewController {",
            "    let textView = UITextView()",
            "    @objc func keyboardWillHide(_ notification: Notification) {",
            "        textView.contentInset = .zero",
            "    }",
            "}",
        ]
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let path = try tree.write("Notes.swift", bytes: bom + Array((lines.joined(separator: "\r\n") + "\r\n").utf8))
        XCTAssertEqual(chmod(path, 0o600), 0)
        let fix = try BinaryHarness.run(["--fix", "--reporter", "xcode"], in: tree.path)
        XCTAssertTrue(fix.standardError.contains("Fixed 1 finding ("), fix.standardError)
        var expected = lines
        expected[4] = "        textView.contentInset.bottom = 0"
        XCTAssertEqual(try tree.read("Notes.swift"), bom + Array((expected.joined(separator: "\r\n") + "\r\n").utf8))
        var info = stat()
        XCTAssertEqual(stat(path, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600)
        let again = try BinaryHarness.run(["--fix", "--reporter", "xcode"], in: tree.path)
        XCTAssertTrue(again.standardError.contains("Fixed 0 findings in 0 files."), again.standardError)
        XCTAssertEqual(try tree.read("Notes.swift"), bom + Array((expected.joined(separator: "\r\n") + "\r\n").utf8))
    }
}
