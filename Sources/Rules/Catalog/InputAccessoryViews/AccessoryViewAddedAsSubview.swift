import Lexer

/// A view has one superview: the keyboard's accessory host or the screen, never both.
public struct AccessoryViewAddedAsSubview: Rule {
    public static let metadata = RuleMetadata(
        id: "accessory_view_added_as_subview",
        category: .inputAccessoryViews,
        defaultSeverity: .error,
        summary: "The same view is an input accessory view and is added as a subview.",
        rationale: """
        When its responder becomes first responder, UIKit moves the input accessory view into the \
        keyboard's own window. A view that is also added to the screen's hierarchy with `addSubview(_:)` \
        is torn out of one place by the other: UIKit logs a zero-width input view, the bar vanishes from \
        the screen or from above the keyboard, and its constraints to the old superview break.
        """,
        fix: "Use the view either as the input accessory or as a subview pinned to the keyboard layout guide, not both; use two instances if both places need a bar.",
        noFixReason: "Whether the bar should stay the input accessory or become a subview pinned to the keyboard layout guide is a design decision, and either way one of the two uses has to be rewritten.",
        triggering: [
            RuleExample("""
            final class NoteViewController: UIViewController {
                private let formatBar = FormatBar()
                override var inputAccessoryView: UIView? { formatBar }
                func showInline() {
                    view.↓addSubview(formatBar)
                }
                func showInSidebar() {
                    sidebar.addSubview(formatBar)
                }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                private let inputBar = InputBar()
                override var inputAccessoryView: UIView? { inputBar }
                override var canBecomeFirstResponder: Bool { true }
                override func viewDidLoad() {
                    super.viewDidLoad()
                    view.↓addSubview(inputBar)
                }
            }
            """),
            RuleExample("""
            final class TransferViewController: UIViewController {
                @IBOutlet private var amountField: UITextField!
                override func viewDidLoad() {
                    super.viewDidLoad()
                    let doneBar = DoneBar(frame: CGRect(x: 0, y: 0, width: 320, height: 44))
                    amountField.inputAccessoryView = doneBar
                    view.↓addSubview(doneBar)
                }
            }
            """),
            RuleExample("""
            final class ThreadViewController: UIViewController {
                lazy var composer = ComposerBar()
                override var inputAccessoryView: UIView? {
                    return self.composer
                }
            }
            extension ThreadViewController {
                func showComposerInline() {
                    self.view.↓addSubview(self.composer)
                }
            }
            """),
            RuleExample("""
            final class EmbeddedReplyViewController: UIViewController {
                private let replyBar = ReplyBar()
                override var inputAccessoryView: UIView? { replyBar }
                override func didMove(toParent parent: UIViewController?) {
                    super.didMove(toParent: parent)
                    parent?.view.↓addSubview(replyBar)
                }
            }
            """),
        ],
        nonTriggering: [
            RuleExample("""
            final class ChatViewController: UIViewController {
                private let inputBar = InputBar()
                override var inputAccessoryView: UIView? { inputBar }
                override func viewDidLoad() {
                    super.viewDidLoad()
                    #if targetEnvironment(macCatalyst)
                    view.addSubview(inputBar)
                    #endif
                }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                private let inputBar = InputBar()
                private let header = HeaderView()
                override var inputAccessoryView: UIView? { inputBar }
                override func viewDidLoad() {
                    super.viewDidLoad()
                    view.addSubview(header)
                    inputBar.addSubview(sendButton)
                }
            }
            """),
            RuleExample("""
            final class TransferViewController: UIViewController {
                @IBOutlet private var amountField: UITextField!
                override func viewDidLoad() {
                    super.viewDidLoad()
                    let doneBar = DoneBar(frame: CGRect(x: 0, y: 0, width: 320, height: 44))
                    amountField.inputAccessoryView = doneBar
                    let banner = DoneBar(frame: .zero)
                    view.addSubview(banner)
                }
            }
            """),
            RuleExample("""
            final class ThreadViewController: UIViewController {
                lazy var composer = ComposerBar()
                override var inputAccessoryView: UIView? { composer }
                func showPreview() {
                    let composer = ComposerBar()
                    view.addSubview(composer)
                }
            }
            """),
            RuleExample("""
            final class ThreadViewController: UIViewController {
                lazy var composer = ComposerBar()
                override var inputAccessoryView: UIView? { composer }
            }
            final class PreviewViewController: UIViewController {
                lazy var composer = ComposerBar()
                override func viewDidLoad() {
                    super.viewDidLoad()
                    view.addSubview(composer)
                }
            }
            """),
            RuleExample("""
            final class ReaderViewController: UIViewController {
                private let toolbar = ReaderToolbar()
                override var inputAccessoryView: UIView? { nil }
                override func viewDidLoad() {
                    super.viewDidLoad()
                    view.addSubview(toolbar)
                }
            }
            """),
            RuleExample("""
            final class ComposeViewController: UIViewController {
                private let inputBar = InputBar()
                override func viewDidLoad() {
                    super.viewDidLoad()
                    view.addSubview(inputBar)
                    inputBar.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                }
            }
            """),
        ]
    )

    public static var requiredMarkers: [StaticString] { ["inputAccessoryView"] }

    public init() {}

    public func check(_ context: RuleContext) -> [Diagnostic] {
        let analysis = context.analysis
        var uses: [(expression: Range<Int>, accessory: Int, description: String)] = []
        for override in analysis.accessoryOverrides {
            for returned in override.returned {
                uses.append((returned, override.nameToken, "returned as `\(analysis.source.text(at: override.nameToken))`"))
            }
        }
        for assignment in analysis.accessoryAssignments {
            guard let last = analysis.chainNames(assignment.lhs).last else { continue }
            uses.append((assignment.rhs, last, "assigned to `\(analysis.snippet(assignment.lhs))`"))
        }
        var diagnostics: [Diagnostic] = []
        var reported = Set<Int>()
        let candidates = analysis.addSubviewCallIndices
        guard !candidates.isEmpty else { return [] }
        // One finding per view: at its first `addSubview`, with the other sites as notes.
        for use in uses {
            for found in analysis.accessorySources(of: use.expression) {
                let sites = analysis.addSubviewCalls(of: found, among: candidates).filter {
                    reported.insert(analysis.calls[$0].callee).inserted
                }
                guard let first = sites.first else { continue }
                let call = analysis.calls[first]
                let view = analysis.snippet(call.arguments[0].value)
                let others = sites.dropFirst().map { other in
                    analysis.relatedLocation(at: analysis.calls[other].callee, "also added as a subview here")
                }
                diagnostics.append(Self.metadata.diagnostic(
                    analysis, at: analysis.tokenRange(call.callee),
                    message: "`\(view)` is \(use.description) and also added as a subview; once its responder is first responder UIKit moves it into the keyboard's window, so the bar vanishes from one of the two places",
                    suggestion: "Use `\(view)` either as the input accessory or as a subview pinned to the keyboard layout guide, not both."
                ).relating([RelatedLocation(
                    range: analysis.source.byteRange(analysis.tokenRange(use.accessory)),
                    message: "it becomes the input accessory here")] + others))
            }
        }
        return diagnostics
    }
}
