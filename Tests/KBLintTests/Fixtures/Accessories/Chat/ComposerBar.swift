import UIKit

/// Grows with its text; the creator gives it a flexible height.
final class ComposerBar: UIView {
    let textView = UITextView()

    override var intrinsicContentSize: CGSize {
        let fitting = textView.sizeThatFits(CGSize(width: bounds.width, height: .greatestFiniteMagnitude))
        return CGSize(width: UIView.noIntrinsicMetric, height: min(fitting.height + 16, 120))
    }
}
