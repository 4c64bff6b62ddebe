import UIKit

/// Shows the bar its superclass (another file) declares.
final class SupportViewController: BaseSupportViewController {
    override var inputAccessoryView: UIView? { isTicketClosed ? nil : replyBar }

    var isTicketClosed = false
}
