import UIKit

/// Grows with its text, but nobody gives it a flexible height.
final class ReplyBar: UIView {
    var lineCount = 1 {
        didSet { invalidateIntrinsicContentSize() }
    }

    override var intrinsicContentSize: CGSize {
        CGSize(width: UIView.noIntrinsicMetric, height: CGFloat(lineCount) * 22 + 16)
    }
}
