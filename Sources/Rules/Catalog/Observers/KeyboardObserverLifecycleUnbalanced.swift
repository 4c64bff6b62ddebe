import Lexer

/// Observers added on appear must go on the mirrored disappear; those added once must stay.
public struct KeyboardObserverLifecycleUnbalanced: Rule {
    public static let metadata = RuleMetadata(
        id: "keyboard_observer_lifecycle_unbalanced",
        category: .observers,
        defaultSeverity: .warning,
        summary: "Keyboard observers are added and removed in lifecycle methods that do not mirror each other.",
        rationale: """
        `viewWillAppear`/`viewDidAppear` run on every appearance, and a cancelled interactive swipe-back calls \
        `viewWillAppear` again without `viewDidDisappear`. An observer added there and not removed in the \
        mirrored disappear method is registered once more each time, so the keyboard handler runs two, three, \
        N times per notification. The opposite mismatch, adding in `viewDidLoad`/`init` and removing in a \
        disappear method, leaves the screen deaf to the keyboard after it first disappears.
        """,
        fix: "Pair `viewWillAppear` with `viewWillDisappear` and `viewDidAppear` with `viewDidDisappear` (or `viewWillDisappear`); or add the observers once in `viewDidLoad` and keep them for the controller's lifetime.",
        noFixReason: "Which pair of lifecycle methods is right (move the add or the remove, or register once in `viewDidLoad`) changes when the screen hears the keyboard, and moving code between overrides may need new overrides.",
        triggering: [
            RuleExample("""
            final class FormViewController: UIViewController {
                override func viewWillAppear(_ animated: Bool) {
                    super.viewWillAppear(animated)
                    NotificationCenter.default.↓addObserver(self, selector: #selector(keyboardWillShow(_:)),
                                                           name: UIResponder.keyboardWillShowNotification, object: nil)
                }
                deinit { NotificationCenter.default.removeObserver(self) }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                override func viewWillAppear(_ animated: Bool) {
                    super.viewWillAppear(animated)
                    registerKeyboardObservers()
                }
                override func viewDidDisappear(_ animated: Bool) {
                    super.viewDidDisappear(animated)
                    NotificationCenter.default.removeObserver(self)
                }
                private func registerKeyboardObservers() {
                    NotificationCenter.default.↓addObserver(self, selector: #selector(keyboardWillHide(_:)),
                                                           name: UIResponder.keyboardWillHideNotification, object: nil)
                }
            }
            """),
            RuleExample("""
            final class ProfileViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.↓addObserver(self, selector: #selector(keyboardWillChangeFrame(_:)),
                                                           name: UIResponder.keyboardWillChangeFrameNotification, object: nil)
                }
                override func viewWillDisappear(_ animated: Bool) {
                    super.viewWillDisappear(animated)
                    NotificationCenter.default.removeObserver(self, name: UIResponder.keyboardWillChangeFrameNotification, object: nil)
                }
            }
            """),
            RuleExample("""
            final class SearchViewController: UIViewController {
                private var showToken: NSObjectProtocol?
                override func viewDidAppear(_ animated: Bool) {
                    super.viewDidAppear(animated)
                    showToken = NotificationCenter.default.↓addObserver(forName: UIResponder.keyboardWillShowNotification, object: nil, queue: .main) { [weak self] n in
                        self?.show(n)
                    }
                }
                deinit { if let showToken { NotificationCenter.default.removeObserver(showToken) } }
            }
            """),
        ],
        nonTriggering: [
            RuleExample("""
            final class KeyboardAwareViewController: UIViewController {
                override func viewWillAppear(_ animated: Bool) {
                    super.viewWillAppear(animated)
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillShow(_:)),
                                                           name: UIResponder.keyboardWillShowNotification, object: nil)
                }
                override func viewWillDisappear(_ animated: Bool) {
                    super.viewWillDisappear(animated)
                    NotificationCenter.default.removeObserver(self, name: UIResponder.keyboardWillShowNotification, object: nil)
                }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillShow(_:)),
                                                           name: UIResponder.keyboardWillShowNotification, object: nil)
                }
                deinit { NotificationCenter.default.removeObserver(self) }
            }
            """),
            RuleExample("""
            final class NotesViewController: UIViewController {
                override func viewDidAppear(_ animated: Bool) {
                    super.viewDidAppear(animated)
                    startObserving()
                }
                override func viewWillDisappear(_ animated: Bool) {
                    super.viewWillDisappear(animated)
                    stopObserving()
                }
                private func startObserving() {
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillHide(_:)),
                                                           name: UIResponder.keyboardWillHideNotification, object: nil)
                }
                private func stopObserving() { NotificationCenter.default.removeObserver(self) }
            }
            """),
            RuleExample("""
            final class EditorViewController: UIViewController {
                private var isObservingKeyboard = false
                override func viewWillAppear(_ animated: Bool) {
                    super.viewWillAppear(animated)
                    if !isObservingKeyboard {
                        NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillShow(_:)),
                                                               name: UIResponder.keyboardWillShowNotification, object: nil)
                        isObservingKeyboard = true
                    }
                }
            }
            """),
            RuleExample("""
            final class ReplyViewController: UIViewController {
                private var hideToken: NSObjectProtocol?
                override func viewDidAppear(_ animated: Bool) {
                    super.viewDidAppear(animated)
                    hideToken = NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillHideNotification, object: nil, queue: .main) { [weak self] _ in
                        self?.reset()
                    }
                }
                override func viewDidDisappear(_ animated: Bool) {
                    super.viewDidDisappear(animated)
                    if let hideToken { NotificationCenter.default.removeObserver(hideToken) }
                }
            }
            """),
            RuleExample("""
            final class ListViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillShow(_:)),
                                                           name: UIResponder.keyboardWillShowNotification, object: nil)
                }
                override func viewWillAppear(_ animated: Bool) {
                    super.viewWillAppear(animated)
                    NotificationCenter.default.removeObserver(self, name: UIResponder.keyboardWillShowNotification, object: nil)
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillShow(_:)),
                                                           name: UIResponder.keyboardWillShowNotification, object: nil)
                }
                override func viewWillDisappear(_ animated: Bool) {
                    super.viewWillDisappear(animated)
                    NotificationCenter.default.removeObserver(self)
                }
            }
            """),
            RuleExample("""
            final class ComposeViewController: KeyboardBaseViewController {
                override func viewWillAppear(_ animated: Bool) {
                    super.viewWillAppear(animated)
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillShow(_:)),
                                                           name: UIResponder.keyboardWillShowNotification, object: nil)
                }
            }
            """, files: ["KeyboardBaseViewController.swift": """
            class KeyboardBaseViewController: UIViewController {
                override func viewWillDisappear(_ animated: Bool) {
                    super.viewWillDisappear(animated)
                    NotificationCenter.default.removeObserver(self)
                }
            }
            """]),
            RuleExample("""
            final class TimelineViewController: UIViewController {
                private var cancellables = Set<AnyCancellable>()
                override func viewWillAppear(_ animated: Bool) {
                    super.viewWillAppear(animated)
                    NotificationCenter.default.publisher(for: UIResponder.keyboardWillShowNotification)
                        .sink { [weak self] n in self?.show(n) }
                        .store(in: &cancellables)
                }
                override func viewWillDisappear(_ animated: Bool) {
                    super.viewWillDisappear(animated)
                    cancellables.removeAll()
                }
            }
            """),
        ]
    )

    public init() {}

    public func check(_ context: RuleContext) -> [Diagnostic] {
        let analysis = context.analysis
        guard analysis.mentionsKeyboard else { return [] }
        let observers = analysis.observers
        var diagnostics: [Diagnostic] = []
        for registration in observers.registered where registration.isKeyboard && !registration.onLocalCenter {
            guard let typeName = analysis.typeName(ofType: registration.type),
                  !Self.otherFilesHandleObservers(of: typeName, analysis) else { continue }
            let phases = observers.phases(ofMethod: registration.method)
            guard !phases.isEmpty, let undo = undoingMethods(analysis, registration, typeName) else { continue }
            let undoPhases = undo.map { (method: $0, phases: observers.phases(ofMethod: $0)) }
            if phases.contains(where: \.isAppear) {
                guard !isGuarded(analysis, registration, undo: undo) else { continue }
                // A project superclass that removes observers on disappear may remove these.
                guard !analysis.project.superclasses(of: typeName).contains(where: {
                    analysis.project.observerFacts(of: $0).removesOnDisappear
                }) else { continue }
                for appear in [LifecyclePhase.willAppear, .didAppear] where phases.contains(appear) {
                    let mirrors: Set<LifecyclePhase> = appear == .willAppear ? [.willDisappear] : [.willDisappear, .didDisappear]
                    guard !undoPhases.contains(where: { !$0.phases.isDisjoint(with: mirrors) }) else { continue }
                    let mismatched = undoPhases.first { $0.phases.contains(where: \.isDisappear) }
                    let message: String
                    var related: [RelatedLocation] = []
                    if let mismatched {
                        let removedIn = mismatched.phases.first(where: \.isDisappear)!.methodName
                        message = "The \(analysis.observedName(registration)) observer is added in \(appear.methodName) but removed in \(removedIn): a cancelled swipe-back calls viewWillAppear again without viewDidDisappear, so registrations pile up and the handler runs several times"
                        if let method = mismatched.method {
                            related.append(analysis.relatedLocation(at: analysis.outline[method].nameToken, "removed here"))
                        }
                    } else {
                        message = "The \(analysis.observedName(registration)) observer is added in \(appear.methodName) but not removed in \(appear == .willAppear ? "viewWillDisappear" : "viewWillDisappear or viewDidDisappear"): every appearance adds another registration and the handler runs once more each time"
                    }
                    diagnostics.append(Self.metadata.diagnostic(
                        analysis, at: analysis.tokenRange(registration.callee), message: message,
                        suggestion: appear == .willAppear
                            ? "Remove the observer in viewWillDisappear, or add it once in viewDidLoad."
                            : "Remove the observer in viewDidDisappear or viewWillDisappear, or add it once in viewDidLoad.",
                        related: related))
                    break
                }
            } else if phases.contains(.setup) {
                guard let removal = undoPhases.first(where: { $0.phases.contains(where: \.isDisappear) }),
                      !isReAddedOnAppear(analysis, registration, typeName) else { continue }
                let removedIn = removal.phases.first(where: \.isDisappear)!.methodName
                var related: [RelatedLocation] = []
                if let method = removal.method {
                    related.append(analysis.relatedLocation(at: analysis.outline[method].nameToken, "removed here"))
                }
                diagnostics.append(Self.metadata.diagnostic(
                    analysis, at: analysis.tokenRange(registration.callee),
                    message: "The \(analysis.observedName(registration)) observer is added once in \(analysis.methodName(registration.method)) but removed in \(removedIn): after the screen first disappears it no longer handles the keyboard",
                    suggestion: "Keep the observer for the controller's lifetime (remove it in deinit), or add it in the matching appear method.",
                    related: related))
            }
        }
        return diagnostics
    }

    /// The methods that remove (or cancel) this registration; nil when the rule cannot tell
    /// what would remove it.
    func undoingMethods(_ analysis: FileAnalysis, _ registration: RegisteredObserver, _ typeName: String) -> [FunctionID?]? {
        let observers = analysis.observers
        let source = analysis.source
        let inType = observers.removals.filter { analysis.typeName(ofType: $0.type) == typeName }
        switch registration.kind {
        case .selector:
            guard let observer = registration.observer, observer.count == 1,
                  source.isWord(observer.lowerBound, "self") else { return nil }
            return inType.filter { removal in
                removal.removesSelf && (removal.keys.map { !Set($0).isDisjoint(with: registration.keys) } ?? true)
            }.map(\.method)
        case .block:
            guard case .storedInProperty(let property, _) = registration.store else { return nil }
            let hash = source.nameHash(property)
            return inType.filter { !$0.removesSelf && $0.names.contains(hash) }.map(\.method)
        case .publisher:
            guard let subscription = observers.subscriptions.first(where: { $0.publisher == registration.callee }),
                  case .storedInProperty(let property, _) = subscription.result else { return nil }
            return observers.cancelledNames[typeName]?[source.nameHash(property)] ?? []
        case .typedMessage, .asyncSequence, .rxNotification, .wrapper:
            return nil
        }
    }

    /// Whether parts of the type in other files register or remove observers: the removals
    /// this file shows are then not all there are. Extensions that only add unrelated code
    /// (a delegate conformance) leave the analysis on.
    static func otherFilesHandleObservers(of typeName: String, _ analysis: FileAnalysis) -> Bool {
        guard (analysis.project.types[typeName]?.paths.count ?? 1) > 1 else { return false }
        let project = analysis.project.observerFacts(of: typeName)
        let own = analysis.facts.types.first { $0.name == typeName }?.observers ?? ObserverTypeFacts()
        return project.removedNames != own.removedNames || project.removesTokens != own.removesTokens
            || project.removesOnDisappear != own.removesOnDisappear || project.selectorKeys != own.selectorKeys
            || project.registersSelectorObserver != own.registersSelectorObserver
            || project.cancelledNamesOutsideDeinit != own.cancelledNamesOutsideDeinit
            || project.setupRegistrations.count != own.setupRegistrations.count
    }

    /// An idempotent registration: inside an `if`/`guard` on the state of the registration, or
    /// right after removing the same observer in the same method. A condition is about that
    /// state when it tests for `nil` or reads a name the method assigns (`guard !isObserving
    /// … isObserving = true`); a configuration flag (`guard avoidsKeyboard`) is not.
    func isGuarded(_ analysis: FileAnalysis, _ registration: RegisteredObserver, undo: [FunctionID?]) -> Bool {
        guard let method = registration.method, let body = analysis.outline[method].scope else { return true }
        let source = analysis.source
        let bodyRange = analysis.outline[body].body
        let open = analysis.outline[body].open
        let assigned = Set(analysis.assignments(in: bodyRange).compactMap { analysis.chainNames($0.lhs).last }
            .map { source.nameHash($0) })
        func isStateCheck(_ condition: Range<Int>) -> Bool {
            condition.contains { index in
                source.isWord(index, "nil") || source.kind(index) == .identifier && assigned.contains(source.nameHash(index))
            }
        }
        for scope in analysis.outline.enclosingScopes(from: analysis.outline.scope(at: registration.callee), before: body) {
            if case .block(let keyword) = analysis.outline[scope].kind,
               source.wordIndex(keyword, in: ["if", "guard", "else"]) != nil {
                let condition = source.isWord(keyword, "else")
                    ? ExpressionBounds.guardKeyword(source, ofElse: keyword).map { ($0 + 1)..<keyword }
                    : (keyword + 1)..<analysis.outline[scope].open
                // An `else` of an `if` is a branch of a condition the rule cannot see here.
                guard let condition else { return true }
                if isStateCheck(condition) { return true }
            }
        }
        for index in open..<registration.callee where source.isWord(index, "guard") {
            guard analysis.outline.scope(at: index) == body else { continue }
            var elseToken = index + 1
            while elseToken < registration.callee, !(source.isWord(elseToken, "else") && source.kind(elseToken + 1) == .leftBrace) {
                if let close = source.partnerIndex(elseToken), close > elseToken { elseToken = close }
                elseToken += 1
            }
            if isStateCheck((index + 1)..<elseToken) { return true }
        }
        return undo.contains(method)
    }

    /// Whether the type also registers the same names on appear.
    func isReAddedOnAppear(_ analysis: FileAnalysis, _ registration: RegisteredObserver, _ typeName: String) -> Bool {
        let keys = Set(registration.keys)
        if !analysis.project.observerFacts(of: typeName).appearKeys.isDisjoint(with: keys) { return true }
        return analysis.observers.registered.contains { other in
            analysis.typeName(ofType: other.type) == typeName
                && analysis.observers.phases(ofMethod: other.method).contains(where: \.isAppear)
                && !Set(other.keys).isDisjoint(with: keys)
        }
    }
}
