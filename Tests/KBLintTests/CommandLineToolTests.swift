import Foundation
import XCTest
@testable import KBLint
@testable import Rules

/// The command line run in-process with the test rules: commands, options, exit codes,
/// configuration, stdin mode and suppression.
final class CommandLineToolTests: XCTestCase {
    func testVersionAndHelp() throws {
        let tree = try TemporaryDirectory()
        XCTAssertEqual(runTool(["--version"], in: tree.path).standardOutput, "\(ProjectInfo.version)\n")
        XCTAssertEqual(runTool(["version"], in: tree.path).standardOutput, "\(ProjectInfo.version)\n")
        for command in CommandLineTool.commands {
            let run = runTool([command.name, "--help"], in: tree.path)
            XCTAssertEqual(run.status, 0, command.name)
            XCTAssertTrue(run.standardOutput.hasPrefix("USAGE: kblint \(command.name)"), run.standardOutput)
        }
        let help = runTool(["--help"], in: tree.path)
        XCTAssertTrue(help.standardOutput.contains("explain"))
        let lintHelp = runTool(["lint", "--help"], in: tree.path).standardOutput
        for option in LintCommand.spec.options { XCTAssertTrue(lintHelp.contains(option.name), option.name) }
    }

    func testUsageErrorsExitTwoWithSuggestions() throws {
        let tree = try TemporaryDirectory()
        let command = runTool(["expalin", "x"], in: tree.path)
        XCTAssertEqual(command.status, 2)
        XCTAssertTrue(command.standardError.contains("did you mean 'explain'?"), command.standardError)
        let option = runTool(["--reportr", "json"], in: tree.path)
        XCTAssertEqual(option.status, 2)
        XCTAssertTrue(option.standardError.contains("did you mean '--reporter'?"), option.standardError)
        let reporter = runTool(["--reporter", "sarf"], in: tree.path)
        XCTAssertEqual(reporter.status, 2)
        XCTAssertTrue(reporter.standardError.contains("did you mean 'sarif'?"), reporter.standardError)
        XCTAssertEqual(runTool(["--jobs", "0"], in: tree.path).status, 2)
        XCTAssertEqual(runTool(["--deployment-target", "fifteen"], in: tree.path).status, 2)
        XCTAssertEqual(runTool(["--fix", "--diff"], in: tree.path).status, 2)
        XCTAssertEqual(runTool(["--unsafe-fixes"], in: tree.path).status, 2)
        XCTAssertEqual(runTool(["--stdin-path", "A.swift"], in: tree.path).status, 2)
        let rule = runTool(["--enable", "test_forbiden_identifier"], in: tree.path)
        XCTAssertEqual(rule.status, 2)
        XCTAssertTrue(rule.standardError.contains("test_forbidden_identifier"), rule.standardError)
    }

    func testExitCodesFollowSeverityAndStrict() throws {
        let tree = try TemporaryDirectory()
        try tree.write("Clean.swift", "let allowed = 1\n")
        XCTAssertEqual(runTool([], in: tree.path).status, 0)
        try tree.write("Warn.swift", "let forbidden = 1\n")
        let warned = runTool(["--reporter", "xcode"], in: tree.path)
        XCTAssertEqual(warned.status, 0)
        XCTAssertEqual(warned.standardOutput,
                       "\(tree.path)/Warn.swift:1:5: warning: 'forbidden' is forbidden (test_forbidden_identifier)\n")
        XCTAssertEqual(warned.standardError, "Found 1 problem (1 warning) in 1 of 2 files.\n")
        XCTAssertEqual(runTool(["--strict"], in: tree.path).status, 1)
        XCTAssertEqual(runTool(["--quiet", "--reporter", "xcode"], in: tree.path).standardError, "")
        let pretty = runTool(["--reporter", "pretty"], in: tree.path).standardOutput
        XCTAssertTrue(pretty.hasSuffix("Found 1 problem (1 warning) in 1 of 2 files.\n"), pretty)
        let quietPretty = runTool(["--quiet", "--reporter", "pretty"], in: tree.path)
        XCTAssertFalse(quietPretty.standardOutput.contains("Found"), quietPretty.standardOutput)
        XCTAssertEqual(quietPretty.standardError, "")
        try tree.write("Error.swift", "let dangerous = 1\n")
        XCTAssertEqual(runTool([], in: tree.path).status, 1)
    }

    /// `#available` raises the effective target, so a rule for newer targets still runs in a
    /// project built for an older one and reports only the code under the availability check.
    func testAvailabilityRaisesTheTargetOfRulesForNewerReleases() throws {
        let tree = try TemporaryDirectory()
        try tree.write("Form.swift", """
        final class FormViewController: UIViewController {
            override func viewDidLoad() {
                super.viewDidLoad()
                if #available(iOS 16, *) {
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillShow(_:)),
                                                           name: UIResponder.keyboardWillShowNotification, object: nil)
                }
            }
            @objc private func keyboardWillShow(_ notification: Notification) {
                guard let frame = notification.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                scrollView.contentInset.bottom = view.convert(frame, from: nil).height - view.safeAreaInsets.bottom
            }
        }

        """)
        let arguments = ["--only", "prefer_keyboard_layout_guide", "--reporter", "xcode", "--quiet"]
        let older = runTool(arguments + ["--deployment-target", "14.0"], in: tree.path, rules: RuleRegistry.all)
        XCTAssertTrue(older.standardOutput.contains("Form.swift:5:40: warning:"), older.standardOutput)
        try tree.write("Form.swift", try tree.text("Form.swift").replacingOccurrences(of: "if #available(iOS 16, *)", with: "if true"))
        let unguarded = runTool(arguments + ["--deployment-target", "14.0"], in: tree.path, rules: RuleRegistry.all)
        XCTAssertEqual(unguarded.standardOutput, "")
    }

    func testMissingPathIsAnErrorButOtherFilesAreStillReported() throws {
        let tree = try TemporaryDirectory()
        try tree.write("A.swift", "let dangerous = 1\n")
        let run = runTool(["missing.swift", "A.swift", "--reporter", "xcode"], in: tree.path)
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.standardOutput.contains("A.swift:1:5: error:"), run.standardOutput)
        XCTAssertTrue(run.standardError.contains("kblint: error: missing.swift: no such file or directory"), run.standardError)
    }

    func testEachOutputBelongsToTheReporterBeforeIt() throws {
        let tree = try TemporaryDirectory()
        try tree.write("A.swift", "let forbidden = 1\n")
        let run = runTool(["--reporter", "github", "--reporter", "json", "--output", "out/../report.json"], in: tree.path)
        XCTAssertTrue(run.standardOutput.hasPrefix("::warning file=A.swift,line=1"), run.standardOutput)
        let json = try tree.text("report.json")
        XCTAssertTrue(json.contains("\"test_forbidden_identifier\""), json)
        XCTAssertFalse(run.standardOutput.contains("\"diagnostics\""))
        // `--output` alone is for the default reporter, chosen as for a non-terminal.
        let alone = runTool(["--output", "plain.txt"], in: tree.path, terminal: true)
        XCTAssertEqual(alone.standardOutput, "")
        XCTAssertEqual(try tree.text("plain.txt"), "\(tree.path)/A.swift:1:5: warning: 'forbidden' is forbidden (test_forbidden_identifier)\n")
        let unwritable = runTool(["--reporter", "json", "--output", "no/such/folder/r.json"], in: tree.path)
        XCTAssertEqual(unwritable.status, 2)
    }

    func testDefaultReporterFollowsEnvironmentAndConfiguration() throws {
        let tree = try TemporaryDirectory()
        try tree.write("A.swift", "let forbidden = 1\n")
        XCTAssertTrue(runTool([], in: tree.path, environment: ["GITHUB_ACTIONS": "true"]).standardOutput.hasPrefix("::warning"))
        XCTAssertTrue(runTool([], in: tree.path).standardOutput.hasPrefix("\(tree.path)/A.swift:1:5: warning"))
        let pretty = runTool([], in: tree.path, terminal: true)
        XCTAssertTrue(pretty.standardOutput.contains("\u{1B}["), "colors on a terminal")
        XCTAssertFalse(runTool(["--no-color"], in: tree.path, terminal: true).standardOutput.contains("\u{1B}["))
        XCTAssertFalse(runTool([], in: tree.path, environment: ["NO_COLOR": "1"], terminal: true).standardOutput.contains("\u{1B}["))
        try tree.write(".kblint.yml", "reporter: json\n")
        XCTAssertTrue(runTool([], in: tree.path).standardOutput.contains("\"diagnostics\""))
    }

    func testConfigurationEnablesDisablesAndNests() throws {
        let tree = try TemporaryDirectory()
        try tree.write("A.swift", "let forbidden = 1\nlet legacy = 2\n")
        try tree.write("Sub/B.swift", "let forbidden = 1\nlet legacy = 2\n")
        try tree.write(".kblint.yml", "opt_in_rules: [test_modern_only]\ndeployment_target: \"16.0\"\n")
        try tree.write("Sub/.kblint.yml", "disabled_rules: [test_forbidden_identifier]\n")
        let run = runTool(["--reporter", "xcode"], in: tree.path)
        let lines = run.standardOutput.split(separator: "\n").map { $0.replacingOccurrences(of: tree.path + "/", with: "") }
        XCTAssertEqual(lines, [
            "A.swift:1:5: warning: 'forbidden' is forbidden (test_forbidden_identifier)",
            "A.swift:2:5: note: 'legacy' on a modern target (test_modern_only)",
            "Sub/B.swift:2:5: note: 'legacy' on a modern target (test_modern_only)",
        ])
        // A deployment target below the rule's minimum silences it.
        let old = runTool(["--reporter", "xcode", "--deployment-target", "15.0"], in: tree.path)
        XCTAssertFalse(old.standardOutput.contains("test_modern_only"), old.standardOutput)
        // Command-line overrides win.
        let only = runTool(["--reporter", "xcode", "--only", "test_modern_only"], in: tree.path)
        XCTAssertFalse(only.standardOutput.contains("forbidden"), only.standardOutput)
    }

    func testBrokenConfigurationExitsTwo() throws {
        let tree = try TemporaryDirectory()
        try tree.write("A.swift", "let forbidden = 1\n")
        try tree.write("Bad/B.swift", "let forbidden = 1\n")
        try tree.write("Bad/.kblint.yml", "disabled_rules: [test_forbiden_identifier]\n")
        let nested = runTool(["--reporter", "xcode"], in: tree.path)
        XCTAssertEqual(nested.status, 2)
        XCTAssertTrue(nested.standardOutput.contains("A.swift:1:5"), "the other files are still linted")
        XCTAssertTrue(nested.standardError.contains("did you mean 'test_forbidden_identifier'?"), nested.standardError)
        let explicit = runTool(["--config", "nothere.yml"], in: tree.path)
        XCTAssertEqual(explicit.status, 2)
        XCTAssertTrue(explicit.standardError.contains("nothere.yml"), explicit.standardError)
    }

    func testExcludedAndForceExclude() throws {
        let tree = try TemporaryDirectory()
        try tree.write("Generated/G.swift", "let forbidden = 1\n")
        try tree.write(".kblint.yml", "excluded: [Generated]\n")
        XCTAssertEqual(runTool(["--reporter", "xcode"], in: tree.path).standardOutput, "")
        XCTAssertNotEqual(runTool(["--reporter", "xcode", "Generated/G.swift"], in: tree.path).standardOutput, "")
        XCTAssertEqual(runTool(["--reporter", "xcode", "--force-exclude", "Generated/G.swift"], in: tree.path).standardOutput, "")
    }

    func testFileList() throws {
        let tree = try TemporaryDirectory()
        try tree.write("A.swift", "let forbidden = 1\n")
        try tree.write("B.swift", "let forbidden = 1\n")
        try tree.write("list.txt", "# shard 1\nB.swift\n\n")
        let run = runTool(["--reporter", "xcode", "--file-list", "list.txt"], in: tree.path)
        XCTAssertEqual(run.standardOutput.split(separator: "\n").count, 1)
        XCTAssertTrue(run.standardOutput.contains("B.swift"))
        XCTAssertEqual(runTool(["--file-list", "none.txt"], in: tree.path).status, 2)
    }

    func testStandardInputUsesTheGivenPathForConfigurationAndReports() throws {
        let tree = try TemporaryDirectory()
        try tree.write("Sub/.kblint.yml", "disabled_rules: [test_dangerous_identifier]\n")
        let source = Array("let forbidden = dangerous\n".utf8)
        let run = runTool(["--use-stdin", "--stdin-path", "Sub/Edited.swift", "--reporter", "xcode"],
                          in: tree.path, standardInput: source)
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.standardOutput, "\(tree.path)/Sub/Edited.swift:1:5: warning: 'forbidden' is forbidden (test_forbidden_identifier)\n")
        let fixed = runTool(["--use-stdin", "--stdin-path", "Sub/Edited.swift", "--fix"], in: tree.path, standardInput: source)
        XCTAssertEqual(fixed.standardOutput, "let allowed = dangerous\n")
        XCTAssertEqual(runTool(["--use-stdin", "A.swift"], in: tree.path).status, 2)
    }

    func testSuppressionCommentsThroughTheCommandLine() throws {
        let tree = try TemporaryDirectory()
        try tree.write("A.swift", """
            // kblint:disable:next test_forbidden_identifier
            let forbidden = 1
            // kblint:disable:next test_forbiden_identifier
            let allowed = 2
            let text = "// kblint:disable:next all"
            let forbidden = 3

            """)
        let run = runTool(["--reporter", "xcode", "--strict"], in: tree.path)
        let lines = run.standardOutput.split(separator: "\n").map { $0.replacingOccurrences(of: tree.path + "/", with: "") }
        XCTAssertEqual(lines, [
            "A.swift:3:24: warning: 'test_forbiden_identifier' is not a kblint rule id; did you mean 'test_forbidden_identifier'? (superfluous_disable_command)",
            "A.swift:6:5: warning: 'forbidden' is forbidden (test_forbidden_identifier)",
        ])
        XCTAssertEqual(run.status, 1)
    }

    func testInvalidUTF8AndUnreadableInputs() throws {
        let tree = try TemporaryDirectory()
        try tree.write("Latin1.swift", bytes: Array("let caf".utf8) + [0xE9] + Array(" = forbidden\n".utf8))
        try tree.write("Binary.swift", bytes: [0, 1, 2, 0xFF, 0xFE, 0x00, 0x7F])
        XCTAssertEqual(mkfifo(tree.path + "/Pipe.swift", 0o644), 0)
        let run = runTool(["--reporter", "xcode", "Latin1.swift", "Binary.swift", "Pipe.swift"], in: tree.path)
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.standardOutput.contains("Latin1.swift:1:8: note: the file is not valid UTF-8"), run.standardOutput)
        XCTAssertTrue(run.standardOutput.contains("Latin1.swift:1:12: warning: 'forbidden' is forbidden"), run.standardOutput)
        XCTAssertTrue(run.standardOutput.contains("Binary.swift:1:4: note:"), run.standardOutput)
        XCTAssertTrue(run.standardError.contains("Pipe.swift: not a regular file"), run.standardError)
        // A FIFO met while walking a folder is not a Swift source file candidate: skipped.
        XCTAssertFalse(runTool(["--reporter", "xcode"], in: tree.path).standardError.contains("Pipe"))
    }

    func testOutputIsTheSameForAnyJobCount() throws {
        let tree = try TemporaryDirectory()
        for index in 0..<40 {
            try tree.write("F\(index % 7)/File\(index).swift", String(repeating: "let forbidden = dangerous\n", count: index % 5 + 1))
        }
        let one = runTool(["--reporter", "json", "--jobs", "1"], in: tree.path)
        let many = runTool(["--reporter", "json", "--jobs", "8"], in: tree.path)
        XCTAssertEqual(one.standardOutput, many.standardOutput)
        XCTAssertEqual(one.status, many.status)
        XCTAssertTrue(one.standardOutput.contains("F6/File6.swift"))
    }

    func testTimingReportsPhasesThroughputAndDeploymentTarget() throws {
        let tree = try TemporaryDirectory()
        try tree.write("A.swift", "let x = 1\n")
        try tree.write("Package.swift", "let package = Package(name: \"A\", platforms: [.iOS(.v15)])\n")
        let run = runTool(["--timing", "--quiet", "A.swift"], in: tree.path)
        XCTAssertTrue(run.standardError.contains("pass 1 (facts)"), run.standardError)
        XCTAssertTrue(run.standardError.contains("MB/s"), run.standardError)
        XCTAssertTrue(run.standardError.contains(
            "timing: 0 analysed for facts, 0 checked, then 0 analysed for the types rules looked up and 0 checked again"),
            run.standardError)
        XCTAssertTrue(run.standardError.contains("deployment target: iOS 15.0"), run.standardError)
        XCTAssertTrue(run.standardError.contains("Package.swift"), run.standardError)
    }

    func testRulesExplainAndTokens() throws {
        let tree = try TemporaryDirectory()
        let text = runTool(["rules"], in: tree.path)
        XCTAssertTrue(text.standardOutput.contains("test_forbidden_identifier"))
        XCTAssertTrue(text.standardOutput.contains("superfluous_disable_command"))
        let markdown = runTool(["rules", "--format", "markdown"], in: tree.path).standardOutput
        XCTAssertTrue(markdown.contains("### test_modern_only"))
        XCTAssertTrue(markdown.contains("**Deployment targets:** iOS 15.4 and later"))
        let json = runTool(["rules", "--format", "json"], in: tree.path).standardOutput
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(json.utf8)))
        XCTAssertEqual(runTool(["rules", "--format", "yaml"], in: tree.path).status, 2)

        let explain = runTool(["explain", "test_forbidden_identifier"], in: tree.path)
        XCTAssertEqual(explain.status, 0)
        XCTAssertTrue(explain.standardOutput.contains("let ↓forbidden = 1"), explain.standardOutput)
        XCTAssertTrue(explain.standardOutput.contains("also_flag"), explain.standardOutput)
        let unknown = runTool(["explain", "test_forbiden_identifier"], in: tree.path)
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.standardError.contains("did you mean 'test_forbidden_identifier'?"), unknown.standardError)

        try tree.write("T.swift", "let a = 1 // note\n")
        let tokens = runTool(["tokens", "T.swift", "--comments"], in: tree.path)
        XCTAssertEqual(tokens.status, 0)
        XCTAssertTrue(tokens.standardOutput.contains("comment_line"), tokens.standardOutput)
        XCTAssertFalse(runTool(["tokens", "T.swift"], in: tree.path).standardOutput.contains("comment_line"))
        XCTAssertEqual(runTool(["tokens", "none.swift"], in: tree.path).status, 2)
    }
}

final class InitCommandTests: XCTestCase {
    func testInitTakesIncludedAndExcludedFromSwiftLint() throws {
        let tree = try TemporaryDirectory()
        try tree.write(".swiftlint.yml", """
            # SwiftLint's own settings
            disabled_rules:
              - trailing_whitespace
            included: # the app
              - App
              - "Shared Kit"
            excluded: [Pods, 'App/Generated', "**/*.generated.swift"]
            line_length:
              warning: 120
            """)
        try tree.write("App/Chat.swift", "// kblint:disable:next some_rule\nlet a = 1\n")
        try tree.write("App/Generated/Strings.swift", "// kblint:disable:next some_rule\nlet b = 1\n")
        try tree.write("Other/Skipped.swift", "// kblint:disable:next some_rule\nlet c = 1\n")
        try tree.write("Shared Kit/Kit.swift", "let kit = 1\n")
        let result = runTool(["init"], in: tree.path)
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertTrue(result.standardOutput.contains("included and excluded taken from .swiftlint.yml"), result.standardOutput)
        let written = try tree.text(".kblint.yml")
        XCTAssertTrue(written.contains("included:\n  - App\n  - Shared Kit\n"), written)
        XCTAssertTrue(written.contains("  - DerivedData\n  - App/Generated\n  - \"**/*.generated.swift\"\n"), written)
        // The written file reads back, and kblint then lints what SwiftLint lints.
        let lint = runTool(["--reporter", "xcode", "--quiet"], in: tree.path)
        XCTAssertEqual(lint.standardError, "")
        XCTAssertTrue(lint.standardOutput.contains("App/Chat.swift:1:"), lint.standardOutput)
        XCTAssertFalse(lint.standardOutput.contains("Strings.swift"), lint.standardOutput)
        XCTAssertFalse(lint.standardOutput.contains("Skipped.swift"), lint.standardOutput)
        XCTAssertEqual(SwiftLintPaths(parsing: "excluded: Pods\n"), SwiftLintPaths(excluded: ["Pods"]))
    }

    func testInitWritesAValidConfigurationOnceWithTheDetectedTarget() throws {
        let tree = try TemporaryDirectory()
        try tree.write("Podfile", "platform :ios, '14.0'\n")
        let first = runTool(["init"], in: tree.path)
        XCTAssertEqual(first.status, 0, first.standardError)
        XCTAssertTrue(first.standardOutput.contains("Wrote .kblint.yml"), first.standardOutput)
        XCTAssertTrue(try tree.text(".kblint.yml").contains("iOS 14.0"))
        try tree.write("A.swift", "let forbidden = 1\n")
        XCTAssertEqual(runTool(["--quiet"], in: tree.path).status, 0, "the written file is a valid configuration")
        let second = runTool(["init"], in: tree.path)
        XCTAssertEqual(second.status, 2)
        XCTAssertTrue(second.standardError.contains("never overwrites"), second.standardError)
    }
}
