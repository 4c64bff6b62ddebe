import Lexer

/// Keeping a block observer's token is only half of the job: it must also be removed.
public struct ObserverTokenNeverRemoved: Rule {
    public static let metadata = RuleMetadata(
        id: "observer_token_never_removed",
        category: .observers,
        defaultSeverity: .warning,
        summary: "A block observer's token is stored but never passed to `removeObserver(_:)`.",
        rationale: """
        NotificationCenter keeps a block observer registered until its token is passed to \
        `removeObserver(_:)`; releasing the token, or setting the property to nil, does not remove it. \
        A token that is stored and never removed leaves the block running after its owner is gone, and \
        each new registration adds another copy that runs too. Singletons and application delegates, which \
        live as long as the app, are not reported; nor are a property whose `didSet` removes its `oldValue` \
        (assigning it, `nil` too, removes the token) and a property the type inherits from a base class \
        outside the project (not one of Apple's), whose code may remove it.
        """,
        fix: "Pass the stored token to `NotificationCenter.default.removeObserver(_:)` in `deinit` or when observing should stop (e.g. `viewWillDisappear`), then set it to nil.",
        noFixReason: "Where observing should stop (`deinit`, a disappear method, a stop method) decides when the handler stops running, and the matching removal call belongs in a method that may not exist yet.",
        triggering: [
            RuleExample("""
            final class ChatViewController: UIViewController {
                private var showToken: NSObjectProtocol?
                override func viewDidLoad() {
                    super.viewDidLoad()
                    ↓showToken = NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillShowNotification, object: nil, queue: .main) { [weak self] n in
                        self?.show(n)
                    }
                }
            }
            """),
            RuleExample("""
            final class ObserverBag {
                private var tokens: [NSObjectProtocol] = []
                func observe(_ name: Notification.Name, block: @escaping (Notification) -> Void) {
                    ↓tokens.append(NotificationCenter.default.addObserver(forName: name, object: nil, queue: .main, using: block))
                }
                func reset() { tokens = [] }
            }
            """),
            RuleExample("""
            final class PlayerView: UIView {
                private var endObserver: Any?
                func start() {
                    ↓self.endObserver = NotificationCenter.default.addObserver(forName: .AVPlayerItemDidPlayToEndTime, object: nil, queue: .main) { [weak self] _ in
                        self?.rewind()
                    }
                }
                func stop() { endObserver = nil }
            }
            """),
            RuleExample("""
            final class FormViewController: UIViewController {
                private var hideToken: NSObjectProtocol?
                override func viewWillAppear(_ animated: Bool) {
                    super.viewWillAppear(animated)
                    let token = NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillHideNotification, object: nil, queue: nil) { [weak self] _ in
                        self?.reset()
                    }
                    ↓hideToken = token
                }
                deinit { NotificationCenter.default.removeObserver(self) }
            }
            """),
        ],
        nonTriggering: [
            RuleExample("""
            final class GlucoseChartViewController: ChartsTableViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    notificationObservers += [
                        NotificationCenter.default.addObserver(forName: .readingsChanged, object: nil, queue: .main) { [weak self] _ in
                            self?.reloadCharts()
                        },
                    ]
                }
            }
            """),
            RuleExample("""
            final class ComposeController: UIViewController {
                private var resignObserver: NSObjectProtocol? {
                    didSet {
                        if let oldValue { NotificationCenter.default.removeObserver(oldValue) }
                    }
                }
                override func viewDidAppear(_ animated: Bool) {
                    super.viewDidAppear(animated)
                    resignObserver = NotificationCenter.default.addObserver(forName: UIApplication.willResignActiveNotification, object: nil, queue: .main) { [weak self] _ in
                        self?.dismiss(animated: true)
                    }
                }
                override func viewWillDisappear(_ animated: Bool) {
                    super.viewWillDisappear(animated)
                    resignObserver = nil
                }
            }
            """),
            RuleExample("""
            enum ImageCache {
                private static var memoryWarningToken: NSObjectProtocol?
                static func start() {
                    memoryWarningToken = NotificationCenter.default.addObserver(forName: UIApplication.didReceiveMemoryWarningNotification, object: nil, queue: .main) { _ in
                        purge()
                    }
                }
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
                    if let token = showToken { NotificationCenter.default.removeObserver(token) }
                }
            }
            """),
            RuleExample("""
            final class ObserverBag {
                private var tokens: [NSObjectProtocol] = []
                func observe(_ name: Notification.Name, block: @escaping (Notification) -> Void) {
                    tokens.append(NotificationCenter.default.addObserver(forName: name, object: nil, queue: .main, using: block))
                }
                deinit { tokens.forEach(NotificationCenter.default.removeObserver) }
            }
            """),
            RuleExample("""
            final class ComposerView: UIView {
                private var observers: [NSObjectProtocol] = []
                override func willMove(toWindow newWindow: UIWindow?) {
                    super.willMove(toWindow: newWindow)
                    if newWindow == nil {
                        for observer in observers { NotificationCenter.default.removeObserver(observer) }
                        observers.removeAll()
                    } else {
                        observers += [NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillHideNotification, object: nil, queue: .main) { _ in }]
                    }
                }
            }
            """),
            RuleExample("""
            final class SearchViewController: UIViewController {
                private var cancellables = Set<AnyCancellable>()
                private var observation: ObservationToken?
                func bind(_ screen: UIScreen) {
                    NotificationCenter.default.publisher(for: UIResponder.keyboardWillHideNotification)
                        .sink { [weak self] _ in self?.reset() }
                        .store(in: &cancellables)
                    observation = NotificationCenter.default.addObserver(of: screen, for: .keyboardWillShow) { [weak self] message in
                        self?.apply(message.endFrame)
                    }
                }
            }
            """),
            RuleExample("""
            final class SettingsViewController: UIViewController {
                private var token: NSObjectProtocol?
                override func viewDidLoad() {
                    super.viewDidLoad()
                    token = NotificationCenter.default.addObserver(forName: UserDefaults.didChangeNotification, object: nil, queue: .main) { [weak self] _ in self?.reload() }
                }
            }
            """, files: ["SettingsViewController+Teardown.swift": """
            extension SettingsViewController {
                func stopObserving() {
                    NotificationCenter.default.removeObserver(token as Any)
                }
            }
            """]),
            RuleExample("""
            final class ProfileViewController: ObservingViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    keyboardToken = NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillShowNotification, object: nil, queue: .main) { [weak self] n in
                        self?.show(n)
                    }
                }
            }
            """, files: ["ObservingViewController.swift": """
            class ObservingViewController: UIViewController {
                var keyboardToken: NSObjectProtocol?
                deinit { keyboardToken.map(NotificationCenter.default.removeObserver) }
            }
            """]),
            RuleExample("""
            final class NotificationTests: XCTestCase {
                var token: NSObjectProtocol?
                func testPost() {
                    let center = NotificationCenter()
                    token = center.addObserver(forName: .NSCalendarDayChanged, object: nil, queue: nil) { _ in }
                }
            }
            """),
            RuleExample("""
            final class SyncManager {
                static let shared = SyncManager()
                private var foregroundObserver: NSObjectProtocol?
                private init() {}
                func start() {
                    foregroundObserver = NotificationCenter.default.addObserver(forName: UIApplication.willEnterForegroundNotification, object: nil, queue: .main) { [weak self] _ in
                        self?.sync()
                    }
                }
            }
            """),
            RuleExample("""
            final class Coordinator {
                private var tokens: [NSObjectProtocol] = []
                func start() {
                    let token = NotificationCenter.default.addObserver(forName: UIResponder.keyboardDidShowNotification, object: nil, queue: nil) { _ in }
                    tokens.append(token)
                }
                func stop() {
                    while let token = tokens.popLast() { NotificationCenter.default.removeObserver(token) }
                }
            }
            """),
        ]
    )

    public static let requiredMarkers: [StaticString] = ["addObserver"]

    public init() {}

    public func check(_ context: RuleContext) -> [Diagnostic] {
        let analysis = context.analysis
        let source = analysis.source
        var diagnostics: [Diagnostic] = []
        for registration in analysis.observers.registered where registration.kind == .block && !registration.onLocalCenter {
            guard case .storedInProperty(let property, let site) = registration.store,
                  let typeName = analysis.typeName(ofType: registration.type) else { continue }
            // The type or a project superclass (which may declare the property) removes it.
            let hierarchy = ([typeName] + analysis.project.superclasses(of: typeName)).map {
                analysis.project.observerFacts(of: $0)
            }
            let hash = source.nameHash(property)
            guard !hierarchy.contains(where: { $0.livesForTheApp || $0.removedNames.contains(hash) }),
                  !Self.isStaticProperty(hash, of: typeName, analysis),
                  !Self.mayBeInheritedFromOutside(property, of: typeName, analysis) else { continue }
            let name = source.text(at: property)
            diagnostics.append(Self.metadata.diagnostic(
                analysis, at: site.lowerBound..<(site.lowerBound + 1),
                message: "The token of the \(analysis.observedName(registration)) block observer is kept in `\(name)` but \(typeName) never passes it to `removeObserver(_:)`: the block stays registered, and releasing or nil-ing `\(name)` does not remove it",
                suggestion: "Call `NotificationCenter.default.removeObserver(\(name))` in `deinit` or where observing should stop.",
                related: [analysis.relatedLocation(at: registration.callee, "observer registered here")]))
        }
        return diagnostics
    }

    /// Whether the property holding the token is not declared in this file's declarations of
    /// the type and may come from a superclass outside the project (a framework's base
    /// controller, not one of Apple's), whose code, which nothing here shows, may remove it.
    static func mayBeInheritedFromOutside(_ property: Int, of typeName: String, _ analysis: FileAnalysis) -> Bool {
        guard analysis.property(named: property) == nil else { return false }
        let root = analysis.project.rootClass(of: typeName)
        guard root != typeName, analysis.project.types.declaration(of: root)?.isDeclared != true else { return false }
        return !appleFrameworkPrefixes.contains { root.hasPrefix($0) }
    }

    /// Class name prefixes of Apple's frameworks, whose classes hold no app tokens.
    static let appleFrameworkPrefixes = ["UI", "NS", "WK", "AV", "MK", "SK", "SCN", "AR", "CL", "PH", "QL", "SF", "GK", "CN", "EK", "MF", "PK"]

    /// Whether the type declares the property holding the token `static`: it lives as long as
    /// the app, and so does the observer.
    static func isStaticProperty(_ hash: UInt64, of typeName: String, _ analysis: FileAnalysis) -> Bool {
        analysis.outline.properties.contains { property in
            guard property.isStatic, property.nameHash == hash, let owner = property.owner else { return false }
            return analysis.outline[owner].qualifiedName == typeName
        }
    }
}
