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

/// Messages say what the code does: the values involved and the run-time consequence.
final class MessageSnapshotTests: XCTestCase {
    func messages(_ rule: any Rule.Type, _ code: String) -> [String] {
        RuleExamplesTests.diagnostics(rule, code: code, options: [:], deploymentTarget: nil).map(\.message)
    }

    func testInsetMessagesNameTheValueAndWhatItWipes() {
        XCTAssertEqual(messages(ContentInsetResetToZero.self, """
        final class CommentsViewController: UIViewController {
            func pinHeader() { tableView.contentInset.top = 56 }
            @objc func keyboardWillShow(_ note: Notification) {
                tableView.contentInset = UIEdgeInsets(top: 0, left: 0, bottom: overlap, right: 0)
            }
            @objc func keyboardWillHide(_ note: Notification) {
                tableView.contentInset = .zero
            }
        }
        """), [
            "`tableView.contentInset = UIEdgeInsets(top: 0, left: 0, bottom: overlap, right: 0)` in a keyboard handler also sets top, left and right to 0, wiping the `top` inset set on line 2",
            "`tableView.contentInset = .zero` in a keyboard handler resets every edge to 0, wiping any top or side inset (header, bar, margins) along with the keyboard's bottom inset",
        ])
    }

    func testSafeAreaMessageSaysOverlapForAnOverlap() {
        XCTAssertEqual(messages(KeyboardInsetIgnoresSafeArea.self, """
        final class EditorViewController: UIViewController {
            @objc func keyboardWillShow(_ note: Notification) {
                guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                let origin = view.convert(frame.origin, from: nil)
                editor.contentInset.bottom = max(view.frame.height - origin.y, 0)
            }
        }
        """), [
            "`editor.contentInset.bottom` gets how far the keyboard reaches into the view, which already includes the bottom safe area that `adjustedContentInset` adds again",
        ])
    }

    func testMainScreenConversionIsAdvisedOntoTheWindowsScreen() {
        XCTAssertEqual(messages(KeyboardMathUsesMainScreen.self, """
        final class LoginViewController: UIViewController {
            @objc func keyboardWillShow(_ note: Notification) {
                guard let end = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                let local = view.convert(end, from: UIScreen.main.coordinateSpace)
                bottom.constant = view.bounds.maxY - local.minY
            }
        }
        """), [
            "`view.convert(end, from: UIScreen.main.coordinateSpace)` converts from the coordinate space of `UIScreen.main`, the device's built-in screen; on an external display or another scene's screen the keyboard frame belongs to the window's own screen",
        ])
    }

    func testFullHeightMessageHoldsForNegativeConstants() {
        XCTAssertEqual(messages(KeyboardHeightNotOverlap.self, """
        final class ChatViewController: UIViewController {
            @objc func keyboardWillShow(_ note: Notification) {
                guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                inputBottom.constant = -view.convert(frame, from: nil).height
            }
        }
        """), [
            "`view.convert(frame, from: nil).height` is the keyboard's full height, not the part of the view it covers, so `inputBottom.constant` is off by the part of the keyboard outside the view (hardware keyboards, sheets, tab bars, Stage Manager)",
        ])
    }
}
