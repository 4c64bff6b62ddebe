import XCTest
import Lexer
@testable import Rules

final class AnalysisHandlerCallerTests: XCTestCase {
    /// A function that reads a keyboard key from a `Notification` is a handler on its own;
    /// when a registered handler calls it, it belongs to that registration.
    func testNotificationReaderCalledFromARegisteredHandlerHasThatCaller() {
        let analysis = analyze("""
        final class ComposeViewController: UIViewController {
            func startObserving() {
                token = NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillHideNotification, object: nil, queue: .main) { [weak self] note in
                    self?.follow(note)
                }
            }
            private func follow(_ note: Notification) {
                let end = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect
                bottom.constant = end?.height ?? 0
            }
            func parse(_ note: Notification) -> CGRect? {
                note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect
            }
        }
        """)
        let follow = analysis.handlerIndex(at: analysis.index(of: "bottom")!)!
        XCTAssertEqual(analysis.handlers[follow].form, .notificationReader)
        let root = analysis.rootHandler(of: follow)
        XCTAssertEqual(analysis.handlers[root].form, .blockObserver)
        XCTAssertEqual(analysis.handlers[follow].events, [.willHide])
        let parse = analysis.handlerIndex(at: analysis.index(of: "note", occurrence: 5)!)!
        XCTAssertNil(analysis.handlers[parse].caller, "a reader nobody calls stays on its own")
    }

    /// A `Bool` labelled `keyboardWillShow:` is a flag, not a helper-type callback label.
    func testBooleanFlagLabelsDoNotMakeCallbacks() {
        let analysis = analyze("""
        extension UIView {
            static func slide(keyboardWillShow: Bool, container: UIView, height: CGFloat) {
                container.bounds.origin.y = keyboardWillShow ? height : 0
            }
        }
        final class Listener: KeyboardHelperDelegate {
            func keyboardHelper(_ helper: KeyboardHelper, keyboardWillShowWithState state: KeyboardState) {
                print(state)
            }
        }
        """)
        XCTAssertEqual(analysis.handlerSummaries(), ["helperCallback:keyboardHelper"])
    }
}
