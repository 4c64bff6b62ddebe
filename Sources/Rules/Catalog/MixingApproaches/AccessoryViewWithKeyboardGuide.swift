import Lexer

/// An input accessory view rides on the keyboard; the keyboard layout guide measures the
/// keyboard. One screen doing both lays out against two moving targets.
public struct AccessoryViewWithKeyboardGuide: Rule {
    public static let metadata = RuleMetadata(
        id: "accessory_view_with_keyboard_guide",
        category: .mixingApproaches,
        defaultSeverity: .warning,
        summary: "A type both overrides `inputAccessoryView` and lays out with the keyboard layout guide.",
        rationale: """
        An `inputAccessoryView` override makes the bar part of the keyboard: the keyboard frame, and so \
        `keyboardLayoutGuide`, then includes the bar, and the bar stays on screen when the keyboard hides. Content \
        pinned to the guide jumps by the bar's height as the responder changes, and on iOS 26 the guide is \
        placed wrongly while an accessory view is attached (FB18129551).
        """,
        fix: "Pick one design: keep the accessory bar and drop the guide constraints, or make the bar an ordinary subview pinned to `view.keyboardLayoutGuide.topAnchor` and remove the `inputAccessoryView` override.",
        noFixReason: "Keeping one of the two designs means deleting either the `inputAccessoryView` override or the guide constraints and re-laying out the bar: a choice between two designs, not a mechanical edit.",
        triggering: [
            RuleExample("""
            final class ChatViewController: UIViewController {
                private lazy var composer = ComposerView()
                override var ↓inputAccessoryView: UIView? { composer }
                override var canBecomeFirstResponder: Bool { true }
                override func viewDidLoad() {
                    super.viewDidLoad()
                    tableView.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                }
            }
            """),
            RuleExample("""
            final class ThreadViewController: UIViewController {
                override var ↓inputAccessoryView: UIView? {
                    return replyBar
                }
            }
            """, files: ["ThreadViewController+Layout.swift": """
            extension ThreadViewController {
                func pinList() {
                    NSLayoutConstraint.activate([
                        listView.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor),
                    ])
                }
            }
            """]),
            RuleExample("""
            final class EditorViewController: UIViewController {
                private let toolbarController = FormattingBarController()
                override var ↓inputAccessoryViewController: UIInputViewController? { toolbarController }
                override func viewDidLoad() {
                    super.viewDidLoad()
                    view.keyboardLayoutGuide.usesBottomSafeArea = false
                    editor.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                }
            }
            """),
            RuleExample("""
            class KeyboardAwareViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    contentView.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                }
            }
            final class CommentsViewController: KeyboardAwareViewController {
                let bar = CommentBar()
                override var ↓inputAccessoryView: UIView? { bar }
            }
            """),
            RuleExample("""
            class MessagingViewController: UIViewController {
                let composer = ComposerView()
                override var ↓inputAccessoryView: UIView? { composer }
                override var canBecomeFirstResponder: Bool { true }
            }
            final class DirectMessageViewController: MessagingViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    thread.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                }
            }
            """),
        ],
        nonTriggering: [
            RuleExample("""
            final class ChatViewController: UIViewController {
                override var inputAccessoryView: UIView? { composer }
                override var canBecomeFirstResponder: Bool { true }
            }
            final class SearchViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    results.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                override var inputAccessoryView: UIView? { composer }
                override var canBecomeFirstResponder: Bool { true }
            }
            """),
            RuleExample("""
            final class AmountViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    amountField.inputAccessoryView = doneToolbar
                    form.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                }
            }
            """),
            RuleExample("""
            final class LegacyChatViewController: UIViewController {
                let keyboardLayoutGuide = UILayoutGuide()
                override var inputAccessoryView: UIView? { composer }
                func layout() {
                    tableView.bottomAnchor.constraint(equalTo: keyboardLayoutGuide.topAnchor).isActive = true
                }
            }
            """),
            RuleExample("""
            import KeyboardLayoutGuide

            final class PortedChatViewController: UIViewController {
                override var inputAccessoryView: UIView? { composer }
                func layout() {
                    tableView.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                }
            }
            """),
            RuleExample("""
            final class SearchViewController: UIViewController {
                override var inputAccessoryView: UIView? { nil }
                override var inputAccessoryViewController: UIInputViewController? {
                    get { return nil }
                }
                func layout() {
                    results.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                }
            }
            """),
            RuleExample("""
            final class OverlayViewController: UIViewController {
                override var inputAccessoryView: UIView? { composer }
                func keyboardTop() -> CGFloat { view.keyboardLayoutGuide.layoutFrame.minY }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                override var inputAccessoryView: UIView? { composer }
            }
            """, files: ["UIView+KeyboardLayoutGuide.swift": """
            extension UIView {
                var keyboardLayoutGuide: UILayoutGuide { backport }
            }
            extension ChatViewController {
                func layout() {
                    tableView.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                }
            }
            """]),
        ]
    )

    public static var requiredMarkers: [StaticString] { ["inputAccessoryView"] }

    public init() {}

    /// `override var inputAccessoryView: UIView? { nil }` (or `return nil`) attaches nothing.
    static func returnsNil(_ property: PropertyDeclaration, _ analysis: FileAnalysis) -> Bool {
        guard let scope = property.bodyScope else { return false }
        var body = analysis.outline[scope].body
        let source = analysis.source
        if source.isWord(body.lowerBound, "get"), source.kind(body.lowerBound + 1) == .leftBrace,
           let close = source.partnerIndex(body.lowerBound + 1) {
            body = (body.lowerBound + 2)..<close
        }
        if source.isWord(body.lowerBound, "return") { body = (body.lowerBound + 1)..<body.upperBound }
        return body.count == 1 && source.isWord(body.lowerBound, "nil")
    }

    public func check(_ context: RuleContext) -> [Diagnostic] {
        let analysis = context.analysis
        let project = analysis.project
        var reported = Set<TypeID>()
        var diagnostics: [Diagnostic] = []
        for property in analysis.outline.properties where property.modifiers.contains("override") {
            guard property.name == "inputAccessoryView" || property.name == "inputAccessoryViewController",
                  let owner = property.owner, !Self.returnsNil(property, analysis),
                  reported.insert(owner).inserted else { continue }
            let name = analysis.outline[owner].qualifiedName
            guard let user = project.keyboardLayoutGuideUserSharingCode(with: name),
                  let guide = analysis.keyboardLayoutGuideLocation(ofType: user) else { continue }
            let inherited = user == name ? "" : project.superclasses(of: name).contains(user)
                ? " (inherited from `\(user)`)" : " (in its subclass `\(user)`)"
            diagnostics.append(Self.metadata.diagnostic(
                analysis, at: analysis.tokenRange(property.nameToken),
                message: "`\(name)` overrides `\(property.name)` and also lays out with `keyboardLayoutGuide`\(inherited) (\(analysis.placeDescription(guide))): the guide then includes the accessory bar, and on iOS 26 it is misplaced while an accessory view is attached",
                suggestion: "Keep one design: drop the guide constraints, or pin the bar to `view.keyboardLayoutGuide.topAnchor` as a subview and remove the `\(property.name)` override.",
                related: [analysis.relatedLocation(guide, message: "the keyboard layout guide is used here")]))
        }
        return diagnostics
    }
}
