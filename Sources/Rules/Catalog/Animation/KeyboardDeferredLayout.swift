import Lexer

/// Layout changes made inside the notification ride on the keyboard's animation; later ones don't.
public struct KeyboardDeferredLayout: Rule {
    public static let metadata = RuleMetadata(
        id: "keyboard_deferred_layout",
        category: .animation,
        defaultSeverity: .warning,
        summary: "A keyboard handler defers its layout work to a later run-loop turn or task.",
        rationale: """
        UIKit posts keyboard `will` notifications inside the keyboard's animation transaction: layout changed \
        synchronously in the handler animates with the keyboard. Work moved behind `DispatchQueue.main.async`, \
        `asyncAfter`, a `Task`, `Task.sleep` or a Combine `receive(on:)`/`delay`/`debounce` runs after that \
        transaction, so the view jumps or lags behind the keyboard.
        """,
        fix: "Do the layout synchronously in the handler; keep only non-layout work (logging, analytics) deferred.",
        noFixReason: "Making the deferred work synchronous changes when it runs, and the deferral may be there on purpose (waiting for a layout pass, a hop to the main actor); which statements are layout and which may stay deferred is the author's call.",
        triggering: [
            RuleExample("""
            final class LoginViewController: UIViewController {
                @objc func keyboardWillShow(_ notification: Notification) {
                    DispatchQueue.main.↓async {
                        self.bottomConstraint.constant = 280
                        self.view.layoutIfNeeded()
                    }
                }
            }
            """),
            RuleExample("""
            final class ComposerViewController: UIViewController {
                func observe() {
                    token = NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillHideNotification, object: nil, queue: .main) { [weak self] _ in
                        DispatchQueue.main.↓asyncAfter(deadline: .now() + 0.1) {
                            self?.scrollView.contentInset.bottom = 0
                        }
                    }
                }
            }
            """),
            RuleExample("""
            final class SearchViewController: UIViewController {
                func bind() {
                    NotificationCenter.default.publisher(for: UIResponder.keyboardWillChangeFrameNotification)
                        .↓receive(on: DispatchQueue.main)
                        .sink { [weak self] _ in self?.view.setNeedsLayout() }
                        .store(in: &bag)
                }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    ↓Task { @MainActor in
                        self.inputBar.frame.origin.y = 400
                    }
                }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                func watchKeyboard() async {
                    for await _ in NotificationCenter.default.notifications(named: UIResponder.keyboardWillHideNotification) {
                        try? await Task.↓sleep(nanoseconds: 50_000_000)
                        inputBarBottom.constant = 0
                    }
                }
            }
            """),
        ],
        nonTriggering: [
            RuleExample("""
            final class LoginViewController: UIViewController {
                @objc func keyboardWillShow(_ notification: Notification) {
                    bottomConstraint.constant = 280
                    view.layoutIfNeeded()
                }
            }
            """),
            RuleExample("""
            final class LoginViewController: UIViewController {
                @objc func keyboardWillShow(_ notification: Notification) {
                    bottomConstraint.constant = 280
                    DispatchQueue.main.async { analytics.log("keyboard shown") }
                }
            }
            """),
            RuleExample("""
            final class LoginViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    DispatchQueue.main.async { self.view.layoutIfNeeded() }
                }
            }
            """),
            RuleExample("""
            final class SearchViewController: UIViewController {
                func bind() {
                    NotificationCenter.default.publisher(for: UIResponder.keyboardWillChangeFrameNotification)
                        .sink { [weak self] _ in self?.view.setNeedsLayout() }
                        .store(in: &bag)
                }
            }
            """),
            RuleExample("""
            final class SearchViewController: UIViewController {
                func bind() {
                    NotificationCenter.default.publisher(for: UIResponder.keyboardDidShowNotification)
                        .debounce(for: .seconds(1), scheduler: RunLoop.main)
                        .sink { _ in logger.info("keyboard settled") }
                        .store(in: &bag)
                }
            }
            """),
            RuleExample("""
            final class LoginViewController: UIViewController {
                @objc func keyboardWillHide(_ notification: Notification) {
                    UIView.animate(withDuration: 0.25) { self.view.layoutIfNeeded() }
                    Task { await store.save() }
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
        var layout: [(index: Int, what: String)] = []
        for assignment in analysis.handlerAssignments where analysis.layoutSink(of: assignment) != nil {
            layout.append((assignment.lhs.lowerBound, analysis.snippet(assignment.lhs)))
        }
        for call in analysis.calls where source.isWord(call.callee, "layoutIfNeeded") || source.isWord(call.callee, "setNeedsLayout") {
            if analysis.isInKeyboardHandler(call.callee) { layout.append((call.callee, "\(source.text(at: call.callee))()")) }
        }
        var reported = Set<Int>()
        var diagnostics: [Diagnostic] = []
        for (index, what) in layout.sorted(by: { $0.index < $1.index }) {
            guard let deferral = analysis.deferral(at: index), reported.insert(deferral).inserted else { continue }
            let name = source.text(at: deferral)
            diagnostics.append(Self.metadata.diagnostic(
                analysis, at: deferral..<(deferral + 1),
                message: "`\(what)` runs after `\(name)`, outside the keyboard's animation: the layout jumps or lags behind the keyboard",
                suggestion: "Make the layout change synchronously in the keyboard handler; defer only work that is not layout."))
        }
        return diagnostics
    }
}
