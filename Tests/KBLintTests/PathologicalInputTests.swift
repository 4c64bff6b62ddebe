import Foundation
import XCTest
import Rules
@testable import KBLint

/// Inputs no one writes on purpose, through the built binary: each run must end with a clear
/// message and the documented exit code, never hang (`BoundedRun.hangSeconds`) or crash, take
/// processor time linear in its input, and still lint the other files. Every file starts with a keyboard observer so that the whole
/// analysis runs on it, not only the lexer.
final class PathologicalInputTests: XCTestCase {
    /// Makes the byte pre-checks pass, so that every rule and the analysis see the file.
    static let keyboardPrefix = "NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillShow(_:)), name: UIResponder.keyboardWillShowNotification, object: nil); "

    /// A file that every run also lints and that has one finding, to prove the run went on.
    static let witness = """
        import UIKit
        final class Witness: UIViewController {
            @objc func keyboardWillShow(_ note: Notification) {
                let frame = (note.userInfo?[UIResponder.keyboardFrameBeginUserInfoKey] as? NSValue)?.cgRectValue ?? .zero
                view.frame.size.height -= frame.height
            }
        }

        """

    override func setUpWithError() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: BinaryHarness.executable.path),
                          "kblint executable not built next to the tests")
    }

    /// Lints `Weird.swift` with `bytes` next to the witness; returns the run.
    func lint(_ bytes: [UInt8], name: String = "Weird.swift", extra: [String] = []) throws -> BoundedRun.Result {
        let folder = try TemporaryDirectory()
        try folder.write(name, bytes: bytes)
        try folder.write("Witness.swift", Self.witness)
        let run = try BoundedRun.run(["--reporter", "xcode", "--no-color"] + extra + ["."], in: folder.path,
                                     seconds: BoundedRun.hangSeconds)
        XCTAssertTrue(run.standardOutput.contains("Witness.swift:4:"),
                      "the other file is still linted\n\(run.standardOutput)\n\(run.standardError)")
        XCTAssertFalse(run.standardError.contains("Fatal error"), run.standardError)
        return run
    }

    /// A run that read everything: findings decide between 0 and 1 (rules change; the
    /// witness alone has findings), but no file or usage error (2) and no crash.
    func assertCompleted(_ run: BoundedRun.Result, _ context: String = "", file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue([0, 1].contains(run.status), "exit \(run.status) \(context)\n\(run.standardError)", file: file, line: line)
        XCTAssertFalse(run.standardError.contains("kblint: error:"), "\(context)\n\(run.standardError)", file: file, line: line)
    }

    func keyboard(_ text: String) -> [UInt8] { Array((Self.keyboardPrefix + text).utf8) }

    func testEmptyFileAndByteOrderMarkOnly() throws {
        for bytes in [[], [0xEF, 0xBB, 0xBF], [0xEF, 0xBB, 0xBF] + Array("\n".utf8)] as [[UInt8]] {
            let run = try lint(bytes)
            assertCompleted(run)
            XCTAssertFalse(run.standardOutput.contains("Weird.swift"), run.standardOutput)
        }
    }

    func testInvalidUTF8AndNULBytesAreReportedNotFatal() throws {
        let invalid = try lint(keyboard("let a = \"\u{0}\"\n") + [0xFF, 0xFE, 0xC3, 0x28, 0x0A] + keyboard("let b = 1\n"))
        assertCompleted(invalid, "invalid_utf8 is informational")
        XCTAssertTrue(invalid.standardOutput.contains("Weird.swift:2:1:") && invalid.standardOutput.contains("invalid_utf8"),
                      invalid.standardOutput)
        let nuls = try lint(keyboard(String(repeating: "\u{0}", count: 1000)))
        assertCompleted(nuls)
    }

    func testBinaryFileNamedSwift() throws {
        // Every byte value, in a fixed pseudo-random order, 256 KB.
        var state: UInt32 = 12345
        let bytes = (0..<(256 << 10)).map { _ -> UInt8 in
            state = state &* 1_103_515_245 &+ 12345
            return UInt8(truncatingIfNeeded: state >> 16)
        }
        let run = try lint(keyboard("") + bytes)
        assertCompleted(run)
        XCTAssertTrue(run.standardOutput.contains("invalid_utf8"), run.standardOutput)
    }

    func testFiveMegabyteSingleLine() throws {
        let line = keyboard(String(repeating: "view.frame.origin.y -= keyboardFrame.height; ", count: 5_300_000 / 46))
        XCTAssertGreaterThan(line.count, 5_000_000)
        let run = try lint(line)
        assertCompleted(run)
    }

    /// Lints `text` (after the keyboard prefix) with every rule, opt-in ones included.
    func lintWithEveryRule(_ text: String, _ shape: String) throws -> BoundedRun.Result {
        let optIn = RuleRegistry.all.filter { $0.metadata.isOptIn }.flatMap { ["--enable", $0.metadata.id] }
        let folder = try TemporaryDirectory()
        try folder.write("Weird.swift", bytes: keyboard(text + "\n"))
        let run = try BoundedRun.run(["--reporter", "xcode", "--no-color"] + optIn + ["."], in: folder.path,
                                     seconds: BoundedRun.hangSeconds)
        assertCompleted(run, shape)
        return run
    }

    /// How much more processor time a run on an input `scale` times as large may take: a
    /// linear analysis takes at most `scale` times as long (its fixed start-up cost makes it
    /// less); a quadratic one `scale`² times. Generous, so that noise never decides.
    static let linearGrowthAllowance = 2.0
    /// Processor time below which differences are start-up noise.
    static let processorNoiseSeconds = 0.5

    /// Lints the shape built by `text` for `count` repetitions and for a quarter of them, and
    /// checks that processor time grows linearly: the shapes below took a release build of
    /// the quadratic analysis several seconds each, a debug build minutes. Processor time and
    /// a baseline measured in the same test keep the check independent of the machine and of
    /// its load; a run that never ends fails at `BoundedRun.hangSeconds`.
    func assertLintsInLinearTime(_ shape: String, count: Int, _ text: (Int) -> String,
                                 file: StaticString = #filePath, line: UInt = #line) throws {
        let scale = 4
        let small = try lintWithEveryRule(text(count / scale), shape)
        let large = try lintWithEveryRule(text(count), shape)
        XCTAssertGreaterThan(large.processorSeconds, 0, "\(shape): processor time is measured", file: file, line: line)
        let allowed = Double(scale) * Self.linearGrowthAllowance * small.processorSeconds + Self.processorNoiseSeconds
        XCTAssertLessThanOrEqual(large.processorSeconds, allowed,
                                 "\(shape): \(count / scale) took \(small.processorSeconds) s, \(count) took "
                                 + "\(large.processorSeconds) s of processor time: more than linear growth",
                                 file: file, line: line)
    }

    /// Each link's right-hand side ran to the end of the chain, and was scanned for values.
    func testChainedAssignmentsOnOneLine() throws {
        try assertLintsInLinearTime("a = a = …", count: 10_000) { count in
            Array(repeating: "a", count: count).joined(separator: " = ")
        }
        try assertLintsInLinearTime("a += b += …", count: 10_000) { count in
            (0..<count).map { "a\($0 % 50)" }.joined(separator: " += ")
        }
    }

    /// Every geometry member rescanned the chain before it; every call walked back over its
    /// whole receiver.
    func testLongMemberAndCallChains() throws {
        try assertLintsInLinearTime("x = frame.size.height…", count: 2_500) { count in
            "x = frame." + Array(repeating: "size.height.origin.y", count: count).joined(separator: ".")
        }
        try assertLintsInLinearTime("x = a.f().f()…", count: 20_000) { count in
            "x = a" + String(repeating: ".f()", count: count)
        }
    }

    /// The value of each closure's assignment scanned every closure nested inside it.
    func testNestedClosuresEachAssigning() throws {
        try assertLintsInLinearTime("{ a = { b = … } }", count: 5_000) { count in
            "x = " + (0..<count).map { "{ a\($0 % 50) = " }.joined() + "1" + String(repeating: " }", count: count)
        }
    }

    /// Every inset write searched all assignments; every registration searched all handlers
    /// and every type for subclasses.
    func testRepeatedWritesAndTypes() throws {
        try assertLintsInLinearTime("inset writes", count: 5_000) { count in
            "final class Screen: UIViewController {\n    @objc func keyboardWillShow(_ notification: Notification) {\n"
                + "        let frame = (notification.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? NSValue)?.cgRectValue ?? .zero\n"
                + String(repeating: "        scrollView.contentInset.bottom = frame.height\n", count: count) + "    }\n}"
        }
        try assertLintsInLinearTime("types", count: 2_000) { count in
            (0..<count).map { index in
                "final class C\(index): UIViewController {\n    override func viewDidLoad() { super.viewDidLoad(); "
                    + "NotificationCenter.default.addObserver(self, selector: #selector(k(_:)), name: UIResponder.keyboardWillShowNotification, object: nil) }\n"
                    + "    @objc func k(_ n: Notification) { let f = (n.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? NSValue)?.cgRectValue ?? .zero; view.frame.origin.y -= f.height }\n}"
            }.joined(separator: "\n")
        }
    }

    /// Each of thousands of findings on one long line held its own copy of the line and
    /// normalized and hashed it for its fingerprint.
    func testThousandsOfFindingsOnOneLongLine() throws {
        try assertLintsInLinearTime("findings on one long line", count: 2_000) { count in
            "final class Screen: UIViewController { @objc func keyboardWillShow(_ notification: Notification) { "
                + "let f = (notification.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? NSValue)?.cgRectValue ?? .zero; "
                + String(repeating: "view.frame.origin.y -= f.height; ", count: count) + "} }"
        }
    }

    func testFiftyThousandNestedBracketsClosuresAndInterpolations() throws {
        let depth = 50_000
        let shapes: [(open: String, close: String)] = [
            ("(", ")"), ("[", "]"), ("{", "}"), ("{ _ in ", "}"), ("foo { ", " }"),
            ("\"\\(", ")\""), ("#\"\\#(", ")\"#"), ("a<", ">"), ("/* ", " */"),
        ]
        for shape in shapes {
            let open = String(repeating: shape.open, count: depth)
            for closed in [true, false] {
                let text = "let x = " + open + "1" + (closed ? String(repeating: shape.close, count: depth) : "") + "\n"
                let run = try lint(keyboard(text))
                assertCompleted(run, "\(shape.open) closed: \(closed)")
            }
        }
    }

    func testUnterminatedConstructs() throws {
        let endings = [
            "let s = \"abc", "let s = \"\"\"\nabc", "/* never closed /* nested", "let r = #\"raw",
            "let r = ##\"\"\"\nraw", "let i = \"\\(keyboardFrame", "let re = #/abc", "let re = /abc",
            "let `name", "#if os(iOS)\nlet a = 1", "func f() {", "let c = '", "@", "#", "\\", "0x", "1e", "let a = 0b",
        ]
        for ending in endings {
            let run = try lint(keyboard(ending))
            assertCompleted(run, ending)
        }
    }

    func testFileListNamingAMissingFileReportsItAndLintsTheRest() throws {
        let folder = try TemporaryDirectory()
        try folder.write("Witness.swift", Self.witness)
        try folder.write("Gone.swift", "let a = 1\n")
        try folder.write("list.txt", "Witness.swift\nGone.swift\n")
        try FileManager.default.removeItem(atPath: folder.path + "/Gone.swift")
        let run = try BoundedRun.run(["--reporter", "xcode", "--file-list", "list.txt"], in: folder.path)
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.standardError.contains("Gone.swift: no such file or directory"), run.standardError)
        XCTAssertTrue(run.standardOutput.contains("Witness.swift:4:"), run.standardOutput)
    }

    /// A file discovered and then deleted before it is read (the race cannot be staged with
    /// the binary, so the driver gets a target that no longer exists).
    func testFileDeletedAfterDiscoveryIsAnErrorForThatFileOnly() throws {
        let folder = try TemporaryDirectory()
        let kept = try folder.write("Witness.swift", Self.witness)
        let rules = RuleRegistry.all.map { rule in
            RuleSelection(rule: rule, severity: nil, options: Dictionary(
                uniqueKeysWithValues: rule.metadata.options.map { ($0.name, $0.defaultValue) }))
        }
        let plan = FilePlan(rules: rules, deploymentTarget: nil)
        let driver = LintDriver(jobs: 2, fixMode: .report, knownRuleIDs: [], closeMatches: { _, _ in [] }, progressSink: nil)
        let outcome = driver.run([
            LintInput(target: LintTarget(path: "Gone.swift", absolutePath: folder.path + "/Gone.swift"), plan: plan),
            LintInput(target: LintTarget(path: "Witness.swift", absolutePath: kept), plan: plan),
        ])
        XCTAssertEqual(outcome.files[0].errors.map(\.description), ["Gone.swift: cannot open: No such file or directory"])
        XCTAssertFalse(outcome.files[0].linted)
        XCTAssertTrue(outcome.files[1].linted)
        XCTAssertFalse(outcome.files[1].findings.isEmpty)
    }

    func testUnreadableFile() throws {
        let folder = try TemporaryDirectory()
        try folder.write("Witness.swift", Self.witness)
        let locked = try folder.write("Locked.swift", "let a = 1\n")
        chmod(locked, 0)
        defer { chmod(locked, 0o644) }
        if open(locked, O_RDONLY) >= 0 {
            // Root reads anything: a dangling symbolic link named on the command line is the
            // unreadable file instead.
            try FileManager.default.createSymbolicLink(atPath: folder.path + "/Dangling.swift", withDestinationPath: "Missing.swift")
            let run = try BoundedRun.run(["--reporter", "xcode", "Dangling.swift", "Witness.swift"], in: folder.path)
            XCTAssertEqual(run.status, 2)
            XCTAssertTrue(run.standardError.contains("Dangling.swift: broken symbolic link"), run.standardError)
            XCTAssertTrue(run.standardOutput.contains("Witness.swift:4:"), run.standardOutput)
            return
        }
        let run = try BoundedRun.run(["--reporter", "xcode", "."], in: folder.path)
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.standardError.contains("Locked.swift: cannot open: Permission denied"), run.standardError)
        XCTAssertTrue(run.standardOutput.contains("Witness.swift:4:"), run.standardOutput)
    }

    func testDirectoryNamedLikeASwiftFileIsWalked() throws {
        let folder = try TemporaryDirectory()
        try folder.write("Odd.swift/Witness.swift", Self.witness)
        let run = try BoundedRun.run(["--reporter", "xcode", "Odd.swift"], in: folder.path)
        assertCompleted(run)
        XCTAssertTrue(run.standardOutput.contains("Witness.swift:4:"), run.standardOutput)
    }

    func testDirectorySymlinkLoopsAreWalkedOnce() throws {
        let folder = try TemporaryDirectory()
        try folder.write("A/Witness.swift", Self.witness)
        try FileManager.default.createDirectory(atPath: folder.path + "/B", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/A/up", withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/A/toB", withDestinationPath: "../B")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/B/toA", withDestinationPath: "../A")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/self", withDestinationPath: "self")
        let run = try BoundedRun.run(["--reporter", "xcode", "."], in: folder.path)
        assertCompleted(run)
        XCTAssertEqual(run.standardOutput.components(separatedBy: "Witness.swift:4:").count - 1, 1, run.standardOutput)
    }

    func testFIFOIsRefusedWithoutBlocking() throws {
        let folder = try TemporaryDirectory()
        try folder.write("Witness.swift", Self.witness)
        XCTAssertEqual(mkfifo(folder.path + "/Pipe.swift", 0o644), 0)
        // Found in a folder: not a source file, skipped.
        let walked = try BoundedRun.run(["--reporter", "xcode", "."], in: folder.path)
        assertCompleted(walked)
        XCTAssertTrue(walked.standardOutput.contains("Witness.swift:4:"), walked.standardOutput)
        // Named explicitly: an error for that path, the others still linted.
        let named = try BoundedRun.run(["--reporter", "xcode", "Pipe.swift", "Witness.swift"], in: folder.path)
        XCTAssertEqual(named.status, 2)
        XCTAssertTrue(named.standardError.contains("Pipe.swift: not a regular file"), named.standardError)
        XCTAssertTrue(named.standardOutput.contains("Witness.swift:4:"), named.standardOutput)
    }
}
