import UIKit

extension ChatViewController {
    override var canBecomeFirstResponder: Bool { true }
}
