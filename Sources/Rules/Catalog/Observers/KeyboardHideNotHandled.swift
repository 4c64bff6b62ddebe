import Lexer

/// Layout moved for the keyboard must move back when it goes away.
public struct KeyboardHideNotHandled: Rule {
    public static let metadata = RuleMetadata(
        id: "keyboard_hide_not_handled",
        category: .observers,
        defaultSeverity: .warning,
        summary: "A type changes layout when the keyboard shows but never observes it hiding or changing frame.",
        rationale: """
        A handler of `keyboardWillShowNotification`/`keyboardDidShowNotification` that raises an inset, a \
        constraint or a frame leaves it raised when the keyboard goes away unless something observes the \
        hide (or frame-change) notification: the content stays pushed up over an empty gap, and an undocked \
        or hardware keyboard never sends another show to fix it.
        """,
        fix: "Also observe `keyboardWillHideNotification` and restore the layout there, or observe `keyboardWillChangeFrameNotification` alone and compute the overlap each time.",
        noFixReason: "Restoring the layout on hide needs the layout the show handler changed and the value it had before; kblint cannot write that handler.",
        triggering: [
            RuleExample("""
            final class LoginViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.↓addObserver(self, selector: #selector(keyboardWillShow(_:)),
                                                           name: UIResponder.keyboardWillShowNotification, object: nil)
                }
                @objc func keyboardWillShow(_ notification: Notification) {
                    guard let frame = notification.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    scrollView.contentInset.bottom = view.convert(frame, from: nil).height
                }
            }
            """),
            RuleExample("""
            final class ComposerView: UIView {
                private var token: NSObjectProtocol?
                func start() {
                    token = NotificationCenter.default.↓addObserver(forName: UIResponder.keyboardWillShowNotification, object: nil, queue: .main) { [weak self] _ in
                        self?.bottomConstraint.constant = 260
                        self?.layoutIfNeeded()
                    }
                }
            }
            """),
            RuleExample("""
            final class NotesViewController: UIViewController {
                private var cancellables = Set<AnyCancellable>()
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.↓publisher(for: UIResponder.keyboardDidShowNotification)
                        .sink { [weak self] note in self?.raise(note) }
                        .store(in: &cancellables)
                }
                private func raise(_ note: Notification) {
                    view.frame.origin.y = -120
                }
            }
            """),
            RuleExample("""
            final class LegacyFormViewController: UIViewController {
                func register() {
                    NotificationCenter.default.↓addObserver(self, selector: #selector(keyboardShown(_:)), name: NSNotification.Name.UIKeyboardWillShow, object: nil)
                }
                @objc func keyboardShown(_ note: Notification) {
                    tableView.contentInset = UIEdgeInsets(top: 0, left: 0, bottom: 300, right: 0)
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
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillHide(_:)),
                                                           name: UIResponder.keyboardWillHideNotification, object: nil)
                }
                @objc func keyboardWillShow(_ notification: Notification) { scrollView.contentInset.bottom = 300 }
                @objc func keyboardWillHide(_ notification: Notification) { scrollView.contentInset.bottom = 0 }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillShow(_:)),
                                                           name: UIResponder.keyboardWillShowNotification, object: nil)
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillShow(_:)),
                                                           name: UIResponder.keyboardWillChangeFrameNotification, object: nil)
                }
                @objc func keyboardWillShow(_ notification: Notification) { composerBottom.constant = 300 }
            }
            """),
            RuleExample("""
            final class SearchViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillShow(_:)),
                                                           name: UIResponder.keyboardWillShowNotification, object: nil)
                }
                @objc func keyboardWillShow(_ notification: Notification) {
                    isKeyboardVisible = true
                    analytics.log("keyboard")
                }
            }
            """),
            RuleExample("""
            final class GuideViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    inputBar.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillShow(_:)),
                                                           name: UIResponder.keyboardWillShowNotification, object: nil)
                }
                @objc func keyboardWillShow(_ notification: Notification) {
                    UIView.animate(withDuration: 0.25) { self.view.layoutIfNeeded() }
                }
            }
            """),
            RuleExample("""
            final class ProfileViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillShow(_:)),
                                                           name: UIResponder.keyboardWillShowNotification, object: nil)
                }
                @objc func keyboardWillShow(_ notification: Notification) { scrollView.contentInset.bottom = 280 }
            }
            """, files: ["ProfileViewController+Keyboard.swift": """
            extension ProfileViewController {
                func observeHide() {
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillHide(_:)),
                                                           name: UIResponder.keyboardWillHideNotification, object: nil)
                }
                @objc func keyboardWillHide(_ notification: Notification) { scrollView.contentInset.bottom = 0 }
            }
            """]),
            RuleExample("""
            extension UIViewController {
                func observeKeyboardShow() -> NSObjectProtocol {
                    return NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillShowNotification, object: nil, queue: .main) { [weak self] _ in
                        self?.view.setNeedsLayout()
                    }
                }
            }
            """),
            RuleExample("""
            final class BoardViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    [UIResponder.keyboardWillShowNotification, UIResponder.keyboardWillHideNotification].forEach {
                        NotificationCenter.default.addObserver(self, selector: #selector(keyboardChanged(_:)), name: $0, object: nil)
                    }
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardShown(_:)),
                                                           name: UIResponder.keyboardDidShowNotification, object: nil)
                }
                @objc func keyboardShown(_ notification: Notification) { view.setNeedsLayout() }
            }
            """),
        ]
    )

    public init() {}

    /// Events whose observation restores or recomputes the layout.
    static let restoringEvents: Set<KeyboardEvent> = [.willHide, .didHide, .willChangeFrame, .didChangeFrame]

    public func check(_ context: RuleContext) -> [Diagnostic] {
        let analysis = context.analysis
        guard analysis.mentionsKeyboard else { return [] }
        let layout = analysis.layoutWorkByRootHandler()
        guard !layout.isEmpty else { return [] }
        let restoringTypes = Self.typesWithRestoringHandlers(analysis)
        var diagnostics: [Diagnostic] = []
        for registration in analysis.observers.registered where registration.isKeyboard && !registration.onLocalCenter {
            guard registration.events.contains(where: \.isShow),
                  let typeName = analysis.typeName(ofType: registration.type),
                  // A helper in an extension of a UIKit type serves types the rule cannot see.
                  analysis.project.types.declaration(of: typeName)?.isDeclared ?? false,
                  !analysis.project.usesKeyboardLayoutGuide(typeName),
                  !restoringTypes.contains(typeName), !Self.projectHandlesRestore(analysis, typeName) else { continue }
            for root in analysis.handlers(of: registration) {
                guard let sink = layout[root] else { continue }
                let what = analysis.layoutDescription(at: sink)
                diagnostics.append(Self.metadata.diagnostic(
                    analysis, at: analysis.tokenRange(registration.callee),
                    message: "\(typeName) changes layout for \(analysis.observedName(registration)) (\(what), line \(analysis.line(of: sink))) but never observes the keyboard hiding or changing frame: the layout is never restored",
                    suggestion: "Also observe `keyboardWillHideNotification` and restore the layout there (or handle `keyboardWillChangeFrameNotification` alone).",
                    related: [analysis.relatedLocation(at: sink, "layout changed here")]))
                break
            }
        }
        return diagnostics
    }

    /// Whether the type or its project superclasses observe hiding or frame changes.
    static func projectHandlesRestore(_ analysis: FileAnalysis, _ typeName: String) -> Bool {
        ([typeName] + analysis.project.superclasses(of: typeName)).contains { name in
            !analysis.project.observerFacts(of: name).keyboardEventsMentioned.isDisjoint(with: restoringEvents)
        }
    }

    /// The types whose handlers in this file deal with hiding or frame changes, gathered once
    /// rather than searched for each registration.
    static func typesWithRestoringHandlers(_ analysis: FileAnalysis) -> Set<String> {
        Set(analysis.handlers.lazy.filter { handler in
            handler.events.contains { restoringEvents.contains($0) }
        }.compactMap { analysis.typeName(at: analysis.outline[$0.scope].open) })
    }
}
