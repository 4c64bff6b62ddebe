import Lexer

/// The begin frame is where the keyboard comes from; layout must follow where it goes.
public struct KeyboardFrameBeginKey: Rule {
    public static let metadata = RuleMetadata(
        id: "keyboard_frame_begin_key",
        category: .geometry,
        defaultSeverity: .warning,
        summary: "The keyboard's begin frame is used to lay out views.",
        rationale: """
        `keyboardFrameBeginUserInfoKey` (and a typed message's `beginFrame`) describe where the keyboard \
        is before the change, not where it ends up. Insets or constraints computed from it lag one change \
        behind: they use the old height when QuickType or the emoji keyboard toggles, and after a hardware \
        keyboard is attached the begin frame is stale, so content stays covered or jumps.
        """,
        fix: "Read `keyboardFrameEndUserInfoKey` (or the message's `endFrame`) for layout; keep the begin frame for animation start positions and `begin == end` checks.",
        fixAvailability: .unsafe,
        triggering: [
            RuleExample("""
            final class FormViewController: UIViewController {
                @IBOutlet var scrollView: UIScrollView!
                @objc func keyboardWillShow(_ notification: Notification) {
                    guard let frame = notification.userInfo?[UIResponder.↓keyboardFrameBeginUserInfoKey] as? CGRect else { return }
                    scrollView.contentInset.bottom = view.convert(frame, from: nil).height
                }
            }
            """),
            RuleExample("""
            final class ComposerView: UIView {
                var bottomConstraint: NSLayoutConstraint!
                func startObserving() {
                    token = NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillChangeFrameNotification, object: nil, queue: .main) { [weak self] note in
                        let value = note.userInfo?[↓UIKeyboardFrameBeginUserInfoKey] as! NSValue
                        self?.bottomConstraint.constant = -value.cgRectValue.height
                    }
                }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                func observe(on screen: UIScreen) {
                    token = NotificationCenter.default.addObserver(of: screen, for: .keyboardWillShow) { [weak self] message in
                        self?.inputBar.frame.origin.y = message.↓beginFrame.minY - 44
                    }
                }
            }
            """),
            RuleExample("""
            final class NotesViewController: UIViewController {
                let textView = UITextView()
                @objc func keyboardWillHide(_ note: Notification) {
                    let start = (note.userInfo![UIResponder.↓keyboardFrameBeginUserInfoKey] as! NSValue).cgRectValue
                    apply(start.height)
                }
                private func apply(_ height: CGFloat) {
                    textView.contentInset.bottom = height
                }
            }
            """),
            RuleExample("""
            final class SearchViewController: UIViewController {
                private var keyboardTop: CGFloat = 0
                func bind() {
                    NotificationCenter.default.publisher(for: UIResponder.keyboardWillShowNotification)
                        .sink { [weak self] note in
                            guard let self, let info = note.userInfo else { return }
                            let old = info[UIResponder.↓keyboardFrameBeginUserInfoKey] as? CGRect ?? .zero
                            self.resultsView.frame.size.height = old.minY
                        }
                        .store(in: &bag)
                }
            }
            """),
            RuleExample("""
            final class SheetViewController: UIViewController {
                func bind() {
                    NotificationCenter.default.publisher(for: UIResponder.keyboardWillChangeFrameNotification)
                        .compactMap { $0.userInfo?[UIResponder.↓keyboardFrameBeginUserInfoKey] as? CGRect }
                        .sink { [weak self] frame in self?.sheetBottom.constant = frame.height }
                        .store(in: &bag)
                }
            }
            """),
        ],
        nonTriggering: [
            RuleExample("""
            final class FormViewController: UIViewController {
                @objc func keyboardWillShow(_ notification: Notification) {
                    guard let frame = notification.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    scrollView.contentInset.bottom = view.convert(frame, from: nil).height
                }
            }
            """),
            RuleExample("""
            final class EditorViewController: UIViewController {
                @objc func keyboardWillChangeFrame(_ n: Notification) {
                    guard let info = n.userInfo,
                          let begin = (info[UIResponder.keyboardFrameBeginUserInfoKey] as? NSValue)?.cgRectValue,
                          let end = (info[UIResponder.keyboardFrameEndUserInfoKey] as? NSValue)?.cgRectValue,
                          begin != end else { return }
                    scrollView.contentInset.bottom = view.convert(end, from: nil).height
                }
            }
            """),
            RuleExample("""
            final class ToolbarViewController: UIViewController {
                @objc func keyboardWillShow(_ n: Notification) {
                    guard let info = n.userInfo,
                          let begin = info[UIResponder.keyboardFrameBeginUserInfoKey] as? CGRect,
                          let end = info[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    toolbar.frame.origin.y = begin.minY - toolbar.frame.height
                    UIView.animate(withDuration: 0.25) {
                        self.toolbar.frame.origin.y = end.minY - self.toolbar.frame.height
                    }
                }
            }
            """),
            RuleExample("""
            final class LoggingViewController: UIViewController {
                @objc func keyboardDidShow(_ n: Notification) {
                    let begin = n.userInfo?[UIResponder.keyboardFrameBeginUserInfoKey] as? CGRect
                    logger.debug("keyboard came from \\(String(describing: begin))")
                }
            }
            """),
            RuleExample("""
            final class PanelView: UIView {
                @objc func keyboardWillChangeFrame(_ n: Notification) {
                    guard let info = n.userInfo,
                          let begin = info[UIResponder.keyboardFrameBeginUserInfoKey] as? CGRect,
                          let end = info[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    wasHidden = begin.minY >= end.minY
                }
            }
            """),
            RuleExample("""
            final class SheetViewController: UIViewController {
                func layout(from begin: CGRect) {
                    panel.frame.origin.y = begin.minY
                }
            }
            """),
            RuleExample("""
            final class TypedViewController: UIViewController {
                func observe(on screen: UIScreen) {
                    token = NotificationCenter.default.addObserver(of: screen, for: .keyboardWillShow) { [weak self] message in
                        guard message.beginFrame != message.endFrame else { return }
                        self?.inputBar.frame.origin.y = message.endFrame.minY - 44
                    }
                }
            }
            """),
        ],
        corrections: [
            RuleCorrection("""
            final class FormViewController: UIViewController {
                @IBOutlet var scrollView: UIScrollView!
                @objc func keyboardWillShow(_ notification: Notification) {
                    guard let frame = notification.userInfo?[UIResponder.↓keyboardFrameBeginUserInfoKey] as? CGRect else { return }
                    scrollView.contentInset.bottom = view.convert(frame, from: nil).height
                }
            }
            """, """
            final class FormViewController: UIViewController {
                @IBOutlet var scrollView: UIScrollView!
                @objc func keyboardWillShow(_ notification: Notification) {
                    guard let frame = notification.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    scrollView.contentInset.bottom = view.convert(frame, from: nil).height
                }
            }
            """),
        ]
    )

    public init() {}

    public func check(_ context: RuleContext) -> [Diagnostic] {
        let analysis = context.analysis
        guard analysis.mentionsKeyboard else { return [] }
        var reported = Set<Int>()
        var diagnostics: [Diagnostic] = []
        for assignment in analysis.assignments {
            guard analysis.layoutSink(of: assignment) != nil,
                  let value = analysis.keyboardValue(of: assignment),
                  value.has(.frameBegin), !value.has(.frameEnd), let origin = value.beginOrigin
            else { continue }
            // Placing a view at the keyboard's start before animating it to the end frame.
            if analysis.animation(enclosing: assignment.op) == nil, analysis.hasAnimation(after: assignment.op) {
                continue
            }
            guard reported.insert(origin).inserted else { continue }
            let key = analysis.source.text(at: origin)
            let replacement = Self.endSpelling(of: key)
            diagnostics.append(Self.metadata.diagnostic(
                analysis, at: analysis.tokenRange(origin),
                message: "`\(key)` is where the keyboard starts, yet it sets `\(analysis.snippet(assignment.lhs))`; lay out with the end frame",
                suggestion: "Use `\(replacement)` for layout; keep the begin frame for animation starts and `begin == end` checks.",
                fix: Fix(.unsafe, edits: [Edit(range: analysis.source.byteRange(analysis.tokenRange(origin)),
                                               replacement: replacement)])))
        }
        return diagnostics
    }

    static func endSpelling(of key: String) -> String {
        switch key {
        case "beginFrame": "endFrame"
        case "UIKeyboardFrameBeginUserInfoKey": "UIKeyboardFrameEndUserInfoKey"
        default: "keyboardFrameEndUserInfoKey"
        }
    }
}
