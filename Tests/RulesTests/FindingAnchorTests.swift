import Lexer
import Rules
import XCTest

final class FindingAnchorTests: XCTestCase {
    func anchor(at needle: String, in text: String) throws -> FindingAnchor {
        let source = Lexer.tokenize(SourceFile(path: "A.swift", text: text))
        let offset = try XCTUnwrap(text.utf8.firstRange(of: Array(needle.utf8))).lowerBound
        return FindingAnchor.anchors(of: [text.utf8.distance(from: text.utf8.startIndex, to: offset)], in: source)[0]
    }

    func testStatementRunsToItsFirstBraceAndIgnoresLayoutAndComments() throws {
        let text = """
            final class Chat: UIViewController {
                func show(_ note: Notification, animated: Bool) {
                    NotificationCenter.default.addObserver( // the keyboard
                        forName: UIResponder.keyboardWillShowNotification,
                        object: nil, queue: .main
                    ) { [weak self] note in self?.update(note) }
                    view.frame.origin.y -= 10; other()
                }
                var height: CGFloat { view.frame.height }
            }
            """
        let observer = try anchor(at: "addObserver", in: text)
        XCTAssertEqual(observer.statement,
                       "NotificationCenter . default . addObserver ( forName : UIResponder . keyboardWillShowNotification , object : nil , queue : . main )")
        XCTAssertEqual(observer.declaration, "Chat.show(_:animated:)")
        let inset = try anchor(at: "origin", in: text)
        XCTAssertEqual(inset.statement, "view . frame . origin . y -= 10")
        XCTAssertEqual(try anchor(at: "view.frame.height", in: text).declaration, "Chat.height")
        XCTAssertEqual(try anchor(at: "final", in: text).declaration, "")
    }
}
