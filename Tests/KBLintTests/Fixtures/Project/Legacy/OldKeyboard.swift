import UIKit

final class OldKeyboardHandler: NSObject {
    // kblint:disable observer_token_discarded
    func start() {
        NotificationCenter.default.addObserver(
            self, selector: #selector(keyboardWillShow(_:)),
            name: NSNotification.Name.UIKeyboardWillShow, object: nil)
    }
    // kblint:enable observer_token_discarded

    @objc func keyboardWillShow(_ notification: Notification) {}
}
