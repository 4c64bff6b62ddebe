import Lexer

/// Hiding the keyboard should undo the keyboard's part of the inset, not every inset.
public struct ContentInsetResetToZero: Rule {
    public static let metadata = RuleMetadata(
        id: "content_inset_reset_to_zero",
        category: .geometry,
        defaultSeverity: .warning,
        summary: "A keyboard handler resets a scroll view's whole inset to zero.",
        rationale: """
        Setting `contentInset` (or the scroll indicator insets) to `.zero` in a keyboard handler wipes the \
        top and side insets too: space reserved for a header, a pull-to-refresh area, a custom navigation \
        bar or side margins disappears, and content jumps under them the first time the keyboard hides.
        """,
        fix: "Reset only the bottom edge (`scrollView.contentInset.bottom = 0`), or restore the inset saved before the keyboard appeared.",
        fixAvailability: .safe,
        options: [
            RuleOption(name: "include_bottom_zero", defaultValue: .bool(false), summary: """
            Also flag `contentInset.bottom = 0` in hide handlers of types that never saved the original bottom \
            inset (content under a tab bar or composer ends up hidden).
            """),
        ],
        triggering: [
            RuleExample("""
            final class SignUpViewController: UIViewController {
                @objc func keyboardWillHide(_ notification: Notification) {
                    ↓scrollView.contentInset = .zero
                }
            }
            """),
            RuleExample("""
            final class FeedViewController: UIViewController {
                func observe() {
                    hideToken = NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillHideNotification, object: nil, queue: .main) { [weak self] _ in
                        ↓self?.tableView.scrollIndicatorInsets = UIEdgeInsets.zero
                    }
                }
            }
            """),
            RuleExample("""
            final class CommentsViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    let height = view.convert(frame, from: nil).height - view.safeAreaInsets.bottom
                    ↓collectionView.contentInset = UIEdgeInsets(top: 0, left: 0, bottom: height, right: 0)
                }
            }
            """),
            RuleExample("""
            final class SearchViewController: UIViewController {
                func bind() {
                    NotificationCenter.default.publisher(for: UIResponder.keyboardWillHideNotification)
                        .sink { [weak self] _ in ↓self?.resultsView.contentInset = UIEdgeInsets() }
                        .store(in: &bag)
                }
            }
            """),
            RuleExample("""
            final class NotesViewController: UIViewController {
                @objc func keyboardDidHide(_ note: Notification) {
                    resetInsets()
                }
                private func resetInsets() {
                    ↓textView.verticalScrollIndicatorInsets = .zero
                }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                @objc func keyboardWillHide(_ note: Notification) {
                    ↓tableView.contentInset.bottom = 0
                }
            }
            """, options: ["include_bottom_zero": .bool(true)]),
            RuleExample("""
            final class ClassicViewController: UIViewController {
                @objc func keyboardWasShown(_ notification: NSNotification) {
                    guard let size = (notification.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? NSValue)?.cgRectValue.size else { return }
                    let contentInsets = UIEdgeInsets(top: 0.0, left: 0.0, bottom: size.height, right: 0.0)
                    ↓scrollView.contentInset = contentInsets
                    ↓scrollView.scrollIndicatorInsets = contentInsets
                }
            }
            """),
        ],
        nonTriggering: [
            RuleExample("""
            final class SignUpViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    scrollView.contentInset = .zero
                }
            }
            """),
            RuleExample("""
            final class SignUpViewController: UIViewController {
                private var savedInset = UIEdgeInsets.zero
                @objc func keyboardWillHide(_ notification: Notification) {
                    scrollView.contentInset = savedInset
                }
            }
            """),
            RuleExample("""
            final class SignUpViewController: UIViewController {
                @objc func keyboardWillHide(_ notification: Notification) {
                    scrollView.contentInset.bottom = 0
                    scrollView.verticalScrollIndicatorInsets.bottom = 0
                }
            }
            """),
            RuleExample("""
            final class CommentsViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    collectionView.contentInset = UIEdgeInsets(top: 64, left: 0, bottom: 300, right: 0)
                }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                private var originalBottom: CGFloat = 0
                @objc func keyboardWillShow(_ note: Notification) {
                    originalBottom = tableView.contentInset.bottom
                }
                @objc func keyboardWillHide(_ note: Notification) {
                    tableView.contentInset.bottom = 0
                }
            }
            """, options: ["include_bottom_zero": .bool(true)]),
            RuleExample("""
            final class GalleryViewController: UIViewController {
                @objc func keyboardWillHide(_ note: Notification) {
                    scrollView.contentOffset = .zero
                    scrollView.zoomScale = 1
                }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    tableView.contentInset.bottom = 0
                }
            }
            """, options: ["include_bottom_zero": .bool(true)]),
        ],
        corrections: [
            RuleCorrection("""
            @objc func keyboardWillHide(_ notification: Notification) {
                scrollView.contentInset = .zero
            }
            """, """
            @objc func keyboardWillHide(_ notification: Notification) {
                scrollView.contentInset.bottom = 0
            }
            """),
            RuleCorrection("""
            @objc func keyboardWillShow(_ notification: Notification) {
                let insets = UIEdgeInsets(top: 0, left: 0, bottom: height, right: 0)
                scrollView.contentInset = insets
            }
            """, """
            @objc func keyboardWillShow(_ notification: Notification) {
                let insets = UIEdgeInsets(top: 0, left: 0, bottom: height, right: 0)
                scrollView.contentInset.bottom = insets.bottom
            }
            """),
            RuleCorrection("""
            @objc func keyboardWillShow(_ notification: Notification) {
                self.tableView.scrollIndicatorInsets = UIEdgeInsets(top: 0, left: 0, bottom: inset, right: 0)
            }
            """, """
            @objc func keyboardWillShow(_ notification: Notification) {
                self.tableView.scrollIndicatorInsets.bottom = inset
            }
            """),
        ]
    )

    public init() {}

    public func check(_ context: RuleContext) -> [Diagnostic] {
        let analysis = context.analysis
        guard analysis.mentionsKeyboard else { return [] }
        let includeBottomZero = context.bool("include_bottom_zero")
        var diagnostics: [Diagnostic] = []
        for assignment in analysis.handlerAssignments where !assignment.isCompound {
            guard let sink = analysis.layoutSink(of: assignment),
                  sink.kind == .contentInset || sink.kind == .scrollIndicatorInsets else { continue }
            let lhs = analysis.snippet(assignment.lhs)
            if sink.component == nil, let bottom = Self.bottomOfZeroedInsets(assignment.rhs, analysis) {
                let edit = Edit(range: analysis.source.byteRange(assignment.lhs.lowerBound..<assignment.rhs.upperBound),
                                replacement: "\(analysis.source.text(spanning: assignment.lhs)).bottom = \(bottom)")
                diagnostics.append(Self.metadata.diagnostic(
                    analysis, at: assignment.lhs,
                    message: "`\(lhs) = \(analysis.snippet(assignment.rhs))` in a keyboard handler also wipes the top and side insets",
                    suggestion: "Set only the bottom edge: `\(lhs).bottom = \(bottom)`.",
                    fix: Fix(.safe, edits: [edit])))
            } else if includeBottomZero, let component = sink.component, analysis.source.isWord(component, "bottom"),
                      sink.kind == .contentInset, analysis.literalNumber(assignment.rhs)?.value == 0,
                      let handler = analysis.handler(at: assignment.op), handler.events.contains(where: \.isHide),
                      !Self.typeSavesInset(at: assignment.op, analysis) {
                diagnostics.append(Self.metadata.diagnostic(
                    analysis, at: assignment.lhs,
                    message: "`\(lhs) = 0` on keyboard hide drops any bottom inset the view had before (tab bar, composer)",
                    suggestion: "Save `\(analysis.snippet(sink.receiver.isEmpty ? sink.member..<(sink.member + 1) : sink.receiver)).contentInset.bottom` before the keyboard appears and restore it here."))
            }
        }
        return diagnostics
    }

    /// The bottom value of `.zero`, `UIEdgeInsets.zero`, `UIEdgeInsets()` or
    /// `UIEdgeInsets(top: 0, left: 0, bottom: b, right: 0)` (as source text), else nil.
    static func bottomOfZeroedInsets(_ written: Range<Int>, _ analysis: FileAnalysis) -> String? {
        let source = analysis.source
        // Through constants (`let cleared = UIEdgeInsets.zero`, `static let noInsets = …`).
        let rhs = analysis.constantValue(of: written)
        let start = rhs.lowerBound
        if rhs.count == 2, source.kind(start) == .period, source.isWord(start + 1, "zero") { return "0" }
        if rhs.count == 3, source.isWord(start, "UIEdgeInsets"), source.kind(start + 1) == .period,
           source.isWord(start + 2, "zero") {
            return "0"
        }
        guard let call = analysis.edgeInsetsCall(rhs) else { return nil }
        if call.arguments.isEmpty { return "0" }
        guard call.arguments.count == 4 else { return nil }
        var bottom: String?
        for argument in call.arguments {
            guard let label = argument.label else { return nil }
            if source.isWord(label, "bottom") {
                bottom = source.text(spanning: argument.value)
            } else if analysis.literalNumber(argument.value)?.value != 0 {
                return nil
            }
        }
        // Through a constant (`let insets = UIEdgeInsets(…)`): read the bottom from the constant.
        if bottom != nil, written != rhs,
           let argument = analysis.argument(call, "bottom"), analysis.literalNumber(argument.value) == nil {
            return "\(source.text(spanning: written)).bottom"
        }
        return bottom
    }

    /// Whether the type around `index` reads a scroll view's `contentInset` into a value
    /// (saving it to restore later).
    static func typeSavesInset(at index: Int, _ analysis: FileAnalysis) -> Bool {
        guard let type = analysis.outline.enclosingType(at: index) else { return false }
        let extent = analysis.outline.types[type].extent
        let source = analysis.source
        let reads = analysis.assignments.map(\.rhs) + analysis.bindings.compactMap(\.value)
        return reads.contains { range in
            extent.contains(range.lowerBound) && range.contains { source.isWord($0, "contentInset") }
        }
    }
}
