import Lexer

/// A guide that follows the floating keyboard can be anywhere; constraints that are always on
/// pull the content wherever it goes.
public struct UndockedKeyboardFixedConstraints: Rule {
    public static let metadata = RuleMetadata(
        id: "undocked_keyboard_fixed_constraints",
        category: .mixingApproaches,
        defaultSeverity: .warning,
        summary: "A guide that follows undocked keyboards gets fixed constraints instead of edge-aware ones.",
        rationale: """
        With `followsUndockedKeyboard = true` the keyboard layout guide tracks the floating and split keyboards \
        on iPad, which can sit near the top, a side or the middle of the screen. A constraint that is always \
        active, such as a bar's bottom to the guide's top, then drags the bar off screen when the keyboard floats \
        near the top, or squeezes content next to a keyboard at the side.
        """,
        fix: "Activate guide constraints through `keyboardLayoutGuide.setConstraints(_:activeWhenAwayFrom:)` and `setConstraints(_:activeWhenNearEdge:)`, with a fallback (for example to the safe area) for the positions where the keyboard is near that edge.",
        noFixReason: "Edge-aware constraints need a second set of constraints for the near-edge positions (for example to the safe area), and which fallback suits the layout is the author's choice.",
        triggering: [
            RuleExample("""
            final class SketchViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    view.keyboardLayoutGuide.followsUndockedKeyboard = true
                    palette.bottomAnchor.constraint(equalTo: view.↓keyboardLayoutGuide.topAnchor).isActive = true
                    palette.centerXAnchor.constraint(equalTo: view.↓keyboardLayoutGuide.centerXAnchor).isActive = true
                }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                func layout() {
                    view.keyboardLayoutGuide.followsUndockedKeyboard = true
                    NSLayoutConstraint.activate([
                        composer.leadingAnchor.constraint(equalTo: view.leadingAnchor),
                        composer.trailingAnchor.constraint(equalTo: view.trailingAnchor),
                        view.↓keyboardLayoutGuide.topAnchor.constraint(equalTo: composer.bottomAnchor),
                    ])
                }
            }
            """),
            RuleExample("""
            final class CanvasViewController: UIViewController {
                private lazy var toolbarBottom = toolbar.bottomAnchor.constraint(equalTo: view.↓keyboardLayoutGuide.topAnchor)
                func pinToolbar() {
                    toolbarBottom.isActive = true
                }
            }
            """, files: ["CanvasViewController+Keyboard.swift": """
            extension CanvasViewController {
                func followFloatingKeyboard() {
                    view.keyboardLayoutGuide.followsUndockedKeyboard = true
                }
            }
            """]),
            RuleExample("""
            final class FormattingBar: UIView {
                override func didMoveToSuperview() {
                    super.didMoveToSuperview()
                    guard let host = superview else { return }
                    host.keyboardLayoutGuide.followsUndockedKeyboard = true
                    let bottom = bottomAnchor.constraint(equalTo: host.↓keyboardLayoutGuide.topAnchor)
                    NSLayoutConstraint.activate([bottom])
                }
            }
            """),
            RuleExample("""
            final class WhiteboardViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    let keyboard = view.keyboardLayoutGuide
                    keyboard.followsUndockedKeyboard = true
                    NSLayoutConstraint.activate([
                        shapes.bottomAnchor.constraint(equalTo: ↓keyboard.topAnchor),
                    ])
                }
            }
            """),
        ],
        nonTriggering: [
            RuleExample("""
            final class SketchViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    view.keyboardLayoutGuide.followsUndockedKeyboard = true
                    let away = palette.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor)
                    view.keyboardLayoutGuide.setConstraints([away], activeWhenAwayFrom: .top)
                    let near = palette.bottomAnchor.constraint(equalTo: view.safeAreaLayoutGuide.bottomAnchor)
                    view.keyboardLayoutGuide.setConstraints([near], activeWhenNearEdge: .top)
                }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    view.keyboardLayoutGuide.followsUndockedKeyboard = false
                    composer.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    composer.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                }
            }
            """),
            RuleExample("""
            final class LegacyViewController: UIViewController {
                let keyboardLayoutGuide = KeyboardGuideBackport()
                override func viewDidLoad() {
                    super.viewDidLoad()
                    keyboardLayoutGuide.followsUndockedKeyboard = true
                    composer.bottomAnchor.constraint(equalTo: keyboardLayoutGuide.topAnchor).isActive = true
                }
            }
            """),
            RuleExample("""
            final class SketchViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    let keyboardLayoutGuide = FloatingPanelGuide()
                    keyboardLayoutGuide.followsUndockedKeyboard = true
                    palette.bottomAnchor.constraint(equalTo: keyboardLayoutGuide.topAnchor).isActive = true
                }
            }
            """),
            RuleExample("""
            import KeyboardLayoutGuide

            final class PortedViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    view.keyboardLayoutGuide.followsUndockedKeyboard = true
                    composer.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                }
            }
            """),
            RuleExample("""
            final class SettingsViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    view.keyboardLayoutGuide.followsUndockedKeyboard = true
                }
            }
            final class ChatViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    composer.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                }
            }
            """),
            RuleExample("""
            final class CanvasViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    view.keyboardLayoutGuide.followsUndockedKeyboard = true
                    toolbar.widthAnchor.constraint(equalTo: view.keyboardLayoutGuide.widthAnchor).isActive = true
                }
            }
            """, files: ["CanvasViewController+Edges.swift": """
            extension CanvasViewController {
                func adapt() {
                    let nearTop = toolbar.topAnchor.constraint(equalTo: view.safeAreaLayoutGuide.topAnchor)
                    view.keyboardLayoutGuide.setConstraints([nearTop], activeWhenNearEdge: .top)
                }
            }
            """]),
        ]
    )

    public init() {}

    public func check(_ context: RuleContext) -> [Diagnostic] {
        let analysis = context.analysis
        let project = analysis.project
        var fixedByType: [String: [AnchorConstraint]]?
        var diagnostics: [Diagnostic] = []
        var seen = Set<String>()
        for type in analysis.outline.types where seen.insert(type.qualifiedName).inserted {
            let name = type.qualifiedName
            guard let facts = project.types.keyboardFacts(of: name), let follows = facts.followsUndockedKeyboard.first,
                  !facts.usesEdgeAwareGuideConstraints, project.usesKeyboardLayoutGuide(name) else { continue }
            // Directly activated constraints to the guide, grouped by type once per file.
            let fixed = fixedByType ?? Dictionary(grouping: analysis.anchorConstraints().filter {
                $0.activation == .activated && $0.keyboardLayoutGuideToken != nil
            }) { analysis.typeName(at: analysis.calls[$0.call].callee) ?? "" }
            fixedByType = fixed
            for constraint in fixed[name] ?? [] {
                guard let guide = constraint.keyboardLayoutGuideToken else { continue }
                let anchor = constraint.anchors.first(where: \.isKeyboardLayoutGuide).map { analysis.source.text(at: $0.anchor) } ?? "anchor"
                diagnostics.append(Self.metadata.diagnostic(
                    analysis, at: analysis.tokenRange(guide),
                    message: "`\(name)` lets its keyboard layout guide follow undocked keyboards (\(analysis.placeDescription(follows))) but pins to its `\(anchor)` with an always-active constraint: a floating keyboard near the top or a side drags the content with it",
                    suggestion: "Activate this constraint through `keyboardLayoutGuide.setConstraints(_:activeWhenAwayFrom:)` and add `activeWhenNearEdge:` fallbacks.",
                    related: [analysis.relatedLocation(follows, message: "followsUndockedKeyboard is set here")]))
            }
        }
        return diagnostics
    }
}
