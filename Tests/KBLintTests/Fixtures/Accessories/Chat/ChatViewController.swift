import UIKit

/// Messages-style composer: the responder override lives in another file.
final class ChatViewController: UIViewController {
    private lazy var composer: ComposerBar = {
        let bar = ComposerBar()
        bar.autoresizingMask = .flexibleHeight
        return bar
    }()

    override var inputAccessoryView: UIView? { composer }

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        becomeFirstResponder()
    }

    override func viewWillDisappear(_ animated: Bool) {
        super.viewWillDisappear(animated)
        resignFirstResponder()
    }
}
