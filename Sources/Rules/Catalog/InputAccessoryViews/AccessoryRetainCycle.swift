import Lexer

/// A view controller that stays first responder after it leaves the screen is kept alive by
/// the input system together with its accessory bar.
public struct AccessoryRetainCycle: Rule {
    public static let metadata = RuleMetadata(
        id: "accessory_retain_cycle",
        category: .inputAccessoryViews,
        defaultSeverity: .warning,
        summary: "A view controller with an input accessory view never resigns first responder when it disappears.",
        rationale: """
        A controller that overrides `inputAccessoryView` and `canBecomeFirstResponder` stays first \
        responder after it is popped or dismissed unless it resigns. UIKit's input system keeps the \
        first responder and the accessory's host window alive, and the accessory's host holds the \
        controller through the responder chain: `deinit` never runs, observers keep firing, and the old \
        bar can reappear over the next screen.
        """,
        fix: "Call `resignFirstResponder()` in `viewWillDisappear(_:)` or `viewDidDisappear(_:)` (or in a method they call).",
        noFixReason: "Where to resign first responder depends on the controller's lifecycle: `viewWillDisappear` may not exist yet (a new override must call `super`), and resigning there also hides the keyboard during interactive transitions that are cancelled.",
        triggering: [
            RuleExample("""
            final class ChatViewController: UIViewController {
                private lazy var composer = ComposerBar()
                override var ↓inputAccessoryView: UIView? { composer }
                override var canBecomeFirstResponder: Bool { true }
                override func viewDidAppear(_ animated: Bool) {
                    super.viewDidAppear(animated)
                    becomeFirstResponder()
                }
            }
            """),
            RuleExample("""
            final class TicketViewController: UITableViewController {
                let replyBar = ReplyBar()
                override var ↓inputAccessoryView: UIView? { replyBar }
            }
            """, files: ["TicketViewController+Responder.swift": """
            extension TicketViewController {
                override var canBecomeFirstResponder: Bool { true }
            }
            """]),
            RuleExample("""
            final class CommentsViewController: UIViewController {
                let commentBar = CommentBar()
                override var ↓inputAccessoryView: UIView? { commentBar }
                override var canBecomeFirstResponder: Bool { true }
                override func viewWillDisappear(_ animated: Bool) {
                    super.viewWillDisappear(animated)
                    view.endEditing(true)
                }
            }
            """),
            RuleExample("""
            final class NotesViewController: UIViewController {
                let formatBar = FormatBar()
                override var ↓inputAccessoryView: UIView? { formatBar }
                override var canBecomeFirstResponder: Bool { isEditing }
                deinit {
                    resignFirstResponder()
                }
            }
            """),
        ],
        nonTriggering: [
            RuleExample("""
            final class ReplyViewController: UIViewController {
                private let replyBar = ReplyBar()
                override var inputAccessoryView: UIView? { replyBar }
                override var canBecomeFirstResponder: Bool { true }
                override func viewWillDisappear(_ animated: Bool) {
                    super.viewWillDisappear(animated)
                    inputAccessoryView?.textView.resignFirstResponder()
                }
            }
            """),
            RuleExample("""
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
            RuleExample("""
            final class ChatViewController: UIViewController {
                private lazy var composer = ComposerBar()
                override var inputAccessoryView: UIView? { composer }
                override var canBecomeFirstResponder: Bool { true }
                override func viewDidDisappear(_ animated: Bool) {
                    super.viewDidDisappear(animated)
                    stopEditing()
                }
                private func stopEditing() {
                    composer.clearDraft()
                    self.resignFirstResponder()
                }
            }
            """),
            RuleExample("""
            final class SupportChatViewController: BaseChatViewController {
                override var inputAccessoryView: UIView? { composer }
                override var canBecomeFirstResponder: Bool { true }
            }
            """, files: ["BaseChatViewController.swift": """
            class BaseChatViewController: UIViewController {
                let composer = ComposerBar()
                override func viewWillDisappear(_ animated: Bool) {
                    super.viewWillDisappear(animated)
                    resignFirstResponder()
                }
            }
            """]),
            RuleExample("""
            final class ReplyViewController: UIViewController {
                let replyBar = ReplyBar()
                var isReplying = true {
                    didSet { if !isReplying { resignFirstResponder() } }
                }
                override var inputAccessoryView: UIView? { isReplying ? replyBar : nil }
                override var canBecomeFirstResponder: Bool { isReplying }
                override func viewWillDisappear(_ animated: Bool) {
                    super.viewWillDisappear(animated)
                    isReplying = false
                }
            }
            """),
            RuleExample("""
            final class DraftViewController: UIViewController {
                let bar = DraftBar()
                override var inputAccessoryView: UIView? { bar }
                override var canBecomeFirstResponder: Bool { false }
            }
            """),
            RuleExample("""
            final class SketchView: UIView {
                let tools = ToolsBar()
                override var inputAccessoryView: UIView? { tools }
                override var canBecomeFirstResponder: Bool { true }
            }
            """),
            RuleExample("""
            final class ReaderViewController: UIViewController {
                override var inputAccessoryView: UIView? { nil }
                override var canBecomeFirstResponder: Bool { true }
            }
            """),
            RuleExample("""
            final class PhotoViewController: UIViewController {
                let captionController = CaptionInputViewController()
                override var inputAccessoryViewController: UIInputViewController? { captionController }
                override var canBecomeFirstResponder: Bool { true }
            }
            """),
        ]
    )

    public static var requiredMarkers: [StaticString] { ["inputAccessoryView"] }

    public init() {}

    public func check(_ context: RuleContext) -> [Diagnostic] {
        let analysis = context.analysis
        let project = context.project
        // This file as it is now, in case the project's facts predate a fix.
        let current = AccessoryFacts(analysis)
        var diagnostics: [Diagnostic] = []
        for override in analysis.accessoryOverrides where !override.isViewController {
            let declaration = analysis.outline[override.type]
            guard declaration.kind == .class || declaration.kind == .extension else { continue }
            let typeName = declaration.simpleName
            let root = project.rootClass(of: typeName)
            let isController = ResponderVocabulary.viewControllerClasses.contains(root)
                || (!ResponderVocabulary.viewClasses.contains(root) && !ResponderVocabulary.textInputClasses.contains(root)
                    && typeName.hasSuffix("ViewController"))
            guard isController else { continue }
            let answer = project.firstResponderAnswer(for: typeName) ?? current.firstResponderAnswers[typeName]
            guard let answer, answer != .no else { continue }
            guard !project.resignsOnDisappear(typeName), !current.typesResigningOnDisappear.contains(typeName) else {
                continue
            }
            let sources = override.returned.flatMap { analysis.accessorySources(of: $0) }
            if sources.allSatisfy({ $0.kind == .nothing }) { continue }
            var related: [RelatedLocation] = []
            if let location = project.firstResponderOverride(for: typeName)?.location {
                related.append(RelatedLocation(
                    path: location.path == analysis.source.file.path ? nil : location.path, range: location.range,
                    message: "it can become first responder here"))
            }
            diagnostics.append(Self.metadata.diagnostic(
                analysis, at: analysis.tokenRange(override.nameToken),
                message: "`\(typeName)` shows an input accessory view and can become first responder, but never resigns it in `viewWillDisappear`/`viewDidDisappear`; the input system keeps the controller and its bar alive after it leaves the screen",
                suggestion: "Call `resignFirstResponder()` in `viewWillDisappear(_:)` of `\(typeName)`."
            ).relating(related))
        }
        return diagnostics
    }
}
