import Foundation
import XCTest
@testable import KBLint

/// The GitHub Action: `action.yml` wires every input into `Scripts/github-action.sh`, and the
/// script's steps, run the way the runner runs them (inputs in the environment, outputs in
/// the `GITHUB_OUTPUT` file, `GITHUB_WORKSPACE` set), lint a real repository with the built
/// binary: annotations, SARIF, exit code, `--since`.
final class GitHubActionTests: XCTestCase {
    static let root = PluginPackageTests.repositoryRoot
    static let script = root + "/Scripts/github-action.sh"

    func action() throws -> [String: YAMLNode] {
        let path = Self.root + "/action.yml"
        let node = try XCTUnwrap(YAMLReader.read(try FileSystem.readFile(path), path: path))
        return Dictionary(uniqueKeysWithValues: try XCTUnwrap(node.mapping).map { ($0.key, $0.value) })
    }

    func testEveryInputReachesTheScript() throws {
        let action = try action()
        let inputs = try XCTUnwrap(action["inputs"]?.mapping).map(\.key)
        XCTAssertEqual(inputs, ["paths", "since", "args", "sarif-file", "working-directory", "kblint-path"])
        let runs = try XCTUnwrap(action["runs"]?.mapping)
        XCTAssertEqual(runs.first { $0.key == "using" }?.value.scalar?.text, "composite")
        let steps = try XCTUnwrap(runs.first { $0.key == "steps" }?.value.sequence).compactMap(\.mapping)
        var used: Set<String> = []
        for step in steps {
            for entry in step {
                for text in Self.scalars(in: entry.value) {
                    for input in inputs where text.contains("inputs.\(input) ") || text.contains("inputs.\(input) }}") {
                        used.insert(input)
                    }
                }
                if entry.key == "run", let command = entry.value.scalar?.text {
                    XCTAssertTrue(command.hasPrefix("\"$GITHUB_ACTION_PATH/Scripts/github-action.sh\" "), command)
                    let mode = String(command.split(separator: " ").last ?? "")
                    XCTAssertTrue(["cache-key", "build", "lint"].contains(mode), command)
                }
            }
        }
        XCTAssertEqual(used, Set(inputs), "every input is used by a step")
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: Self.script))
    }

    static func scalars(in node: YAMLNode) -> [String] {
        switch node.content {
        case .scalar(let scalar): [scalar.text]
        case .sequence(let items): items.flatMap(scalars(in:))
        case .mapping(let entries): entries.flatMap { scalars(in: $0.value) }
        }
    }

    /// Runs a step of the script in `directory` with the runner's variables.
    func step(
        _ mode: String, in directory: String, inputs: [String: String]
    ) throws -> (status: Int32, output: String, errors: String, outputs: [String: String]) {
        let scratch = try TemporaryDirectory()
        let outputFile = try scratch.write("github_output", "")
        let bash = try XCTUnwrap(ChildProcess.locate("bash", environment: ProcessInfo.processInfo.environment))
        let result = try ChildProcess(
            executable: bash, arguments: [Self.script, mode], directory: directory,
            environment: GitSandbox.environment.merging([
                "GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": directory, "GITHUB_OUTPUT": outputFile,
                "RUNNER_OS": "Linux", "RUNNER_ARCH": "X64",
            ].merging(inputs) { $1 }) { $1 }
        ).run()
        var outputs: [String: String] = [:]
        for line in try String(contentsOfFile: outputFile, encoding: .utf8).split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { outputs[String(parts[0])] = String(parts[1]) }
        }
        return (result.status, String(decoding: result.output, as: UTF8.self), result.errorText, outputs)
    }

    func testLintStepAnnotatesWritesSARIFAndReturnsTheExitCode() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: BinaryHarness.executable.path))
        let kblint = BinaryHarness.executable.path
        let repository = try GitSandbox()
        try repository.write("App/Chat View.swift", "let a = 1\n")
        try repository.write("App/Legacy.swift", "// kblint:disable:next some_rule\nlet legacy = 1\n")
        try repository.git("add", ".")
        try repository.git("commit", "-q", "-m", "base")

        let build = try step("build", in: repository.path, inputs: ["INPUT_KBLINT_PATH": kblint])
        XCTAssertEqual(build.status, 0, build.errors)
        XCTAssertEqual(build.outputs["kblint"], kblint)

        let all = try step("lint", in: repository.path, inputs: [
            "KBLINT": kblint, "INPUT_SARIF_FILE": "reports/kblint.sarif", "INPUT_PATHS": "App",
        ])
        XCTAssertEqual(all.status, 0, all.errors)
        XCTAssertTrue(all.output.contains("::warning file=App/Legacy.swift,line=1,"), all.output)
        XCTAssertEqual(all.outputs["exit-code"], "0")
        XCTAssertEqual(all.outputs["sarif-file"], "reports/kblint.sarif")
        let sarif = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: repository.path + "/reports/kblint.sarif")))
        let runs = try XCTUnwrap((sarif as? [String: Any])?["runs"] as? [[String: Any]])
        XCTAssertEqual((runs.first?["results"] as? [Any])?.count, 1)

        // Only the pull request's files with --since; --strict in args makes warnings fail.
        try repository.git("checkout", "-q", "-b", "feature")
        try repository.write("App/Chat View.swift", "// kblint:disable:next some_rule\nlet a = 2\n")
        try repository.git("commit", "-q", "-am", "feature")
        let pullRequest = try step("lint", in: repository.path, inputs: [
            "KBLINT": kblint, "INPUT_SINCE": "main", "INPUT_ARGS": "--strict --quiet",
        ])
        XCTAssertEqual(pullRequest.status, 1)
        XCTAssertEqual(pullRequest.outputs["exit-code"], "1")
        XCTAssertTrue(pullRequest.output.contains("::warning file=App/Chat View.swift,line=1,"), pullRequest.output)
        XCTAssertFalse(pullRequest.output.contains("Legacy.swift"), pullRequest.output)
        XCTAssertNil(pullRequest.outputs["sarif-file"])

        let missing = try step("build", in: repository.path, inputs: ["INPUT_KBLINT_PATH": repository.path + "/nope"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.output.contains("::error::kblint executable not found"), missing.output)
    }

    func testCacheKeyDependsOnTheRunnerAndIsStable() throws {
        let scratch = try TemporaryDirectory()
        let first = try step("cache-key", in: scratch.path, inputs: [:])
        XCTAssertEqual(first.status, 0, first.errors)
        let key = try XCTUnwrap(first.outputs["key"])
        XCTAssertTrue(key.hasPrefix("kblint-Linux-X64-"), key)
        XCTAssertEqual(try step("cache-key", in: scratch.path, inputs: [:]).outputs["key"], key)
        XCTAssertNotEqual(try step("cache-key", in: scratch.path, inputs: ["RUNNER_OS": "macOS"]).outputs["key"], key)
    }
}
