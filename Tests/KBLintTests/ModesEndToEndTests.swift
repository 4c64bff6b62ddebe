import Foundation
import XCTest
@testable import KBLint

/// The same file gets the same findings whichever way it is linted: every mode takes its
/// facts from the whole project (the superclass chain of one file and the extension that
/// removes another's observer live in files that are not linted) and respects `excluded`
/// for those facts.
final class ModesEndToEndTests: XCTestCase {
    static let form = "Screens/AddressFormViewController.swift"
    static let settings = "Settings/SettingsViewController.swift"

    override func setUpWithError() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: BinaryHarness.executable.path),
                          "kblint executable not built next to the tests")
    }

    /// A repository whose two checked files depend on facts declared in other files (the
    /// project `FactScopeTests` checks the selective first pass with).
    func makeProject() throws -> GitSandbox {
        let project = try GitSandbox()
        try FactScopeTests.writeProjectWithFactsInPlainFiles(project.folder)
        try project.git("add", "-A")
        try project.git("commit", "-q", "-m", "Project")
        return project
    }

    func kblint(_ arguments: [String], in directory: String, standardInput: [UInt8] = []) throws -> [String] {
        let result = try BinaryHarness.run(
            ["--reporter", "xcode", "--quiet"] + arguments, in: directory, standardInput: standardInput,
            environment: GitSandbox.environment)
        XCTAssertTrue([0, 1].contains(result.status), "\(arguments): \(result.standardError)")
        XCTAssertEqual(result.standardError, "", "\(arguments)")
        // Sorted: reports order findings by their displayed path, which differs from a sub-folder.
        return result.standardOutput.split(separator: "\n").map(String.init).sorted()
    }

    /// Each mode's findings for both checked files, by mode.
    func findingsInEveryMode(_ project: GitSandbox) throws -> [String: [String]] {
        let root = project.path
        let files = [Self.form, Self.settings]
        var byMode: [String: [String]] = [:]
        byMode["folder"] = try kblint(["."], in: root).filter { line in files.contains { line.hasPrefix("\(root)/\($0):") } }
        byMode["files"] = try kblint(files, in: root)
        byMode["files from a sub-folder"] = try kblint(files.map { "../" + $0 }, in: root + "/Screens")
        try project.write("list.txt", files.joined(separator: "\n") + "\n")
        byMode["file list"] = try kblint(["--file-list", "list.txt"], in: root)
        var stdin: [String] = []
        for file in files {
            let bytes = Array(try String(contentsOfFile: root + "/" + file, encoding: .utf8).utf8)
            stdin += try kblint(["--use-stdin", "--stdin-path", file], in: root, standardInput: bytes)
        }
        byMode["stdin"] = stdin.sorted()
        // What the build-tool plugin runs for a target holding the two files.
        byMode["build-tool plugin"] = try kblint(["--force-exclude", "--"] + files.map { root + "/" + $0 }, in: root)

        // Edits after the last line keep every position: the same findings are expected.
        for file in files {
            let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
            try project.write(file, text + "// Edited.\n")
        }
        byMode["since"] = try kblint(["--since", "HEAD"], in: root)
        try project.git("add", "-A")
        // The work tree's version of a fact file differs from the index's: unstaged edits of
        // other files are what --staged reads for their facts.
        byMode["staged"] = try kblint(["--staged"], in: root)
        return byMode
    }

    func testEveryModeGetsTheWholeProjectsFacts() throws {
        let project = try makeProject()
        let byMode = try findingsInEveryMode(project)
        let expected = try XCTUnwrap(byMode["folder"])
        // The superclass chain in Base/ makes the form a table view controller; the extension
        // in Settings/ removes the settings observer.
        XCTAssertEqual(expected.count, 1, "\(expected)")
        XCTAssertTrue(expected[0].contains("keyboard_insets_in_table_view_controller"), "\(expected)")
        XCTAssertEqual(byMode.count, 8)
        for (mode, findings) in byMode.sorted(by: { $0.key < $1.key }) {
            XCTAssertEqual(findings, expected, mode)
        }
    }

    func testExcludedFilesGiveNoFactsInAnyMode() throws {
        let project = try makeProject()
        try project.write(".kblint.yml", "excluded: [Settings/SettingsViewController+Teardown.swift]\n")
        try project.git("add", "-A")
        try project.git("commit", "-q", "-m", "Exclude the teardown extension")
        let byMode = try findingsInEveryMode(project)
        let expected = try XCTUnwrap(byMode["folder"])
        // Without the excluded extension the observer is never removed.
        XCTAssertTrue(expected.contains { $0.contains("\(Self.settings):7:9: warning:") && $0.contains("observer_token_never_removed") }, "\(expected)")
        for (mode, findings) in byMode.sorted(by: { $0.key < $1.key }) {
            XCTAssertEqual(findings, expected, mode)
        }
    }

    /// From a sub-folder, with `GITHUB_WORKSPACE` set elsewhere: every reporter names files
    /// from the repository's root, SARIF's `SRCROOT` is that root, and the SARIF still
    /// validates against the schema.
    func testEveryReporterNamesFilesFromTheRepositoryRoot() throws {
        let project = try makeProject()
        let subfolder = project.path + "/Screens"
        let run = try BinaryHarness.run(
            ["--reporter", "github", "--reporter", "json", "--output", "report.json", "--reporter", "sarif", "--output", "report.sarif",
             "--reporter", "pretty", "--output", "report.txt", "."],
            in: subfolder, environment: GitSandbox.environment.merging(["GITHUB_WORKSPACE": "/elsewhere"]) { $1 })
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertTrue(run.standardOutput.contains("file=\(Self.form),line=8"), run.standardOutput)
        let json = try String(contentsOfFile: subfolder + "/report.json", encoding: .utf8)
        XCTAssertTrue(json.contains("\"path\": \"\(Self.form)\""), json)
        XCTAssertTrue(try String(contentsOfFile: subfolder + "/report.txt", encoding: .utf8).hasPrefix(Self.form + ":8:38:"))
        let sarif = try String(contentsOfFile: subfolder + "/report.sarif", encoding: .utf8)
        XCTAssertTrue(sarif.contains("\"uri\": \"\(Self.form)\""), sarif)
        XCTAssertTrue(sarif.contains("\"uri\": \"file://\(project.path)/\""), sarif)

        // The same fingerprints as from the root.
        let fromRoot = try BinaryHarness.run(["--reporter", "sarif", "."], in: project.path, environment: GitSandbox.environment)
        let fingerprint = { (text: String) in text.split(separator: "\n").filter { $0.contains("kblintFingerprint/v1") } }
        XCTAssertEqual(fingerprint(sarif), fingerprint(fromRoot.standardOutput))
        XCTAssertFalse(fingerprint(sarif).isEmpty)

        let validation = try SARIFSchemaTests.validate(sarif)
        XCTAssertEqual(validation.status, 0, validation.errors)
    }
}
