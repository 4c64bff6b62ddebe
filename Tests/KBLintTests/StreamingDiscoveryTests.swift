import Foundation
import XCTest
@testable import KBLint
import Rules

/// Pass 1 reads and scans each file while discovery is still finding the next ones
/// (`LintDriver.run(discovering:)` over `parallelMap(producing:)`). With one job the files
/// are all found first, then read; whatever the jobs and however the two interleave, a run
/// must report the same inputs, in the same order, with the same findings and errors.
final class StreamingDiscoveryTests: XCTestCase {
    func driver(jobs: Int) -> LintDriver {
        LintDriver(jobs: jobs, fixMode: .report, knownRuleIDs: Set(RuleRegistry.all.map { $0.metadata.id }),
                   closeMatches: { _, _ in [] }, progressSink: nil)
    }

    /// Each reported input with its outcome, then the work done.
    func summary(_ outcome: LintDriver.Outcome) -> [String] {
        zip(outcome.inputs, outcome.files).map { input, file in
            "\(input.target.path) linted: \(file.linted) errors: \(file.errors) findings: "
                + file.findings.map { "\($0.range) \($0.ruleID)" }.joined(separator: ", ")
        } + ["\(outcome.work)"]
    }

    func testFilesScannedWhileTheyAreFoundGiveTheOutcomeOfFilesFoundFirst() throws {
        let folder = try TemporaryDirectory()
        try FactScopeTests.writeProjectWithFactsInPlainFiles(folder)
        // One file reached twice (checked once, under the path without a symlink) and one
        // that is gone by the time pass 1 reads it.
        try FileManager.default.createSymbolicLink(
            atPath: folder.path + "/Screens/Alias.swift", withDestinationPath: folder.path + "/Screens/AddressFormViewController.swift")
        let (found, errors) = FileDiscovery(currentDirectory: folder.path).discover(["Screens", "Settings"])
        XCTAssertEqual(errors, [])
        let reported = found.map { LintInput(target: $0, plan: FactScopeTests.everyRule) }
            + [LintInput(target: LintTarget(path: "Gone.swift", absolutePath: folder.path + "/Gone.swift"), plan: FactScopeTests.everyRule)]
        let factSources = FileDiscovery(currentDirectory: folder.path).discover(["Base", "Model", "Services"]).targets
            .map { FactSource(target: $0) }

        let plain = summary(driver(jobs: 1).run(reported, factSources: factSources))
        XCTAssertEqual(plain.count, reported.count + 1)
        // The superclass chain comes from the fact sources.
        XCTAssertTrue(plain[0].contains("keyboard_insets_in_table_view_controller"), plain[0])
        XCTAssertTrue(plain[1].hasPrefix("Screens/Alias.swift linted: false"), plain[1])
        XCTAssertTrue(plain.last { $0.hasPrefix("Gone.swift") }?.contains("No such file") ?? false, "\(plain)")
        for jobs in [1, 2, 4] {
            // Discovery slower than the workers: they wait for every file, each before the next is found.
            let streamed = driver(jobs: jobs).run { feed in
                for input in reported {
                    feed.report(input)
                    usleep(1_000)
                }
                for source in factSources {
                    feed.addFactSource(source)
                    usleep(200)
                }
            }
            XCTAssertEqual(summary(streamed), plain, "jobs \(jobs)")
        }
    }

    /// A tree with what discovery and configuration must get right: nested configurations (one
    /// broken), an excluded folder, a folder reached through a symlink, a symlink loop, a file
    /// reached twice, a broken symlink, a missing path, files outside the paths searched that
    /// give their facts.
    func writeVariedTree(_ tree: TemporaryDirectory) throws {
        let source = "let forbidden = 1\nlet dangerous = 2\n"
        for path in ["App/Screens/A.swift", "App/Screens/B.swift", "App/Generated/G.swift", "Broken/B.swift",
                     "Nested/Deep/N.swift", "Nested/M.swift", "Shared/S.swift", "Vendor/V.swift", "Top.swift"] {
            try tree.write(path, source)
        }
        try tree.write(".kblint.yml", "excluded:\n  - App/Generated\n")
        try tree.write("Broken/.kblint.yml", "rules: [\n")
        try tree.write("Nested/.kblint.yml", "disabled_rules:\n  - test_forbidden_identifier\n")
        try tree.write("Package.swift", "// swift-tools-version:6.0\n")
        try tree.write("list.txt", "App\nmissing.swift\nNested/Deep\nTop.swift\n")
        let links = ["App/SharedLink": "../Shared", "Shared/loop": "..", "Vendor/SLink.swift": "../Shared/S.swift",
                     "Vendor/dangling.swift": "nowhere"]
        for (link, destination) in links {
            try FileManager.default.createSymbolicLink(atPath: tree.path + "/" + link, withDestinationPath: destination)
        }
    }

    func testRunsReportTheSameWhateverTheJobs() throws {
        let tree = try TemporaryDirectory()
        try writeVariedTree(tree)
        // A broken configuration is reported under each path that reaches it (here through the loop too).
        let broken = { (path: String) in "\(path)Broken/.kblint.yml:1:8: error: '[' is never closed\n" }
        let runs: [(arguments: [String], errors: String)] = [
            (["."], broken("")),
            (["App", "Broken", "missing", "Nested"],
             "kblint: error: missing: no such file or directory\n" + broken("App/SharedLink/loop/") + broken("")),
            (["--file-list", "list.txt"], "kblint: error: missing.swift: no such file or directory\n" + broken("App/SharedLink/loop/")),
            (["Nested/Deep"], ""),
            (["Vendor/SLink.swift", "Shared"], broken("Shared/loop/")),
            (["--use-stdin", "--stdin-path", "App/Screens/A.swift"], ""),
        ]
        let standardInput = Array("let forbidden = 3\n".utf8)
        for run in runs {
            let plain = runTool(["--reporter", "xcode", "--jobs", "1"] + run.arguments, in: tree.path, standardInput: standardInput)
            XCTAssertFalse(plain.standardOutput.isEmpty, "\(run.arguments)")
            XCTAssertTrue(plain.standardError.hasSuffix(run.errors), "\(run.arguments): \(plain.standardError)")
            for jobs in ["2", "4"] {
                let streamed = runTool(
                    ["--reporter", "xcode", "--jobs", jobs] + run.arguments, in: tree.path, standardInput: standardInput)
                XCTAssertEqual(streamed.standardOutput, plain.standardOutput, "\(run.arguments), jobs \(jobs)")
                XCTAssertEqual(streamed.standardError, plain.standardError, "\(run.arguments), jobs \(jobs)")
                XCTAssertEqual(streamed.status, plain.status, "\(run.arguments), jobs \(jobs)")
            }
        }
    }

    /// The inputs a run reports, in order, with its errors, are those the language server gets
    /// from `lintInputs` (every file found before any is read).
    func testStreamedInputsAreTheListedInputs() throws {
        let tree = try TemporaryDirectory()
        try writeVariedTree(tree)
        let tool = CommandLineTool(
            rules: testRules, environment: [:], currentDirectory: tree.path,
            readStandardInput: { () throws(FileError) in [] },
            standardOutput: CapturedOutput(isTerminal: false), standardError: CapturedOutput(isTerminal: false))
        let command = LintCommand(tool: tool)
        for arguments in [["."], ["App", "Broken", "missing", "Nested"], ["--file-list", "list.txt"]] {
            let options = try LintOptions(parseArguments(arguments, for: LintCommand.spec))
            let resolver = try ConfigurationResolver(
                explicitConfigPath: nil, knownRules: testRules.map { $0.metadata }, currentDirectory: tree.path)
            let root = try resolver.configuration(forDirectory: tree.path)
            let listed = command.lintInputs(options, resolver: resolver, root: root, lastListing: LastListing())
            XCTAssertNil(listed.fatalError)
            let selection = try command.selectInputs(options, resolver: resolver, root: root)
            for jobs in [1, 2] {
                var found: LintCommand.DiscoveredInputs?
                let outcome = driver(jobs: jobs).run { feed in
                    found = command.discoverInputs(selection, options, resolver: resolver, lastListing: LastListing()) { input in
                        feed.report(input)
                        usleep(500)
                    }
                }
                XCTAssertEqual(outcome.inputs.map(\.target), listed.inputs.map(\.target), "\(arguments)")
                XCTAssertEqual(found?.errors, listed.errors, "\(arguments)")
                XCTAssertEqual(found?.searched, listed.searched, "\(arguments)")
            }
        }
    }

    func testLockedFoldersAreReportedWhateverTheJobs() throws {
        try XCTSkipIf(geteuid() == 0, "root lists any folder")
        let tree = try TemporaryDirectory()
        try writeVariedTree(tree)
        XCTAssertEqual(chmod(tree.path + "/Nested/Deep", 0o000), 0)
        defer { chmod(tree.path + "/Nested/Deep", 0o755) }
        let plain = runTool(["--reporter", "xcode", "--jobs", "1", "."], in: tree.path)
        XCTAssertTrue(plain.standardError.contains("kblint: error: Nested/Deep: cannot list"), plain.standardError)
        for jobs in ["2", "4"] {
            let streamed = runTool(["--reporter", "xcode", "--jobs", jobs, "."], in: tree.path)
            XCTAssertEqual(streamed.standardOutput, plain.standardOutput)
            XCTAssertEqual(streamed.standardError, plain.standardError)
        }
    }
}
