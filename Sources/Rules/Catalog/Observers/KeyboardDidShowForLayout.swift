import Lexer

/// `Did` notifications arrive after the keyboard has finished moving.
public struct KeyboardDidShowForLayout: Rule {
    public static let metadata = RuleMetadata(
        id: "keyboard_did_show_for_layout",
        category: .observers,
        defaultSeverity: .warning,
        summary: "Layout is changed in a `keyboardDid…` handler, after the keyboard has finished moving.",
        rationale: """
        `keyboardDidShowNotification`, `keyboardDidHideNotification` and `keyboardDidChangeFrameNotification` \
        are posted once the keyboard's animation is over. Insets, constraints or frames changed there are not \
        part of the keyboard's animation: the keyboard first covers the content, then the content jumps into \
        place (or jumps back down after the keyboard has gone).
        """,
        fix: "Observe the matching `keyboardWill…Notification` (show, hide or change frame) for layout; keep `Did` handlers for work that must wait, such as `flashScrollIndicators()` or `scrollRectToVisible(_:animated:)`.",
        fixAvailability: .unsafe,
        triggering: [
            RuleExample("""
            final class FormViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.↓addObserver(self, selector: #selector(keyboardDidShow(_:)),
                                                           name: UIResponder.keyboardDidShowNotification, object: nil)
                }
                @objc func keyboardDidShow(_ notification: Notification) {
                    guard let frame = notification.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    scrollView.contentInset.bottom = view.convert(frame, from: nil).height
                }
            }
            """),
            RuleExample("""
            final class ComposerViewController: UIViewController {
                private var token: NSObjectProtocol?
                override func viewDidLoad() {
                    super.viewDidLoad()
                    token = NotificationCenter.default.↓addObserver(forName: UIResponder.keyboardDidHideNotification, object: nil, queue: .main) { [weak self] _ in
                        self?.composerBottom.constant = 0
                        self?.view.layoutIfNeeded()
                    }
                }
            }
            """),
            RuleExample("""
            final class NotesViewController: UIViewController {
                private var cancellables = Set<AnyCancellable>()
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.↓publisher(for: UIResponder.keyboardDidChangeFrameNotification)
                        .sink { [weak self] note in self?.relayout(note) }
                        .store(in: &cancellables)
                }
                private func relayout(_ note: Notification) {
                    textView.frame.size.height = view.bounds.height - 300
                }
            }
            """),
            RuleExample("""
            final class LegacyViewController: UIViewController {
                func register() {
                    NotificationCenter.default.↓addObserver(self, selector: #selector(keyboardShown(_:)), name: NSNotification.Name.UIKeyboardDidShow, object: nil)
                }
                @objc func keyboardShown(_ note: Notification) {
                    updateInsets()
                }
                func updateInsets() {
                    tableView.setNeedsLayout()
                }
            }
            """),
        ],
        nonTriggering: [
            RuleExample("""
            final class FormViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillShow(_:)),
                                                           name: UIResponder.keyboardWillShowNotification, object: nil)
                }
                @objc func keyboardWillShow(_ notification: Notification) {
                    guard let frame = notification.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    scrollView.contentInset.bottom = view.convert(frame, from: nil).height
                }
            }
            """),
            RuleExample("""
            final class ListViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardDidShow(_:)),
                                                           name: UIResponder.keyboardDidShowNotification, object: nil)
                }
                @objc func keyboardDidShow(_ notification: Notification) {
                    tableView.flashScrollIndicators()
                    if let field = activeField { scrollView.scrollRectToVisible(field.frame, animated: true) }
                }
            }
            """),
            RuleExample("""
            final class SearchViewController: UIViewController {
                private var token: NSObjectProtocol?
                override func viewDidLoad() {
                    super.viewDidLoad()
                    token = NotificationCenter.default.addObserver(forName: UIResponder.keyboardDidHideNotification, object: nil, queue: .main) { [weak self] _ in
                        self?.isKeyboardVisible = false
                        self?.analytics.log("keyboard hidden")
                    }
                }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardDidShow(_:)),
                                                           name: UIResponder.keyboardDidShowNotification, object: nil)
                }
                @objc func keyboardDidShow(_ notification: Notification) {
                    collectionView.contentOffset.y = collectionView.contentSize.height - collectionView.bounds.height
                }
            }
            """),
            RuleExample("""
            final class InputViewController: UIViewController {
                func register() {
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardChanged(_:)), name: UIResponder.keyboardWillChangeFrameNotification, object: nil)
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardChanged(_:)), name: UIResponder.keyboardDidChangeFrameNotification, object: nil)
                }
                @objc func keyboardChanged(_ note: Notification) {
                    bottomConstraint.constant = 100
                }
            }
            """),
            RuleExample("""
            final class KeyboardTestsDouble: XCTestCase {
                func testPost() {
                    NotificationCenter.default.post(name: UIResponder.keyboardDidShowNotification, object: nil)
                    view.frame.origin.y = 0
                }
            }
            """),
        ],
        corrections: [
            RuleCorrection("""
            final class FormViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.↓addObserver(self, selector: #selector(keyboardDidShow(_:)),
                                                           name: UIResponder.keyboardDidShowNotification, object: nil)
                }
                @objc func keyboardDidShow(_ notification: Notification) {
                    guard let frame = notification.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    scrollView.contentInset.bottom = view.convert(frame, from: nil).height
                    scrollView.verticalScrollIndicatorInsets.bottom = scrollView.contentInset.bottom
                }
            }
            """, """
            final class FormViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardDidShow(_:)),
                                                           name: UIResponder.keyboardWillShowNotification, object: nil)
                }
                @objc func keyboardDidShow(_ notification: Notification) {
                    guard let frame = notification.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    scrollView.contentInset.bottom = view.convert(frame, from: nil).height
                    scrollView.verticalScrollIndicatorInsets.bottom = scrollView.contentInset.bottom
                }
            }
            """),
        ]
    )

    public init() {}

    public func check(_ context: RuleContext) -> [Diagnostic] {
        let analysis = context.analysis
        guard analysis.mentionsKeyboard else { return [] }
        let layout = analysis.layoutWorkByRootHandler()
        guard !layout.isEmpty else { return [] }
        var diagnostics: [Diagnostic] = []
        for registration in analysis.observers.registered where registration.isKeyboard && !registration.onLocalCenter {
            let events = registration.events
            guard events.allSatisfy({ !$0.isWill }) else { continue }
            for root in analysis.handlers(of: registration) {
                // A handler also registered for a `Will` notification lays out there already.
                guard !analysis.handlers[root].events.contains(where: \.isWill), let sink = layout[root] else { continue }
                let what = analysis.layoutDescription(at: sink)
                diagnostics.append(Self.metadata.diagnostic(
                    analysis, at: analysis.tokenRange(registration.callee),
                    message: "The \(analysis.observedName(registration)) handler changes layout (\(what), line \(analysis.line(of: sink))) after the keyboard has finished moving: the content jumps",
                    suggestion: "Do the layout in a handler of the matching `keyboardWill…Notification`.",
                    fix: Self.willNotificationFix(registration, analysis),
                    related: [analysis.relatedLocation(at: sink, "layout changed here")]))
                break
            }
        }
        // Project wrappers (`keyboard.on(.didShow) { … }`): reported at the wrapper's call.
        for (index, handler) in analysis.handlers.enumerated() where handler.form == .wrapperEvent {
            guard let registration = handler.registration, !handler.events.isEmpty,
                  handler.events.allSatisfy({ !$0.isWill }), let sink = layout[index] else { continue }
            let events = handler.events.map { "`.\(KeyboardVocabulary.wrapperEvents[$0.rawValue])`" }.joined(separator: "/")
            diagnostics.append(Self.metadata.diagnostic(
                analysis, at: analysis.tokenRange(registration),
                message: "The \(events) handler changes layout (\(analysis.layoutDescription(at: sink)), line \(analysis.line(of: sink))) after the keyboard has finished moving: the content jumps",
                suggestion: "Do the layout in the wrapper's matching `will…` event.",
                related: [analysis.relatedLocation(at: sink, "layout changed here")]))
        }
        return diagnostics.sorted { $0.range.lowerBound < $1.range.lowerBound }
    }

    /// The registration's one `Did` notification name respelled `Will`
    /// (`keyboardDidShowNotification`, `UIKeyboardDidShow`, `.keyboardDidHide`). Unsafe: the
    /// whole handler then runs before the keyboard moves, including work that waited for it.
    static func willNotificationFix(_ registration: RegisteredObserver, _ analysis: FileAnalysis) -> Fix? {
        let source = analysis.source
        guard registration.kind != .typedMessage, let name = registration.name else { return nil }
        let didNames = name.filter { index in
            source.kind(index) == .identifier
                && ["keyboardDid", "UIKeyboardDid"].contains { source.text(at: index).hasPrefix($0) }
        }
        guard didNames.count == 1, let token = didNames.first else { return nil }
        let text = source.text(at: token)
        let prefix = text.hasPrefix("UI") ? "UIKeyboard" : "keyboard"
        let replacement = prefix + "Will" + text.dropFirst(prefix.count + "Did".count)
        return Fix(.unsafe, edits: [Edit(range: source.byteRange(token..<(token + 1)), replacement: replacement)])
    }
}
