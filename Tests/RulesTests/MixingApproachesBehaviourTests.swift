import XCTest
import Lexer
@testable import Rules

/// What the examples of the mixing-approaches rules cannot show: related locations, the
/// deployment-target ranges and messages.
final class MixingApproachesBehaviourTests: XCTestCase {
    func check(_ rule: any Rule.Type, _ code: String, files: [String: String] = [:],
               target: OSVersion? = nil) -> [Diagnostic] {
        RuleExamplesTests.diagnostics(rule, code: code, files: files, deploymentTarget: target)
    }

    func text(_ range: Range<Int>, of code: String) -> String {
        String(decoding: Array(code.utf8)[range], as: UTF8.self)
    }

    func testInsetEditPointsAtTheConstraintThatPinsTheEditedView() {
        let code = """
        final class ChatViewController: UIViewController {
            func layout() {
                header.topAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                tableView.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
            }
            @objc func keyboardWillShow(_ note: Notification) {
                let frame = note.userInfo![UIResponder.keyboardFrameEndUserInfoKey] as! CGRect
                tableView.contentInset.bottom = frame.height
            }
        }
        """
        let found = check(KeyboardGuideWithInsetEdits.self, code)
        XCTAssertEqual(found.count, 1)
        XCTAssertEqual(found[0].severity, .error)
        XCTAssertTrue(found[0].message.contains("(line 4)"), found[0].message)
        XCTAssertEqual(found[0].related.first?.path, nil)
        XCTAssertEqual(found[0].related.first.map { text($0.range, of: code) }, "keyboardLayoutGuide")
        let line = SourceFile(path: "Example.swift", text: code).location(of: found[0].related[0].range.lowerBound).line
        XCTAssertEqual(line, 4)
    }

    func testGuideUseInAnotherFileIsNamedByItsFile() {
        let found = check(KeyboardGuideWithInsetEdits.self, """
        final class NotesViewController: UIViewController {
            @objc func keyboardWillShow(_ note: Notification) {
                let frame = note.userInfo![UIResponder.keyboardFrameEndUserInfoKey] as! CGRect
                view.frame.origin.y = -frame.height
            }
        }
        """, files: ["Notes/NotesViewController+Layout.swift": """
        extension NotesViewController {
            func pin() { editor.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true }
        }
        """])
        XCTAssertEqual(found.count, 1)
        XCTAssertTrue(found[0].message.contains("`NotesViewController+Layout.swift`"), found[0].message)
        XCTAssertTrue(found[0].message.contains("moves content"), found[0].message)
        XCTAssertEqual(found[0].related.first?.path, "Notes/NotesViewController+Layout.swift")
    }

    func testKeyboardManagerDiagnosticPointsAtTheSwitch() {
        let delegate = "func start() {\n    IQKeyboardManager.shared.enable = true\n}\n"
        let found = check(KeyboardGuideWithKeyboardManager.self, """
        final class ReplyView: UIView {
            func pin(to host: UIView) { bottomAnchor.constraint(equalTo: host.keyboardLayoutGuide.topAnchor).isActive = true }
        }
        """, files: ["App/Start.swift": delegate])
        XCTAssertEqual(found.count, 1)
        XCTAssertEqual(found[0].related.first?.path, "App/Start.swift")
        XCTAssertEqual(found[0].related.first.map { text($0.range, of: delegate) }, "IQKeyboardManager.shared.enable")
        XCTAssertTrue(found[0].suggestion.contains("view controller that shows `ReplyView`"), found[0].suggestion)
    }

    func testPreferGuideFollowsTheEffectiveTarget() {
        let code = """
        final class FormViewController: UIViewController {
            func observe() {
                NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillShow(_:)),
                                                       name: UIResponder.keyboardWillShowNotification, object: nil)
            }
            @objc func keyboardWillShow(_ note: Notification) {
                scrollView.contentInset.bottom = 300
            }
        }
        """
        XCTAssertTrue(check(PreferKeyboardLayoutGuide.self, code, target: OSVersion(15, 3)).isEmpty)
        XCTAssertEqual(check(PreferKeyboardLayoutGuide.self, code, target: OSVersion(15, 4)).count, 1)
        let raised = check(PreferKeyboardLayoutGuide.self, "@available(iOS 16, *)\n" + code, target: OSVersion(15))
        XCTAssertEqual(raised.count, 1)
        XCTAssertTrue(raised[0].message.contains("iOS 16.0 target"), raised[0].message)
        XCTAssertTrue(raised[0].message.contains("`scrollView.contentInset.bottom`, line 8"), raised[0].message)
        XCTAssertEqual(PreferKeyboardLayoutGuide.metadata.minimumTarget, OSVersion(15, 4))
        XCTAssertEqual(PreferTypedKeyboardMessages.metadata.minimumTarget, OSVersion(26))
        XCTAssertEqual(KeyboardGuideAvailability.metadata.targetBelow, OSVersion(15, 4))
    }

    func testAvailabilityReportsOncePerTypeAndNamesTheReason() {
        let code = """
        final class ChatViewController: UIViewController {
            func layout() {
                if #available(iOS 15.2, *) {
                    bar.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                    bar.leadingAnchor.constraint(equalTo: view.keyboardLayoutGuide.leadingAnchor).isActive = true
                }
            }
        }
        """
        let found = check(KeyboardGuideAvailability.self, code, target: OSVersion(14))
        XCTAssertEqual(found.map(\.severity), [.info])
        XCTAssertTrue(found[0].message.contains("guarded by iOS 15.2 availability"), found[0].message)
        let plain = check(KeyboardGuideAvailability.self, code.replacingOccurrences(of: "15.2", with: "13"), target: OSVersion(15, 1))
        XCTAssertTrue(plain.first?.message.contains("the deployment target is iOS 15.1") ?? false)
    }

    func testTypedMessagesNameTheMemberThatReplacesTheKey() {
        let found = check(PreferTypedKeyboardMessages.self, """
        @objc func keyboardWillHide(_ note: Notification) {
            let curve = note.userInfo?[UIResponder.keyboardAnimationCurveUserInfoKey] as? UInt
            let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect
            apply(curve, frame)
        }
        """, target: OSVersion(26))
        XCTAssertEqual(found.count, 1, "one report per handler")
        XCTAssertTrue(found[0].message.contains("`.keyboardWillHide` message carries `animationCurve`"), found[0].message)
        XCTAssertTrue(found[0].suggestion.contains("for: .keyboardWillHide"), found[0].suggestion)
    }

    func testInheritedGuidesAreNamedInTheMessage() {
        let handler = """
        class FormViewController: UIViewController {
            @objc func keyboardWillShow(_ note: Notification) {
                let frame = note.userInfo![UIResponder.keyboardFrameEndUserInfoKey] as! CGRect
                scrollView.contentInset.bottom = frame.height
            }
        }
        """
        let subclass = check(KeyboardGuideWithInsetEdits.self, handler, files: ["Sign.swift": """
        final class SignUpViewController: FormViewController {
            func pin() { scrollView.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true }
        }
        """])
        XCTAssertTrue(subclass.first?.message.contains("whose subclass `SignUpViewController` also follows") ?? false,
                      subclass.first?.message ?? "no diagnostic")
        let superclass = check(KeyboardGuideWithInsetEdits.self, handler.replacingOccurrences(
            of: "class FormViewController: UIViewController", with: "final class FormViewController: BaseViewController"),
            files: ["Base.swift": """
            class BaseViewController: UIViewController {
                func pin() { content.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true }
            }
            """])
        XCTAssertTrue(superclass.first?.message.contains("which inherits from `BaseViewController` constraints to") ?? false,
                      superclass.first?.message ?? "no diagnostic")
    }

    func testAStackedViewPointsAtTheConstraintThatPinsItsNeighbour() {
        let code = """
        final class ChatViewController: UIViewController {
            func layout() {
                let keyboard = view.keyboardLayoutGuide
                keyboard.usesBottomSafeArea = false
                NSLayoutConstraint.activate([
                    tableView.topAnchor.constraint(equalTo: view.topAnchor),
                    tableView.bottomAnchor.constraint(equalTo: composer.topAnchor),
                    composer.bottomAnchor.constraint(equalTo: keyboard.topAnchor),
                ])
            }
            @objc func keyboardWillShow(_ note: Notification) {
                tableView.contentInset.bottom = 320
            }
        }
        """
        let found = check(KeyboardGuideWithInsetEdits.self, code)
        XCTAssertEqual(found.count, 1)
        XCTAssertTrue(found.first?.message.contains("(line 8)") ?? false, found.first?.message ?? "no diagnostic")
    }
}
