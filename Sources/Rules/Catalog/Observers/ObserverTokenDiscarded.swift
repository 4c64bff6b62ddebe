import Lexer

/// A block observer lives until its token is removed; a dropped token can never be.
public struct ObserverTokenDiscarded: Rule {
    public static let metadata = RuleMetadata(
        id: "observer_token_discarded",
        category: .observers,
        defaultSeverity: .error,
        summary: "The token of a block-based observer, an iOS 26 observation or a keyboard Combine subscription is thrown away.",
        rationale: """
        `addObserver(forName:object:queue:using:)` returns the only handle to the observer: when it is \
        dropped, the block stays registered for the life of the process, runs once more for every extra \
        registration and keeps alive whatever it captures. The iOS 26 `addObserver(of:for:using:)` works the \
        other way round: its `ObservationToken` ends the observation when released, so a dropped token means \
        the handler never runs, and so does a Combine `.sink` whose `AnyCancellable` is not stored. Block \
        observers of singletons (a type reached through its own `static let`/`static var shared`), application delegates and SwiftUI `App` types, which live as long as the app, are not reported.
        """,
        fix: "Keep the token in a property (or a collection of tokens) and pass it to `removeObserver(_:)` when the observer is no longer needed; keep Combine subscriptions with `.store(in: &cancellables)`.",
        noFixReason: "Keeping the token needs a new stored property (or collection) and a place to remove it, and choosing when the observer should stop is the author's decision.",
        triggering: [
            RuleExample("""
            final class ChatViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.↓addObserver(forName: UIResponder.keyboardWillShowNotification, object: nil, queue: .main) { [weak self] note in
                        self?.keyboardWillShow(note)
                    }
                }
            }
            """),
            RuleExample("""
            final class SessionStore {
                init() {
                    _ = NotificationCenter.default.↓addObserver(forName: UIApplication.didEnterBackgroundNotification,
                                                               object: nil, queue: nil, using: { _ in Self.flush() })
                    let _ = NotificationCenter.default.↓addObserver(forName: UIApplication.willTerminateNotification,
                                                                   object: nil, queue: nil, using: { _ in Self.flush() })
                }
            }
            """),
            RuleExample("""
            final class ComposerViewController: UIViewController {
                func observe(on screen: UIScreen) {
                    NotificationCenter.default.↓addObserver(of: screen, for: .keyboardWillShow) { [weak self] message in
                        self?.bottomConstraint.constant = message.endFrame.height
                    }
                }
            }
            """),
            RuleExample("""
            final class SearchViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.publisher(for: UIResponder.keyboardWillHideNotification)
                        .receive(on: RunLoop.main)
                        .↓sink { [weak self] _ in self?.resetInsets() }
                }
            }
            """),
            RuleExample("""
            final class LoginView: UIView {
                func start() {
                    let center = NotificationCenter.default
                    center.↓addObserver(forName: .NSCalendarDayChanged, object: nil, queue: .main) { _ in print("day") }; center.↓addObserver(forName: UIResponder.keyboardDidHideNotification, object: nil, queue: .main) { _ in print("hidden") }
                }
            }
            """),
        ],
        nonTriggering: [
            RuleExample("""
            final class KeyboardMessageTests: XCTestCase {
                func testDroppedTokenEndsTheObservation() {
                    _ = NotificationCenter.default.addObserver(of: UIScreen.main, for: .keyboardWillShow) { _ in
                        XCTFail("must not run")
                    }
                }
            }
            """),
            RuleExample("""
            @main struct NotesApp: App {
                @State private var keyboardShown = false
                init() {
                    NotificationCenter.default.addObserver(forName: UIResponder.keyboardDidShowNotification, object: nil, queue: .main) { _ in
                        print("shown")
                    }
                }
                var body: some Scene { WindowGroup { ContentView() } }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                private var showToken: NSObjectProtocol?
                override func viewDidLoad() {
                    super.viewDidLoad()
                    showToken = NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillShowNotification, object: nil, queue: .main) { [weak self] note in
                        self?.keyboardWillShow(note)
                    }
                }
                deinit { if let showToken { NotificationCenter.default.removeObserver(showToken) } }
            }
            """),
            RuleExample("""
            final class ObserverBag {
                private var tokens: [NSObjectProtocol] = []
                func observe(_ name: Notification.Name, _ block: @escaping (Notification) -> Void) {
                    tokens.append(NotificationCenter.default.addObserver(forName: name, object: nil, queue: .main, using: block))
                }
                deinit { tokens.forEach(NotificationCenter.default.removeObserver) }
            }
            """),
            RuleExample("""
            extension NotificationCenter {
                func observeKeyboard(_ handler: @escaping (Notification) -> Void) -> NSObjectProtocol {
                    return addObserver(forName: UIResponder.keyboardWillChangeFrameNotification, object: nil, queue: .main, using: handler)
                }
            }
            """),
            RuleExample("""
            final class KeyboardObservers {
                private lazy var tokens: [NSObjectProtocol] = names.map { name in
                    NotificationCenter.default.addObserver(forName: name, object: nil, queue: .main) { _ in }
                }
                private lazy var hideToken: NSObjectProtocol = {
                    NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillHideNotification, object: nil, queue: .main) { _ in }
                }()
                func observeShow() -> NSObjectProtocol {
                    NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillShowNotification, object: nil, queue: .main) { _ in }
                }
                deinit { (tokens + [hideToken]).forEach(NotificationCenter.default.removeObserver) }
            }
            """),
            RuleExample("""
            final class Coordinator {
                func start(tokens: inout [NSObjectProtocol]) {
                    let token = NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillHideNotification, object: nil, queue: nil) { _ in }
                    tokens.append(token)
                    register(NotificationCenter.default.addObserver(forName: .NSCalendarDayChanged, object: nil, queue: nil) { _ in })
                }
            }
            """),
            RuleExample("""
            final class KeyboardObserverTests: XCTestCase {
                func testDelivers() {
                    let center = NotificationCenter()
                    center.addObserver(forName: UIResponder.keyboardWillShowNotification, object: nil, queue: nil) { _ in fired = true }
                    NotificationCenter().addObserver(forName: UIResponder.keyboardWillHideNotification, object: nil, queue: nil) { _ in }
                }
            }
            """),
            RuleExample("""
            final class SearchViewController: UIViewController {
                private var cancellables = Set<AnyCancellable>()
                private var hideSubscription: AnyCancellable?
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.publisher(for: UIResponder.keyboardWillShowNotification)
                        .sink { [weak self] _ in self?.adjust() }
                        .store(in: &cancellables)
                    hideSubscription = NotificationCenter.default.publisher(for: UIResponder.keyboardWillHideNotification)
                        .sink { [weak self] _ in self?.reset() }
                }
            }
            """),
            RuleExample("""
            @main
            final class AppDelegate: UIResponder, UIApplicationDelegate {
                func application(_ application: UIApplication, didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
                    NotificationCenter.default.addObserver(forName: UserDefaults.didChangeNotification, object: nil, queue: .main) { _ in
                        Settings.reload()
                    }
                    return true
                }
            }
            """),
            RuleExample("""
            final class ComposerViewController: UIViewController {
                private var observation: ObservationToken?
                func observe(on screen: UIScreen) {
                    observation = NotificationCenter.default.addObserver(of: screen, for: .keyboardWillShow) { [weak self] message in
                        self?.bottomConstraint.constant = message.endFrame.height
                    }
                }
            }
            """),
            RuleExample("""
            final class FormViewController: UIViewController {
                override func viewWillAppear(_ animated: Bool) {
                    super.viewWillAppear(animated)
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillShow(_:)),
                                                           name: UIResponder.keyboardWillShowNotification, object: nil)
                    view.publisher(for: \\.bounds).sink { print($0) }
                    NotificationCenter.default.publisher(for: UIResponder.keyboardWillChangeFrameNotification)
                        .map { ($0.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect)?.height ?? 0 }
                        .assign(to: &model.$keyboardHeight)
                }
            }
            """),
        ]
    )

    /// Block observers, or keyboard subscriptions: their `publisher(for:)` names a keyboard
    /// notification (`publisher` alone is in most Combine code).
    public static let requiredMarkers: [StaticString] = ["addObserver"] + KeyboardVocabulary.keyboardMarkers

    public init() {}

    public func check(_ context: RuleContext) -> [Diagnostic] {
        let analysis = context.analysis
        let source = analysis.source
        var diagnostics: [Diagnostic] = []
        for registration in analysis.observers.registered where registration.store == .discarded {
            guard !registration.onLocalCenter, let name = registration.name else { continue }
            let nameText = analysis.snippet(name)
            switch registration.kind {
            case .block:
                if let typeName = analysis.typeName(ofType: registration.type),
                   analysis.project.observerFacts(of: typeName).livesForTheApp {
                    continue
                }
                diagnostics.append(Self.metadata.diagnostic(
                    analysis, at: analysis.tokenRange(registration.callee),
                    message: "The token of `addObserver(forName: \(nameText), …)` is thrown away: the block observer can never be removed and keeps running",
                    suggestion: "Store the returned token in a property and pass it to `removeObserver(_:)` when the observer is no longer needed."))
            case .typedMessage:
                // A test may drop the token on purpose, to check that the observation ends.
                guard Self.isNotificationCenterMessage(analysis, registration),
                      analysis.typeName(ofType: registration.type).map({ analysis.project.rootClass(of: $0) != "XCTestCase" }) ?? true
                else { continue }
                diagnostics.append(Self.metadata.diagnostic(
                    analysis, at: analysis.tokenRange(registration.callee),
                    message: "The `ObservationToken` of `addObserver(for: \(nameText))` is dropped: the observation ends at once and the handler never runs",
                    suggestion: "Keep the returned token in a property for as long as the handler should run."))
            default:
                continue
            }
        }
        for subscription in analysis.observers.subscriptions where subscription.result == .discarded {
            let publisherCall = analysis.call(at: subscription.publisher)
            let name = publisherCall?.arguments.first.map { analysis.snippet($0.value) } ?? "keyboard"
            let subscriber = source.text(at: subscription.subscriber)
            diagnostics.append(Self.metadata.diagnostic(
                analysis, at: analysis.tokenRange(subscription.subscriber),
                message: "The `AnyCancellable` of `.\(subscriber)` on the `\(name)` publisher is not kept: the subscription is cancelled at once",
                suggestion: "Keep the subscription: `.store(in: &cancellables)` or assign it to a property."))
        }
        return diagnostics
    }

    /// `addObserver(of:for:)` of NotificationCenter: a keyboard message, a `…Message.self`
    /// type, or a receiver that names the center.
    static func isNotificationCenterMessage(_ analysis: FileAnalysis, _ registration: RegisteredObserver) -> Bool {
        if registration.isKeyboard { return true }
        let source = analysis.source
        if let name = registration.name, name.count >= 3, source.isWord(name.upperBound - 1, "self"),
           source.text(at: name.upperBound - 3).hasSuffix("Message") {
            return true
        }
        guard let receiver = analysis.calls[registration.call].receiver else { return false }
        return analysis.chainNames(receiver).contains { source.isWord($0, "NotificationCenter") }
    }
}
