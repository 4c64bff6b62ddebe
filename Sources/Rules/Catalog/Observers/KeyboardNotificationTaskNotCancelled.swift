import Lexer

/// A `for await` over keyboard notifications never ends by itself.
public struct KeyboardNotificationTaskNotCancelled: Rule {
    public static let metadata = RuleMetadata(
        id: "keyboard_notification_task_not_cancelled",
        category: .observers,
        defaultSeverity: .warning,
        summary: "An unstructured `Task` loops over keyboard notifications and is never cancelled.",
        rationale: """
        The async sequence of `NotificationCenter.default.notifications(named:)` never finishes: a \
        `for await` loop over it ends only when its task is cancelled. A `Task { … }` whose handle is thrown \
        away, or kept and never cancelled, keeps looping after the screen is gone, keeps everything the loop \
        uses (usually `self`) alive, and adds another loop each time the code runs again.
        """,
        fix: "Keep the task in a property and call `cancel()` on it when the screen goes away (`viewWillDisappear`/`viewDidDisappear`, or `deinit` when the loop holds `self` weakly); in SwiftUI use the `.task { }` modifier, which cancels for you.",
        noFixReason: "Cancelling needs a new stored property for the task and a `cancel()` call on the screen's teardown path, which may not exist (a new `viewWillDisappear` override) or may be `deinit`, which never runs while the loop holds `self`; choosing it is judgment.",
        triggering: [
            RuleExample("""
            final class ChatViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    ↓Task {
                        for await note in NotificationCenter.default.notifications(named: UIResponder.keyboardWillShowNotification) {
                            self.keyboardWillShow(note)
                        }
                    }
                }
            }
            """),
            RuleExample("""
            final class ComposerViewController: UIViewController {
                private var keyboardTask: Task<Void, Never>?
                override func viewWillAppear(_ animated: Bool) {
                    super.viewWillAppear(animated)
                    keyboardTask = ↓Task { [weak self] in
                        for await _ in NotificationCenter.default.notifications(named: UIResponder.keyboardWillHideNotification) {
                            self?.resetInsets()
                        }
                    }
                }
                override func viewWillDisappear(_ animated: Bool) {
                    super.viewWillDisappear(animated)
                    keyboardTask = nil
                }
            }
            """),
            RuleExample("""
            final class SearchView: UIView {
                func startObserving() {
                    _ = ↓Task.detached { @MainActor [weak self] in
                        for await note in NotificationCenter.default.notifications(named: UIResponder.keyboardWillChangeFrameNotification) {
                            self?.move(with: note)
                        }
                    }
                }
            }
            """),
            RuleExample("""
            final class NotesViewController: UIViewController {
                private var tasks: [Task<Void, Never>] = []
                override func viewDidLoad() {
                    super.viewDidLoad()
                    tasks.append(↓Task {
                        for await _ in NotificationCenter.default.notifications(named: UIResponder.keyboardDidShowNotification) {
                            self.textView.flashScrollIndicators()
                        }
                    })
                }
            }
            """),
        ],
        nonTriggering: [
            RuleExample("""
            final class ChatViewController: UIViewController {
                private var keyboardTask: Task<Void, Never>?
                override func viewWillAppear(_ animated: Bool) {
                    super.viewWillAppear(animated)
                    keyboardTask = Task { [weak self] in
                        for await note in NotificationCenter.default.notifications(named: UIResponder.keyboardWillShowNotification) {
                            self?.keyboardWillShow(note)
                        }
                    }
                }
                override func viewWillDisappear(_ animated: Bool) {
                    super.viewWillDisappear(animated)
                    keyboardTask?.cancel()
                }
            }
            """),
            RuleExample("""
            struct KeyboardHeightView: View {
                @State private var height: CGFloat = 0
                var body: some View {
                    Color.clear.task {
                        for await note in NotificationCenter.default.notifications(named: UIResponder.keyboardWillShowNotification) {
                            height = (note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect)?.height ?? 0
                        }
                    }
                }
            }
            """),
            RuleExample("""
            final class NotesViewController: UIViewController {
                private var tasks: [Task<Void, Never>] = []
                override func viewDidLoad() {
                    super.viewDidLoad()
                    tasks.append(Task { [weak self] in
                        for await _ in NotificationCenter.default.notifications(named: UIResponder.keyboardDidShowNotification) {
                            self?.textView.flashScrollIndicators()
                        }
                    })
                }
                deinit { tasks.forEach { $0.cancel() } }
            }
            """),
            RuleExample("""
            final class KeyboardWatcher {
                func watch() async {
                    for await note in NotificationCenter.default.notifications(named: UIResponder.keyboardWillHideNotification) {
                        handle(note)
                    }
                }
            }
            """),
            RuleExample("""
            final class SyncViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    Task {
                        for await _ in NotificationCenter.default.notifications(named: UIApplication.didBecomeActiveNotification) {
                            await self.sync()
                        }
                    }
                }
            }
            """),
            RuleExample("""
            final class FormViewController: UIViewController {
                func observeKeyboard() -> Task<Void, Never> {
                    return Task { [weak self] in
                        for await note in NotificationCenter.default.notifications(named: UIResponder.keyboardWillShowNotification) {
                            self?.adjust(note)
                        }
                    }
                }
            }
            """),
        ]
    )

    public init() {}

    public func check(_ context: RuleContext) -> [Diagnostic] {
        let analysis = context.analysis
        guard analysis.mentionsKeyboard else { return [] }
        let source = analysis.source
        var diagnostics: [Diagnostic] = []
        for task in analysis.observers.tasks {
            let registration = analysis.observers.registered[task.registration]
            let what = "`\(source.text(at: task.task))` looping over `notifications(named: \(analysis.observedName(registration).filter { $0 != "`" }))`"
            let problem: String
            switch task.result {
            case .discarded, .storedInLocal:
                problem = "its handle is not kept, so it can never be cancelled"
            case .storedInProperty(let property, _):
                guard let typeName = analysis.typeName(ofType: registration.type),
                      !Self.cancelledNames(analysis, typeName).contains(source.nameHash(property)) else { continue }
                problem = "it is kept in `\(source.text(at: property))` but never cancelled (setting the property to nil does not cancel a task)"
            case .passedOn:
                continue
            }
            diagnostics.append(Self.metadata.diagnostic(
                analysis, at: analysis.tokenRange(task.task),
                message: "\(what) never ends: \(problem); the loop keeps running and keeps what it uses alive",
                suggestion: "Keep the task in a property and call `cancel()` on it when the screen goes away (e.g. viewWillDisappear).",
                related: [analysis.relatedLocation(at: registration.callee, "notification sequence here")]))
        }
        return diagnostics
    }

    /// Name hashes of the values `cancel()` is called on in type `typeName` (this file):
    /// the receiver of `x.cancel()`, and the receiver of a `forEach { $0.cancel() }`.
    static func cancelledNames(_ analysis: FileAnalysis, _ typeName: String) -> Set<UInt64> {
        let source = analysis.source
        var names = Set<UInt64>()
        for call in analysis.calls where source.isWord(call.callee, "cancel") && call.arguments.isEmpty {
            guard analysis.typeName(at: call.callee) == typeName else { continue }
            var receivers: [Range<Int>] = []
            if let receiver = call.receiver { receivers.append(receiver) }
            if let scope = analysis.outline.scope(at: call.callee),
               case .closure(let closure) = analysis.outline[scope].kind,
               let outer = analysis.outline[closure].call, let receiver = analysis.calls[outer].receiver {
                receivers.append(receiver)
            }
            for receiver in receivers {
                for name in analysis.chainNames(receiver) where source.kind(name) == .identifier {
                    names.insert(source.nameHash(name))
                }
            }
        }
        return names
    }
}
