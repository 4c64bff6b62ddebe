import Foundation
import XCTest
@testable import KBLint

/// The built `kblint` binary in real git repositories created in temporary folders: the
/// baseline's life cycle, `--staged` and `--since`, and the pre-commit hook run by
/// `git commit`. Findings come from the engine's `superfluous_disable_command` (a warning),
/// which needs no catalogue rule.
final class WorkflowEndToEndTests: XCTestCase {
    /// A disable comment that suppresses nothing: one warning on its line.
    static let finding = "// kblint:disable:next some_rule"

    override func setUpWithError() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: BinaryHarness.executable.path),
                          "kblint executable not built next to the tests")
    }

    func kblint(
        _ arguments: String..., in directory: String, environment: [String: String] = [:]
    ) throws -> (status: Int32, standardOutput: String, standardError: String) {
        try BinaryHarness.run(
            arguments, in: directory, environment: GitSandbox.environment.merging(environment) { $1 })
    }

    // MARK: Baseline

    func testBaselineLifeCycle() throws {
        let project = try TemporaryDirectory()
        try project.write("App/Chat View.swift", "import UIKit\n\(Self.finding)\nlet inset = 1\n")
        try project.write("App/Ünïcode/Legacy.swift", "\(Self.finding)\nlet a = 1\n\(Self.finding)\nlet b = 1\n")

        let record = try kblint("--write-baseline", "kblint-baseline.json", "--reporter", "xcode", in: project.path)
        XCTAssertEqual(record.status, 0, record.standardError)
        XCTAssertTrue(record.standardError.contains("Wrote 3 findings to the baseline kblint-baseline.json."), record.standardError)
        let file = try project.text("kblint-baseline.json")
        XCTAssertTrue(file.contains("\"path\": \"App/Chat View.swift\""), file)
        XCTAssertTrue(file.contains("\"path\": \"App/Ünïcode/Legacy.swift\""), file)
        XCTAssertFalse(file.contains(project.path), "paths are relative to the baseline's folder")

        // Accepted findings are not reported, even under --strict.
        let clean = try kblint("--baseline", "kblint-baseline.json", "--strict", "--reporter", "xcode", in: project.path)
        XCTAssertEqual(clean.status, 0, clean.standardOutput + clean.standardError)
        XCTAssertEqual(clean.standardOutput, "")
        XCTAssertTrue(clean.standardError.contains("3 findings accepted by the baseline kblint-baseline.json not shown."))

        // Unrelated edits, line shifts and re-indentation keep them accepted; a new one is reported.
        try project.write("App/Chat View.swift", "import UIKit\n\n// A new comment.\nstruct Chat {}\n\n    \(Self.finding)\n    let  inset = 1\n")
        try project.write("App/New.swift", "\(Self.finding)\nlet fresh = 1\n")
        let shifted = try kblint("--baseline", "kblint-baseline.json", "--strict", "--reporter", "xcode", in: project.path)
        XCTAssertEqual(shifted.status, 1)
        XCTAssertEqual(shifted.standardOutput,
                       "\(project.path)/App/New.swift:1:24: warning: 'some_rule' is not a kblint rule id (superfluous_disable_command)\n")

        // The configured baseline may be created by --write-baseline; then it applies.
        try project.write("Other/.kblint.yml", "baseline: other-baseline.json\n")
        try project.write("Other/Old.swift", "\(Self.finding)\nlet old = 1\n")
        let created = try kblint("--write-baseline", "other-baseline.json", ".", in: project.path + "/Other")
        XCTAssertEqual(created.status, 0, created.standardError)
        XCTAssertEqual(try kblint("--strict", ".", in: project.path + "/Other").status, 0)
        try FileManager.default.removeItem(atPath: project.path + "/Other")

        // From a sub-folder, with the baseline named relatively, and from the configuration.
        let fromSubfolder = try kblint("--baseline", "../kblint-baseline.json", "--reporter", "xcode", ".", in: project.path + "/App")
        XCTAssertEqual(fromSubfolder.standardOutput, shifted.standardOutput)
        try project.write(".kblint.yml", "baseline: kblint-baseline.json\n")
        let configured = try kblint("--reporter", "xcode", ".", in: project.path + "/App/Ünïcode")
        XCTAssertEqual(configured.status, 0, configured.standardError)
        XCTAssertEqual(configured.standardOutput, "")

        // Fixing a legacy finding: --strict-baseline fails until the baseline is pruned.
        try project.write("App/Ünïcode/Legacy.swift", "\(Self.finding)\nlet a = 1\nlet b = 1\n")
        try FileManager.default.removeItem(atPath: project.path + "/App/New.swift")
        let stale = try kblint("--strict-baseline", "--reporter", "xcode", in: project.path)
        XCTAssertEqual(stale.status, 1)
        XCTAssertEqual(stale.standardOutput, "")
        XCTAssertTrue(stale.standardError.contains("holds 1 finding that no longer occurs; remove it with 'kblint baseline prune kblint-baseline.json'"), stale.standardError)
        XCTAssertTrue(stale.standardError.contains("App/Ünïcode/Legacy.swift: superfluous_disable_command: \(Self.finding)"), stale.standardError)

        let prune = try kblint("baseline", "prune", "kblint-baseline.json", in: project.path)
        XCTAssertEqual(prune.status, 0, prune.standardError)
        XCTAssertEqual(prune.standardOutput, "")
        XCTAssertTrue(prune.standardError.contains("Removed 1 fixed entry from kblint-baseline.json; 2 remain."), prune.standardError)
        XCTAssertEqual(try kblint("--strict-baseline", "--strict", in: project.path).status, 0)
        let again = try kblint("baseline", "prune", "kblint-baseline.json", in: project.path)
        XCTAssertTrue(again.standardError.contains("Removed 0 fixed entries from kblint-baseline.json; 2 remain."))
    }

    /// One line that two rules describe: reported once, as `keyboard_frame_screen_space`,
    /// covering `keyboard_inset_ignores_safe_area`.
    static let mergedDefect = """
        import UIKit

        final class ChatViewController: UIViewController {
            let tableView = UITableView()
            override func viewDidLoad() {
                super.viewDidLoad()
                NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillShow(_:)), name: UIResponder.keyboardWillShowNotification, object: nil)
                NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillHide(_:)), name: UIResponder.keyboardWillHideNotification, object: nil)
            }
            @objc func keyboardWillShow(_ notification: Notification) {
                guard let frame = notification.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                tableView.contentInset = UIEdgeInsets(top: 0, left: 0, bottom: frame.height, right: 0)
            }
            @objc func keyboardWillHide(_ notification: Notification) { tableView.contentInset.bottom = 0 }
        }

        """

    /// Upgrading never resurfaces a baselined defect: a baseline written before findings were
    /// merged (an entry per rule) or for a rule that is now covered still accepts the merged
    /// finding, and none of its entries counts as fixed.
    func testBaselinesWrittenPerRuleAcceptTheMergedFinding() throws {
        let project = try TemporaryDirectory()
        try project.write("Chat.swift", Self.mergedDefect)
        let merged = try kblint("--reporter", "json", in: project.path)
        XCTAssertEqual(merged.status, 1, merged.standardError)
        let report = try JSONSerialization.jsonObject(with: Data(merged.standardOutput.utf8)) as? [String: Any]
        let diagnostics = report?["diagnostics"] as? [[String: Any]] ?? []
        XCTAssertEqual(diagnostics.count, 1, merged.standardOutput)
        XCTAssertEqual(diagnostics.first?["rule"] as? String, "keyboard_frame_screen_space")
        XCTAssertEqual(diagnostics.first?["covers"] as? [String], ["keyboard_inset_ignores_safe_area"])

        // One baseline per rule, as each rule reported the line on its own.
        var entries: [Any] = []
        for rule in ["keyboard_frame_screen_space", "keyboard_inset_ignores_safe_area"] {
            let record = try kblint("--only", rule, "--write-baseline", "\(rule).json", in: project.path)
            XCTAssertEqual(record.status, 0, record.standardError)
            let file = try JSONSerialization.jsonObject(with: Data(try project.text("\(rule).json").utf8)) as? [String: Any]
            let findings = file?["findings"] as? [Any] ?? []
            XCTAssertEqual(findings.count, 1, rule)
            entries += findings
            // The covered rule's entry alone accepts the merged finding.
            let alone = try kblint("--baseline", "\(rule).json", "--strict-baseline", "--strict", "--reporter", "xcode", in: project.path)
            XCTAssertEqual(alone.status, 0, rule + alone.standardOutput + alone.standardError)
            XCTAssertEqual(alone.standardOutput, "", rule)
        }
        let unmerged = try JSONSerialization.data(withJSONObject: ["version": 2, "findings": entries])
        try project.write("unmerged.json", String(decoding: unmerged, as: UTF8.self))
        let upgraded = try kblint("--baseline", "unmerged.json", "--strict-baseline", "--strict", "--reporter", "xcode", in: project.path)
        XCTAssertEqual(upgraded.status, 0, upgraded.standardOutput + upgraded.standardError)
        XCTAssertEqual(upgraded.standardOutput, "")
        XCTAssertTrue(upgraded.standardError.contains("1 finding accepted by the baseline unmerged.json not shown."), upgraded.standardError)

        // An entry of another rule on that line does not accept it.
        let other = try String(decoding: JSONSerialization.data(withJSONObject: ["version": 2, "findings": [
            (entries[0] as? [String: Any] ?? [:]).merging(["rule": "keyboard_height_not_overlap"]) { $1 },
        ]]), as: UTF8.self)
        try project.write("other.json", other)
        let reported = try kblint("--baseline", "other.json", "--reporter", "xcode", in: project.path)
        XCTAssertEqual(reported.status, 1, reported.standardError)
        XCTAssertTrue(reported.standardOutput.contains("(keyboard_frame_screen_space)"), reported.standardOutput)
    }

    func testBrokenOrMissingBaselineIsAnErrorNotACrash() throws {
        let project = try TemporaryDirectory()
        try project.write("A.swift", "\(Self.finding)\nlet a = 1\n")
        try project.write("broken.json", "{\"version\": 1, \"findings\": [{\"path\": 3}]}")
        let broken = try kblint("--baseline", "broken.json", in: project.path)
        XCTAssertEqual(broken.status, 2)
        XCTAssertTrue(broken.standardError.contains("kblint: error: \(project.path)/broken.json: findings[0] needs"), broken.standardError)
        let missing = try kblint("--baseline", "missing.json", in: project.path)
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.standardError.contains("create it with --write-baseline"), missing.standardError)
        let unknownAction = try kblint("baseline", "prnue", "x.json", in: project.path)
        XCTAssertEqual(unknownAction.status, 2)
        XCTAssertTrue(unknownAction.standardError.contains("did you mean 'prune'?"), unknownAction.standardError)
        let noBaseline = try kblint("--strict-baseline", in: project.path)
        XCTAssertEqual(noBaseline.status, 2)
    }

    /// A multi-line block observer registration whose token is discarded: an
    /// `observer_token_discarded` error whose first line is the same for every notification.
    static func observer(_ notification: String, indent: String = "        ") -> String {
        "\(indent)NotificationCenter.default.addObserver(\n\(indent)    forName: UIResponder.\(notification), object: nil, queue: .main\n\(indent)) { [weak self] note in self?.update(note) }\n"
    }

    static func observerFile(viewDidLoad: [String], elsewhere: [String]) -> String {
        "import UIKit\n\nfinal class ChatViewController: UIViewController {\n    override func viewDidLoad() {\n        super.viewDidLoad()\n"
            + viewDidLoad.map { observer($0) }.joined()
            + "    }\n\n    func reattach() {\n" + elsewhere.map { observer($0) }.joined()
            + "    }\n\n    func update(_ note: Notification) {}\n}\n"
    }

    func testBaselineTellsApartStatementsThatStartWithTheSameLine() throws {
        let project = try TemporaryDirectory()
        let three = ["keyboardWillShowNotification", "keyboardWillHideNotification", "keyboardWillChangeFrameNotification"]
        let identical = Array(repeating: "keyboardWillShowNotification", count: 5)
        try project.write("Chat.swift", Self.observerFile(viewDidLoad: three, elsewhere: identical))
        let record = try kblint("--write-baseline", "baseline.json", in: project.path)
        XCTAssertEqual(record.status, 0, record.standardError)
        XCTAssertTrue(record.standardError.contains("Wrote 8 findings"), record.standardError)

        // A new registration above the three baselined ones is the only finding reported.
        try project.write("Chat.swift", Self.observerFile(
            viewDidLoad: ["keyboardDidShowNotification"] + three, elsewhere: identical))
        let added = try kblint("--baseline", "baseline.json", "--reporter", "xcode", in: project.path)
        XCTAssertEqual(added.status, 1)
        let reported = added.standardOutput.split(separator: "\n")
        XCTAssertEqual(reported.count, 1, added.standardOutput)
        XCTAssertTrue(reported[0].hasPrefix("\(project.path)/Chat.swift:6:36: error:"), added.standardOutput)
        XCTAssertTrue(reported[0].contains("keyboardDidShowNotification"), added.standardOutput)

        // Among identical statements, one more is one new finding and one fewer is one fixed
        // entry; the registrations in viewDidLoad stay accepted.
        try project.write("Chat.swift", Self.observerFile(viewDidLoad: three, elsewhere: identical + ["keyboardWillShowNotification"]))
        let more = try kblint("--baseline", "baseline.json", "--reporter", "xcode", in: project.path)
        XCTAssertEqual(more.standardOutput.split(separator: "\n").count, 1, more.standardOutput)
        try project.write("Chat.swift", Self.observerFile(viewDidLoad: three, elsewhere: Array(identical.dropLast())))
        let fewer = try kblint("--baseline", "baseline.json", "--strict-baseline", "--reporter", "xcode", in: project.path)
        XCTAssertEqual(fewer.standardOutput, "")
        XCTAssertTrue(fewer.standardError.contains("holds 1 finding that no longer occurs"), fewer.standardError)

        // A version 1 baseline (keyed by the first line) is still read, and rewritten as version 2.
        try project.write("Chat.swift", Self.observerFile(viewDidLoad: three, elsewhere: []))
        try project.write("old.json", """
            {"version": 1, "findings": [
              {"path": "Chat.swift", "rule": "observer_token_discarded", "line": "NotificationCenter.default.addObserver(", "occurrence": 0},
              {"path": "Chat.swift", "rule": "observer_token_discarded", "line": "NotificationCenter.default.addObserver(", "occurrence": 1},
              {"path": "Chat.swift", "rule": "observer_token_discarded", "line": "NotificationCenter.default.addObserver(", "occurrence": 2}
            ]}
            """)
        let old = try kblint("--baseline", "old.json", "--write-baseline", "old.json", "--reporter", "xcode", in: project.path)
        XCTAssertEqual(old.status, 0, old.standardError)
        XCTAssertEqual(old.standardOutput, "")
        let migrated = try project.text("old.json")
        XCTAssertTrue(migrated.contains("\"version\": 2"), migrated)
        XCTAssertTrue(migrated.contains("\"declaration\": \"ChatViewController.viewDidLoad()\""), migrated)
        XCTAssertEqual(try kblint("--baseline", "old.json", "--strict", in: project.path).status, 0)
    }

    // MARK: --staged and --since

    func testStagedLintsTheIndexVersionAndReportsWorkingPaths() throws {
        let repository = try GitSandbox()
        let relative = "Sources/Chat Screen/Ünïcode 表.swift"
        try repository.write(relative, "let clean = 1\n")
        try repository.write("Sources/Other.swift", "\(Self.finding)\nlet notStaged = 1\n")
        try repository.git("add", relative)
        try repository.git("commit", "-q", "-m", "base")

        // The index has the finding; the working tree does not.
        try repository.write(relative, "\(Self.finding)\nlet staged = 1\n")
        try repository.git("add", relative)
        try repository.write(relative, "let fixedButNotStaged = 1\n")
        let fromRoot = try kblint("--staged", "--reporter", "xcode", in: repository.path)
        XCTAssertEqual(fromRoot.status, 0)
        XCTAssertEqual(fromRoot.standardOutput,
                       "\(repository.path)/\(relative):1:24: warning: 'some_rule' is not a kblint rule id (superfluous_disable_command)\n")
        XCTAssertTrue(fromRoot.standardError.contains("in 1 of 1 file"), fromRoot.standardError)
        let strict = try kblint("--staged", "--strict", "--reporter", "json", in: repository.path + "/Sources")
        XCTAssertEqual(strict.status, 1)
        // Reports name files from the repository's root, whatever folder kblint runs in.
        XCTAssertTrue(strict.standardOutput.contains("\"path\": \"Sources/Chat Screen/Ünïcode 表.swift\""), strict.standardOutput)
        // Through a symlink to the repository, paths keep the spelling of the current folder.
        let links = try TemporaryDirectory()
        try FileManager.default.createSymbolicLink(atPath: links.path + "/link", withDestinationPath: repository.path)
        let linked = try kblint("--staged", "--reporter", "json", "Chat Screen", in: links.path + "/link/Sources")
        XCTAssertTrue(linked.standardOutput.contains("\"path\": \"Sources/Chat Screen/Ünïcode 表.swift\""), linked.standardOutput)
        // Paths narrow the selection.
        XCTAssertEqual(try kblint("--staged", "--strict", "Sources/Other.swift", in: repository.path).status, 0)

        // The other way round: a clean index passes whatever the working tree holds.
        try repository.write(relative, "let stagedClean = 1\n")
        try repository.git("add", relative)
        try repository.write(relative, "\(Self.finding)\nlet dirty = 1\n")
        XCTAssertEqual(try kblint("--staged", "--strict", in: repository.path).status, 0)
    }

    func testStagedWithNothingStagedOrOutsideGit() throws {
        let repository = try GitSandbox()
        try repository.write("notes.txt", "not swift\n")
        try repository.git("add", "notes.txt")
        let nothing = try kblint("--staged", "--strict", in: repository.path)
        XCTAssertEqual(nothing.status, 0, nothing.standardError)
        XCTAssertEqual(nothing.standardOutput, "")

        // Staged files are not named by the user: 'excluded' applies to them.
        try repository.write(".kblint.yml", "excluded:\n  - Generated\n")
        try repository.write("Generated/Strings.swift", "\(Self.finding)\nlet s = 1\n")
        try repository.write("Pods/Keyboard/Vendor.swift", "\(Self.finding)\nlet v = 1\n")
        try repository.write(".github/Tool.swift", "\(Self.finding)\nlet t = 1\n")
        try repository.git("add", ".")
        XCTAssertEqual(try kblint("--staged", "--strict", in: repository.path).status, 0)

        let outside = try TemporaryDirectory()
        let notARepository = try kblint("--staged", in: outside.path)
        XCTAssertEqual(notARepository.status, 2)
        XCTAssertTrue(notARepository.standardError.contains("is not inside a git work tree"), notARepository.standardError)
        let noGit = try kblint("--staged", in: repository.path, environment: ["PATH": outside.path])
        XCTAssertEqual(noGit.status, 2)
        XCTAssertTrue(noGit.standardError.contains("git not found in PATH"), noGit.standardError)
        let conflicting = try kblint("--staged", "--fix", in: repository.path)
        XCTAssertEqual(conflicting.status, 2)
    }

    func testSinceLintsFilesChangedOnTheBranch() throws {
        let repository = try GitSandbox()
        try repository.write("Old.swift", "\(Self.finding)\nlet legacy = 1\n")
        try repository.write("Changed.swift", "let a = 1\n")
        try repository.git("add", ".")
        try repository.git("commit", "-q", "-m", "base")
        try repository.git("checkout", "-q", "-b", "feature")
        try repository.write("Changed.swift", "\(Self.finding)\nlet a = 2\n")
        try repository.write("Excluded/Generated.swift", "\(Self.finding)\nlet g = 1\n")
        try repository.write(".kblint.yml", "excluded:\n  - Excluded\n")
        try repository.git("add", ".")
        try repository.git("commit", "-q", "-m", "feature")

        let run = try kblint("--since", "main", "--reporter", "xcode", in: repository.path)
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertEqual(run.standardOutput,
                       "\(repository.path)/Changed.swift:1:24: warning: 'some_rule' is not a kblint rule id (superfluous_disable_command)\n")
        // Nothing changed since HEAD: nothing is linted (not the whole repository).
        let nothing = try kblint("--since", "HEAD", "--strict", "--reporter", "xcode", in: repository.path)
        XCTAssertEqual(nothing.status, 0, nothing.standardOutput + nothing.standardError)
        XCTAssertEqual(nothing.standardOutput, "")
        let unknown = try kblint("--since", "origin/nope", in: repository.path)
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.standardError.contains("unknown revision 'origin/nope'"), unknown.standardError)
        // The error comes before any output: no report, no summary.
        XCTAssertEqual(unknown.standardOutput, "")
        XCTAssertTrue(unknown.standardError.hasPrefix("kblint: error: unknown revision"), unknown.standardError)
        XCTAssertEqual(unknown.standardError.split(separator: "\n").count, 1, unknown.standardError)
    }

    // MARK: The pre-commit hook

    func testInstalledHookBlocksCommitsOfFindingsWithCoreHooksPath() throws {
        let repository = try GitSandbox()
        try repository.git("config", "core.hooksPath", "tools/hooks")
        try FileManager.default.createDirectory(atPath: repository.path + "/App", withIntermediateDirectories: true)
        let install = try kblint("install-hook", in: repository.path + "/App")
        XCTAssertEqual(install.status, 0, install.standardError)
        XCTAssertEqual(install.standardOutput, "Installed the kblint pre-commit hook at \(repository.path)/tools/hooks/pre-commit.\n")
        let hook = try repository.folder.text("tools/hooks/pre-commit")
        XCTAssertTrue(hook.contains("kblint='\(BinaryHarness.executable.path)'"), hook)

        func commit(_ arguments: String...) throws -> ChildProcess.Result {
            try ChildProcess(
                executable: GitSandbox.gitPath, arguments: ["commit", "-q"] + arguments, directory: repository.path,
                environment: GitSandbox.environment.merging(["PATH": "/usr/bin:/bin"]) { $1 }
            ).run()
        }
        try repository.write("App/Keyboard Ünï.swift", "\(Self.finding)\nlet inset = 1\n")
        try repository.git("add", ".")
        let blocked = try commit("-m", "with a finding")
        XCTAssertEqual(blocked.status, 1)
        // git shows a hook's standard output on its standard error.
        XCTAssertTrue(blocked.errorText.contains("App/Keyboard Ünï.swift:1:24: warning:"), blocked.errorText)
        // The refusal says how to accept the findings and how to skip the check once.
        XCTAssertTrue(blocked.errorText.contains("kblint --write-baseline kblint-baseline.json"), blocked.errorText)
        XCTAssertTrue(blocked.errorText.contains("git commit --no-verify"), blocked.errorText)

        // `git commit -a` lints the temporary index git builds for it (GIT_INDEX_FILE).
        try repository.write("App/Keyboard Ünï.swift", "let inset = 1\n")
        XCTAssertEqual(try commit("-a", "-m", "clean").status, 0)
        try repository.write("App/Keyboard Ünï.swift", "\(Self.finding)\nlet inset = 2\n")
        XCTAssertEqual(try commit("-a", "-m", "finding again").status, 1)
        XCTAssertEqual(try commit("-a", "--no-verify", "-m", "skipped").status, 0)

        let foreign = try kblint("install-hook", in: repository.path)
        XCTAssertEqual(foreign.status, 0, "its own hook is updated")
        try repository.write("tools/hooks/pre-commit", "#!/bin/sh\nexit 0\n")
        let refused = try kblint("install-hook", in: repository.path)
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(refused.standardError.contains("was not written by kblint; not overwritten (use --force"), refused.standardError)
        XCTAssertEqual(try kblint("uninstall-hook", in: repository.path).status, 2)
        XCTAssertEqual(try kblint("install-hook", "--force", in: repository.path).status, 0)
        let removed = try kblint("uninstall-hook", in: repository.path)
        XCTAssertEqual(removed.status, 0)
        XCTAssertNil(FileSystem.resolvedPath(repository.path + "/tools/hooks/pre-commit"))
        let outside = try TemporaryDirectory()
        XCTAssertEqual(try kblint("install-hook", in: outside.path).status, 2)
    }
}
