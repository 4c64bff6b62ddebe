import Lexer
@testable import Rules
import XCTest
@testable import KBLint

final class BaselineTests: XCTestCase {
    /// Findings of `rule` at every occurrence of `needle` in `text`, for a file at `absolutePath`.
    func findings(
        in text: String, at absolutePath: String, shownAs path: String? = nil,
        rule: String = "sample_rule", marking needle: String
    ) -> [Finding] {
        let file = SourceFile(path: absolutePath, text: text)
        let bytes = Array(needle.utf8)
        var result: [Finding] = []
        var start = 0
        while start + bytes.count <= file.bytes.count {
            if Array(file.bytes[start..<start + bytes.count]) == bytes {
                let diagnostic = Diagnostic(
                    ruleID: rule, severity: .warning, message: "message for \(needle)",
                    range: start..<start + bytes.count, suggestion: "s")
                result.append(Finding(
                    diagnostic: diagnostic, lines: LineTexts(file), path: path ?? absolutePath,
                    absolutePath: absolutePath))
                start += bytes.count
            } else {
                start += 1
            }
        }
        return result
    }

    func testEntriesSurviveLineShiftsReindentationAndUnrelatedEdits() throws {
        let folder = try TemporaryDirectory()
        let source = try folder.write("Sources/View.swift", "")
        let location = BaselineLocation(file: "kblint-baseline.json", currentDirectory: folder.path)
        let before = findings(in: "let a = 1\nview.frame = kb\n", at: source, marking: "view.frame")
        let baseline = Baseline(findings: before, location: location)

        let after = findings(
            in: "// a new comment\nimport UIKit\n\nlet a = 2\n    view.frame  =\tkb\n",
            at: source, marking: "view.frame")
        let comparison = baseline.compare(after, lintedFiles: [source], location: location)
        XCTAssertEqual(comparison.newFindings, [])
        XCTAssertEqual(comparison.acceptedCount, 1)
        XCTAssertEqual(comparison.fixedEntries, [])

        let changed = findings(in: "view.frame = otherKB\n", at: source, marking: "view.frame")
        let changedComparison = baseline.compare(changed, lintedFiles: [source], location: location)
        XCTAssertEqual(changedComparison.newFindings, changed, "an edited line is a new finding")
        XCTAssertEqual(changedComparison.fixedEntries, baseline.entries)
    }

    func testOneMoreDuplicateIsNewAndOneFewerIsFixed() throws {
        let folder = try TemporaryDirectory()
        let source = try folder.write("A.swift", "")
        let location = BaselineLocation(file: folder.path + "/baseline.json", currentDirectory: "/")
        let two = findings(in: "f(kb)\nf(kb)\n", at: source, marking: "f(kb)")
        let baseline = Baseline(findings: two, location: location)
        XCTAssertEqual(baseline.entries.map(\.identity.occurrence), [0, 1])

        let three = findings(in: "f(kb)\nf(kb)\nf(kb)\n", at: source, marking: "f(kb)")
        let grown = baseline.compare(three, lintedFiles: [source], location: location)
        XCTAssertEqual(grown.newFindings.map(\.start.line), [3])
        XCTAssertEqual(grown.acceptedCount, 2)

        let one = findings(in: "f(kb)\n", at: source, marking: "f(kb)")
        let shrunk = baseline.compare(one, lintedFiles: [source], location: location)
        XCTAssertEqual(shrunk.newFindings, [])
        XCTAssertEqual(shrunk.fixedEntries.map(\.identity.occurrence), [1])
        XCTAssertEqual(baseline.removing(shrunk.fixedEntries).entries.map(\.identity.occurrence), [0])
    }

    /// A merged finding whose covered finding sits on another line (the observer families
    /// join a removal with the registration it throws away) matches a baseline written
    /// before the merge through both entries, and leaves neither fixed.
    func testMergedFindingsMatchTheEntriesOfEveryFindingTheyStandFor() throws {
        let folder = try TemporaryDirectory()
        let text = "addObserver(kb)\nremoveObserver(self)\nother(kb)\n"
        let source = try folder.write("Chat.swift", text)
        let location = BaselineLocation(file: folder.path + "/baseline.json", currentDirectory: "/")
        let removal = findings(in: text, at: source, rule: "observer_removed_greedily", marking: "removeObserver(self)")
        let registration = findings(in: text, at: source, rule: "keyboard_observer_lifecycle_unbalanced", marking: "addObserver(kb)")
        let unrelated = findings(in: text, at: source, rule: "keyboard_frame_screen_space", marking: "other(kb)")
        let beforeMerging = Baseline(findings: removal + registration + unrelated, location: location)

        let file = SourceFile(path: source, text: text)
        var diagnostic = Diagnostic(ruleID: "observer_removed_greedily", severity: .warning, message: "m",
                                    range: removal[0].range, suggestion: "")
        diagnostic.covered = [CoveredFinding(ruleID: "keyboard_observer_lifecycle_unbalanced",
                                             range: registration[0].range, message: "m")]
        let merged = Finding(diagnostic: diagnostic, lines: LineTexts(file), path: source, absolutePath: source)
        XCTAssertEqual(merged.covered.map(\.start.line), [1])

        let comparison = beforeMerging.compare([merged] + unrelated, lintedFiles: [source], location: location)
        XCTAssertEqual(comparison.newFindings, [])
        XCTAssertEqual(comparison.acceptedCount, 2)
        XCTAssertEqual(comparison.fixedEntries, [])

        // Only the covered rule's entry: the merged finding is still accepted.
        let coveredOnly = Baseline(findings: registration, location: location)
        let accepted = coveredOnly.compare([merged], lintedFiles: [source], location: location)
        XCTAssertEqual(accepted.newFindings, [])
        XCTAssertEqual(accepted.fixedEntries, [])

        // The covered finding gone from the defect: its entry is fixed, the removal's holds.
        let alone = Finding(diagnostic: Diagnostic(ruleID: "observer_removed_greedily", severity: .warning, message: "m",
                                                   range: removal[0].range, suggestion: ""),
                            lines: LineTexts(file), path: source, absolutePath: source)
        let shrunk = beforeMerging.compare([alone] + unrelated, lintedFiles: [source], location: location)
        XCTAssertEqual(shrunk.newFindings, [])
        XCTAssertEqual(shrunk.fixedEntries.map(\.identity.place.ruleID), ["keyboard_observer_lifecycle_unbalanced"])
    }

    func testPathsAreRelativeToTheBaselineFolderWhateverTheCurrentDirectory() throws {
        let folder = try TemporaryDirectory()
        let source = try folder.write("App/Sources/View.swift", "")
        try folder.write("App/Config/.keep", "")
        let fromRoot = BaselineLocation(file: "App/Config/baseline.json", currentDirectory: folder.path)
        let fromSources = BaselineLocation(file: "../Config/baseline.json", currentDirectory: folder.path + "/App/Sources")
        XCTAssertEqual(fromRoot, fromSources)
        XCTAssertEqual(fromRoot.key(for: source), "../Sources/View.swift")

        let atRoot = BaselineLocation(file: "baseline.json", currentDirectory: folder.path)
        XCTAssertEqual(atRoot.key(for: source), "App/Sources/View.swift")
        // A symlinked spelling of the same folder gives the same key.
        let link = folder.path + "/link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: folder.path + "/App")
        XCTAssertEqual(atRoot.key(for: link + "/Sources/View.swift"), "App/Sources/View.swift")
        XCTAssertEqual(atRoot.key(for: link + "/Sources/NotYetSaved.swift"), "App/Sources/NotYetSaved.swift")

        // The same findings shown with different relative paths match the same entries.
        let text = "view.frame = kb\n"
        let recorded = Baseline(
            findings: findings(in: text, at: source, shownAs: "App/Sources/View.swift", marking: "view"),
            location: fromRoot)
        let again = findings(in: text, at: source, shownAs: "View.swift", marking: "view")
        XCTAssertEqual(recorded.compare(again, lintedFiles: [source], location: fromSources).newFindings, [])
    }

    func testEntriesOfFilesNotLintedAreKeptAndDeletedFilesAreFixed() throws {
        let folder = try TemporaryDirectory()
        let kept = try folder.write("Kept.swift", "")
        let deleted = try folder.write("Deleted.swift", "")
        let location = BaselineLocation(file: "baseline.json", currentDirectory: folder.path)
        let baseline = Baseline(
            findings: findings(in: "a()\n", at: kept, marking: "a()")
                + findings(in: "b()\n", at: deleted, marking: "b()"),
            location: location)
        try FileManager.default.removeItem(atPath: deleted)

        let comparison = baseline.compare([], lintedFiles: [], location: location)
        XCTAssertEqual(comparison.fixedEntries.map(\.identity.place.path), ["Deleted.swift"])
        XCTAssertEqual(baseline.removing(comparison.fixedEntries).entries.map(\.identity.place.path), ["Kept.swift"])
    }

    func testFileRoundTripsSortedAndIsByteStable() throws {
        let folder = try TemporaryDirectory()
        let zed = try folder.write("Sources/Zed.swift", "")
        let alpha = try folder.write("Sources/Ålpha ü.swift", "")
        let location = BaselineLocation(file: "baseline.json", currentDirectory: folder.path)
        let all = findings(in: "x()\n", at: zed, rule: "rule_b", marking: "x()")
            + findings(in: "let s = \"q\\\"\"; x()\n", at: alpha, rule: "rule_a", marking: "x()")
            + findings(in: "x()\n", at: zed, rule: "rule_a", marking: "x()")
        let baseline = Baseline(findings: all, location: location)
        try baseline.write(to: location)

        let text = try folder.text("baseline.json")
        XCTAssertEqual(try Baseline.read(from: location), baseline)
        XCTAssertEqual(Baseline(findings: all.reversed(), location: location).rendered(), text)
        XCTAssertTrue(text.hasPrefix("{\n  \"version\": 2,\n"))
        XCTAssertTrue(text.hasSuffix("}\n"))
        let paths = baseline.entries.map(\.identity.place.path)
        XCTAssertEqual(paths, ["Sources/Zed.swift", "Sources/Zed.swift", "Sources/Ålpha ü.swift"])
        XCTAssertEqual(baseline.entries.map(\.identity.place.ruleID), ["rule_a", "rule_b", "rule_a"])
        XCTAssertTrue(text.contains("\"line\": \"let s = \\\"q\\\\\\\"\\\"; x()\""), text)
    }

    func testBrokenFilesAreTypedErrors() throws {
        let folder = try TemporaryDirectory()
        let location = BaselineLocation(file: "baseline.json", currentDirectory: folder.path)
        let cases: [(String, String)] = [
            ("", "not valid JSON"),
            ("{\"version\": 1, \"findings\": [", "not valid JSON"),
            ("[1, 2]", "expected a JSON object"),
            ("{\"findings\": []}", "'version' is missing"),
            ("{\"version\": true, \"findings\": []}", "'version' is missing"),
            ("{\"version\": 3, \"findings\": []}", "baseline version 3 is not supported"),
            ("{\"version\": 2, \"findings\": [{\"path\": \"a\", \"rule\": \"r\", \"line\": \"l\", \"occurrence\": 0}]}", "needs 'declaration' and 'statement'"),
            ("{\"version\": 1}", "'findings' is missing"),
            ("{\"version\": 1, \"findings\": [{\"path\": \"a\", \"rule\": \"r\", \"line\": \"l\"}]}", "findings[0] needs"),
            ("{\"version\": 1, \"findings\": [{\"path\": \"a\", \"rule\": \"r\", \"line\": \"l\", \"occurrence\": -1}]}", "findings[0] needs"),
        ]
        for (text, expected) in cases {
            try folder.write("baseline.json", text)
            XCTAssertThrowsError(try Baseline.read(from: location), text) { error in
                let description = String(describing: error)
                XCTAssertTrue(description.hasPrefix(location.file + ": "), description)
                XCTAssertTrue(description.contains(expected), "\(text) → \(description)")
            }
        }
        try folder.write("baseline.json", bytes: [0xFF, 0xFE, 0x00, 0x7B])
        XCTAssertThrowsError(try Baseline.read(from: location))

        let missing = BaselineLocation(file: "missing.json", currentDirectory: folder.path)
        XCTAssertThrowsError(try Baseline.read(from: missing)) { error in
            XCTAssertTrue(String(describing: error).contains("create it with --write-baseline"), "\(error)")
        }
        let folderAsFile = BaselineLocation(file: ".", currentDirectory: folder.path)
        XCTAssertThrowsError(try Baseline.read(from: folderAsFile))
        XCTAssertThrowsError(try Baseline(entries: []).write(to: BaselineLocation(
            file: "no/such/folder/baseline.json", currentDirectory: folder.path)))
    }

    func testEmptyBaselineAcceptsNothing() throws {
        let folder = try TemporaryDirectory()
        let source = try folder.write("A.swift", "")
        let location = BaselineLocation(file: "baseline.json", currentDirectory: folder.path)
        try Baseline(entries: []).write(to: location)
        XCTAssertEqual(try folder.text("baseline.json"), "{\n  \"version\": 2,\n  \"note\": \"\(Baseline.note)\",\n  \"findings\": []\n}\n")
        let all = findings(in: "a()\n", at: source, marking: "a()")
        XCTAssertEqual(try Baseline.read(from: location).compare(all, lintedFiles: [source], location: location).newFindings, all)
    }
}
