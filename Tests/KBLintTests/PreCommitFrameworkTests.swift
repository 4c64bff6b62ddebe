import Foundation
import XCTest
@testable import KBLint

/// `.pre-commit-hooks.yaml`: its shape, the command it runs on a project, and (with
/// KBLINT_PLUGIN_TESTS=1 and the `pre-commit` program installed) the framework itself
/// installing kblint from a clone of this repository and blocking a commit.
final class PreCommitFrameworkTests: XCTestCase {
    static let manifestPath = PluginPackageTests.repositoryRoot + "/.pre-commit-hooks.yaml"

    func hook() throws -> [String: YAMLNode] {
        let root = try XCTUnwrap(YAMLReader.read(try FileSystem.readFile(Self.manifestPath), path: Self.manifestPath))
        let hooks = try XCTUnwrap(root.sequence)
        XCTAssertEqual(hooks.count, 1)
        let entries = try XCTUnwrap(hooks[0].mapping)
        return Dictionary(uniqueKeysWithValues: entries.map { ($0.key, $0.value) })
    }

    func testManifestDeclaresTheKBLintSwiftHook() throws {
        let hook = try hook()
        XCTAssertEqual(hook["id"]?.scalar?.text, "kblint")
        XCTAssertEqual(hook["language"]?.scalar?.text, "swift")
        XCTAssertEqual(hook["types"]?.sequence?.compactMap(\.scalar?.text), ["swift"])
        XCTAssertEqual(hook["entry"]?.scalar?.text.split(separator: " ").first, "kblint")
        XCTAssertEqual(hook["require_serial"]?.scalar?.text, "true")
    }

    /// What pre-commit runs: `entry args… files…` in the repository's root.
    func testEntryWithArgumentsLintsTheFilesItIsGivenAndHonoursExcluded() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: BinaryHarness.executable.path))
        let hook = try hook()
        let entry = try XCTUnwrap(hook["entry"]?.scalar?.text).split(separator: " ").map(String.init)
        let arguments = Array(entry.dropFirst()) + (hook["args"]?.sequence?.compactMap(\.scalar?.text) ?? [])
        let project = try TemporaryDirectory()
        try project.write(".kblint.yml", "excluded:\n  - Generated\n")
        try project.write("Generated/Strings.swift", "// kblint:disable:next some_rule\nlet s = 1\n")
        try project.write("App/Clean.swift", "let clean = 1\n")
        let generatedOnly = try BinaryHarness.run(arguments + ["Generated/Strings.swift", "App/Clean.swift"], in: project.path)
        XCTAssertEqual(generatedOnly.status, 0, generatedOnly.standardOutput + generatedOnly.standardError)
        try project.write("App/Chat.swift", "// kblint:disable:next some_rule\nlet c = 1\n")
        let finding = try BinaryHarness.run(arguments + ["App/Chat.swift", "App/Clean.swift"], in: project.path)
        XCTAssertEqual(finding.status, 1, "--strict: the warning fails the hook")
        XCTAssertTrue(finding.standardOutput.contains("App/Chat.swift:1:24: warning:"), finding.standardOutput)
    }

    func testFrameworkInstallsTheHookFromARepositoryAndBlocksTheCommit() throws {
        let environment = ProcessInfo.processInfo.environment
        try XCTSkipUnless(environment["KBLINT_PLUGIN_TESTS"] == "1", "set KBLINT_PLUGIN_TESTS=1 (builds kblint in release mode)")
        guard let preCommit = ChildProcess.locate("pre-commit", environment: environment) else {
            throw XCTSkip("the pre-commit program is not installed (pip install pre-commit)")
        }
        let git = try GitSandbox.gitPath

        // A commit of this repository's current files (tracked and new, not ignored), as the
        // repository users would point `repo:` at.
        let hooksRepository = try GitSandbox()
        let listing = try ChildProcess(
            executable: git, arguments: ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            directory: PluginPackageTests.repositoryRoot
        ).run()
        for path in listing.output.split(separator: 0).map({ String(decoding: $0, as: UTF8.self) }) {
            let source = PluginPackageTests.repositoryRoot + "/" + path
            guard FileSystem.resolvedPath(source) != nil else { continue }  // deleted, not yet staged
            try hooksRepository.folder.write(path, bytes: try FileSystem.readFile(source))
        }
        try hooksRepository.git("add", ".")
        try hooksRepository.git("commit", "-q", "-m", "kblint")
        let revision = try hooksRepository.git("rev-parse", "HEAD").trimmingCharacters(in: .whitespacesAndNewlines)

        let project = try GitSandbox()
        try project.write(".pre-commit-config.yaml", """
            repos:
              - repo: \(hooksRepository.path)
                rev: \(revision)
                hooks:
                  - id: kblint

            """)
        let cache = try TemporaryDirectory()
        let preCommitEnvironment = GitSandbox.environment.merging(["PRE_COMMIT_HOME": cache.path]) { $1 }
        func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
            let result = try ChildProcess(
                executable: executable, arguments: arguments, directory: project.path, environment: preCommitEnvironment
            ).run()
            return (result.status, String(decoding: result.output + result.errorOutput, as: UTF8.self))
        }
        let install = try run(preCommit, ["install"])
        XCTAssertEqual(install.status, 0, install.output)

        try project.write("App/Chat View.swift", "// kblint:disable:next some_rule\nlet c = 1\n")
        try project.git("add", ".")
        let blocked = try run(git, ["commit", "-q", "-m", "with a finding"])
        XCTAssertNotEqual(blocked.status, 0, blocked.output)
        XCTAssertTrue(blocked.output.contains("App/Chat View.swift:1:24: warning: 'some_rule' is not a kblint rule id"), blocked.output)

        try project.write("App/Chat View.swift", "let c = 1\n")
        try project.git("add", ".")
        let passed = try run(git, ["commit", "-q", "-m", "clean"])
        XCTAssertEqual(passed.status, 0, passed.output)
    }
}
