import UIKit

/// Owns the reply bar, becomes first responder and resigns when it disappears.
class BaseSupportViewController: UIViewController {
    let replyBar = SupportReplyBar()

    override var canBecomeFirstResponder: Bool { true }

    override func viewWillDisappear(_ animated: Bool) {
        super.viewWillDisappear(animated)
        resignFirstResponder()
    }
}
