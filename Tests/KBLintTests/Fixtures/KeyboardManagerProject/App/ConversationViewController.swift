import UIKit

/// Pins its reply bar to the keyboard layout guide and is not excluded from IQKeyboardManager.
final class ConversationViewController: UIViewController {
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
