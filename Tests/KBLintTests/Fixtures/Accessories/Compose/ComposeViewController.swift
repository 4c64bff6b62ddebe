import UIKit

/// The same composer without `canBecomeFirstResponder`: the bar never appears.
final class ComposeViewController: UIViewController {
    private let replyBar = ReplyBar()

    override var inputAccessoryView: UIView? {
        return replyBar
    }
}
