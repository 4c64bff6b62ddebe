import Foundation
import XCTest
@testable import KBLint
@testable import Rules

/// `--fix` under real-world conditions: one file reached twice, files changing while a run
/// fixes them, concurrent runs, and files whose permissions, owner, links or extended
/// attributes a replacement must not change.
final class FixReliabilityTests: XCTestCase {
    /// A controller that shows an accessory but cannot become first responder: the fix
    /// inserts one `canBecomeFirstResponder` override.
    static let chat = """
        import UIKit

        final class ChatViewController: UIViewController {
            private lazy var composer = ComposerBar()
            override var inputAccessoryView: UIView? { composer }
        }

        """

    func overrides(_ path: String) throws -> Int {
        try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "canBecomeFirstResponder").count - 1
    }

    func fix(_ arguments: [String], in directory: String) -> ToolRun {
        runTool(["--fix", "--jobs", "1", "--reporter", "json"] + arguments, in: directory, rules: RuleRegistry.all)
    }

    // MARK: One file, fixed once

    func testSymlinkToAFileInTheTreeIsFixedAndReportedOnce() throws {
        let tree = try TemporaryDirectory()
        let source = try tree.write("src/Chat.swift", Self.chat)
        try FileManager.default.createDirectory(atPath: tree.path + "/links", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: tree.path + "/links/Chat.swift", withDestinationPath: "../src/Chat.swift")
        let run = fix(["."], in: tree.path)
        XCTAssertEqual(try overrides(source), 1, run.standardError)
        XCTAssertTrue(run.standardError.contains("Fixed 1 finding ("), run.standardError)
        XCTAssertTrue(run.standardError.contains(") in 1 file."), run.standardError)
        XCTAssertFalse(run.standardOutput.contains("links/Chat.swift"), "reported under the path without symlinks")
        let report = runTool(["--reporter", "xcode", "."], in: tree.path, rules: RuleRegistry.all)
        XCTAssertTrue(report.standardError.contains("in 1 of 1 file"), report.standardError)
    }

    func testSymlinkedFolderGivenAsASecondPathIsFixedOnce() throws {
        let tree = try TemporaryDirectory()
        let source = try tree.write("src/Chat.swift", Self.chat)
        try FileManager.default.createSymbolicLink(atPath: tree.path + "/alias", withDestinationPath: "src")
        let run = fix(["src", "alias"], in: tree.path)
        XCTAssertEqual(try overrides(source), 1, run.standardError)
    }

    func testHardLinkedPathsAreCheckedOnce() throws {
        let tree = try TemporaryDirectory()
        let source = try tree.write("A.swift", Self.chat)
        XCTAssertEqual(link(source, tree.path + "/B.swift"), 0)
        let report = runTool(["--reporter", "xcode", "."], in: tree.path, rules: RuleRegistry.all)
        XCTAssertTrue(report.standardError.contains("in 1 of 1 file"), report.standardError)
    }

    /// Runs the driver on one file, calling `edit` between the passes.
    func runDriver(on path: String, shownAs shown: String, edit: @escaping @Sendable () -> Void) -> LintDriver.Outcome {
        let rule = AccessoryMissingCanBecomeFirstResponder.self
        let plan = FilePlan(
            rules: [RuleSelection(rule: rule, severity: nil, options: [:])], deploymentTarget: nil)
        var driver = LintDriver(
            jobs: 1, fixMode: .write(includingUnsafe: false), knownRuleIDs: [rule.metadata.id],
            closeMatches: { _, _ in [] }, progressSink: nil)
        driver.betweenPasses = edit
        return driver.run([LintInput(target: LintTarget(path: shown, absolutePath: path), plan: plan)])
    }

    func testFileFixedBetweenThePassesIsNotFixedAgain() throws {
        let tree = try TemporaryDirectory()
        let source = try tree.write("Chat.swift", Self.chat)
        // Another run (or the user) adds the override after pass 1 read the file.
        let fixed = Self.chat.replacingOccurrences(
            of: "    override var inputAccessoryView",
            with: "    override var canBecomeFirstResponder: Bool { true }\n    override var inputAccessoryView")
        let outcome = runDriver(on: source, shownAs: "Chat.swift") { try? Data(fixed.utf8).write(to: URL(fileURLWithPath: source)) }
        XCTAssertEqual(try overrides(source), 1)
        XCTAssertEqual(outcome.files[0].fixesApplied, 0)
        XCTAssertEqual(outcome.files[0].errors, [])
    }

    func testFileEditedBetweenThePassesIsFixedFromItsNewBytes() throws {
        let tree = try TemporaryDirectory()
        let source = try tree.write("Chat.swift", Self.chat)
        let edited = "// edited meanwhile\n" + Self.chat
        let outcome = runDriver(on: source, shownAs: "Chat.swift") { try? Data(edited.utf8).write(to: URL(fileURLWithPath: source)) }
        let text = try String(contentsOfFile: source, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("// edited meanwhile\n"), text)
        XCTAssertEqual(try overrides(source), 1)
        XCTAssertEqual(outcome.files[0].fixesApplied, 1)
    }

    func testAFileLockedByAnotherRunIsNotWritten() throws {
        let tree = try TemporaryDirectory()
        let source = try tree.write("Chat.swift", Self.chat)
        let other = open(source, O_RDONLY)
        defer { close(other) }
        XCTAssertEqual(flock(other, LOCK_EX), 0)
        XCTAssertThrowsError(try FileReplacement.replace(
            source, shownAs: "Chat.swift", expecting: Array(Self.chat.utf8), with: Array("x\n".utf8))) { error in
            XCTAssertTrue("\(error)".contains("being fixed by another kblint run"), "\(error)")
        }
        XCTAssertEqual(try String(contentsOfFile: source, encoding: .utf8), Self.chat)
    }

    func testAFileReplacedAfterItWasOpenedIsAConflict() throws {
        let tree = try TemporaryDirectory()
        let source = try tree.write("Chat.swift", Self.chat)
        XCTAssertThrowsError(try FileReplacement.replace(
            source, shownAs: "Chat.swift", expecting: Array("older\n".utf8), with: Array("x\n".utf8))) { error in
            XCTAssertTrue("\(error)".contains("changed while kblint was fixing it"), "\(error)")
        }
        XCTAssertEqual(try String(contentsOfFile: source, encoding: .utf8), Self.chat)
    }

    /// Two runs over the same project at once: every file ends with one override, and a run
    /// that lost a race says so.
    func testConcurrentRunsNeverInsertTwice() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: BinaryHarness.executable.path),
                          "kblint executable not built next to the tests")
        let tree = try TemporaryDirectory()
        let count = 300
        for index in 0..<count {
            try tree.write("App/Chat\(index).swift", Self.chat.replacingOccurrences(of: "ChatViewController", with: "Chat\(index)Controller"))
        }
        let root = tree.path
        let group = DispatchGroup()
        nonisolated(unsafe) var results: [(status: Int32, standardOutput: String, standardError: String)?] = [nil, nil]
        for run in 0..<2 {
            group.enter()
            DispatchQueue.global().async {
                results[run] = try? BinaryHarness.run(["--fix", "--quiet", "--reporter", "summary", "App"], in: root)
                group.leave()
            }
        }
        group.wait()
        for index in 0..<count {
            XCTAssertEqual(try overrides(tree.path + "/App/Chat\(index).swift"), 1, "App/Chat\(index).swift")
        }
        for result in results {
            let result = try XCTUnwrap(result)
            for line in result.standardError.split(separator: "\n") where line.contains("error") {
                XCTAssertTrue(line.contains("changed while kblint was fixing it") || line.contains("being fixed by another kblint run"),
                              String(line))
            }
        }
    }

    // MARK: What a replacement keeps

    func testReadOnlyFileIsRefused() throws {
        let tree = try TemporaryDirectory()
        let source = try tree.write("Chat.swift", Self.chat)
        XCTAssertEqual(chmod(source, 0o444), 0)
        let run = fix(["."], in: tree.path)
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.standardError.contains("Chat.swift: read-only; not fixed"), run.standardError)
        XCTAssertEqual(try String(contentsOfFile: source, encoding: .utf8), Self.chat)
        XCTAssertEqual(try FileSystem.status(of: source).permissions, 0o444)
    }

    func testFileWithTwoHardLinksIsRefusedAndKeepsItsLinks() throws {
        let tree = try TemporaryDirectory()
        let source = try tree.write("App/Chat.swift", Self.chat)
        XCTAssertEqual(link(source, tree.path + "/Copy.swift.txt"), 0)
        let run = fix(["App"], in: tree.path)
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.standardError.contains("App/Chat.swift: has 2 hard links; not fixed"), run.standardError)
        XCTAssertEqual(try FileSystem.status(of: source).identity, try FileSystem.status(of: tree.path + "/Copy.swift.txt").identity)
        XCTAssertEqual(try String(contentsOfFile: source, encoding: .utf8), Self.chat)
    }

    func testOwnerGroupAndExtendedAttributesAreKept() throws {
        let tree = try TemporaryDirectory()
        let source = try tree.write("Chat.swift", Self.chat)
        let descriptor = open(source, O_RDONLY)
        let attributeSet = ExtendedAttributes.set(descriptor, Array("user.kblint-test".utf8CString), Array("kept".utf8), 4) == 0
        close(descriptor)
        let owned = geteuid() == 0 && chown(source, 65534, 65534) == 0
        try XCTSkipUnless(attributeSet || owned, "neither extended attributes nor a change of owner are possible here")
        let run = fix(["."], in: tree.path)
        XCTAssertEqual(try overrides(source), 1, run.standardError)
        var info = stat()
        XCTAssertEqual(stat(source, &info), 0)
        if owned {
            XCTAssertEqual(info.st_uid, 65534)
            XCTAssertEqual(info.st_gid, 65534)
        }
        if attributeSet {
            let fixed = open(source, O_RDONLY)
            defer { close(fixed) }
            var value = [UInt8](repeating: 0, count: 16)
            let size = value.withUnsafeMutableBytes {
                ExtendedAttributes.get(fixed, Array("user.kblint-test".utf8CString), $0.baseAddress, 16)
            }
            XCTAssertEqual(size, 4)
            XCTAssertEqual(Array(value.prefix(4)), Array("kept".utf8))
        }
    }
}
