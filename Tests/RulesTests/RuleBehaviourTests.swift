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

    func testDeferredAnimationsAreErrors() {
        let code = """
        @objc func keyboardWillShow(_ n: Notification) {
            UIView.animate(withDuration: 0.3) { self.view.layoutIfNeeded() }
            DispatchQueue.main.async {
                UIView.animate(withDuration: 0.3) { self.view.layoutIfNeeded() }
            }
        }
        """
        let durations = check(KeyboardDurationHardcoded.self, code)
        XCTAssertEqual(durations.map(\.severity), [.warning, .error])
        XCTAssertTrue(durations[0].message.contains("mostly inherits"), durations[0].message)
        XCTAssertTrue(durations[1].message.contains("`async`"), durations[1].message)
        XCTAssertEqual(check(KeyboardCurveMismatch.self, code).map(\.severity), [.warning, .error])
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
                                    "content_inset_adjustment_never"])
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
