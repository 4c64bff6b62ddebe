import Lexer

/// On iOS 26 every keyboard notification has a typed message whose members need no casts.
public struct PreferTypedKeyboardMessages: Rule {
    static let minimumVersion = OSVersion(26)

    public static let metadata = RuleMetadata(
        id: "prefer_typed_keyboard_messages",
        category: .mixingApproaches,
        defaultSeverity: .info,
        summary: "A keyboard handler parses the `userInfo` dictionary although the target has typed keyboard messages.",
        rationale: """
        `userInfo[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect` and its siblings fail silently: a wrong \
        cast (`as? CGRect` on an `NSValue` in older code, `as? Int` for the curve) yields nil and the handler \
        quietly does nothing or falls back to guessed values. From iOS 26 each keyboard notification has a typed \
        `NotificationCenter.Message` whose `endFrame`, `beginFrame`, `animationDuration` and `animationCurve` are \
        plain properties checked by the compiler.
        """,
        fix: "Observe with `NotificationCenter.default.addObserver(of: screen, for: .keyboardWillShow) { message in … }` and read `message.endFrame`, `message.animationDuration` and `message.animationCurve`.",
        noFixReason: "The typed `addObserver(of:for:using:)` API needs the screen to observe, returns a different token type, and its closure replaces the selector handler's whole body: a rewrite of the registration and the handler.",
        minimumTarget: minimumVersion,
        triggering: [
            RuleExample("""
            final class ChatViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillShow(_:)),
                                                           name: UIResponder.keyboardWillShowNotification, object: nil)
                }
                @objc func keyboardWillShow(_ notification: Notification) {
                    guard let frame = notification.userInfo?[UIResponder.↓keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    composerBottom.constant = -view.convert(frame, from: nil).height
                }
            }
            """, deploymentTarget: OSVersion(26)),
            RuleExample("""
            final class ReaderViewController: UIViewController {
                func observe() {
                    token = NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillHideNotification, object: nil, queue: .main) { [weak self] note in
                        guard let info = note.userInfo,
                              let duration = info[UIResponder.↓keyboardAnimationDurationUserInfoKey] as? Double,
                              let curve = info[UIResponder.keyboardAnimationCurveUserInfoKey] as? UInt else { return }
                        self?.slideDown(duration: duration, curve: curve)
                    }
                }
            }
            """, deploymentTarget: OSVersion(26)),
            RuleExample("""
            final class SearchViewController: UIViewController {
                func bind() {
                    NotificationCenter.default.publisher(for: UIResponder.keyboardWillChangeFrameNotification)
                        .compactMap { $0.userInfo?[↓UIKeyboardFrameEndUserInfoKey] as? NSValue }
                        .sink { [weak self] value in self?.resize(to: value.cgRectValue) }
                        .store(in: &bag)
                }
            }
            """, deploymentTarget: OSVersion(26, 1)),
            RuleExample("""
            final class FormViewController: UIViewController {
                func observe() {
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardChanged(_:)),
                                                           name: UIResponder.keyboardWillChangeFrameNotification, object: nil)
                }
                @objc func keyboardChanged(_ note: Notification) {
                    scrollView.contentInset.bottom = overlap(of: note)
                }
                private func overlap(of note: Notification) -> CGFloat {
                    let frame = (note.userInfo?[UIResponder.↓keyboardFrameEndUserInfoKey] as? CGRect) ?? .zero
                    return view.bounds.maxY - view.convert(frame, from: nil).minY
                }
            }
            """, deploymentTarget: OSVersion(26)),
            RuleExample("""
            extension KeyboardFollowing {
                func startFollowingKeyboard() -> NSObjectProtocol {
                    NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillChangeFrameNotification, object: nil, queue: .main) { [weak self] note in
                        self?.keyboardMoved(to: note.↓keyboardEndFrame(), duration: note.keyboardDuration())
                    }
                }
            }
            """, deploymentTarget: OSVersion(26), files: ["Notification+Keyboard.swift": """
            extension Notification {
                func keyboardEndFrame() -> CGRect {
                    (userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? NSValue)?.cgRectValue ?? .zero
                }
                func keyboardDuration() -> TimeInterval {
                    (userInfo?[UIResponder.keyboardAnimationDurationUserInfoKey] as? NSNumber)?.doubleValue ?? 0
                }
            }
            """]),
        ],
        nonTriggering: [
            RuleExample("""
            final class ChatViewController: UIViewController {
                @objc func keyboardWillShow(_ notification: Notification) {
                    guard let frame = notification.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    composerBottom.constant = -view.convert(frame, from: nil).height
                }
            }
            """, deploymentTarget: OSVersion(18)),
            RuleExample("""
            final class ChatViewController: UIViewController {
                @objc func keyboardWillShow(_ notification: Notification) {
                    guard let frame = notification.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    composerBottom.constant = -view.convert(frame, from: nil).height
                }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                func observe(on screen: UIScreen) {
                    observation = NotificationCenter.default.addObserver(of: screen, for: .keyboardWillShow) { [weak self] message in
                        self?.composerBottom.constant = -message.endFrame.height
                    }
                }
            }
            """, deploymentTarget: OSVersion(26)),
            RuleExample("""
            final class KeyboardStubTests: XCTestCase {
                func testShowMovesTheComposer() {
                    let info: [AnyHashable: Any] = [UIResponder.keyboardFrameEndUserInfoKey: NSValue(cgRect: .zero)]
                    NotificationCenter.default.post(name: UIResponder.keyboardWillShowNotification, object: nil, userInfo: info)
                }
            }
            """, deploymentTarget: OSVersion(26)),
            RuleExample("""
            final class PlayerViewController: UIViewController {
                func observe() {
                    token = NotificationCenter.default.addObserver(forName: UIResponder.keyboardDidShowNotification, object: nil, queue: .main) { [weak self] _ in
                        self?.isKeyboardVisible = true
                    }
                }
            }
            """, deploymentTarget: OSVersion(26)),
            RuleExample("""
            final class ComposerBinder {
                func bind() {
                    manager.callbacks[.willShow] = { [weak self] keyboard in
                        guard keyboard.isLocal else { return }
                        self?.raise(by: keyboard.endFrame.height)
                    }
                }
            }
            """, deploymentTarget: OSVersion(26), files: ["Notification+Keyboard.swift": """
            extension Notification {
                var isLocal: Bool { (userInfo?[UIResponder.keyboardIsLocalUserInfoKey] as? Bool) ?? true }
            }
            """]),
            RuleExample("""
            final class KeyboardBarController {
                @objc func keyboardWillShow(_ note: NSNotification) {
                    guard let change = KeyboardChange(note) else { return }
                    slide(change)
                }
                private func slide(_ notification: KeyboardChange) {
                    UIView.animate(withDuration: notification.duration) { self.bar.superview?.layoutIfNeeded() }
                }
            }
            """, deploymentTarget: OSVersion(26), files: ["NSNotification+Keyboard.swift": """
            extension NSNotification {
                var duration: TimeInterval { (userInfo?[UIResponder.keyboardAnimationDurationUserInfoKey] as? TimeInterval) ?? 0 }
            }
            """]),
            RuleExample("""
            extension Notification {
                var keyboardEndFrame: CGRect {
                    (userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect) ?? .zero
                }
            }
            """, deploymentTarget: OSVersion(26)),
        ]
    )

    public init() {}

    public func check(_ context: RuleContext) -> [Diagnostic] {
        let analysis = context.analysis
        guard analysis.mentionsKeyboard, !analysis.handlers.isEmpty else { return [] }
        let source = analysis.source
        var reportedRoots = Set<Int>()
        var diagnostics: [Diagnostic] = []
        let accessors = analysis.project.accessorHashes
        for index in source.code.indices {
            // A key read directly, or through a project accessor that parses it
            // (`notification.keyboardEndFrame()` of an `extension Notification`).
            let direct = KeyboardVocabulary.userInfoKey(source, at: index)
            let throughAccessor = direct == nil && source.kind(index) == .identifier && source.kind(index - 1) == .period
                ? accessors[source.nameHash(index)] : nil
            guard direct != nil || throughAccessor != nil, let handler = analysis.handlerIndex(at: index) else { continue }
            // An accessor counts only on the posted `Notification` itself: a wrapper's own value
            // type may have a stored property of the same name.
            if throughAccessor != nil, !Self.readsPostedNotification(at: index - 2, handler: analysis.handlers[handler], analysis) {
                continue
            }
            guard let key = direct ?? throughAccessor else { continue }
            let root = analysis.rootHandler(of: handler)
            guard analysis.handlers[root].form != .typedMessage,
                  let target = context.applicableTarget(of: Self.metadata, at: index), reportedRoots.insert(root).inserted else { continue }
            // A helper shared by several handlers has collected all of their events.
            let events = analysis.handlers[handler].events.sorted { $0.rawValue < $1.rawValue }.map(Self.messageName)
            let member = Self.member(for: key)
            let carrier = events.count == 1
                ? "the typed `.\(events[0])` message carries"
                : "the typed keyboard messages" + (events.isEmpty ? "" : " (`." + events.joined(separator: "`, `.") + "`)") + " carry"
            diagnostics.append(Self.metadata.diagnostic(
                analysis, at: analysis.tokenRange(index),
                message: (throughAccessor == nil
                    ? "`\(source.text(at: index))` is read from the `userInfo` dictionary"
                    : "`\(source.text(at: index))` parses the `userInfo` dictionary")
                    + " on an iOS \(target) target: \(carrier) `\(member)` without a cast",
                suggestion: "Observe with `NotificationCenter.default.addObserver(of: screen, for: .\(events.first ?? "keyboardWillChangeFrame")) { message in … }` and read `message.\(member)`."))
        }
        return diagnostics
    }

    /// Whether `receiver` is the parameter through which `handler` gets the posted notification.
    static func readsPostedNotification(at receiver: Int, handler: KeyboardHandler, _ analysis: FileAnalysis) -> Bool {
        switch handler.form {
        case .selector, .blockObserver, .combine, .rxSwift, .asyncSequence, .notificationReader, .reached:
            let source = analysis.source
            guard let parameter = handler.notificationParameter, source.kind(receiver) == .identifier,
                  source.nameHash(receiver) == source.nameHash(parameter) else { return false }
            // A function's parameter says what it holds; a registered closure gets the notification.
            guard let function = analysis.outline.function(ofScope: handler.scope) else { return true }
            let declared = analysis.outline[function].parameters.first { $0.nameToken == parameter }
            return declared?.type.contains { source.isWord($0, "Notification") || source.isWord($0, "NSNotification") } ?? false
        case .typedMessage, .helperCallback, .wrapperEvent:
            return false
        }
    }

    static func member(for key: KeyboardUserInfoKey) -> String {
        switch key {
        case .frameEnd: "endFrame"
        case .frameBegin: "beginFrame"
        case .animationDuration: "animationDuration"
        case .animationCurve: "animationCurve"
        case .isLocal: "isLocal"
        }
    }

    static func messageName(_ event: KeyboardEvent) -> String {
        switch event {
        case .willShow: "keyboardWillShow"
        case .didShow: "keyboardDidShow"
        case .willHide: "keyboardWillHide"
        case .didHide: "keyboardDidHide"
        case .willChangeFrame: "keyboardWillChangeFrame"
        case .didChangeFrame: "keyboardDidChangeFrame"
        }
    }
}
