import XCTest
import Lexer
@testable import Rules

/// What the examples cannot show: severities that depend on the code, message contents,
/// options and deployment targets.
final class RuleBehaviourTests: XCTestCase {
    func check(_ rule: any Rule.Type, _ code: String, options: [String: OptionValue] = [:],
               target: OSVersion? = nil) -> [Diagnostic] {
        RuleExamplesTests.diagnostics(rule, code: code, options: options, deploymentTarget: target)
    }

    /// Curve and duration findings on one animation describe the same situation in the same
    /// words: latent inside a synchronous will-handler, out of step once deferred.
    func testCurveAndDurationNeverContradictEachOther() {
        let code = """
        @objc func keyboardWillShow(_ n: Notification) {
            UIView.animate(withDuration: 0.3) { self.view.layoutIfNeeded() }
            DispatchQueue.main.async {
                UIView.animate(withDuration: 0.3) { self.view.layoutIfNeeded() }
            }
            UIView.animate(withDuration: 0.3, delay: 0, options: [.overrideInheritedDuration, .overrideInheritedCurve, .curveLinear]) { self.view.layoutIfNeeded() }
        }
        """
        XCTAssertEqual(check(KeyboardDurationHardcoded.self, code).map(\.message), [
            "Hard-coded `0.3` s duration in a keyboard will-handler: it follows the keyboard's duration only while it runs inside the keyboard's own animation, and slides out of step as soon as it is deferred or called outside the notification",
            "The `0.3` s animation runs after `async`, outside the keyboard's animation, so its duration differs from the keyboard's and the view slides out of step",
            "`.overrideInheritedDuration` makes the hard-coded `0.3` s win over the keyboard's duration, so the view slides out of step with the keyboard",
        ])
        XCTAssertEqual(check(KeyboardCurveMismatch.self, code).map(\.message), [
            "`animate` in a keyboard will-handler has no curve option, so it runs ease-in-out: it follows the keyboard's curve only while it runs inside the keyboard's own animation, and slides out of step as soon as it is deferred or called outside the notification",
            "`animate` runs after `async`, outside the keyboard's animation, and has no curve option, so it runs ease-in-out, out of step with the keyboard's curve",
            "`animate` in a keyboard handler uses `.curveLinear`, and `.overrideInheritedCurve` makes it win over the keyboard's curve, so the view slides out of step with the keyboard",
        ])
        XCTAssertEqual(Set(check(KeyboardCurveMismatch.self, code).map(\.severity)), [.warning])
    }

    func testMessagesNameTheCode() {
        let screen = check(KeyboardFrameScreenSpace.self, """
        @objc func keyboardWillShow(_ n: Notification) {
            let kb = n.userInfo![UIResponder.keyboardFrameEndUserInfoKey] as! CGRect
            tableView.contentInset.bottom = kb.size.height
        }
        """)
        XCTAssertEqual(screen.count, 1)
        XCTAssertTrue(screen[0].message.contains("`kb.size.height`"), screen[0].message)
        XCTAssertTrue(screen[0].message.contains("`tableView.contentInset.bottom`"), screen[0].message)
        let begin = check(KeyboardFrameBeginKey.self, """
        @objc func keyboardWillShow(_ n: Notification) {
            let kb = n.userInfo![UIResponder.keyboardFrameBeginUserInfoKey] as! CGRect
            bottom.constant = view.convert(kb, from: nil).height
        }
        """)
        XCTAssertEqual(begin.first?.fix?.applicability, .unsafe)
        XCTAssertEqual(begin.first?.fix?.edits.first?.replacement, "keyboardFrameEndUserInfoKey")
    }

    func testOptionsChangeWhatIsReported() {
        let hide = """
        final class ChatViewController: UIViewController {
            @objc func keyboardWillHide(_ note: Notification) {
                tableView.contentInset.bottom = 0
            }
        }
        """
        XCTAssertTrue(check(ContentInsetResetToZero.self, hide).isEmpty)
        XCTAssertEqual(check(ContentInsetResetToZero.self, hide, options: ["include_bottom_zero": .bool(true)]).count, 1)
        let fallback = """
        @objc func keyboardWillShow(_ note: Notification) {
            var duration = 0.3
            if let value = note.userInfo?[UIResponder.keyboardAnimationDurationUserInfoKey] as? Double { duration = value }
            UIView.animate(withDuration: duration) { self.view.layoutIfNeeded() }
        }
        """
        XCTAssertTrue(check(KeyboardDurationHardcoded.self, fallback).isEmpty)
        XCTAssertEqual(check(KeyboardDurationHardcoded.self, fallback, options: ["check_fallbacks": .bool(true)]).count, 1)
    }

    func testScreenGuardFollowsTheEffectiveTarget() {
        let code = """
        @objc func keyboardWillShow(_ note: Notification) {
            guard let screen = note.object as? UIScreen else { return }
            print(screen)
        }
        """
        XCTAssertEqual(check(KeyboardNotificationScreenGuard.self, code, target: OSVersion(16)).count, 1)
        XCTAssertTrue(check(KeyboardNotificationScreenGuard.self, code, target: OSVersion(16, 1)).isEmpty)
        XCTAssertTrue(check(KeyboardNotificationScreenGuard.self, code, target: nil).isEmpty)
        XCTAssertEqual(KeyboardNotificationScreenGuard.metadata.targetBelow, OSVersion(16, 1))
    }

    func testOptInRules() {
        let optIn = RuleRegistry.all.filter { $0.metadata.isOptIn }.map { $0.metadata.id }
        XCTAssertEqual(Set(optIn), ["keyboard_height_not_overlap", "keyboard_scroll_indicator_not_inset",
                                    "content_inset_adjustment_never", "accessory_blur_instead_of_input_view"])
    }

    func testEveryDiagnosticIsWithinTheFile() {
        for rule in RuleRegistry.all {
            for example in rule.metadata.triggering {
                let (code, _) = RuleExamplesTests.stripMarkers(example.code)
                for diagnostic in check(rule, code, options: example.options, target: example.deploymentTarget) {
                    XCTAssertLessThanOrEqual(diagnostic.range.upperBound, code.utf8.count, rule.metadata.id)
                    XCTAssertTrue(diagnostic.fix?.edits.allSatisfy { $0.range.upperBound <= code.utf8.count } ?? true)
                }
            }
        }
    }
}
