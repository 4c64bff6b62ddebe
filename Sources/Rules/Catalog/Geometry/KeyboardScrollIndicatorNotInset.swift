import Lexer

/// The scroll indicator has its own insets; the keyboard covers it too.
public struct KeyboardScrollIndicatorNotInset: Rule {
    public static let metadata = RuleMetadata(
        id: "keyboard_scroll_indicator_not_inset",
        category: .geometry,
        defaultSeverity: .info,
        isOptIn: true,
        summary: "A keyboard handler insets a scroll view's content but not its scroll indicator.",
        rationale: """
        `contentInset` moves the content above the keyboard, but the vertical scroll indicator follows \
        `verticalScrollIndicatorInsets`. Without the matching indicator inset, the indicator runs under the \
        keyboard, so users cannot see where they are in a long form or conversation while typing.
        """,
        fix: "Set `verticalScrollIndicatorInsets.bottom` (or `scrollIndicatorInsets.bottom` before iOS 13) to the same value in the same handler.",
        fixAvailability: .safe,
        triggering: [
            RuleExample("""
            final class FormViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    ↓scrollView.contentInset.bottom = view.convert(frame, from: nil).height - view.safeAreaInsets.bottom
                }
            }
            """),
            RuleExample("""
            final class FeedViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    let bottom = max(0, view.convert(frame, from: nil).height - view.safeAreaInsets.bottom)
                    tableView.contentInset.bottom = bottom
                    tableView.verticalScrollIndicatorInsets.bottom = bottom
                }
                func observe() {
                    token = NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillHideNotification, object: nil, queue: .main) { [weak self] _ in
                        ↓self?.tableView.contentInset = self?.savedInsets ?? .zero
                    }
                }
            }
            """),
            RuleExample("""
            final class SearchViewController: UIViewController {
                func bind() {
                    NotificationCenter.default.publisher(for: UIResponder.keyboardWillChangeFrameNotification)
                        .sink { [weak self] note in
                            guard let self, let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                            ↓self.resultsView.contentInset.bottom = self.view.convert(frame, from: nil).height
                        }
                        .store(in: &bag)
                }
            }
            """),
            RuleExample("""
            final class NotesViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    apply(view.convert(frame, from: nil).height)
                }
                private func apply(_ inset: CGFloat) {
                    ↓textView.contentInset.bottom = inset
                    otherView.verticalScrollIndicatorInsets.bottom = inset
                }
            }
            """),
        ],
        nonTriggering: [
            RuleExample("""
            final class FormViewController: UIViewController {
                @objc func keyboardWillHide(_ note: Notification) {
                    scrollView.contentInset = .zero
                }
                @objc func keyboardDidShow(_ note: Notification) {
                    scrollView.contentInset.bottom = toolbarHeight
                }
            }
            """),
            RuleExample("""
            final class FormViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    scrollView.contentInset.bottom = 280
                    scrollView.verticalScrollIndicatorInsets.bottom = 280
                }
            }
            """),
            RuleExample("""
            final class FormViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    scrollView.contentInset.bottom = 280
                    syncIndicator()
                }
                private func syncIndicator() {
                    scrollView.verticalScrollIndicatorInsets.bottom = scrollView.contentInset.bottom
                }
            }
            """),
            RuleExample("""
            final class GalleryViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    scrollView.showsVerticalScrollIndicator = false
                }
                @objc func keyboardWillShow(_ note: Notification) {
                    scrollView.contentInset.bottom = 280
                }
            }
            """),
            RuleExample("""
            final class FormViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    scrollView.contentInset.bottom = 80
                }
            }
            """),
            RuleExample("""
            final class LegacyFormViewController: UIViewController {
                @objc func keyboardWillHide(_ note: Notification) {
                    tableView.contentInset.bottom = 0
                    tableView.scrollIndicatorInsets.bottom = 0
                }
            }
            """),
            RuleExample("""
            final class NotesViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    let insets = UIEdgeInsets(top: 0, left: 0, bottom: 280, right: 0)
                    self.textView.contentInset = insets
                    textView.verticalScrollIndicatorInsets = insets
                }
            }
            """),
        ],
        corrections: [
            RuleCorrection("""
            final class FormViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    ↓scrollView.contentInset.bottom = view.convert(frame, from: nil).height - view.safeAreaInsets.bottom
                }
            }
            """, """
            final class FormViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    scrollView.contentInset.bottom = view.convert(frame, from: nil).height - view.safeAreaInsets.bottom
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
        // Receivers whose indicator is inset, per root handler; receivers without indicators.
        var indicatorReceivers: [Int: Set<[UInt64]>] = [:]
        var hiddenIndicators = Set<[UInt64]>()
        var contentWrites: [(Assignment, LayoutSink, Int)] = []
        var hideResets: [(Assignment, LayoutSink, Int)] = []
        for assignment in analysis.assignments {
            let names = analysis.chainNames(assignment.lhs)
            if let last = names.last, source.isWord(last, "showsVerticalScrollIndicator") {
                hiddenIndicators.insert(analysis.receiverKey(names: Array(names.dropLast())))
                continue
            }
            guard let handler = analysis.handlerIndex(at: assignment.op), let sink = analysis.layoutSink(of: assignment)
            else { continue }
            let root = analysis.rootHandler(of: handler)
            let receiver = analysis.receiverKey(sink.receiver)
            if sink.kind == .scrollIndicatorInsets {
                indicatorReceivers[root, default: []].insert(receiver)
            } else if sink.kind == .contentInset, sink.component.map({ source.isWord($0, "bottom") }) ?? true {
                if Self.writesKeyboardValue(assignment, analysis) {
                    contentWrites.append((assignment, sink, root))
                } else if analysis.handlers[handler].events.contains(where: \.isHide) {
                    hideResets.append((assignment, sink, root))
                }
            }
        }
        // A reset on hide matters when another handler moved the indicator for the keyboard.
        let insetIndicators = indicatorReceivers.values.reduce(into: Set<[UInt64]>()) { $0.formUnion($1) }
        contentWrites += hideResets.filter { insetIndicators.contains(analysis.receiverKey($0.1.receiver)) }
        var diagnostics: [Diagnostic] = []
        for (assignment, sink, root) in contentWrites {
            let receiver = analysis.receiverKey(sink.receiver)
            guard !(indicatorReceivers[root]?.contains(receiver) ?? false), !hiddenIndicators.contains(receiver) else { continue }
            let name = analysis.snippet(sink.receiver)
            let target = name.isEmpty ? "verticalScrollIndicatorInsets" : "\(name).verticalScrollIndicatorInsets"
            diagnostics.append(Self.metadata.diagnostic(
                analysis, at: assignment.lhs,
                message: "`\(analysis.snippet(assignment.lhs))` is set for the keyboard but `\(target)` is not: the scroll indicator runs under the keyboard",
                suggestion: "Also set `\(target).bottom` to the same value.",
                fix: Self.mirrorFix(assignment, sink, context)))
        }
        return diagnostics
    }

    /// A line after the write that copies the bottom inset just written onto the indicator
    /// (`x.verticalScrollIndicatorInsets.bottom = x.contentInset.bottom`): it reads the stored
    /// value, so the right-hand side is not evaluated twice. None for optional-chained
    /// receivers (the copy would be optional) or a target before iOS 13.
    static func mirrorFix(_ assignment: Assignment, _ sink: LayoutSink, _ context: RuleContext) -> Fix? {
        let analysis = context.analysis
        let source = analysis.source
        if let target = context.deploymentTarget, target < OSVersion(13, 0) { return nil }
        guard !assignment.rhs.isEmpty, !sink.receiver.contains(where: { source.text(at: $0).contains("?") }) else { return nil }
        let receiver = sink.receiver.isEmpty ? "" : source.text(spanning: sink.receiver) + "."
        guard !receiver.contains("\n") else { return nil }
        // After a line comment that ends the write's line, so the comment stays with it.
        let bytes = source.file.bytes
        var end = source.byteRange(assignment.rhs).upperBound
        var next = end
        while next < bytes.count, bytes[next] == 0x20 || bytes[next] == 0x09 { next += 1 }
        if next + 1 < bytes.count, bytes[next] == 0x2F, bytes[next + 1] == 0x2F {
            end = bytes[next...].firstIndex { $0 == 0x0A || $0 == 0x0D } ?? bytes.count
        }
        let line = "\n" + analysis.indentation(ofLineAt: assignment.lhs.lowerBound)
            + "\(receiver)verticalScrollIndicatorInsets.bottom = \(receiver)contentInset.bottom"
        return Fix(.safe, edits: [Edit(range: end..<end, replacement: line)])
    }

    /// Whether the inset written comes from the keyboard's frame: resetting it to zero on hide
    /// or to a fixed bar height is not a keyboard write, and the indicator stays where it was.
    static func writesKeyboardValue(_ assignment: Assignment, _ analysis: FileAnalysis) -> Bool {
        if analysis.keyboardValue(of: assignment)?.isFrame == true { return true }
        guard let call = analysis.edgeInsetsCall(assignment.rhs), let bottom = analysis.argument(call, "bottom") else { return false }
        return analysis.keyboardValue(of: bottom.value)?.isFrame == true
    }
}
