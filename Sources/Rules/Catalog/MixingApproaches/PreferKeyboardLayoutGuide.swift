import Lexer

/// From iOS 15.4 the keyboard layout guide does reliably what keyboard observers do by hand.
public struct PreferKeyboardLayoutGuide: Rule {
    static let minimumVersion = OSVersion(15, 4)

    public static let metadata = RuleMetadata(
        id: "prefer_keyboard_layout_guide",
        category: .mixingApproaches,
        defaultSeverity: .warning,
        summary: "Keyboard notifications drive layout although the deployment target has a reliable keyboard layout guide.",
        rationale: """
        Hand-written keyboard handlers must convert the frame, subtract the safe area, copy the animation curve \
        and cope with floating, split and hardware keyboards, Slide Over and Stage Manager, where notifications \
        arrive late or not at all; most get one of these wrong. From iOS 15.4 `view.keyboardLayoutGuide` tracks \
        every keyboard inside its animation with one constraint (iOS 15.0–15.3 had guide bugs, so older targets \
        are left alone; the rule is silent when the target is unknown).
        """,
        fix: "Pin the content to `view.keyboardLayoutGuide.topAnchor` and delete the observer and its handler; keep a handler only for work that is not layout.",
        noFixReason: "Migrating to the guide means new constraints for the content and deleting the observer and its handler: the constraint targets and what the handler did besides layout are not known from the code.",
        minimumTarget: minimumVersion,
        triggering: [
            RuleExample("""
            final class SignInViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.↓addObserver(self, selector: #selector(keyboardWillShow(_:)),
                                                           name: UIResponder.keyboardWillShowNotification, object: nil)
                }
                @objc private func keyboardWillShow(_ notification: Notification) {
                    guard let frame = notification.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    scrollView.contentInset.bottom = view.convert(frame, from: nil).height - view.safeAreaInsets.bottom
                }
            }
            """, deploymentTarget: OSVersion(16)),
            RuleExample("""
            final class ComposeViewController: UIViewController {
                @IBOutlet private var bottomConstraint: NSLayoutConstraint!
                func startObserving() {
                    token = NotificationCenter.default.↓addObserver(forName: UIResponder.keyboardWillChangeFrameNotification, object: nil, queue: .main) { [weak self] note in
                        self?.follow(note)
                    }
                }
                private func follow(_ note: Notification) {
                    guard let end = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    bottomConstraint.constant = view.bounds.maxY - view.convert(end, from: nil).minY
                    UIView.animate(withDuration: 0.25) { self.view.layoutIfNeeded() }
                }
            }
            """, deploymentTarget: OSVersion(15, 4)),
            RuleExample("""
            final class SearchViewController: UIViewController {
                func bind() {
                    NotificationCenter.default.↓publisher(for: UIResponder.keyboardWillHideNotification)
                        .sink { [weak self] _ in self?.resultsView.frame.size.height = self?.view.bounds.height ?? 0 }
                        .store(in: &bag)
                }
            }
            """, deploymentTarget: OSVersion(17)),
            RuleExample("""
            final class MessagesViewController: UIViewController {
                func observe(on screen: UIScreen) {
                    observation = NotificationCenter.default.↓addObserver(of: screen, for: .keyboardWillShow) { [weak self] message in
                        self?.composerBottom.constant = -message.endFrame.height
                    }
                }
            }
            """, deploymentTarget: OSVersion(26)),
            RuleExample("""
            final class LegacyFormViewController: UIViewController {
                let keyboardLayoutGuide = UILayoutGuide()
                var guideHeight: NSLayoutConstraint!
                override func viewDidLoad() {
                    super.viewDidLoad()
                    form.bottomAnchor.constraint(equalTo: keyboardLayoutGuide.topAnchor).isActive = true
                    NotificationCenter.default.↓addObserver(self, selector: #selector(keyboardWillChangeFrame(_:)),
                                                           name: UIResponder.keyboardWillChangeFrameNotification, object: nil)
                }
                @objc func keyboardWillChangeFrame(_ note: Notification) {
                    guard let end = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    guideHeight.constant = view.convert(end, from: nil).height
                }
            }
            """, deploymentTarget: OSVersion(16)),
            RuleExample("""
            import KeyboardLayoutGuide

            final class BackportedChatViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    composer.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                    NotificationCenter.default.↓addObserver(self, selector: #selector(keyboardWillShow(_:)),
                                                           name: UIResponder.keyboardWillShowNotification, object: nil)
                }
                @objc func keyboardWillShow(_ note: Notification) {
                    tableView.contentInset.bottom = composer.frame.height
                }
            }
            """, deploymentTarget: OSVersion(16)),
            RuleExample("""
            final class ComposerKeyboardBinder {
                private var callbacks: [KeyboardEvent: (KeyboardNotification) -> Void] = [:]
                func bind(_ composer: UIView, bottom: NSLayoutConstraint) {
                    ↓callbacks[.willChangeFrame] = { [weak composer] notification in
                        bottom.constant = -notification.endFrame.height
                        composer?.superview?.layoutIfNeeded()
                    }
                }
            }
            """, deploymentTarget: OSVersion(17)),
        ],
        nonTriggering: [
            RuleExample("""
            final class SignInViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillShow(_:)),
                                                           name: UIResponder.keyboardWillShowNotification, object: nil)
                }
                @objc private func keyboardWillShow(_ notification: Notification) {
                    guard let frame = notification.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    scrollView.contentInset.bottom = view.convert(frame, from: nil).height - view.safeAreaInsets.bottom
                }
            }
            """),
            RuleExample("""
            final class SignInViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillShow(_:)),
                                                           name: UIResponder.keyboardWillShowNotification, object: nil)
                }
                @objc private func keyboardWillShow(_ notification: Notification) {
                    guard let frame = notification.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    scrollView.contentInset.bottom = view.convert(frame, from: nil).height - view.safeAreaInsets.bottom
                }
            }
            """, deploymentTarget: OSVersion(15, 2)),
            RuleExample("""
            final class PlayerViewController: UIViewController {
                private var isKeyboardVisible = false
                func observe() {
                    showToken = NotificationCenter.default.addObserver(forName: UIResponder.keyboardDidShowNotification, object: nil, queue: .main) { [weak self] _ in
                        self?.isKeyboardVisible = true
                        Analytics.log("keyboard_shown")
                    }
                }
            }
            """, deploymentTarget: OSVersion(16)),
            RuleExample("""
            final class NoteViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    textView.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillShow(_:)),
                                                           name: UIResponder.keyboardWillShowNotification, object: nil)
                }
                @objc func keyboardWillShow(_ note: Notification) {
                    textView.contentInset.bottom = 0
                }
            }
            """, deploymentTarget: OSVersion(16)),
            RuleExample("""
            final class ThreadViewController: UIViewController {
                func observe() {
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardDidShow(_:)),
                                                           name: UIResponder.keyboardDidShowNotification, object: nil)
                }
                @objc func keyboardDidShow(_ note: Notification) {
                    tableView.scrollRectToVisible(lastRowFrame, animated: true)
                    tableView.contentOffset.y = tableView.contentSize.height - tableView.bounds.height
                }
            }
            """, deploymentTarget: OSVersion(16)),
            RuleExample("""
            final class ReplyViewController: UIViewController {
                func observe() {
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillHide(_:)),
                                                           name: UIResponder.keyboardWillHideNotification, object: nil)
                }
                @objc func keyboardWillHide(_ note: Notification) {
                    composer.frame.origin.y = view.bounds.height - composer.frame.height
                }
            }
            """, deploymentTarget: OSVersion(16), files: ["ReplyViewController+Layout.swift": """
            extension ReplyViewController {
                func pinList() {
                    list.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                }
            }
            """]),
            RuleExample("""
            final class GroupChatViewController: ChatViewController {
                func observe() {
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillShow(_:)),
                                                           name: UIResponder.keyboardWillShowNotification, object: nil)
                }
                @objc func keyboardWillShow(_ note: Notification) {
                    membersBanner.frame.origin.y = 0
                }
            }
            """, deploymentTarget: OSVersion(16), files: ["ChatViewController.swift": """
            class ChatViewController: UIViewController {
                func pin() { composer.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true }
            }
            """]),
            RuleExample("""
            final class KeyboardObserver {
                @Published private(set) var height: CGFloat = 0
                init() {
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillChangeFrame(_:)),
                                                           name: UIResponder.keyboardWillChangeFrameNotification, object: nil)
                }
                @objc private func keyboardWillChangeFrame(_ note: Notification) {
                    height = (note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect)?.height ?? 0
                }
            }
            """, deploymentTarget: OSVersion(16)),
            RuleExample("""
            extension UIView {
                static func slideContent(keyboardWillShow: Bool, in container: UIView, by height: CGFloat) {
                    container.bounds.origin.y = keyboardWillShow ? height : 0
                    container.layoutIfNeeded()
                }
            }
            """, deploymentTarget: OSVersion(16)),
        ]
    )

    public init() {}

    public func check(_ context: RuleContext) -> [Diagnostic] {
        let analysis = context.analysis
        guard context.deploymentTarget != nil, analysis.mentionsKeyboard, !analysis.handlers.isEmpty else {
            return []
        }
        let source = analysis.source
        // The first layout sink each root handler reaches.
        var sinkOfRoot: [Int: Range<Int>] = [:]
        func record(_ range: Range<Int>, at index: Int) {
            guard let handler = analysis.handlerIndex(at: index) else { return }
            let root = analysis.rootHandler(of: handler)
            if sinkOfRoot[root] == nil { sinkOfRoot[root] = range }
        }
        for assignment in analysis.handlerAssignments {
            guard let sink = analysis.layoutSink(of: assignment), sink.kind != .contentOffset else { continue }
            record(assignment.lhs, at: assignment.op)
        }
        for call in analysis.calls where source.wordIndex(call.callee, in: ["layoutIfNeeded", "setNeedsLayout"]) != nil {
            record(call.callee..<(call.end + 1), at: call.callee)
        }
        var reported = Set<Int>()
        var diagnostics: [Diagnostic] = []
        for (index, handler) in analysis.handlers.enumerated() {
            guard let sink = sinkOfRoot[index], let site = Self.site(of: handler, analysis),
                  reported.insert(site).inserted, !Self.typeHasTheGuide(at: site, analysis),
                  let target = context.applicableTarget(of: Self.metadata, at: site) else { continue }
            let events = handler.events.sorted { $0.rawValue < $1.rawValue }.map(Self.notificationName).joined(separator: "`/`")
            let observed = events.isEmpty ? "keyboard notifications" : "`\(events)`"
            let sinkLine = source.file.location(of: source.byteRange(sink).lowerBound).line
            diagnostics.append(Self.metadata.diagnostic(
                analysis, at: analysis.tokenRange(site),
                message: "The observer of \(observed) lays out by hand (`\(analysis.snippet(sink))`, line \(sinkLine)) although the iOS \(target) target has `keyboardLayoutGuide`, which does it with one constraint for every kind of keyboard",
                suggestion: "Pin the content to `view.keyboardLayoutGuide.topAnchor` and remove this observer's layout code.",
                related: [RelatedLocation(range: source.byteRange(sink), message: "layout changed by hand here")]))
        }
        return diagnostics
    }

    /// The type around `index` uses the guide itself or inherits constraints to it.
    static func typeHasTheGuide(at index: Int, _ analysis: FileAnalysis) -> Bool {
        guard let name = analysis.typeName(at: index) else { return false }
        return analysis.project.keyboardLayoutGuideUserInLineage(of: name) != nil
    }

    /// Where a root handler is reported: its registration call, or the name of a helper
    /// callback that nothing in the project registers.
    static func site(of handler: KeyboardHandler, _ analysis: FileAnalysis) -> Int? {
        switch handler.form {
        case .selector, .blockObserver, .combine, .rxSwift, .asyncSequence, .typedMessage:
            return handler.registration
        case .wrapperEvent:
            // `callbacks[.willShow] = { … }` registers by assignment: report its left-hand side.
            let open = analysis.outline[handler.scope].open
            return handler.registration
                ?? analysis.assignments.first { $0.rhs.lowerBound == open }?.lhs.lowerBound
        case .helperCallback:
            guard let function = analysis.outline.function(ofScope: handler.scope) else { return nil }
            return analysis.outline[function].nameToken
        case .notificationReader, .reached:
            return nil
        }
    }

    static func notificationName(_ event: KeyboardEvent) -> String {
        switch event {
        case .willShow: "keyboardWillShowNotification"
        case .didShow: "keyboardDidShowNotification"
        case .willHide: "keyboardWillHideNotification"
        case .didHide: "keyboardDidHideNotification"
        case .willChangeFrame: "keyboardWillChangeFrameNotification"
        case .didChangeFrame: "keyboardDidChangeFrameNotification"
        }
    }
}
