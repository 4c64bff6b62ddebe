import Lexer

/// Scroll views already add the safe area to their insets; the keyboard's height covers it too.
public struct KeyboardInsetIgnoresSafeArea: Rule {
    public static let metadata = RuleMetadata(
        id: "keyboard_inset_ignores_safe_area",
        category: .geometry,
        defaultSeverity: .warning,
        summary: "A keyboard height becomes a bottom inset without subtracting the safe area.",
        rationale: """
        With the default `contentInsetAdjustmentBehavior` a scroll view adds `safeAreaInsets.bottom` on top of \
        `contentInset` (its `adjustedContentInset`), and `additionalSafeAreaInsets` adds to the safe area that \
        already contains the home indicator. The keyboard's frame covers the home-indicator area as well, so \
        its full height inserts the bottom safe area twice: 34 points of empty space above the keyboard on \
        Face ID iPhones.
        """,
        fix: "Subtract the safe area: `max(0, overlap - view.safeAreaInsets.bottom)` (or use the keyboard layout guide).",
        fixAvailability: .unsafe,
        triggering: [
            RuleExample("""
            final class FormViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    let converted = view.convert(frame, from: view.window)
                    ↓scrollView.contentInset.bottom = converted.height
                }
            }
            """),
            RuleExample("""
            final class FeedViewController: UIViewController {
                func observe() {
                    token = NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillChangeFrameNotification, object: nil, queue: .main) { [weak self] note in
                        guard let self, let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                        let overlap = max(0, self.view.bounds.maxY - self.view.convert(frame, from: nil).minY)
                        ↓self.tableView.verticalScrollIndicatorInsets.bottom = overlap
                    }
                }
            }
            """),
            RuleExample("""
            final class CommentsViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    let height = view.convert(frame, from: nil).height
                    ↓collectionView.contentInset = UIEdgeInsets(top: 8, left: 0, bottom: height, right: 0)
                }
            }
            """),
            RuleExample("""
            final class SearchViewController: UIViewController {
                func bind() {
                    NotificationCenter.default.publisher(for: UIResponder.keyboardWillShowNotification)
                        .sink { [weak self] note in
                            guard let self, let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                            ↓self.additionalSafeAreaInsets.bottom = self.view.convert(frame, from: nil).height
                        }
                        .store(in: &bag)
                }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                func observe(on screen: UIScreen) {
                    token = NotificationCenter.default.addObserver(of: screen, for: .keyboardWillShow) { [weak self] message in
                        guard let self else { return }
                        let local = self.view.convert(message.endFrame, from: screen.coordinateSpace)
                        self.applyInset(local.height)
                    }
                }
                private func applyInset(_ height: CGFloat) {
                    ↓messagesView.contentInset.bottom = height
                }
            }
            """),
        ],
        nonTriggering: [
            RuleExample("""
            final class NotesViewController: UIViewController {
                @objc func keyboardWillShow(_ notification: Notification) {
                    guard let frame = notification.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    let bottom = view.convert(frame, from: nil).height - bottomLayoutGuide.length
                    textView.contentInset.bottom = bottom
                }
            }
            """),
            RuleExample("""
            final class FormViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    let converted = view.convert(frame, from: view.window)
                    scrollView.contentInset.bottom = converted.height - view.safeAreaInsets.bottom
                }
            }
            """),
            RuleExample("""
            final class ReaderViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    scrollView.contentInsetAdjustmentBehavior = .never
                }
                @objc func keyboardWillShow(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    scrollView.contentInset.bottom = view.convert(frame, from: nil).height
                }
            }
            """),
            RuleExample("""
            final class FormViewController: UIViewController {
                @objc func keyboardWillHide(_ note: Notification) {
                    scrollView.contentInset.bottom = 0
                    scrollView.verticalScrollIndicatorInsets.bottom = 0
                }
            }
            """),
            RuleExample("""
            final class FormViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    let local = view.convert(frame, from: nil)
                    let overlap = max(0, view.safeAreaLayoutGuide.layoutFrame.maxY - local.minY)
                    scrollView.contentInset.bottom = overlap
                }
            }
            """),
            RuleExample("""
            final class FormViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    let systemPart = scrollView.adjustedContentInset.bottom - scrollView.contentInset.bottom
                    scrollView.contentInset.bottom = view.convert(frame, from: nil).height - systemPart
                }
            }
            """),
            RuleExample("""
            final class FormViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    bottomConstraint.constant = view.convert(frame, from: nil).height
                }
            }
            """),
            RuleExample("""
            final class FormViewController: UIViewController {
                override func viewDidLayoutSubviews() {
                    super.viewDidLayoutSubviews()
                    scrollView.contentInset.bottom = footer.bounds.height
                }
            }
            """),
        ],
        corrections: [
            RuleCorrection("""
            final class FormViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    let converted = view.convert(frame, from: view.window)
                    ↓scrollView.contentInset.bottom = converted.height
                    scrollView.verticalScrollIndicatorInsets.bottom = scrollView.contentInset.bottom
                }
            }
            """, """
            final class FormViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    let converted = view.convert(frame, from: view.window)
                    scrollView.contentInset.bottom = max(0, converted.height - view.safeAreaInsets.bottom)
                    scrollView.verticalScrollIndicatorInsets.bottom = scrollView.contentInset.bottom
                }
            }
            """),
        ]
    )

    public init() {}

    public func check(_ context: RuleContext) -> [Diagnostic] {
        let analysis = context.analysis
        guard analysis.mentionsKeyboard else { return [] }
        let source = analysis.source
        var diagnostics: [Diagnostic] = []
        for assignment in analysis.assignments where !assignment.isCompound {
            guard let sink = analysis.layoutSink(of: assignment) else { continue }
            let value: KeyboardValue?
            switch sink.kind {
            case .contentInset, .scrollIndicatorInsets, .additionalSafeAreaInsets:
                if let component = sink.component {
                    guard source.isWord(component, "bottom") else { continue }
                    value = analysis.keyboardValue(of: assignment)
                } else {
                    value = analysis.insetsBottomValue(of: assignment)
                }
            default:
                continue
            }
            guard let value, value.isFrame, value.geometry != nil, !value.has(.safeArea) else { continue }
            if sink.kind != .additionalSafeAreaInsets,
               analysis.contentInsetIsWholeInset(ofReceiver: sink.receiver, at: assignment.op) {
                continue
            }
            let lhs = analysis.snippet(assignment.lhs)
            let system = sink.kind == .additionalSafeAreaInsets ? "the safe area" : "`adjustedContentInset`"
            diagnostics.append(Self.metadata.diagnostic(
                analysis, at: assignment.lhs,
                message: value.has(.height) && !value.has(.overlap)
                    ? "`\(lhs)` gets the keyboard's full height, which already covers the bottom safe area that \(system) adds again"
                    : "`\(lhs)` gets how far the keyboard reaches into the view, which already includes the bottom safe area that \(system) adds again",
                suggestion: "Subtract `view.safeAreaInsets.bottom` (never below zero) before assigning `\(lhs)`.",
                fix: Self.subtractSafeAreaFix(assignment, sink, context)))
        }
        return diagnostics
    }

    /// `x.bottom = max(0, value - view.safeAreaInsets.bottom)` in a view controller's own
    /// methods (the view's own `safeAreaInsets` in a view). Only for a `.bottom` write of a
    /// scroll view's insets: `additionalSafeAreaInsets` is part of the safe area it would
    /// subtract. Unsafe: it assumes the view reaches the bottom of the screen, which a
    /// reviewer has to check.
    static func subtractSafeAreaFix(_ assignment: Assignment, _ sink: LayoutSink, _ context: RuleContext) -> Fix? {
        let analysis = context.analysis
        let source = analysis.source
        guard sink.kind != .additionalSafeAreaInsets, sink.component.map({ source.isWord($0, "bottom") }) == true,
              !assignment.rhs.isEmpty, let view = analysis.ownViewPrefix(at: assignment.op) else { return nil }
        let safeArea = view + "safeAreaInsets.bottom"
        let value = source.text(spanning: assignment.rhs)
        let isSingleChain = analysis.chainStart(endingAt: assignment.rhs.upperBound - 1) == assignment.rhs.lowerBound
        let minuend = isSingleChain ? value : "(\(value))"
        return Fix(.unsafe, edits: [Edit(range: source.byteRange(assignment.rhs),
                                         replacement: "max(0, \(minuend) - \(safeArea))")])
    }

    /// The `bottom:` argument of a `UIEdgeInsets(…)` right-hand side (or of the local it names).
    static func bottomArgument(of rhs: Range<Int>, _ analysis: FileAnalysis) -> Range<Int>? {
        analysis.edgeInsetsCall(rhs).flatMap { analysis.argument($0, "bottom")?.value }
    }
}
