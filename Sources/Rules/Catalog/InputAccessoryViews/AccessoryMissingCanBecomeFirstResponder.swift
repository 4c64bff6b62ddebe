import Lexer

/// An accessory view is shown only while its responder is first responder, and a view
/// controller or plain view can be that only when it says so.
public struct AccessoryMissingCanBecomeFirstResponder: Rule {
    public static let metadata = RuleMetadata(
        id: "accessory_missing_can_become_first_responder",
        category: .inputAccessoryViews,
        defaultSeverity: .error,
        summary: "A view controller or view overrides `inputAccessoryView` but cannot become first responder.",
        rationale: """
        UIKit attaches a responder's `inputAccessoryView` only while that responder is first responder. \
        `UIViewController` and plain `UIView` return false from `canBecomeFirstResponder`, so \
        `becomeFirstResponder()` fails and the bar never appears: a Messages-style composer is simply \
        missing, and a text view inside it can never be tapped. Text fields, text views and web views \
        become first responder on their own and need no override.
        """,
        fix: "Add `override var canBecomeFirstResponder: Bool { true }` to the type (any of its declarations or extensions) and call `becomeFirstResponder()` when it appears.",
        fixAvailability: .safe,
        triggering: [
            RuleExample("""
            final class ChatViewController: UIViewController {
                private lazy var composer = ComposerBar()
                override var ↓inputAccessoryView: UIView? { composer }
                override func viewDidAppear(_ animated: Bool) {
                    super.viewDidAppear(animated)
                    becomeFirstResponder()
                }
            }
            """),
            RuleExample("""
            final class ThreadViewController: BaseListViewController {
                let replyBar = ReplyBar()
                override var ↓inputAccessoryView: UIView? {
                    return replyBar
                }
            }
            """, files: ["BaseListViewController.swift": """
            class BaseListViewController: UITableViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    tableView.keyboardDismissMode = .interactive
                }
            }
            """]),
            RuleExample("""
            final class SignatureCanvas: UIView {
                private let toolbar = UIToolbar(frame: CGRect(x: 0, y: 0, width: 320, height: 44))
                override var ↓inputAccessoryView: UIView? {
                    get { toolbar }
                }
            }
            """),
            RuleExample("""
            final class PhotoViewController: UIViewController {
                private let captionController = CaptionInputViewController()
                override var ↓inputAccessoryViewController: UIInputViewController? { captionController }
            }
            """, files: ["PhotoViewController+Responder.swift": """
            extension PhotoViewController {
                override var canBecomeFirstResponder: Bool { false }
            }
            """]),
        ],
        nonTriggering: [
            RuleExample("""
            final class ChatViewController: UIViewController {
                private lazy var composer = ComposerBar()
                override var inputAccessoryView: UIView? { composer }
            }
            """, files: ["UIViewController+Responder.swift": """
            extension UIViewController {
                open override var canBecomeFirstResponder: Bool { true }
            }
            """]),
            RuleExample("""
            final class ChatViewController: UIViewController {
                private lazy var composer = ComposerBar()
                override var inputAccessoryView: UIView? { composer }
            }
            extension ChatViewController {
                override var canBecomeFirstResponder: Bool { true }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                private lazy var composer = ComposerBar()
                override var inputAccessoryView: UIView? { composer }
                override var canBecomeFirstResponder: Bool { true }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                private lazy var composer = ComposerBar()
                override var inputAccessoryView: UIView? { composer }
            }
            """, files: ["ChatViewController+Responder.swift": """
            extension ChatViewController {
                override var canBecomeFirstResponder: Bool {
                    return true
                }
            }
            """]),
            RuleExample("""
            final class DirectMessagesViewController: ConversationViewController {
                override var inputAccessoryView: UIView? { replyBar }
            }
            """, files: ["ConversationViewController.swift": """
            class ConversationViewController: UIViewController {
                let replyBar = ReplyBar()
                override var canBecomeFirstResponder: Bool { true }
            }
            """]),
            RuleExample("""
            final class AmountField: UITextField {
                private let keypadBar = KeypadBar()
                override var inputAccessoryView: UIView? {
                    get { keypadBar }
                    set {}
                }
            }
            """),
            RuleExample("""
            final class NoteTextView: FormattingTextView {
                override var inputAccessoryView: UIView? { formattingBar }
            }
            class FormattingTextView: UITextView {
                let formattingBar = FormattingBar()
            }
            """),
            RuleExample("""
            final class ArticleWebView: WKWebView {
                override var inputAccessoryView: UIView? { nil }
            }
            """),
            RuleExample("""
            final class ReaderViewController: UIViewController {
                override var inputAccessoryView: UIView? {
                    return nil
                }
            }
            """),
            RuleExample("""
            final class OverlayViewController: UIViewController {
                private let inputBar = InputBar()
                override var inputAccessoryView: UIView? { inputBar }
                override func viewDidLoad() {
                    super.viewDidLoad()
                    view.addSubview(inputBar)
                }
            }
            """),
            RuleExample("""
            final class EditorViewController: UIViewController {
                let bar = FormatBar()
                override var inputAccessoryView: UIView? { bar }
                override var canBecomeFirstResponder: Bool { isEditable }
            }
            """),
            RuleExample("""
            final class TimelineViewController: ThirdPartyMessagesViewController {
                override var inputAccessoryView: UIView? { messageInputBar }
            }
            """),
            RuleExample("""
            final class ContainerView: UIView {
                var trackedAccessory: UIView?
                override var inputAccessoryView: UIView? {
                    get { trackedAccessory }
                    set { trackedAccessory = newValue }
                }
            }
            """),
        ],
        corrections: [
            RuleCorrection("""
            final class ChatViewController: UIViewController {
                private lazy var composer = ComposerBar()
                override var ↓inputAccessoryView: UIView? { composer }
                override func viewWillDisappear(_ animated: Bool) {
                    super.viewWillDisappear(animated)
                    resignFirstResponder()
                }
            }
            """, """
            final class ChatViewController: UIViewController {
                private lazy var composer = ComposerBar()
                override var inputAccessoryView: UIView? { composer }
                override var canBecomeFirstResponder: Bool { true }
                override func viewWillDisappear(_ animated: Bool) {
                    super.viewWillDisappear(animated)
                    resignFirstResponder()
                }
            }
            """),
            RuleCorrection("""
            class SketchView: UIView {
            \tlet tools = ToolsBar()
            \toverride var ↓inputAccessoryView: UIView? {
            \t\treturn tools
            \t}
            }
            """, """
            class SketchView: UIView {
            \tlet tools = ToolsBar()
            \toverride var inputAccessoryView: UIView? {
            \t\treturn tools
            \t}
            \toverride var canBecomeFirstResponder: Bool { true }
            }
            """),
        ]
    )

    public static var requiredMarkers: [StaticString] { ["inputAccessoryView"] }

    public init() {}

    /// Whether the type's own code calls `becomeFirstResponder()` on itself.
    static func becomesFirstResponder(_ type: TypeDeclaration, _ analysis: FileAnalysis) -> Bool {
        analysis.calls(in: type.extent).contains { call in
            analysis.source.isWord(call.callee, "becomeFirstResponder")
                && (call.receiver.map { analysis.source.isWord($0.lowerBound, "self") && $0.count == 1 } ?? true)
        }
    }

    public func check(_ context: RuleContext) -> [Diagnostic] {
        let analysis = context.analysis
        let project = context.project
        var diagnostics: [Diagnostic] = []
        let subviewCalls = analysis.addSubviewCallIndices
        for override in analysis.accessoryOverrides {
            let declaration = analysis.outline[override.type]
            guard declaration.kind == .class || declaration.kind == .extension,
                  let getter = override.getter else { continue }
            // A settable override may only relay an accessory someone else shows; one whose
            // type asks to become first responder itself expects the accessory to appear.
            if override.isSettable, !Self.becomesFirstResponder(declaration, analysis) { continue }
            let typeName = declaration.simpleName
            let root = project.rootClass(of: typeName)
            guard !ResponderVocabulary.textInputClasses.contains(root),
                  ResponderVocabulary.viewControllerClasses.contains(root) || ResponderVocabulary.viewClasses.contains(root)
            else { continue }
            let answer = project.firstResponderAnswer(for: typeName)
            if let answer, answer != .no { continue }
            let sources = override.returned.flatMap { analysis.accessorySources(of: $0) }
            if sources.allSatisfy({ $0.kind == .nothing }) { continue }
            // `accessory_view_added_as_subview` reports accessories that are also subviews.
            if sources.contains(where: { !analysis.addSubviewCalls(of: $0, among: subviewCalls).isEmpty }) { continue }
            let property = analysis.source.text(at: override.nameToken)
            let message: String
            var fix: Fix?
            if answer == .no {
                message = "`\(typeName)` overrides `\(property)` but its `canBecomeFirstResponder` returns false, so the accessory never appears"
            } else {
                message = "`\(typeName)` overrides `\(property)` but neither it nor a project superclass overrides `canBecomeFirstResponder`, so the accessory never appears"
                let close = analysis.outline[getter].close
                let end = analysis.outline[override.property].bodyScope.map { analysis.outline[$0].close } ?? close
                if end < analysis.source.code.count {
                    let offset = Int(analysis.source.code[end].end)
                    let indent = analysis.indentation(ofLineAt: override.nameToken)
                    fix = Fix(.safe, edits: [Edit(
                        range: offset..<offset,
                        replacement: "\n\(indent)override var canBecomeFirstResponder: Bool { true }")])
                }
            }
            var related: [RelatedLocation] = []
            if answer == .no, let location = project.firstResponderOverride(for: typeName)?.location {
                related.append(RelatedLocation(
                    path: location.path == analysis.source.file.path ? nil : location.path, range: location.range,
                    message: "`canBecomeFirstResponder` returns false here"))
            }
            diagnostics.append(Self.metadata.diagnostic(
                analysis, at: analysis.tokenRange(override.nameToken), message: message,
                suggestion: answer == .no
                    ? "Return true from `canBecomeFirstResponder` of `\(typeName)` while the accessory should show."
                    : "Add `override var canBecomeFirstResponder: Bool { true }` to `\(typeName)`.",
                fix: answer == .no ? nil : fix
            ).relating(related))
        }
        return diagnostics
    }
}
