import XCTest
import Lexer
@testable import Rules

/// Keyboard values and handler code handed on without a call written out: methods passed by
/// name where a closure goes, values relayed through Rx relays and Combine subjects, guide
/// anchors held in locals and parameters, accessory views passed through parameters and enum
/// payloads.
extension KeyboardFlowTests {
    // MARK: Methods passed by name

    func didShowController(_ body: String, helper: String) -> String {
        """
        final class ComposerViewController: UIViewController {
            var pendingHeight: CGFloat = 0
            override func viewDidLoad() {
                super.viewDidLoad()
                NotificationCenter.default.addObserver(self, selector: #selector(keyboardShown(_:)),
                                                       name: UIResponder.keyboardDidShowNotification, object: nil)
            }
            @objc func keyboardShown(_ note: Notification) {
        \(body)
            }
            func relayout() {
        \(helper)
            }
        }
        """
    }

    func testMethodPassedByNameIsTheAnimationBody() {
        let layout = "        bottomConstraint.constant = 120\n        view.layoutIfNeeded()"
        for body in [
            "        UIView.animate(withDuration: 0.3, animations: relayout)",
            "        UIView.animate(withDuration: 0.3, animations: self.relayout)",
            "        UIView.animate(withDuration: 0.3, animations: relayout) { _ in self.done = true }",
            "        UIView.animate(withDuration: 0.3, delay: 0, options: [], animations: relayout, completion: nil)",
            "        let animator = UIViewPropertyAnimator(duration: 0.3, curve: .easeOut, animations: relayout)\n        animator.startAnimation()",
        ] {
            XCTAssertEqual(check(KeyboardDidShowForLayout.self, didShowController(body, helper: layout)), [5], body)
            XCTAssertEqual(check(KeyboardHideNotHandled.self, didShowController(body, helper: layout)), [5], body)
        }
    }

    func testMethodPassedByNameThatDoesNoLayoutOrIsAValueStaysClean() {
        let animate = "        UIView.animate(withDuration: 0.3, animations: relayout)"
        XCTAssertTrue(check(KeyboardDidShowForLayout.self, didShowController(animate, helper: "        print(\"shown\")")).isEmpty)
        // A local closure, a parameter or a property of the same name is the value, not the method.
        let layout = "        bottomConstraint.constant = 120"
        for body in [
            "        let relayout = { print(\"shown\") }\n        UIView.animate(withDuration: 0.3, animations: relayout)",
            "        let relayout: () -> Void = { print(\"shown\") }\n        UIView.animate(withDuration: 0.3, animations: relayout)",
        ] {
            XCTAssertTrue(check(KeyboardDidShowForLayout.self, didShowController(body, helper: layout)).isEmpty, body)
        }
        let parameter = """
        final class ComposerViewController: UIViewController {
            override func viewDidLoad() {
                super.viewDidLoad()
                NotificationCenter.default.addObserver(self, selector: #selector(keyboardShown(_:)),
                                                       name: UIResponder.keyboardDidShowNotification, object: nil)
            }
            @objc func keyboardShown(_ note: Notification) { run(relayout: { print("shown") }) }
            func run(relayout: @escaping () -> Void) { UIView.animate(withDuration: 0.3, animations: relayout) }
            func relayout() { bottomConstraint.constant = 120 }
        }
        """
        XCTAssertTrue(check(KeyboardDidShowForLayout.self, parameter).isEmpty)
        // Outside keyboard handlers the method is nobody's handler.
        let elsewhere = """
        final class ComposerViewController: UIViewController {
            func expand() { UIView.animate(withDuration: 0.3, animations: relayout) }
            func relayout() { bottomConstraint.constant = 120 }
            @objc func keyboardWillShow(_ note: Notification) { print("shown") }
        }
        """
        XCTAssertTrue(check(KeyboardDidShowForLayout.self, elsewhere).isEmpty)
        XCTAssertTrue(check(KeyboardDeferredLayout.self, elsewhere).isEmpty)
    }

    func testValueStoredForAMethodPassedByName() {
        let code = didShowController("""
                guard let end = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                pendingHeight = end.height
                UIView.animate(withDuration: 0.3, animations: relayout)
        """, helper: "        bottomConstraint.constant = pendingHeight")
        XCTAssertEqual(check(KeyboardFrameScreenSpace.self, code), [10])
        let converted = code.replacingOccurrences(of: "pendingHeight = end.height",
                                                  with: "pendingHeight = view.convert(end, from: nil).height")
        XCTAssertTrue(check(KeyboardFrameScreenSpace.self, converted).isEmpty)
    }

    func testMethodPassedByNameToAsyncIsDeferred() {
        let code = """
        final class SearchViewController: UIViewController {
            @objc func keyboardWillShow(_ note: Notification) {
                DispatchQueue.main.async(execute: relayout)
            }
            func relayout() { bottomConstraint.constant = 120 }
        }
        """
        XCTAssertEqual(check(KeyboardDeferredLayout.self, code), [3])
        let synchronous = code.replacingOccurrences(of: "DispatchQueue.main.async(execute: relayout)",
                                                    with: "UIView.performWithoutAnimation(relayout)")
        XCTAssertTrue(check(KeyboardDeferredLayout.self, synchronous).isEmpty)
        let logging = code.replacingOccurrences(of: "bottomConstraint.constant = 120", with: "logger.log(\"shown\")")
        XCTAssertTrue(check(KeyboardDeferredLayout.self, logging).isEmpty)
    }

    func testGuideOwnerAnimatedThroughAMethodPassedByName() {
        let code = """
        final class ChatViewController: UIViewController {
            override func viewDidLoad() {
                super.viewDidLoad()
                composer.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
            }
            @objc func keyboardWillShow(_ note: Notification) {
                UIView.animate(withDuration: 0.25, animations: layoutNow)
            }
            func layoutNow() { view.layoutIfNeeded() }
        }
        """
        // Once, at the animation that lays the view out, not again at the `layoutIfNeeded` it runs.
        XCTAssertEqual(check(KeyboardGuideManualAnimation.self, code), [7])
        let fading = code.replacingOccurrences(of: "func layoutNow() { view.layoutIfNeeded() }",
                                               with: "func layoutNow() { hint.alpha = 0 }")
        XCTAssertTrue(check(KeyboardGuideManualAnimation.self, fading).isEmpty)
    }
}
