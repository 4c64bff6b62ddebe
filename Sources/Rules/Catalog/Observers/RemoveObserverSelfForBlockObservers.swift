import Lexer

/// Block observers are registered under their token, not under `self`.
public struct RemoveObserverSelfForBlockObservers: Rule {
    public static let metadata = RuleMetadata(
        id: "remove_observer_self_for_block_observers",
        category: .observers,
        defaultSeverity: .error,
        summary: "`removeObserver(self)` is used to remove block-based observers, which it cannot remove.",
        rationale: """
        `addObserver(forName:object:queue:using:)` registers the returned token as the observer, not the \
        object that called it. `removeObserver(self)` or `removeObserver(self, name:object:)` therefore \
        removes nothing: the blocks stay registered, run after the screen is gone, and pile up with every \
        new registration, so a handler runs twice, then three times. `removeObserver(self)` sent to another \
        object's observer list (`progressReporter?.removeObserver(self)`, no notification center in its \
        receiver) is not NotificationCenter's and is not reported.
        """,
        fix: "Keep the tokens that `addObserver(forName:…)` returns and pass each one to `removeObserver(_:)`; or register `self` with a selector if `removeObserver(self)` is what you want.",
        noFixReason: "Removing block observers needs their tokens, which the code throws away or keeps under other names; storing them means new properties and matching the tokens to the removal site.",
        triggering: [
            RuleExample("""
            final class InputViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillShowNotification, object: nil, queue: nil) { [weak self] note in
                        self?.show(note)
                    }
                    NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillChangeFrameNotification, object: nil, queue: nil) { [weak self] note in
                        self?.show(note)
                    }
                }
                deinit {
                    [UIResponder.keyboardWillShowNotification, UIResponder.keyboardWillChangeFrameNotification].forEach {
                        NotificationCenter.default.↓removeObserver(self, name: $0, object: nil)
                    }
                }
            }
            """),
            RuleExample("""
            final class PlayerView: UIView {
                private var token: NSObjectProtocol?
                func start() {
                    token = NotificationCenter.default.addObserver(forName: .AVPlayerItemDidPlayToEndTime, object: nil, queue: .main) { [weak self] _ in
                        self?.rewind()
                    }
                }
                deinit { NotificationCenter.default.↓removeObserver(self) }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                override func viewWillAppear(_ animated: Bool) {
                    super.viewWillAppear(animated)
                    NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillHideNotification, object: nil, queue: .main) { [weak self] _ in
                        self?.resetInsets()
                    }
                    NotificationCenter.default.addObserver(self, selector: #selector(refresh), name: UIApplication.didBecomeActiveNotification, object: nil)
                }
                override func viewWillDisappear(_ animated: Bool) {
                    super.viewWillDisappear(animated)
                    NotificationCenter.default.↓removeObserver(self, name: UIResponder.keyboardWillHideNotification, object: nil)
                    NotificationCenter.default.removeObserver(self, name: UIApplication.didBecomeActiveNotification, object: nil)
                }
            }
            """),
            RuleExample("""
            final class SettingsStore {
                let center = NotificationCenter.default
                init() {
                    _ = center.addObserver(forName: UserDefaults.didChangeNotification, object: nil, queue: nil) { _ in print("changed") }
                }
                func stop() {
                    center.↓removeObserver(self, name: UserDefaults.didChangeNotification, object: nil)
                }
            }
            """),
        ],
        nonTriggering: [
            RuleExample("""
            final class UploadStatusViewController: UIViewController {
                private var tokens: [NSObjectProtocol] = []
                override func viewDidLoad() {
                    super.viewDidLoad()
                    tokens.append(NotificationCenter.default.addObserver(forName: .uploadsChanged, object: nil, queue: .main) { [weak self] _ in
                        self?.refresh()
                    })
                }
                override func viewDidDisappear(_ animated: Bool) {
                    super.viewDidDisappear(animated)
                    progressReporter?.removeObserver(self)
                }
                deinit { tokens.forEach(NotificationCenter.default.removeObserver) }
            }
            """),
            RuleExample("""
            final class KeyboardTracker {
                static let shared = KeyboardTracker()
                private init() {
                    NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillShowNotification, object: nil, queue: .main) { _ in }
                }
                deinit { NotificationCenter.default.removeObserver(self) }
            }
            """),
            RuleExample("""
            final class AppDelegate: UIResponder, UIApplicationDelegate {
                func application(_ application: UIApplication, didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
                    NotificationCenter.default.addObserver(forName: UIResponder.keyboardDidShowNotification, object: nil, queue: .main) { _ in }
                    return true
                }
                deinit { NotificationCenter.default.removeObserver(self) }
            }
            """),
            RuleExample("""
            final class FormViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillShow(_:)), name: UIResponder.keyboardWillShowNotification, object: nil)
                }
                deinit { NotificationCenter.default.removeObserver(self) }
            }
            """),
            RuleExample("""
            final class KeyboardObservingViewController: UIViewController {
                private var showToken: NSObjectProtocol?
                override func viewDidLoad() {
                    super.viewDidLoad()
                    showToken = NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillShowNotification, object: nil, queue: .main) { [weak self] n in
                        self?.show(n)
                    }
                }
                deinit {
                    if let showToken { NotificationCenter.default.removeObserver(showToken) }
                }
            }
            """),
            RuleExample("""
            final class MixedViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillHide(_:)), name: UIResponder.keyboardWillHideNotification, object: nil)
                    hideToken = NotificationCenter.default.addObserver(forName: UIApplication.didBecomeActiveNotification, object: nil, queue: .main) { _ in }
                }
                override func viewWillDisappear(_ animated: Bool) {
                    super.viewWillDisappear(animated)
                    NotificationCenter.default.removeObserver(self, name: UIResponder.keyboardWillHideNotification, object: nil)
                }
            }
            """),
            RuleExample("""
            final class ObserverList {
                private var tokens: [NSObjectProtocol] = []
                func add() {
                    tokens.append(NotificationCenter.default.addObserver(forName: .NSCalendarDayChanged, object: nil, queue: nil) { _ in })
                }
                deinit {
                    tokens.forEach(NotificationCenter.default.removeObserver)
                    NotificationCenter.default.removeObserver(self)
                }
            }
            """),
            RuleExample("""
            final class PlainViewController: UIViewController {
                deinit { NotificationCenter.default.removeObserver(self) }
            }
            """),
            RuleExample("""
            final class DetailViewController: BaseViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillShowNotification, object: nil, queue: .main) { [weak self] n in self?.show(n) }
                }
                deinit { NotificationCenter.default.removeObserver(self) }
            }
            """, files: ["BaseViewController.swift": """
            class BaseViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.addObserver(self, selector: #selector(themeChanged), name: .themeDidChange, object: nil)
                }
            }
            """]),
            RuleExample("""
            final class ResizingView: UIView {
                func observe() {
                    addObserver(self, forKeyPath: "bounds", options: .new, context: nil)
                    NotificationCenter.default.addObserver(forName: .NSCalendarDayChanged, object: nil, queue: nil) { _ in }
                }
                deinit { removeObserver(self, forKeyPath: "bounds") }
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
        for removal in observers.removals where removal.removesSelf {
            guard let typeName = analysis.typeName(ofType: removal.type) else { continue }
            // Block registrations of the same type in this file (extensions included).
            let blocks = observers.registered.filter {
                $0.kind == .block && !$0.onLocalCenter && analysis.typeName(ofType: $0.type) == typeName
            }
            guard !blocks.isEmpty else { continue }
            let hierarchy = [typeName] + analysis.project.superclasses(of: typeName)
            let facts = hierarchy.map { analysis.project.observerFacts(of: $0) }
            // Tokens removed elsewhere make `removeObserver(self)` redundant, not wrong; the
            // observers of an object that lives as long as the app never need removing.
            guard !facts.contains(where: { $0.removesTokens || $0.livesForTheApp }) else { continue }
            let selectorKeys = facts.reduce(into: Set<NotificationKey>()) { $0.formUnion($1.selectorKeys) }
            let matched: [RegisteredObserver]
            if let keys = removal.keys {
                guard !keys.isEmpty else { continue }
                matched = blocks.filter { block in
                    block.keys.contains { keys.contains($0) && !selectorKeys.contains($0) }
                }
            } else {
                guard !facts.contains(where: \.registersSelectorObserver) else { continue }
                matched = blocks
            }
            guard let first = matched.first else { continue }
            let call = analysis.source.text(spanning: analysis.tokenRange(removal.callee))
            diagnostics.append(Self.metadata.diagnostic(
                analysis, at: analysis.tokenRange(removal.callee),
                message: "`\(call)(self…)` removes nothing: \(typeName) observes \(analysis.observedName(first)) with a block (line \(analysis.line(of: first.callee))), whose token, not `self`, is the observer",
                suggestion: "Store the token returned by `addObserver(forName:object:queue:using:)` and pass it to `removeObserver(_:)`.",
                related: matched.prefix(3).map {
                    analysis.relatedLocation(at: $0.callee, "block observer of \(analysis.observedName($0)) registered here")
                }))
        }
        return diagnostics
    }
}
