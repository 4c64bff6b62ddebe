import Lexer

/// With scrolling off, a text view's content size is its own size, not its text's.
public struct TextViewContentSizeHeight: Rule {
    public static let metadata = RuleMetadata(
        id: "text_view_content_size_height",
        category: .relatedPitfalls,
        defaultSeverity: .warning,
        summary: "`contentSize.height` of a text view whose scrolling is turned off.",
        rationale: """
        A growing composer turns `isScrollEnabled` off so the text view sizes itself, and then measures \
        the text with `contentSize.height`. With scrolling off `UITextView` keeps its content size equal \
        to its bounds, so the measured height is the current height: the bar never grows past one line, \
        or grows a frame late, and the keyboard covers the last lines of a long message.
        """,
        fix: "Measure with `sizeThatFits(CGSize(width: textView.bounds.width, height: .greatestFiniteMagnitude)).height`.",
        fixAvailability: .unsafe,
        triggering: [
            RuleExample("""
            final class ComposerViewController: UIViewController, UITextViewDelegate {
                private let messageView = UITextView()
                @IBOutlet private var messageHeight: NSLayoutConstraint!
                override func viewDidLoad() {
                    super.viewDidLoad()
                    messageView.isScrollEnabled = false
                    messageView.delegate = self
                }
                func textViewDidChange(_ textView: UITextView) {
                    messageHeight.constant = min(↓messageView.contentSize.height, 120)
                }
            }
            """),
            RuleExample("""
            final class GrowingTextView: UITextView {
                override init(frame: CGRect, textContainer: NSTextContainer?) {
                    super.init(frame: frame, textContainer: textContainer)
                    isScrollEnabled = false
                }
                required init?(coder: NSCoder) { fatalError() }
                override var intrinsicContentSize: CGSize {
                    CGSize(width: UIView.noIntrinsicMetric, height: ↓self.contentSize.height)
                }
            }
            """),
            RuleExample("""
            final class ReplyBar: UIView {
                let composer = ComposerView()
                func setUp() {
                    composer.textView.isScrollEnabled = false
                }
                func textDidChange() {
                    let lines = ↓composer.textView.contentSize.height / 20
                    invalidateIntrinsicContentSize()
                    print(lines)
                }
            }
            """),
            RuleExample("""
            final class ExpandingInput: UIView {
                let textView = UITextView()
                func setUp() { textView.isScrollEnabled = false }
                func refresh() {
                    if !textView.isScrollEnabled {
                        frame.size.height = ↓textView.contentSize.height + 16
                    }
                }
            }
            """),
            RuleExample("""
            final class NoteCell: UITableViewCell {
                func configure(with text: String) {
                    let noteView = UITextView()
                    noteView.isScrollEnabled = false
                    noteView.text = text
                    contentView.addSubview(noteView)
                    noteView.frame.size.height = ↓noteView.contentSize.height
                }
            }
            """),
        ],
        nonTriggering: [
            RuleExample("""
            final class ComposerView: UIView {
                let textView = UITextView()
                func setUp() { textView.isScrollEnabled = false }
                func reset() { textView.contentSize.height = 0 }
            }
            """),
            RuleExample("""
            final class ComposerView: UIView {
                let textView = UITextView()
                func setUp() { textView.isScrollEnabled = false }
                func textDidChange() {
                    textView.sizeToFit()
                    heightConstraint.constant = textView.contentSize.height
                }
            }
            """),
            RuleExample("""
            final class GrowingTextView: UITextView {
                func setUp() { isScrollEnabled = false }
                override func layoutSubviews() {
                    super.layoutSubviews()
                    let fitted = sizeThatFits(CGSize(width: bounds.width, height: .greatestFiniteMagnitude))
                    contentSize = fitted
                    heightConstraint.constant = contentSize.height
                }
            }
            """),
            RuleExample("""
            final class ComposerViewController: UIViewController {
                private let messageView = UITextView()
                @IBOutlet private var messageHeight: NSLayoutConstraint!
                func textViewDidChange(_ textView: UITextView) {
                    messageHeight.constant = min(messageView.contentSize.height, 120)
                }
            }
            """),
            RuleExample("""
            final class OptionsViewController: UIViewController {
                private let tableView = UITableView()
                @IBOutlet private var tableHeight: NSLayoutConstraint!
                override func viewDidLoad() {
                    super.viewDidLoad()
                    tableView.isScrollEnabled = false
                }
                override func viewDidLayoutSubviews() {
                    tableHeight.constant = tableView.contentSize.height
                }
            }
            """),
            RuleExample("""
            final class GrowingTextView: UITextView {
                var measuredHeight: CGFloat = 0
                override init(frame: CGRect, textContainer: NSTextContainer?) {
                    super.init(frame: frame, textContainer: textContainer)
                    isScrollEnabled = false
                }
                required init?(coder: NSCoder) { fatalError() }
                override func layoutSubviews() {
                    super.layoutSubviews()
                    measuredHeight = contentSize.height
                }
            }
            """),
            RuleExample("""
            final class ComposerViewController: UIViewController {
                private let messageView = UITextView()
                @IBOutlet private var messageHeight: NSLayoutConstraint!
                override func viewDidLoad() {
                    super.viewDidLoad()
                    messageView.isScrollEnabled = false
                }
                func textViewDidChange(_ textView: UITextView) {
                    let fitting = messageView.sizeThatFits(CGSize(width: messageView.bounds.width, height: .greatestFiniteMagnitude))
                    messageHeight.constant = min(fitting.height, 120)
                }
            }
            """),
            RuleExample("""
            final class ArticleViewController: UIViewController {
                let titleView = UITextView()
                let bodyView = UITextView()
                override func viewDidLoad() {
                    super.viewDidLoad()
                    titleView.isScrollEnabled = false
                    print(bodyView.contentSize.height)
                }
            }
            """),
            RuleExample("""
            final class Setup {
                func configure(_ editor: EditorView) {
                    editor.textView.isScrollEnabled = false
                }
            }
            final class EditorView: UIView {
                let textView = UITextView()
                var textHeight: CGFloat { textView.contentSize.height }
            }
            """),
            RuleExample("""
            final class ComposerViewController: UIViewController {
                private let messageView = UITextView()
                override func viewDidLoad() {
                    super.viewDidLoad()
                    messageView.isScrollEnabled = false
                    print(messageView.contentSize.width)
                }
            }
            """),
            RuleExample("""
            final class GrowingComposer: UIView {
                let textView = UITextView()
                func textDidChange() {
                    if textView.isScrollEnabled {
                        textView.scrollRectToVisible(CGRect(x: 0, y: textView.contentSize.height - 1, width: 1, height: 1), animated: false)
                    } else {
                        invalidateIntrinsicContentSize()
                    }
                }
                func collapse() { textView.isScrollEnabled = false }
            }
            """),
        ],
        corrections: [
            RuleCorrection("""
            final class ComposerViewController: UIViewController, UITextViewDelegate {
                private let messageView = UITextView()
                @IBOutlet private var messageHeight: NSLayoutConstraint!
                override func viewDidLoad() {
                    super.viewDidLoad()
                    messageView.isScrollEnabled = false
                    messageView.delegate = self
                }
                func textViewDidChange(_ textView: UITextView) {
                    messageHeight.constant = min(↓messageView.contentSize.height, 120)
                }
            }
            """, """
            final class ComposerViewController: UIViewController, UITextViewDelegate {
                private let messageView = UITextView()
                @IBOutlet private var messageHeight: NSLayoutConstraint!
                override func viewDidLoad() {
                    super.viewDidLoad()
                    messageView.isScrollEnabled = false
                    messageView.delegate = self
                }
                func textViewDidChange(_ textView: UITextView) {
                    messageHeight.constant = min(messageView.sizeThatFits(CGSize(width: messageView.bounds.width, height: .greatestFiniteMagnitude)).height, 120)
                }
            }
            """),
        ]
    )

    public static var requiredMarkers: [StaticString] { ["isScrollEnabled"] }

    public init() {}

    /// `x.contentSize.height` measured as `x.sizeThatFits(CGSize(width: x.bounds.width, height:
    /// .greatestFiniteMagnitude)).height`. Only for a plain property chain (it is read twice):
    /// no calls, no optional chaining. Unsafe: before the first layout `bounds.width` is 0.
    static func fittingHeightFix(_ read: Range<Int>, _ analysis: FileAnalysis) -> Fix? {
        let source = analysis.source
        let contentSize = read.upperBound - 3
        let receiver = read.lowerBound..<max(read.lowerBound, contentSize - 1)
        guard !receiver.contains(where: {
            source.isOpeningBracket($0) || source.kind($0) == .postfixQuestionMark || source.kind($0) == .exclamationMark
        }) else { return nil }
        let prefix = receiver.isEmpty ? "" : source.text(spanning: receiver) + "."
        return Fix(.unsafe, edits: [Edit(
            range: source.byteRange(read),
            replacement: "\(prefix)sizeThatFits(CGSize(width: \(prefix)bounds.width, height: .greatestFiniteMagnitude)).height")])
    }

    public func check(_ context: RuleContext) -> [Diagnostic] {
        let analysis = context.analysis
        let source = analysis.source
        // `x.isScrollEnabled = false`, by type and receiver spelling.
        var disabled: [(type: String, receiver: [Int], assignment: Assignment)] = []
        for assignment in analysis.assignments where !assignment.isCompound {
            var names = analysis.namesWithoutSelf(assignment.lhs)
            guard let last = names.last, source.isWord(last, "isScrollEnabled"),
                  assignment.rhs.count == 1, source.isWord(assignment.rhs.lowerBound, "false"),
                  let type = analysis.typeName(at: assignment.op) else { continue }
            names.removeLast()
            disabled.append((type, names, assignment))
        }
        guard !disabled.isEmpty else { return [] }
        var diagnostics: [Diagnostic] = []
        for index in 0..<source.code.count where source.isWord(index, "contentSize") {
            guard source.kind(index + 1) == .period, source.isWord(index + 2, "height"),
                  !Self.isWritten(index + 2, source),
                  let type = analysis.typeName(at: index),
                  !Self.typeSizesContentItself(at: index, analysis) else { continue }
            let start = analysis.chainStart(endingAt: index)
            var receiver = analysis.namesWithoutSelf(start..<(index + 1))
            receiver.removeLast()
            guard let match = disabled.first(where: {
                $0.type == type && $0.receiver.count == receiver.count
                    && zip($0.receiver, receiver).allSatisfy { source.nameHash($0) == source.nameHash($1) }
            }), isTextView(receiver, at: index, analysis, context.project),
                  !isAfterSuperLayout(index, analysis),
                  !isAfterFitting(index, receiver: receiver, analysis),
                  !isGuardedByScrolling(index, receiver: receiver, analysis) else { continue }
            let textView = receiver.isEmpty ? "self" : analysis.snippet(receiver[0]..<(receiver[receiver.count - 1] + 1))
            diagnostics.append(Self.metadata.diagnostic(
                analysis, at: start..<(index + 3),
                message: "`\(textView)` has scrolling turned off, so its `contentSize.height` is its current height, not the height of its text",
                suggestion: "Measure with `\(textView).sizeThatFits(CGSize(width: \(textView).bounds.width, height: .greatestFiniteMagnitude)).height`.",
                fix: Self.fittingHeightFix(start..<(index + 3), analysis)
            ).relating([RelatedLocation(
                range: source.byteRange(match.assignment.lhs.lowerBound..<match.assignment.rhs.upperBound),
                message: "scrolling is turned off here")]))
        }
        return diagnostics
    }

    /// Whether the receiver is a text view: `self` in a `UITextView` subclass, a property or
    /// local that holds one, or (when its type is not visible) a name ending in `textView`.
    func isTextView(_ receiver: [Int], at index: Int, _ analysis: FileAnalysis, _ project: ProjectFacts) -> Bool {
        func isTextViewType(_ name: String) -> Bool {
            project.rootClass(of: name) == "UITextView"
        }
        guard let last = receiver.last else {
            return analysis.typeName(at: index).map(isTextViewType) ?? false
        }
        if receiver.count == 1 {
            for found in analysis.accessorySources(of: last..<(last + 1)) {
                if let name = analysis.typeName(of: found) { return isTextViewType(name) }
            }
        }
        return analysis.source.text(at: last).lowercased().hasSuffix("textview")
    }

    /// Whether the read sits in the body of an `if` whose condition tests that the same text
    /// view scrolls (`if textView.isScrollEnabled { … }`): then its content size is the text's.
    func isGuardedByScrolling(_ index: Int, receiver: [Int], _ analysis: FileAnalysis) -> Bool {
        let source = analysis.source
        let outline = analysis.outline
        for scope in outline.scopesInsideExecutableBody(around: index) {
            if case .block(let keyword) = outline[scope].kind, source.isWord(keyword, "if") {
                for token in (keyword + 1)..<outline[scope].open where source.isWord(token, "isScrollEnabled") {
                    let start = analysis.chainStart(endingAt: token)
                    var names = analysis.namesWithoutSelf(start..<(token + 1))
                    names.removeLast()
                    let negated = source.kind(start - 1) == .prefixOperator
                        || source.isWord(ExpressionBounds.end(source, from: token + 1) - 1, "false")
                    if !negated, names.count == receiver.count,
                       zip(names, receiver).allSatisfy({ source.nameHash($0) == source.nameHash($1) }) {
                        return true
                    }
                }
            }
        }
        return false
    }

    /// Reads in `layoutSubviews`/`viewDidLayoutSubviews` after the `super` call see the laid-out size.
    func isAfterSuperLayout(_ index: Int, _ analysis: FileAnalysis) -> Bool {
        guard let scope = analysis.outline.executableScope(at: index),
              let function = analysis.outline.function(ofScope: scope) else { return false }
        let name = analysis.outline[function].name
        guard name == "layoutSubviews" || name == "viewDidLayoutSubviews" else { return false }
        let body = analysis.outline[scope].body
        return analysis.calls(in: body.lowerBound..<index).contains { call in
            analysis.source.isWord(call.callee, name == "layoutSubviews" ? "layoutSubviews" : "viewDidLayoutSubviews")
                && call.receiver.map { analysis.source.isWord($0.lowerBound, "super") } ?? false
        }
    }

    /// Whether `height` at `index` is assigned to (`contentSize.height = h`): a write, not a read.
    static func isWritten(_ index: Int, _ source: TokenizedSource) -> Bool {
        let next = index + 1
        return source.kind(next) == .equal
            || (source.kind(next) == .binaryOperator && source.text(at: next).hasSuffix("=") && source.text(at: next) != "==")
    }

    /// Whether the type around `index` sets a `contentSize` from `sizeThatFits` itself: then it
    /// keeps the content size equal to the text's height.
    static func typeSizesContentItself(at index: Int, _ analysis: FileAnalysis) -> Bool {
        guard let type = analysis.outline.enclosingType(at: index) else { return false }
        let extent = analysis.outline[type].extent
        let source = analysis.source
        return analysis.assignments.contains { assignment in
            guard extent.contains(assignment.op), let last = analysis.chainNames(assignment.lhs).last,
                  source.isWord(last, "contentSize") else { return false }
            return analysis.constantValue(of: assignment.rhs).contains { source.isWord($0, "sizeThatFits") }
        }
    }

    /// Whether the read follows `sizeToFit()` on the same text view, or a `layoutIfNeeded()`,
    /// earlier in the same body: the content size is then the fitted one.
    func isAfterFitting(_ index: Int, receiver: [Int], _ analysis: FileAnalysis) -> Bool {
        guard let scope = analysis.outline.executableScope(at: index) else { return false }
        let source = analysis.source
        let body = analysis.outline[scope].body
        return analysis.calls(in: body.lowerBound..<index).contains { call in
            if source.isWord(call.callee, "layoutIfNeeded") { return true }
            guard source.isWord(call.callee, "sizeToFit") else { return false }
            let names = call.receiver.map { analysis.namesWithoutSelf($0) } ?? []
            guard names.count == receiver.count else { return false }
            return zip(names, receiver).allSatisfy { source.nameHash($0) == source.nameHash($1) }
        }
    }
}
