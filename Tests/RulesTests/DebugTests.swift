import XCTest
import Lexer
@testable import Rules
final class DebugTests: XCTestCase {
    func testDebug() {
        let a = analyze("""
        final class ChatViewController: UIViewController {
            func observe(on screen: UIScreen) {
                token = NotificationCenter.default.addObserver(of: screen, for: .keyboardWillShow) { [weak self] message in
                    self?.inputBar.frame.origin.y = message.beginFrame.minY - 44
                }
            }
        }
        """)
        print("H", a.handlerSummaries())
        for x in a.assignments { print("A", a.text(x.lhs), "=", a.text(x.rhs), a.keyboardValue(of: x.rhs) as Any) }
    }
}
