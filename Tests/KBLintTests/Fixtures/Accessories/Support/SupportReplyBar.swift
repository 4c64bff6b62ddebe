import UIKit

/// Grows with its lines; only the project as a whole shows that it is an input accessory.
final class SupportReplyBar: UIView {
    var lines = 1 {
        didSet { invalidateIntrinsicContentSize() }
    }

    override var intrinsicContentSize: CGSize {
        CGSize(width: UIView.noIntrinsicMetric, height: CGFloat(lines) * 20 + 12)
    }
}
