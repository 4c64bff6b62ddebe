import Lexer

/// An accessory that sizes itself through `intrinsicContentSize` grows only when its
/// autoresizing mask lets it.
public struct AccessoryMissingFlexibleHeight: Rule {
    public static let metadata = RuleMetadata(
        id: "accessory_missing_flexible_height",
        category: .inputAccessoryViews,
        defaultSeverity: .warning,
        summary: "A self-sizing input accessory view lacks `.flexibleHeight` in its autoresizing mask.",
        rationale: """
        UIKit turns an input accessory view's autoresizing mask into constraints. Without \
        `.flexibleHeight` that includes a required height equal to the frame the view was created with, \
        so an `intrinsicContentSize` that grows with the text is ignored: a growing composer stays one \
        line tall (or zero, when created without a frame) and its text scrolls out of sight.
        """,
        fix: "Set `autoresizingMask = .flexibleHeight` in the view's initializer or where it is created (`allowsSelfSizing = true` on a `UIInputView`), or turn autoresizing constraints off and constrain its height.",
        fixAvailability: .unsafe,
        triggering: [
            RuleExample("""
            final class ↓GrowingComposer: UIView {
                let textView = UITextView()
                override var intrinsicContentSize: CGSize {
                    let fitting = textView.sizeThatFits(CGSize(width: bounds.width, height: .greatestFiniteMagnitude))
                    return CGSize(width: UIView.noIntrinsicMetric, height: min(fitting.height, 120))
                }
            }
            final class ChatViewController: UIViewController {
                private lazy var composer = GrowingComposer()
                override var inputAccessoryView: UIView? { composer }
                override var canBecomeFirstResponder: Bool { true }
            }
            """),
            RuleExample("""
            final class ↓ReplyBar: UIView {
                var lines = 1 { didSet { invalidateIntrinsicContentSize() } }
                override init(frame: CGRect) {
                    super.init(frame: frame)
                    autoresizingMask = .flexibleWidth
                }
                required init?(coder: NSCoder) { fatalError() }
                override var intrinsicContentSize: CGSize {
                    CGSize(width: UIView.noIntrinsicMetric, height: CGFloat(lines) * 20 + 16)
                }
            }
            """, files: ["TicketViewController.swift": """
            final class TicketViewController: UIViewController {
                let replyBar = ReplyBar(frame: CGRect(x: 0, y: 0, width: 320, height: 44))
                override var inputAccessoryView: UIView? { replyBar }
                override var canBecomeFirstResponder: Bool { true }
            }
            """]),
            RuleExample("""
            class ↓ExpandingBar: UIView {
                var contentHeight: CGFloat = 44 { didSet { invalidateIntrinsicContentSize() } }
                override var intrinsicContentSize: CGSize {
                    CGSize(width: UIView.noIntrinsicMetric, height: contentHeight)
                }
            }
            """, files: ["CommentBar.swift": """
            final class CommentBar: ExpandingBar {}
            final class PostViewController: UIViewController {
                @IBOutlet var commentField: UITextView!
                override func viewDidLoad() {
                    super.viewDidLoad()
                    commentField.inputAccessoryView = CommentBar()
                }
            }
            """]),
            RuleExample("""
            extension UIView {
                func pinEdges(to other: UIView) {
                    translatesAutoresizingMaskIntoConstraints = false
                    NSLayoutConstraint.activate([topAnchor.constraint(equalTo: other.topAnchor)])
                }
            }
            open class ↓MessageInputBar: UIView {
                open override var intrinsicContentSize: CGSize { cachedSize }
                private var cachedSize = CGSize(width: UIView.noIntrinsicMetric, height: 52)
            }
            """, files: [
                "BaseChatViewController.swift": """
                class BaseChatViewController: UITableViewController {
                    let messageBar: MessageInputBar
                    init() {
                        messageBar = MessageInputBar()
                        super.init(style: .plain)
                    }
                }
                """,
                "SupportChatViewController.swift": """
                final class SupportChatViewController: BaseChatViewController {
                    override var inputAccessoryView: UIView? { isClosed ? nil : messageBar }
                    override var canBecomeFirstResponder: Bool { true }
                }
                """,
            ]),
            RuleExample("""
            final class ↓FormattingInputView: UIInputView {
                var rows = 1
                override var intrinsicContentSize: CGSize {
                    CGSize(width: UIView.noIntrinsicMetric, height: CGFloat(rows) * 44)
                }
            }
            final class EditorViewController: UIViewController {
                @IBOutlet var bodyView: UITextView!
                override func viewDidLoad() {
                    super.viewDidLoad()
                    let formatting = FormattingInputView(frame: .zero, inputViewStyle: .keyboard)
                    bodyView.inputAccessoryView = formatting
                }
            }
            """),
        ],
        nonTriggering: [
            RuleExample("""
            final class GrowingComposer: UIView {
                let textView = UITextView()
                override init(frame: CGRect) {
                    super.init(frame: frame)
                    autoresizingMask = [.flexibleWidth, .flexibleHeight]
                }
                required init?(coder: NSCoder) { fatalError() }
                override var intrinsicContentSize: CGSize {
                    let fitting = textView.sizeThatFits(CGSize(width: bounds.width, height: .greatestFiniteMagnitude))
                    return CGSize(width: UIView.noIntrinsicMetric, height: fitting.height)
                }
            }
            final class ChatViewController: UIViewController {
                private lazy var composer = GrowingComposer()
                override var inputAccessoryView: UIView? { composer }
            }
            """),
            RuleExample("""
            final class ReplyBar: UIView {
                var lines = 1
                override var intrinsicContentSize: CGSize {
                    CGSize(width: UIView.noIntrinsicMetric, height: CGFloat(lines) * 20 + 16)
                }
            }
            """, files: ["TicketViewController.swift": """
            final class TicketViewController: UIViewController {
                private lazy var replyBar: ReplyBar = {
                    let bar = ReplyBar()
                    bar.autoresizingMask = .flexibleHeight
                    return bar
                }()
                override var inputAccessoryView: UIView? { replyBar }
            }
            """]),
            RuleExample("""
            final class DoneBar: UIView {
                override var intrinsicContentSize: CGSize {
                    CGSize(width: UIView.noIntrinsicMetric, height: 44)
                }
            }
            final class AmountViewController: UIViewController {
                @IBOutlet var amountField: UITextField!
                override func viewDidLoad() {
                    super.viewDidLoad()
                    amountField.inputAccessoryView = DoneBar(frame: CGRect(x: 0, y: 0, width: 320, height: 44))
                }
            }
            """),
            RuleExample("""
            final class FormattingInputView: UIInputView {
                var rows = 1
                override init(frame: CGRect, inputViewStyle: UIInputView.Style) {
                    super.init(frame: frame, inputViewStyle: inputViewStyle)
                    allowsSelfSizing = true
                }
                required init?(coder: NSCoder) { fatalError() }
                override var intrinsicContentSize: CGSize {
                    CGSize(width: UIView.noIntrinsicMetric, height: CGFloat(rows) * 44)
                }
            }
            final class EditorViewController: UIViewController {
                @IBOutlet var bodyView: UITextView!
                func attach() { bodyView.inputAccessoryView = FormattingInputView(frame: .zero, inputViewStyle: .keyboard) }
            }
            """),
            RuleExample("""
            final class TagCloudView: UIView {
                var tags: [String] = []
                override var intrinsicContentSize: CGSize {
                    CGSize(width: UIView.noIntrinsicMetric, height: CGFloat(tags.count) * 30)
                }
            }
            """),
            RuleExample("""
            final class TrackingContainer: UIView {
                let heightConstraint: NSLayoutConstraint
                override init(frame: CGRect) {
                    heightConstraint = NSLayoutConstraint()
                    super.init(frame: frame)
                    translatesAutoresizingMaskIntoConstraints = false
                }
                required init?(coder: NSCoder) { fatalError() }
                override var intrinsicContentSize: CGSize {
                    CGSize(width: UIView.noIntrinsicMetric, height: heightConstraint.constant)
                }
            }
            final class AIChatViewController: UIViewController {
                let container = TrackingContainer(frame: .zero)
                override var inputAccessoryView: UIView? { container }
            }
            """),
            RuleExample("""
            class SelfSizingBar: UIView {
                override init(frame: CGRect) {
                    super.init(frame: frame)
                    autoresizingMask = .flexibleHeight
                }
                required init?(coder: NSCoder) { fatalError() }
            }
            final class MentionsBar: SelfSizingBar {
                var rows = 1
                override var intrinsicContentSize: CGSize {
                    CGSize(width: UIView.noIntrinsicMetric, height: CGFloat(rows) * 32)
                }
            }
            final class PostViewController: UIViewController {
                let mentions = MentionsBar()
                override var inputAccessoryView: UIView? { mentions }
            }
            """),
            RuleExample("""
            final class LibraryComposer: ThirdPartyInputBar {
                override var intrinsicContentSize: CGSize {
                    CGSize(width: UIView.noIntrinsicMetric, height: textHeight + 16)
                }
            }
            final class ChatViewController: UIViewController {
                let composer = LibraryComposer()
                override var inputAccessoryView: UIView? { composer }
            }
            """),
        ],
        corrections: [
            RuleCorrection("""
            final class ↓ReplyBar: UIView {
                var lines = 1 { didSet { invalidateIntrinsicContentSize() } }
                override init(frame: CGRect) {
                    super.init(frame: frame)
                    autoresizingMask = .flexibleWidth
                }
                required init?(coder: NSCoder) { fatalError() }
                override var intrinsicContentSize: CGSize {
                    CGSize(width: UIView.noIntrinsicMetric, height: CGFloat(lines) * 20 + 16)
                }
            }
            final class TicketViewController: UIViewController {
                let replyBar = ReplyBar(frame: CGRect(x: 0, y: 0, width: 320, height: 44))
                override var inputAccessoryView: UIView? { replyBar }
                override var canBecomeFirstResponder: Bool { true }
            }
            """, """
            final class ReplyBar: UIView {
                var lines = 1 { didSet { invalidateIntrinsicContentSize() } }
                override init(frame: CGRect) {
                    super.init(frame: frame)
                    autoresizingMask = [.flexibleWidth, .flexibleHeight]
                }
                required init?(coder: NSCoder) { fatalError() }
                override var intrinsicContentSize: CGSize {
                    CGSize(width: UIView.noIntrinsicMetric, height: CGFloat(lines) * 20 + 16)
                }
            }
            final class TicketViewController: UIViewController {
                let replyBar = ReplyBar(frame: CGRect(x: 0, y: 0, width: 320, height: 44))
                override var inputAccessoryView: UIView? { replyBar }
                override var canBecomeFirstResponder: Bool { true }
            }
            """),
            RuleCorrection("""
            final class ↓NoteBar: UIView {
                var lines = 1 { didSet { invalidateIntrinsicContentSize() } }
                override init(frame: CGRect) {
                    super.init(frame: frame)
                    backgroundColor = .systemBackground
                }
                required init?(coder: NSCoder) { fatalError() }
                override var intrinsicContentSize: CGSize {
                    CGSize(width: UIView.noIntrinsicMetric, height: CGFloat(lines) * 20 + 16)
                }
            }
            final class NoteViewController: UIViewController {
                let noteBar = NoteBar(frame: CGRect(x: 0, y: 0, width: 320, height: 44))
                override var inputAccessoryView: UIView? { noteBar }
                override var canBecomeFirstResponder: Bool { true }
            }
            """, """
            final class NoteBar: UIView {
                var lines = 1 { didSet { invalidateIntrinsicContentSize() } }
                override init(frame: CGRect) {
                    super.init(frame: frame)
                    autoresizingMask = .flexibleHeight
                    backgroundColor = .systemBackground
                }
                required init?(coder: NSCoder) { fatalError() }
                override var intrinsicContentSize: CGSize {
                    CGSize(width: UIView.noIntrinsicMetric, height: CGFloat(lines) * 20 + 16)
                }
            }
            final class NoteViewController: UIViewController {
                let noteBar = NoteBar(frame: CGRect(x: 0, y: 0, width: 320, height: 44))
                override var inputAccessoryView: UIView? { noteBar }
                override var canBecomeFirstResponder: Bool { true }
            }
            """),
        ]
    )

    public static var requiredMarkers: [StaticString] { ["intrinsicContentSize"] }

    public init() {}

    /// `.flexibleHeight` added where the class sets its own `autoresizingMask` (`.flexibleWidth`
    /// becomes `[.flexibleWidth, .flexibleHeight]`), or `autoresizingMask = .flexibleHeight`
    /// after its `super.init(frame:)` when it sets no mask (a view made in code starts with
    /// none). Unsafe: the view also grows with its superview wherever else it is used.
    static func flexibleHeightFix(_ type: Range<Int>, _ analysis: FileAnalysis) -> Fix? {
        let source = analysis.source
        for assignment in analysis.assignments where type.contains(assignment.op) && !assignment.isCompound {
            let names = analysis.namesWithoutSelf(assignment.lhs)
            guard names.count == 1, source.isWord(names[0], "autoresizingMask") else { continue }
            let value = assignment.rhs
            if value.count == 2, source.kind(value.lowerBound) == .period {
                return Fix(.unsafe, edits: [Edit(range: source.byteRange(value),
                                                 replacement: "[\(source.text(spanning: value)), .flexibleHeight]")])
            }
            if source.kind(value.lowerBound) == .leftSquare, source.partnerIndex(value.lowerBound) == value.upperBound - 1 {
                let close = source.byteRange((value.upperBound - 1)..<value.upperBound).lowerBound
                return Fix(.unsafe, edits: [Edit(range: close..<close, replacement: value.count == 2 ? ".flexibleHeight" : ", .flexibleHeight")])
            }
            return nil
        }
        guard let superInit = analysis.calls.first(where: {
            type.contains($0.callee) && source.isWord($0.callee, "init") && analysis.argument($0, "frame") != nil
                && $0.receiver.map { source.isWord($0.lowerBound, "super") } == true
        }) else { return nil }
        let end = source.byteRange(superInit.end..<(superInit.end + 1)).upperBound
        return Fix(.unsafe, edits: [Edit(
            range: end..<end,
            replacement: "\n" + analysis.indentation(ofLineAt: superInit.callee) + "autoresizingMask = .flexibleHeight")])
    }

    public func check(_ context: RuleContext) -> [Diagnostic] {
        let analysis = context.analysis
        let project = context.project
        let overrides = zip(analysis.outline.propertyIDs, analysis.outline.properties).filter { _, property in
            property.name == "intrinsicContentSize" && property.modifiers.contains("override")
        }
        // The file's accessory facts and the project's accessory uses are needed only for an
        // override to judge; most files checked have none.
        guard !overrides.isEmpty else { return [] }
        let current = AccessoryFacts(analysis)
        let selfSizing = project.accessories.selfSizingTypes.union(current.selfSizingTypes)
        let sizedWhereCreated = project.accessories.typesSizedWhereCreated.union(current.typesSizedWhereCreated)
        var diagnostics: [Diagnostic] = []
        var reported = Set<String>()
        let uses = project.accessoryUses(including: current).map { (use: $0, lineage: project.declaredLineage(of: $0.typeName)) }
        for (id, property) in overrides {
            guard let owner = property.owner else { continue }
            let declaration = analysis.outline[owner]
            let typeName = declaration.simpleName
            guard declaration.kind == .class || declaration.kind == .extension,
                  ResponderVocabulary.viewClasses.contains(project.rootClass(of: typeName)),
                  let getter = analysis.getterScope(of: id), !hasFixedHeight(getter, analysis),
                  !project.declaredLineage(of: typeName).contains(where: selfSizing.contains) else { continue }
            // Accessory uses of this class or of a subclass that nothing sizes.
            let unsized = uses.first { use, lineage in
                guard lineage.contains(typeName) else { return false }
                let belowOrAt = lineage.prefix { $0 != typeName } + [typeName]
                return !belowOrAt.contains(where: selfSizing.contains) && !sizedWhereCreated.contains(use.typeName)
            }
            guard let use = unsized?.use, reported.insert(typeName).inserted else { continue }
            let via = use.typeName == typeName ? "" : " (as `\(use.typeName)`)"
            diagnostics.append(Self.metadata.diagnostic(
                analysis, at: analysis.tokenRange(declaration.nameToken),
                message: "`\(typeName)` overrides `intrinsicContentSize` and is an input accessory view\(via), but neither it nor the code that creates it sets `.flexibleHeight` in its `autoresizingMask`; UIKit pins it to its initial height",
                suggestion: "Set `autoresizingMask = .flexibleHeight` in `\(typeName)`'s initializer.",
                fix: Self.flexibleHeightFix(declaration.extent, analysis)
            ).relating([RelatedLocation(
                path: use.location.path == analysis.source.file.path ? nil : use.location.path,
                range: use.location.range, message: "it becomes an input accessory view here")]))
        }
        return diagnostics
    }

    /// Whether every returned size has a literal or static-constant height: a fixed-height
    /// accessory needs no flexible height.
    func hasFixedHeight(_ getter: ScopeID, _ analysis: FileAnalysis) -> Bool {
        let returned = analysis.returnedExpressions(of: getter)
        guard !returned.isEmpty else { return false }
        return returned.allSatisfy { expression in
            guard let call = analysis.wholeCall(expression), let height = analysis.argument(analysis.calls[call], "height")
            else { return false }
            let value = height.value
            if value.count == 1, analysis.source.numericValue(at: value.lowerBound) != nil { return true }
            // `Layout.barHeight`, `Self.height`: a static constant.
            guard let first = value.first, value.count == 3, analysis.source.kind(first + 1) == .period,
                  analysis.source.kind(first) == .identifier || analysis.source.isWord(first, "Self") else { return false }
            let byte = analysis.source.file.bytes[Int(analysis.source.code[first].start)]
            return byte >= 0x41 && byte <= 0x5A
        }
    }
}
