import UIKit

/// A base screen from before the keyboard layout guide: it raises the safe area by the
/// keyboard's overlap. A subclass in another file also pins to the guide.
class KeyboardAwareViewController: UIViewController {
    override func viewDidLoad() {
        super.viewDidLoad()
        NotificationCenter.default.addObserver(
            self, selector: #selector(keyboardWillChangeFrame(_:)),
            name: UIResponder.keyboardWillChangeFrameNotification, object: nil)
    }

    @objc private func keyboardWillChangeFrame(_ notification: Notification) {
        guard let end = notification.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
        let overlap = view.bounds.maxY - view.convert(end, from: nil).minY
        additionalSafeAreaInsets.bottom = max(0, overlap - view.safeAreaInsets.bottom)
    }
}
