import UIKit

/// Pins its reply bar to the keyboard layout guide, is not excluded from IQKeyboardManager and
/// inherits a keyboard handler that changes the safe area.
final class ConversationViewController: KeyboardAwareViewController {
    private let messagesView = UITableView()
    private let replyBar = UIView()

    override func viewDidLoad() {
        super.viewDidLoad()
        NSLayoutConstraint.activate([
            messagesView.bottomAnchor.constraint(equalTo: replyBar.topAnchor),
            replyBar.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor),
        ])
    }
}
