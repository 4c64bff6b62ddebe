import Lexer

/// Keyboard notifications come from no object (or the screen): any other filter drops them.
public struct KeyboardObserverObjectFilter: Rule {
    public static let metadata = RuleMetadata(
        id: "keyboard_observer_object_filter",
        category: .observers,
        defaultSeverity: .error,
        summary: "A keyboard notification observer filters on an object that never posts keyboard notifications.",
        rationale: """
        NotificationCenter delivers a notification to an observer registered with an `object:` only when the \
        notification is posted by that very object. UIKit posts keyboard notifications with a nil object \
        (the `UIScreen` since iOS 16.1), never with a view controller, a text field or a view, so an observer \
        registered with `object: self` or `object: textField` is never called and the keyboard covers the \
        content.
        """,
        fix: "Pass `object: nil`, or the screen the view is on (`view.window?.windowScene?.screen`) to hear only that screen's keyboard.",
        fixAvailability: .unsafe,
        triggering: [
            RuleExample("""
            final class LoginViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.↓addObserver(self, selector: #selector(keyboardWillShow(_:)),
                                                           name: UIResponder.keyboardWillShowNotification, object: self)
                }
            }
            """),
            RuleExample("""
            final class CommentField: UIView {
                let textField = UITextField()
                private var token: NSObjectProtocol?
                func start() {
                    token = NotificationCenter.default.↓addObserver(forName: UIResponder.keyboardWillHideNotification,
                                                                   object: textField, queue: .main) { [weak self] _ in self?.reset() }
                }
            }
            """),
            RuleExample("""
            final class SearchViewController: UIViewController {
                private var cancellables = Set<AnyCancellable>()
                func bind() {
                    NotificationCenter.default.↓publisher(for: UIResponder.keyboardWillChangeFrameNotification, object: searchBar)
                        .sink { [weak self] note in self?.move(note) }
                        .store(in: &cancellables)
                }
            }
            """),
            RuleExample("""
            final class NotesViewController: UIViewController {
                func watch() async {
                    for await note in NotificationCenter.default.↓notifications(named: UIResponder.keyboardDidShowNotification, object: view) {
                        flash(note)
                    }
                }
            }
            """),
            RuleExample("""
            final class LegacyViewController: UIViewController {
                func register() {
                    NotificationCenter.default.↓addObserver(self, selector: #selector(keyboardShown), name: NSNotification.Name.UIKeyboardDidShow, object: self.view.window)
                }
            }
            """),
        ],
        nonTriggering: [
            RuleExample("""
            final class LoginViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillShow(_:)),
                                                           name: UIResponder.keyboardWillShowNotification, object: nil)
                }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                private var token: NSObjectProtocol?
                override func viewDidAppear(_ animated: Bool) {
                    super.viewDidAppear(animated)
                    token = NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillChangeFrameNotification,
                                                                   object: view.window?.windowScene?.screen, queue: .main) { [weak self] n in self?.move(n) }
                }
            }
            """),
            RuleExample("""
            final class ExternalDisplayController: UIViewController {
                func observe(_ screen: UIScreen) {
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillHide(_:)),
                                                           name: UIResponder.keyboardWillHideNotification, object: screen)
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillShow(_:)),
                                                           name: UIResponder.keyboardWillShowNotification, object: UIScreen.main)
                }
            }
            """),
            RuleExample("""
            final class EditorViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.addObserver(self, selector: #selector(textChanged(_:)),
                                                           name: UITextView.textDidChangeNotification, object: textView)
                }
            }
            """),
            RuleExample("""
            final class KeyboardObserver {
                func observe(_ name: Notification.Name, object: Any?, selector: Selector) {
                    NotificationCenter.default.addObserver(self, selector: selector, name: UIResponder.keyboardWillShowNotification, object: object)
                }
            }
            """),
            RuleExample("""
            final class SearchViewController: UIViewController {
                func bind() {
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillShow(_:)), name: UIResponder.keyboardWillShowNotification, object: .none)
                    subscription = NotificationCenter.default.publisher(for: UIResponder.keyboardWillHideNotification, object: nil)
                        .sink { [weak self] _ in self?.reset() }
                }
            }
            """),
            RuleExample("""
            final class TypedViewController: UIViewController {
                func observe() {
                    token = NotificationCenter.default.addObserver(of: view.window?.windowScene?.screen, for: .keyboardWillShow) { [weak self] message in
                        self?.apply(message.endFrame)
                    }
                }
            }
            """),
        ],
        corrections: [
            RuleCorrection("""
            final class LoginViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.↓addObserver(self, selector: #selector(keyboardWillShow(_:)),
                                                           name: UIResponder.keyboardWillShowNotification, object: self)
                }
            }
            """, """
            final class LoginViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillShow(_:)),
                                                           name: UIResponder.keyboardWillShowNotification, object: nil)
                }
            }
            """),
        ]
    )

    public init() {}

    public func check(_ context: RuleContext) -> [Diagnostic] {
        let analysis = context.analysis
        let source = analysis.source
        var diagnostics: [Diagnostic] = []
        for registration in analysis.observers.registered where registration.isKeyboard {
            guard registration.kind != .typedMessage, let object = registration.object, !object.isEmpty,
                  !Self.isNilOrScreen(source, object), !Self.isParameter(analysis, object) else { continue }
            let objectText = analysis.snippet(object)
            diagnostics.append(Self.metadata.diagnostic(
                analysis, at: analysis.tokenRange(registration.callee),
                message: "The \(analysis.observedName(registration)) observer only hears notifications posted by `\(objectText)`, but keyboard notifications are posted with a nil object (the screen since iOS 16.1): the handler never runs",
                suggestion: "Pass `object: nil` (or the view's screen, `view.window?.windowScene?.screen`) instead of `\(objectText)`.",
                // Unsafe: the handler starts running (for every screen's keyboard), and the
                // dropped expression is no longer evaluated.
                fix: Fix(.unsafe, edits: [Edit(range: source.byteRange(object), replacement: "nil")])))
        }
        return diagnostics
    }

    /// `nil`, or an expression that names a screen (`UIScreen.main`, `window?.windowScene?.screen`).
    static func isNilOrScreen(_ source: TokenizedSource, _ range: Range<Int>) -> Bool {
        // `nil`, `nil as Any?`, `.none`, `Optional.none`.
        if source.isWord(range.lowerBound, "nil") { return true }
        if let last = range.last, source.isWord(last, "none"), source.kind(last - 1) == .period { return true }
        return range.contains { index in
            source.kind(index) == .identifier && source.text(at: index).lowercased().contains("screen")
        }
    }

    /// A bare parameter of the enclosing function or closure: the caller decides (often nil).
    static func isParameter(_ analysis: FileAnalysis, _ range: Range<Int>) -> Bool {
        guard range.count == 1, analysis.source.kind(range.lowerBound) == .identifier else { return false }
        let token = range.lowerBound
        for scope in analysis.outline.enclosingScopes(from: analysis.outline.scope(at: token)) {
            switch analysis.outline[scope].kind {
            case .function(let function):
                return analysis.outline[function].parameters.contains { analysis.source.nameHash($0.nameToken) == analysis.source.nameHash(token) }
            case .closure(let closure):
                if analysis.outline[closure].parameters.contains(where: { analysis.source.nameHash($0) == analysis.source.nameHash(token) }) {
                    return true
                }
            default:
                break
            }
        }
        return false
    }
}
