import Lexer

/// Hiding the keyboard should undo the keyboard's part of the inset, not every inset.
public struct ContentInsetResetToZero: Rule {
    public static let metadata = RuleMetadata(
        id: "content_inset_reset_to_zero",
        category: .geometry,
        defaultSeverity: .warning,
        summary: "A keyboard handler overwrites a scroll view's top and side insets along with the bottom one.",
        rationale: """
        Setting `contentInset` (or the scroll indicator insets) to `.zero` in a keyboard handler wipes the \
        top and side insets too: space reserved for a header, a pull-to-refresh area, a custom navigation \
        bar or side margins disappears, and content jumps under them the first time the keyboard hides. \
        A whole `UIEdgeInsets(top: 0, left: 0, bottom: h, right: 0)` on the show path wipes something only \
        when the type sets a top or side inset of its own elsewhere; the system's safe-area part lives in \
        `adjustedContentInset` and is never lost, so without such an inset nothing is reported.

        Severity: warning. Content is hidden under a header or bar, but nothing stops working.
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
                override func viewDidLoad() {
                    super.viewDidLoad()
                    collectionView.contentInset.top = headerHeight
                }
                @objc func keyboardWillShow(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    let height = view.convert(frame, from: nil).height - view.safeAreaInsets.bottom
                    ↓collectionView.contentInset = UIEdgeInsets(top: 0, left: 0, bottom: height, right: 0)
                }
            }
            """),
            RuleExample("""
            final class ProfileViewController: UIViewController {
                @objc func keyboardWillHide(_ note: Notification) {
                    let insets = UIEdgeInsets.zero
                    ↓scrollView.contentInset = insets
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
                func layoutHeader() {
                    scrollView.contentInset = UIEdgeInsets(top: 120, left: 0, bottom: 0, right: 0)
                    scrollView.scrollIndicatorInsets = UIEdgeInsets(top: 120, left: 0, bottom: 0, right: 0)
                }
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
            final class CommentsViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    let height = view.convert(frame, from: nil).height - view.safeAreaInsets.bottom
                    collectionView.contentInset = UIEdgeInsets(top: 0, left: 0, bottom: height, right: 0)
                }
            }
            """),
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
            final class FormViewController: UIViewController {
                func pinHeader() { scrollView.contentInset.top = header.bounds.height }
                @objc func keyboardWillShow(_ notification: Notification) {
                    let insets = UIEdgeInsets(top: 0, left: 0, bottom: height, right: 0)
                    scrollView.contentInset = insets
                }
            }
            """, """
            final class FormViewController: UIViewController {
                func pinHeader() { scrollView.contentInset.top = header.bounds.height }
                @objc func keyboardWillShow(_ notification: Notification) {
                    let insets = UIEdgeInsets(top: 0, left: 0, bottom: height, right: 0)
                    scrollView.contentInset.bottom = insets.bottom
                }
            }
            """),
            RuleCorrection("""
            final class ListViewController: UIViewController {
                func pinHeader() { tableView.scrollIndicatorInsets.top = 44 }
                @objc func keyboardWillShow(_ notification: Notification) {
                    self.tableView.scrollIndicatorInsets = UIEdgeInsets(top: 0, left: 0, bottom: inset, right: 0)
                }
            }
            """, """
            final class ListViewController: UIViewController {
                func pinHeader() { tableView.scrollIndicatorInsets.top = 44 }
                @objc func keyboardWillShow(_ notification: Notification) {
                    self.tableView.scrollIndicatorInsets.bottom = inset
                }
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
            if sink.component == nil, let bottom = Self.zeroedInsets(assignment.rhs, analysis) {
                let edit = Edit(range: analysis.source.byteRange(assignment.lhs.lowerBound..<assignment.rhs.upperBound),
                                replacement: "\(analysis.source.text(spanning: assignment.lhs)).bottom = \(bottom)")
                let message: String
                if bottom == "0" {
                    message = "`\(lhs) = \(analysis.snippet(assignment.rhs))` in a keyboard handler resets every edge to 0, wiping any top or side inset (header, bar, margins) along with the keyboard's bottom inset"
                } else {
                    // Only top and side insets that the type sets itself can be wiped.
                    guard let kept = Self.edgeSetElsewhere(sink, except: assignment, analysis) else { continue }
                    let line = analysis.source.file.location(of: Int(analysis.source.code[kept.token].start)).line
                    message = "`\(lhs) = \(analysis.snippet(assignment.rhs))` in a keyboard handler also sets top, left and right to 0, wiping the `\(kept.edge)` inset set on line \(line)"
                }
                diagnostics.append(Self.metadata.diagnostic(
                    analysis, at: assignment.lhs, message: message,
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

    /// The bottom value (as source text, "0" when zero) of `.zero`, `UIEdgeInsets.zero`,
    /// `UIEdgeInsets()` or `UIEdgeInsets(top: 0, left: 0, bottom: b, right: 0)`, written
    /// directly or through constants (`let cleared = UIEdgeInsets.zero`,
    /// `static let noInsets = …`); nil for anything else.
    static func zeroedInsets(_ rhs: Range<Int>, _ analysis: FileAnalysis) -> String? {
        let source = analysis.source
        let value = analysis.constantValue(of: rhs)
        let start = value.lowerBound
        if value.count == 2, source.kind(start) == .period, source.isWord(start + 1, "zero") { return "0" }
        if value.count == 3, source.isWord(start, "UIEdgeInsets"), source.kind(start + 1) == .period,
           source.isWord(start + 2, "zero") {
            return "0"
        }
        guard let call = analysis.edgeInsetsCall(rhs) else { return nil }
        if call.arguments.isEmpty { return "0" }
        guard call.arguments.count == 4, let argument = analysis.argument(call, "bottom") else { return nil }
        for other in call.arguments where other.label.map({ !source.isWord($0, "bottom") }) ?? true {
            guard analysis.literalNumber(other.value)?.value == 0 else { return nil }
        }
        if analysis.literalNumber(argument.value)?.value == 0 { return "0" }
        // Through a local (`let insets = UIEdgeInsets(…)`): read the bottom from the local.
        if value != rhs { return "\(source.text(at: rhs.lowerBound)).bottom" }
        return source.text(spanning: argument.value)
    }

    /// A top, left or right edge of the same kind of inset that the enclosing type sets to
    /// something other than a literal 0 outside `assignment` (`contentInset.top = 64`,
    /// `contentInset = UIEdgeInsets(top: header, …)`): the edge and the token that sets it.
    static func edgeSetElsewhere(
        _ sink: LayoutSink, except assignment: Assignment, _ analysis: FileAnalysis
    ) -> (edge: String, token: Int)? {
        guard let type = analysis.outline.enclosingType(at: assignment.op) else { return nil }
        let extent = analysis.outline[type].extent
        let source = analysis.source
        let edges: [StaticString] = ["top", "left", "right"]
        for other in analysis.assignments where other.op != assignment.op && extent.contains(other.op) && !other.isCompound {
            guard let otherSink = analysis.layoutSink(of: other), otherSink.kind == sink.kind else { continue }
            if let component = otherSink.component {
                if source.wordIndex(component, in: edges) != nil, analysis.literalNumber(other.rhs)?.value != 0 {
                    return (source.text(at: component), component)
                }
            } else if let call = analysis.edgeInsetsCall(other.rhs) {
                for argument in call.arguments {
                    guard let label = argument.label, source.wordIndex(label, in: edges) != nil,
                          analysis.literalNumber(argument.value)?.value != 0 else { continue }
                    return (source.text(at: label), label)
                }
            }
        }
        return nil
    }

    /// Whether the type around `index` reads a scroll view's `contentInset` into a value
    /// (saving it to restore later).
    static func typeSavesInset(at index: Int, _ analysis: FileAnalysis) -> Bool {
        guard let type = analysis.outline.enclosingType(at: index) else { return false }
        let extent = analysis.outline[type].extent
        let source = analysis.source
        let reads = analysis.assignments.map(\.rhs) + analysis.bindings.compactMap(\.value)
        return reads.contains { range in
            extent.contains(range.lowerBound) && range.contains { source.isWord($0, "contentInset") }
        }
    }
}
