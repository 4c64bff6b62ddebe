import Lexer

/// IQKeyboardManager moves the screen for every text field it does not exclude; a screen
/// that also follows the keyboard through the layout guide is moved by both.
public struct KeyboardGuideWithKeyboardManager: Rule {
    public static let metadata = RuleMetadata(
        id: "keyboard_guide_with_keyboard_manager",
        category: .mixingApproaches,
        defaultSeverity: .warning,
        summary: "A type uses the keyboard layout guide while IQKeyboardManager is enabled for the whole app and does not exclude it.",
        rationale: """
        With `IQKeyboardManager.shared.isEnabled = true` (or `enable = true`) the library shifts the root view or \
        scroll view of every screen so that the focused field clears the keyboard. A screen pinned to \
        `keyboardLayoutGuide` has already made room: the library adds its own offset on top, so the content \
        jumps, leaves a gap above the keyboard or fights the guide's animation.
        """,
        fix: "Exclude the screen from IQKeyboardManager (`IQKeyboardManager.shared.disabledDistanceHandlingClasses.append(MyViewController.self)`), or switch the library off while it is visible; better, move the whole app to the keyboard layout guide.",
        noFixReason: "Excluding the screen from IQKeyboardManager, switching it off while the screen shows, or moving the app to the guide are different designs, and the exclusion belongs in app-wide setup code kblint does not know.",
        triggering: [
            RuleExample("""
            final class ChatViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    inputBar.bottomAnchor.constraint(equalTo: view.↓keyboardLayoutGuide.topAnchor).isActive = true
                }
            }
            """, files: ["AppDelegate.swift": """
            import IQKeyboardManagerSwift
            @main final class AppDelegate: UIResponder, UIApplicationDelegate {
                func application(_ application: UIApplication, didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
                    IQKeyboardManager.shared.isEnabled = true
                    return true
                }
            }
            """]),
            RuleExample("""
            final class CommentViewController: UIViewController {
                func layout() {
                    NSLayoutConstraint.activate([
                        tableView.bottomAnchor.constraint(equalTo: composer.topAnchor),
                        composer.bottomAnchor.constraint(equalTo: view.↓keyboardLayoutGuide.topAnchor),
                        composer.leadingAnchor.constraint(equalTo: view.keyboardLayoutGuide.leadingAnchor),
                    ])
                }
            }
            """, files: ["SceneDelegate.swift": """
            final class SceneDelegate: UIResponder, UIWindowSceneDelegate {
                func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options: UIScene.ConnectionOptions) {
                    IQKeyboardManager.shared.enable = true
                    IQKeyboardManager.shared.disabledDistanceHandlingClasses.append(SettingsViewController.self)
                }
            }
            """]),
            RuleExample("""
            final class AppDelegate: UIResponder, UIApplicationDelegate {
                func application(_ application: UIApplication, didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
                    IQKeyboardManager.shared.isEnabled = true
                    return true
                }
            }
            final class NoteEditorViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    view.↓keyboardLayoutGuide.usesBottomSafeArea = false
                }
            }
            """),
            RuleExample("""
            final class ReplyBar: UIView {
                override func didMoveToSuperview() {
                    super.didMoveToSuperview()
                    guard let superview else { return }
                    bottomAnchor.constraint(equalTo: superview.↓keyboardLayoutGuide.topAnchor).isActive = true
                }
            }
            """, files: ["Setup.swift": """
            enum KeyboardSetup {
                static func start() { IQKeyboardManager.shared.isEnabled = true }
            }
            """]),
        ],
        nonTriggering: [
            RuleExample("""
            final class ChatViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    inputBar.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    inputBar.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                }
            }
            """, files: ["AppDelegate.swift": """
            final class AppDelegate: UIResponder, UIApplicationDelegate {
                func application(_ application: UIApplication, didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
                    IQKeyboardManager.shared.isEnabled = true
                    IQKeyboardManager.shared.disabledDistanceHandlingClasses = [ChatViewController.self]
                    return true
                }
            }
            """]),
            RuleExample("""
            class ComposerBaseViewController: UIViewController {}
            final class ReplyViewController: ComposerBaseViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    composer.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                }
            }
            """, files: ["AppDelegate.swift": """
            final class AppDelegate: UIResponder, UIApplicationDelegate {
                func application(_ application: UIApplication, didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
                    IQKeyboardManager.shared.enable = true
                    IQKeyboardManager.shared.disabledDistanceHandlingClasses.append(ComposerBaseViewController.self)
                    return true
                }
            }
            """]),
            RuleExample("""
            final class SearchViewController: UIViewController {
                override func viewWillAppear(_ animated: Bool) {
                    super.viewWillAppear(animated)
                    IQKeyboardManager.shared.isEnabled = false
                }
                override func viewWillDisappear(_ animated: Bool) {
                    super.viewWillDisappear(animated)
                    IQKeyboardManager.shared.isEnabled = true
                }
                func layout() {
                    resultsView.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                }
            }
            """, files: ["AppDelegate.swift": "func start() { IQKeyboardManager.shared.isEnabled = true }\n"]),
            RuleExample("""
            final class LegacyFormViewController: UIViewController {
                let keyboardLayoutGuide = UILayoutGuide()
                func layout() {
                    form.bottomAnchor.constraint(equalTo: keyboardLayoutGuide.topAnchor).isActive = true
                }
            }
            """, files: ["AppDelegate.swift": "func start() { IQKeyboardManager.shared.isEnabled = true }\n"]),
            RuleExample("""
            import KeyboardLayoutGuide

            final class PortedViewController: UIViewController {
                func layout() {
                    form.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                }
            }
            """, files: ["AppDelegate.swift": "func start() { IQKeyboardManager.shared.isEnabled = true }\n"]),
            RuleExample("""
            final class OverlayViewController: UIViewController {
                func keyboardTop() -> CGFloat {
                    view.keyboardLayoutGuide.layoutFrame.minY
                }
            }
            """, files: ["AppDelegate.swift": "func start() { IQKeyboardManager.shared.isEnabled = true }\n"]),
            RuleExample("""
            final class ProfileViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    bioView.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                    bioView.iq.enableMode = .disabled
                }
            }
            """, files: ["AppDelegate.swift": "func start() { IQKeyboardManager.shared.isEnabled = true }\n"]),
            RuleExample("""
            final class NoteViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    IQKeyboardManager.shared.disabledDistanceHandlingClasses.append(Self.self)
                    editor.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                }
            }
            """, files: ["AppDelegate.swift": "func start() { IQKeyboardManager.shared.isEnabled = true }\n"]),
            RuleExample("""
            final class SettingsViewController: UIViewController {
                @objc func toggle(_ sender: UISwitch) {
                    IQKeyboardManager.shared.isEnabled = false
                }
                func layout() {
                    footer.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                }
            }
            """),
        ]
    )

    public init() {}

    public func check(_ context: RuleContext) -> [Diagnostic] {
        let analysis = context.analysis
        let project = analysis.project
        guard let enabling = project.keyboardManagerSwitches.first(where: \.isEnabled) else { return [] }
        let uses = analysis.keyboardLayoutGuideUsesByType()
        guard !uses.isEmpty else { return [] }
        let optingOut = Self.typesOptingOut(analysis)
        var seen = Set<String>()
        var diagnostics: [Diagnostic] = []
        for type in analysis.outline.types where seen.insert(type.qualifiedName).inserted {
            let name = type.qualifiedName
            guard let use = uses[name]?.first, !Self.isExcluded(name, project), !optingOut.contains(name) else {
                continue
            }
            let controller = name.hasSuffix("Controller")
                ? "`IQKeyboardManager.shared.disabledDistanceHandlingClasses.append(\(name).self)`"
                : "adding the view controller that shows `\(name)` to `IQKeyboardManager.shared.disabledDistanceHandlingClasses`"
            diagnostics.append(Self.metadata.diagnostic(
                analysis, at: analysis.tokenRange(use),
                message: "`\(name)` follows the keyboard with `keyboardLayoutGuide` while IQKeyboardManager is enabled app-wide (\(analysis.placeDescription(enabling.location))): both move the content for the same keyboard",
                suggestion: "Exclude it from IQKeyboardManager by \(controller), or switch the library off while it is on screen.",
                related: [analysis.relatedLocation(enabling.location, message: "IQKeyboardManager is enabled here")]))
        }
        return diagnostics
    }

    /// Listed (itself or a project superclass) in `disabledDistanceHandlingClasses`, or
    /// switching the manager off in its own code.
    static func isExcluded(_ name: String, _ project: ProjectFacts) -> Bool {
        let lineage = [name] + project.superclasses(of: name)
        // The list holds names as written (`Cell.self`), which may leave out outer types.
        if lineage.contains(where: { project.keyboardManagerExcludedTypes.contains($0)
            || project.keyboardManagerExcludedTypes.contains(TypeTable.simpleName(of: $0)) }) { return true }
        return project.keyboardManagerSwitches.contains { switchFact in
            !switchFact.isEnabled && switchFact.typeName.map(lineage.contains) == true
        }
    }

    /// Types of this file that opt out in their own code: `field.iq.enableMode = .disabled`, or
    /// adding themselves to `disabledDistanceHandlingClasses` as `Self.self` / `type(of: self)`.
    static func typesOptingOut(_ analysis: FileAnalysis) -> Set<String> {
        let source = analysis.source
        var names = Set<String>()
        for index in source.code.indices where source.isWord(index, "disabledDistanceHandlingClasses") {
            guard let name = analysis.typeName(at: index) else { continue }
            let end = min(index + 16, source.code.count)
            let namesSelf = (index..<end).contains { token in
                (source.isWord(token, "Self") && source.kind(token + 1) == .period && source.isWord(token + 2, "self"))
                    || (source.isWord(token, "type") && source.kind(token + 1) == .leftParen && source.isWord(token + 2, "of"))
            }
            if namesSelf { names.insert(name) }
        }
        for assignment in analysis.assignments where source.isWord(assignment.rhs.upperBound - 1, "disabled") {
            guard let last = analysis.chainNames(assignment.lhs).last, source.isWord(last, "enableMode"),
                  let name = analysis.typeName(at: assignment.op) else { continue }
            names.insert(name)
        }
        return names
    }
}
