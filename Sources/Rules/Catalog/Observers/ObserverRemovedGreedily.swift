import Lexer

/// `removeObserver(self)` on disappear also takes away the observers added once.
public struct ObserverRemovedGreedily: Rule {
    public static let metadata = RuleMetadata(
        id: "observer_removed_greedily",
        category: .observers,
        defaultSeverity: .warning,
        summary: "`removeObserver(self)` in a disappear method also removes observers that were added once, in `viewDidLoad` or `init`.",
        rationale: """
        `NotificationCenter.default.removeObserver(self)` without a name removes every registration of \
        `self`, including those a `viewDidLoad`/`init` (of the type or of a project superclass) added once for \
        the controller's lifetime. Called in `viewWillDisappear`/`viewDidDisappear`, it silently turns them off \
        the first time another screen is pushed or presented, and nothing adds them back when the screen \
        reappears.
        """,
        fix: "Remove only what the appear methods added (`removeObserver(self, name: …, object: nil)` per name), or move the remaining `removeObserver(self)` to `deinit`.",
        noFixReason: "Replacing `removeObserver(self)` with per-name removals must list exactly the notifications the appear methods added, and other code (superclasses, extensions) may rely on the greedy removal.",
        triggering: [
            RuleExample("""
            final class ChatViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.addObserver(self, selector: #selector(themeChanged), name: .themeDidChange, object: nil)
                }
                override func viewWillAppear(_ animated: Bool) {
                    super.viewWillAppear(animated)
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillShow(_:)), name: UIResponder.keyboardWillShowNotification, object: nil)
                }
                override func viewWillDisappear(_ animated: Bool) {
                    super.viewWillDisappear(animated)
                    NotificationCenter.default.↓removeObserver(self)
                }
            }
            """),
            RuleExample("""
            final class DetailViewController: BaseViewController {
                override func viewDidDisappear(_ animated: Bool) {
                    super.viewDidDisappear(animated)
                    NotificationCenter.default.↓removeObserver(self)
                }
            }
            """, files: ["BaseViewController.swift": """
            class BaseViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.addObserver(self, selector: #selector(contentSizeChanged), name: UIContentSizeCategory.didChangeNotification, object: nil)
                }
            }
            """]),
            RuleExample("""
            final class FormViewController: UIViewController {
                init() {
                    super.init(nibName: nil, bundle: nil)
                    observeKeyboard()
                }
                private func observeKeyboard() {
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillHide(_:)), name: UIResponder.keyboardWillHideNotification, object: nil)
                }
                override func viewWillDisappear(_ animated: Bool) {
                    super.viewWillDisappear(animated)
                    stopEverything()
                }
                private func stopEverything() {
                    NotificationCenter.default.↓removeObserver(self)
                }
            }
            """),
            RuleExample("""
            final class PlayerViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    let center = NotificationCenter.default
                    center.addObserver(self, selector: #selector(didEnterBackground), name: UIApplication.didEnterBackgroundNotification, object: nil)
                }
                override func viewDidDisappear(_ animated: Bool) {
                    super.viewDidDisappear(animated)
                    let center = NotificationCenter.default
                    center.↓removeObserver(self)
                }
            }
            """),
        ],
        nonTriggering: [
            RuleExample("""
            final class DetailViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillShow(_:)),
                                                           name: UIResponder.keyboardWillShowNotification, object: nil)
                }
                override func viewWillDisappear(_ animated: Bool) {
                    super.viewWillDisappear(animated)
                    if isMovingFromParent || isBeingDismissed {
                        NotificationCenter.default.removeObserver(self)
                    }
                }
            }
            """),
            RuleExample("""
            final class SheetViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillHide(_:)),
                                                           name: UIResponder.keyboardWillHideNotification, object: nil)
                }
                override func viewDidDisappear(_ animated: Bool) {
                    super.viewDidDisappear(animated)
                    guard isBeingDismissed else { return }
                    NotificationCenter.default.removeObserver(self)
                }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.addObserver(self, selector: #selector(themeChanged), name: .themeDidChange, object: nil)
                }
                deinit { NotificationCenter.default.removeObserver(self) }
            }
            """),
            RuleExample("""
            final class KeyboardAwareViewController: UIViewController {
                override func viewWillAppear(_ animated: Bool) {
                    super.viewWillAppear(animated)
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillShow(_:)), name: UIResponder.keyboardWillShowNotification, object: nil)
                }
                override func viewWillDisappear(_ animated: Bool) {
                    super.viewWillDisappear(animated)
                    NotificationCenter.default.removeObserver(self)
                }
            }
            """),
            RuleExample("""
            final class ProfileViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.addObserver(self, selector: #selector(refresh), name: .profileDidChange, object: nil)
                }
                override func viewWillAppear(_ animated: Bool) {
                    super.viewWillAppear(animated)
                    NotificationCenter.default.addObserver(self, selector: #selector(refresh), name: .profileDidChange, object: nil)
                }
                override func viewWillDisappear(_ animated: Bool) {
                    super.viewWillDisappear(animated)
                    NotificationCenter.default.removeObserver(self)
                }
            }
            """),
            RuleExample("""
            final class SettingsViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.addObserver(self, selector: #selector(refresh), name: .settingsDidChange, object: nil)
                }
                override func viewWillDisappear(_ animated: Bool) {
                    super.viewWillDisappear(animated)
                    NotificationCenter.default.removeObserver(self, name: UIResponder.keyboardWillShowNotification, object: nil)
                }
            }
            """),
            RuleExample("""
            final class TokenViewController: UIViewController {
                private var token: NSObjectProtocol?
                override func viewDidLoad() {
                    super.viewDidLoad()
                    token = NotificationCenter.default.addObserver(forName: .settingsDidChange, object: nil, queue: .main) { [weak self] _ in self?.refresh() }
                }
                override func viewWillDisappear(_ animated: Bool) {
                    super.viewWillDisappear(animated)
                    NotificationCenter.default.removeObserver(self)
                }
            }
            """),
            RuleExample("""
            final class BannerView: UIView {
                override init(frame: CGRect) {
                    super.init(frame: frame)
                    NotificationCenter.default.addObserver(self, selector: #selector(refresh), name: .bannerDidChange, object: nil)
                }
                func dismiss() {
                    NotificationCenter.default.removeObserver(self)
                    removeFromSuperview()
                }
            }
            """),
        ]
    )

    public static let requiredMarkers: [StaticString] = ["removeObserver"]

    public init() {}

    public func check(_ context: RuleContext) -> [Diagnostic] {
        let analysis = context.analysis
        let observers = analysis.observers
        var diagnostics: [Diagnostic] = []
        for removal in observers.removals where removal.removesSelf && removal.keys == nil {
            let phases = observers.phases(ofMethod: removal.method)
            guard let disappear = phases.first(where: \.isDisappear),
                  let typeName = analysis.typeName(ofType: removal.type),
                  !Self.runsOnlyWhenLeavingForGood(analysis, removal) else { continue }
            let hierarchy = [typeName] + analysis.project.superclasses(of: typeName)
            let facts = hierarchy.map { (name: $0, facts: analysis.project.observerFacts(of: $0)) }
            let reAdded = facts.reduce(into: Set<NotificationKey>()) { $0.formUnion($1.facts.appearKeys) }
            // Every registration made once for the lifetime that this removal throws away:
            // the message names the first, each is a related place.
            var lost: [(owner: String, registration: SetupRegistration)] = []
            for (owner, ownerFacts) in facts {
                for registration in ownerFacts.setupRegistrations
                where !registration.keys.isEmpty && !Set(registration.keys).isSubset(of: reAdded) {
                    lost.append((owner, registration))
                }
            }
            guard let (owner, registration) = lost.first else { continue }
            let path = registration.location.path == analysis.source.file.path ? nil : registration.location.path
            let place: String
            if let path {
                let fileName = path.split(separator: "/").last.map(String.init) ?? path
                place = "\(owner).\(registration.methodName) (\(fileName))"
            } else {
                let line = analysis.source.file.location(of: registration.location.range.lowerBound).line
                place = "\(owner).\(registration.methodName) (line \(line))"
            }
            let others = lost.count > 1 ? " and \(lost.count - 1) more" : ""
            let call = analysis.snippet(analysis.tokenRange(removal.callee))
            diagnostics.append(Self.metadata.diagnostic(
                analysis, at: analysis.tokenRange(removal.callee),
                message: "`\(call)(self)` in \(disappear.methodName) also removes the `\(registration.displayName)` observer\(others) added once in \(place): it never comes back when the screen reappears",
                suggestion: "Remove only the observers the appear methods add (`removeObserver(self, name: …, object: nil)`), or move `removeObserver(self)` to deinit.",
                related: lost.map { analysis.relatedLocation($0.registration.location, message: "observer added here") }))
        }
        return diagnostics
    }

    /// Words of `UIViewController` that are true only when the screen goes away for good
    /// (popped or dismissed, not covered by another screen).
    static let leavingForGood: [StaticString] = [
        "isMovingFromParent", "isBeingDismissed", "isMovingFromParentViewController",
    ]

    /// Whether the removal runs only under `if isMovingFromParent …` / `if isBeingDismissed …`
    /// or after `guard isMovingFromParent … else`: then the screen never reappears and removing
    /// everything loses nothing.
    static func runsOnlyWhenLeavingForGood(_ analysis: FileAnalysis, _ removal: ObserverRemoval) -> Bool {
        let source = analysis.source, outline = analysis.outline
        func mentionsLeaving(_ range: Range<Int>) -> Bool {
            range.contains { index in
                source.wordIndex(index, in: leavingForGood) != nil && !source.isToken(index - 1, .prefixOperator, "!")
                    && !(source.kind(index - 1) == .period && source.isToken(index - 2, .prefixOperator, "!"))
            }
        }
        for scope in outline.enclosingScopes(from: outline.scope(at: removal.callee)) {
            let info = outline[scope]
            if case .block(let keyword) = info.kind, source.isWord(keyword, "if"), mentionsLeaving((keyword + 1)..<info.open) {
                return true
            }
            if info.isExecutableBody {
                var index = info.open
                while index < removal.callee {
                    if source.isWord(index, "guard"), outline.scope(at: index) == scope {
                        var end = index + 1
                        while end < removal.callee, !source.isWord(end, "else") { end += 1 }
                        if mentionsLeaving((index + 1)..<end) { return true }
                    }
                    index += 1
                }
                return false
            }
        }
        return false
    }
}
