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
        for index in source.code.indices {
            guard let key = KeyboardVocabulary.userInfoKey(source, at: index),
                  let handler = analysis.handlerIndex(at: index) else { continue }
            let root = analysis.rootHandler(of: handler)
            guard analysis.handlers[root].form != .typedMessage,
                  let target = analysis.effectiveTarget(at: index, configured: context.deploymentTarget),
                  target >= Self.minimumVersion, reportedRoots.insert(root).inserted else { continue }
            // A helper shared by several handlers has collected all of their events.
            let events = analysis.handlers[handler].events.sorted { $0.rawValue < $1.rawValue }.map(Self.messageName)
            let member = Self.member(for: key)
            let carrier = events.count == 1
                ? "the typed `.\(events[0])` message carries"
                : "the typed keyboard messages" + (events.isEmpty ? "" : " (`." + events.joined(separator: "`, `.") + "`)") + " carry"
            diagnostics.append(Self.metadata.diagnostic(
                analysis, at: analysis.tokenRange(index),
                message: "`\(source.text(at: index))` is read from the `userInfo` dictionary on an iOS \(target) target: \(carrier) `\(member)` without a cast",
                suggestion: "Observe with `NotificationCenter.default.addObserver(of: screen, for: .\(events.first ?? "keyboardWillChangeFrame")) { message in … }` and read `message.\(member)`."))
        }
        return diagnostics
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
