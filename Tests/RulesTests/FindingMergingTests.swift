import Lexer
import XCTest
@testable import Rules

/// One finding per defect: findings of one family on one line (or of the observer family
/// pointing at each other) fold into the most specific one, which names the others.
final class FindingMergingTests: XCTestCase {
    let file = SourceFile(path: "M.swift", text: """
        scrollView.contentInset = UIEdgeInsets(top: 0, left: 0, bottom: frame.height, right: 0)
        UIView.animate(withDuration: 0.3) { self.view.layoutIfNeeded() }
        NotificationCenter.default.addObserver(self, selector: #selector(moved), name: name, object: nil)
        NotificationCenter.default.removeObserver(self)

        """)

    /// A diagnostic of `rule` on the first occurrence of `text`.
    func finding(_ rule: String, _ text: String, related: [String] = []) -> Diagnostic {
        Diagnostic(ruleID: rule, severity: .warning, message: "\(rule) message", range: range(of: text),
                   suggestion: "", related: related.map { RelatedLocation(range: range(of: $0), message: "here") })
    }

    func range(of text: String) -> Range<Int> {
        let source = String(decoding: file.bytes, as: UTF8.self)
        let found = source.range(of: text)!
        let start = source.utf8.distance(from: source.startIndex, to: found.lowerBound)
        return start..<(start + text.utf8.count)
    }

    func testFindingsOfOneFamilyOnOneLineFoldIntoTheMostSpecific() {
        let merged = FindingMerging.merge([
            finding("content_inset_reset_to_zero", "UIEdgeInsets(top: 0, left: 0, bottom: frame.height, right: 0)"),
            finding("keyboard_inset_ignores_safe_area", "scrollView.contentInset"),
            finding("keyboard_height_not_overlap", "frame.height"),
            finding("keyboard_frame_screen_space", "frame.height"),
        ], in: file)
        XCTAssertEqual(merged.map(\.ruleID), ["keyboard_frame_screen_space"])
        XCTAssertEqual(merged[0].covers, ["content_inset_reset_to_zero", "keyboard_inset_ignores_safe_area", "keyboard_height_not_overlap"])
        XCTAssertEqual(merged[0].related.map(\.message).first, "also `content_inset_reset_to_zero`: content_inset_reset_to_zero message")
        XCTAssertEqual(merged[0].message, "keyboard_frame_screen_space message")
    }

    func testCurveAndDurationOnOneCallAreOneFinding() {
        let merged = FindingMerging.merge([
            finding("keyboard_duration_hardcoded", "0.3"),
            finding("keyboard_curve_mismatch", "animate"),
        ], in: file)
        XCTAssertEqual(merged.map(\.ruleID), ["keyboard_curve_mismatch"])
        XCTAssertEqual(merged[0].covers, ["keyboard_duration_hardcoded"])
    }

    func testRepeatsOfOneRuleOnOneLineAreOneFinding() {
        let merged = FindingMerging.merge([
            finding("keyboard_math_uses_main_screen", "scrollView"),
            finding("keyboard_math_uses_main_screen", "frame.height"),
        ], in: file)
        XCTAssertEqual(merged.count, 1)
        XCTAssertEqual(merged[0].covers, [], "a repeat of the finding's own rule is no other rule")
        XCTAssertEqual(merged[0].covered.count, 1)
    }

    func testRepeatsKeepTheirFixesAndStatementsStaySeparate() {
        let file = SourceFile(path: "F.swift", text: "let h = a.contentInset.top - a.contentInset.bottom; b(); c()\n")
        func at(_ offset: Int, _ length: Int, fix: Bool) -> Diagnostic {
            Diagnostic(ruleID: "visible_height_uses_content_inset", severity: .warning, message: "m", range: offset..<(offset + length),
                       suggestion: "", fix: fix ? Fix(.safe, edits: [Edit(range: offset..<(offset + length), replacement: "x")]) : nil)
        }
        let merged = FindingMerging.merge([at(10, 12, fix: true), at(31, 12, fix: true), at(53, 1, fix: false)], in: file)
        XCTAssertEqual(merged.count, 2, "the finding after `;` is another statement")
        XCTAssertEqual(merged[0].fix?.edits.map(\.range), [10..<22, 31..<43])
    }

    func testUnrelatedRulesAndOtherLinesStaySeparate() {
        let merged = FindingMerging.merge([
            finding("keyboard_frame_screen_space", "frame.height"),
            finding("keyboard_guide_with_inset_edits", "scrollView.contentInset"),
            finding("keyboard_duration_hardcoded", "0.3"),
            finding("keyboard_height_not_overlap", "self.view"),
        ], in: file)
        XCTAssertEqual(merged.map(\.ruleID), [
            "keyboard_frame_screen_space", "keyboard_guide_with_inset_edits", "keyboard_duration_hardcoded",
            "keyboard_height_not_overlap",
        ])
        XCTAssertTrue(merged.allSatisfy(\.covered.isEmpty))
    }

    func testTheGreedyRemovalCoversTheObserversItThrowsAway() {
        let merged = FindingMerging.merge([
            finding("keyboard_observer_lifecycle_unbalanced", "addObserver", related: ["removeObserver"]),
            finding("observer_removed_greedily", "removeObserver", related: ["addObserver"]),
        ], in: file)
        XCTAssertEqual(merged.map(\.ruleID), ["observer_removed_greedily"])
        XCTAssertEqual(merged[0].covers, ["keyboard_observer_lifecycle_unbalanced"])
    }

    func testARemovalThatMissesBlockObserversCoversTheirDroppedTokens() {
        let merged = FindingMerging.merge([
            finding("observer_token_discarded", "addObserver"),
            finding("remove_observer_self_for_block_observers", "removeObserver", related: ["addObserver"]),
        ], in: file)
        XCTAssertEqual(merged.map(\.ruleID), ["remove_observer_self_for_block_observers"])
        XCTAssertEqual(merged[0].covers, ["observer_token_discarded"])
    }

    func testFindingsPointingAtOneRegistrationAreOneDefect() {
        let merged = FindingMerging.merge([
            finding("observer_token_never_removed", "scrollView", related: ["addObserver"]),
            finding("remove_observer_self_for_block_observers", "removeObserver", related: ["addObserver"]),
        ], in: file)
        XCTAssertEqual(merged.map(\.ruleID), ["remove_observer_self_for_block_observers"])
        XCTAssertEqual(merged[0].covers, ["observer_token_never_removed"])
    }

    func testRelatedLocationsJoinOnlyTheObserverFamily() {
        let merged = FindingMerging.merge([
            finding("keyboard_frame_screen_space", "frame.height", related: ["0.3"]),
            finding("keyboard_duration_hardcoded", "0.3"),
            finding("keyboard_height_not_overlap", "self.view", related: ["frame.height"]),
        ], in: file)
        XCTAssertEqual(merged.count, 3)
    }

    /// With the real rules: a disable comment for the reported rule or for any rule the
    /// merged finding covers silences it, and is not superfluous.
    func testDisablingTheReportedOrACoveredRuleSilencesTheMergedFinding() {
        let checker = FileChecker(rules: RuleRegistry.all.map { ConfiguredRule($0) }, deploymentTarget: nil)
        func source(disabling rule: String?) -> SourceFile {
            SourceFile(path: "Chat.swift", text: """
                final class ChatViewController: UIViewController {
                    @objc func keyboardWillShow(_ notification: Notification) {
                        guard let frame = notification.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                        \(rule.map { "// kblint:disable:next \($0)" } ?? "")
                        tableView.contentInset = UIEdgeInsets(top: 0, left: 0, bottom: frame.height, right: 0)
                    }
                }

                """)
        }
        let reported = checker.check(source(disabling: nil), project: .empty)
        XCTAssertEqual(reported.count, 1, "\(reported)")
        guard let merged = reported.first else { return }
        XCTAssertFalse(merged.covers.isEmpty, "\(merged)")
        for rule in [merged.ruleID] + merged.covers {
            XCTAssertEqual(checker.check(source(disabling: rule), project: .empty), [], rule)
        }
    }

    func testSuppressingACoveredRuleAtItsPlaceSuppressesTheMergedFinding() {
        let text = """
            let a = 1
            // kblint:disable:next keyboard_height_not_overlap
            inset.bottom = frame.height
            inset.bottom = frame.height

            """
        let source = Lexer.tokenize(SourceFile(path: "S.swift", text: text))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        func line(_ number: Int) -> Range<Int> {
            let start = lines[..<(number - 1)].reduce(0) { $0 + $1.utf8.count + 1 }
            return start..<(start + lines[number - 1].utf8.count)
        }
        var first = Diagnostic(ruleID: "keyboard_frame_screen_space", severity: .error, message: "m", range: line(3), suggestion: "")
        first.covered = [CoveredFinding(ruleID: "keyboard_height_not_overlap", range: line(3), message: "m")]
        let second = Diagnostic(ruleID: "keyboard_frame_screen_space", severity: .error, message: "m", range: line(4), suggestion: "")
        let known: Set<String> = ["keyboard_frame_screen_space", "keyboard_height_not_overlap"]
        let kept = Suppression.filter([first, second], in: source, activeRuleIDs: known, knownRuleIDs: known)
        XCTAssertEqual(kept, [second], "the directive for the covered rule is used, so it is not superfluous either")
    }
}
