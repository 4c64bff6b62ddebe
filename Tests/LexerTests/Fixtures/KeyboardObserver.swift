import UIKit

/// Moves a scroll view's content out from under the keyboard.
///
/// - Note: Written for the lexer's golden tests; it is read, never compiled.
@MainActor
final class KeyboardObserver: NSObject {
    private weak var scrollView: UIScrollView?
    private var observers: [NSObjectProtocol] = []
    private(set) var lastFrame: CGRect = .zero

    init(scrollView: UIScrollView) {
        self.scrollView = scrollView
        super.init()
        let center = NotificationCenter.default
        observers.append(center.addObserver(
            forName: UIResponder.keyboardWillChangeFrameNotification,
            object: nil,
            queue: .main
        ) { [weak self] note in
            MainActor.assumeIsolated { self?.keyboardWillChange(note) }
        })
    }

    deinit {
        observers.forEach(NotificationCenter.default.removeObserver(_:))
    }

    @objc private func keyboardWillChange(_ note: Notification) {
        guard let scrollView,
              let endFrame = (note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? NSValue)?.cgRectValue,
              let window = scrollView.window else { return }
        let converted = scrollView.convert(endFrame, from: window.screen.coordinateSpace)
        let overlap = max(0, scrollView.bounds.maxY - converted.minY)
        let duration = note.userInfo?[UIResponder.keyboardAnimationDurationUserInfoKey] as? Double ?? 0.25
        let curveRaw = note.userInfo?[UIResponder.keyboardAnimationCurveUserInfoKey] as? Int ?? 7
        lastFrame = converted
        UIView.animate(withDuration: duration, delay: 0, options: UIView.AnimationOptions(rawValue: UInt(curveRaw << 16))) {
            scrollView.contentInset.bottom = overlap
            scrollView.verticalScrollIndicatorInsets.bottom = overlap
        }
        if #available(iOS 15.0, *) {
            print("keyboard overlap: \(overlap, privacy: .public) at \(converted.origin.y)")
        }
    }
}
