import Lexer

/// Constraints to the keyboard layout guide already move with the keyboard.
public struct KeyboardGuideManualAnimation: Rule {
    public static let metadata = RuleMetadata(
        id: "keyboard_guide_manual_animation",
        category: .animation,
        defaultSeverity: .info,
        summary: "A type that uses the keyboard layout guide also animates layout in a keyboard handler.",
        rationale: """
        Constraints to `view.keyboardLayoutGuide` are updated and animated by UIKit together with the \
        keyboard, including height changes of the QuickType bar. An extra `UIView.animate` or \
        `layoutIfNeeded()` in a keyboard handler adds a second, differently timed animation of the same \
        layout pass, which shows as a stutter, and keeps notification code alive that the guide replaced.
        """,
        fix: "Remove the keyboard handler's animation and let the guide's constraints animate.",
        noFixReason: "Deleting the animation call also deletes whatever else its block does (state changes, completion work), and whether the handler is still needed at all depends on what the guide's constraints cover.",
        triggering: [
            RuleExample("""
            final class ChatViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    inputBar.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                    token = NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillShowNotification, object: nil, queue: .main) { _ in
                        UIView.↓animate(withDuration: 0.25) { self.view.layoutIfNeeded() }
                    }
                }
            }
            """),
            RuleExample("""
            final class NotesViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    view.keyboardLayoutGuide.followsUndockedKeyboard = true
                }
                @objc func keyboardWillChangeFrame(_ note: Notification) {
                    view.↓layoutIfNeeded()
                }
            }
            """),
            RuleExample("""
            extension ComposerViewController {
                @objc func keyboardWillHide(_ note: Notification) {
                    UIView.↓animate(withDuration: 0.3) { self.view.layoutIfNeeded() }
                }
            }
            """, files: ["ComposerViewController.swift": """
            final class ComposerViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NSLayoutConstraint.activate([textView.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor)])
                }
            }
            """]),
            RuleExample("""
            final class SearchViewController: UIViewController {
                func bind() {
                    results.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                    NotificationCenter.default.publisher(for: UIResponder.keyboardWillShowNotification)
                        .sink { [weak self] _ in UIView.↓animate(withDuration: 0.2) { self?.view.layoutIfNeeded() } }
                        .store(in: &bag)
                }
            }
            """),
        ],
        nonTriggering: [
            RuleExample("""
            final class ChatViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    inputBar.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                }
                @objc func keyboardWillShow(_ note: Notification) {
                    UIView.animate(withDuration: 0.25) { self.jumpButton.alpha = 0 }
                }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    if #available(iOS 15.0, *) {
                        inputBar.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                    }
                }
                @objc func keyboardWillShow(_ note: Notification) {
                    if #available(iOS 15.0, *) {
                        return
                    } else {
                        bottomConstraint.constant = 300
                        UIView.animate(withDuration: 0.25) { self.view.layoutIfNeeded() }
                    }
                }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    token = NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillShowNotification, object: nil, queue: .main) { _ in
                        UIView.animate(withDuration: 0.25) { self.view.layoutIfNeeded() }
                    }
                }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    print(view.keyboardLayoutGuide.layoutFrame)
                    UIView.animate(withDuration: 0.25) { self.view.layoutIfNeeded() }
                }
            }
            """),
            RuleExample("""
            final class LegacyInputView: UIView {
                let keyboardLayoutGuide = UILayoutGuide()
                func pin() {
                    bar.bottomAnchor.constraint(equalTo: keyboardLayoutGuide.topAnchor).isActive = true
                }
                @objc func keyboardWillShow(_ note: Notification) {
                    UIView.animate(withDuration: 0.25) { self.layoutIfNeeded() }
                }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    inputBar.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                }
                override func viewDidAppear(_ animated: Bool) {
                    super.viewDidAppear(animated)
                    UIView.animate(withDuration: 0.25) { self.banner.alpha = 1 }
                }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    inputBar.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                }
                @objc func keyboardDidShow(_ note: Notification) {
                    analytics.track("keyboard")
                }
            }
            """),
            RuleExample("""
            final class PinnedViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    bar.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                }
            }
            final class OtherViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    UIView.animate(withDuration: 0.25) { self.view.layoutIfNeeded() }
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
        func report(_ callee: Int, _ what: String) {
            guard analysis.isInKeyboardHandler(callee), analysis.typeUsesKeyboardLayoutGuide(at: callee),
                  let type = analysis.typeName(at: callee) else { return }
            diagnostics.append(Self.metadata.diagnostic(
                analysis, at: callee..<(callee + 1),
                message: "`\(type)` uses the keyboard layout guide, which already animates with the keyboard; `\(what)` in a keyboard handler animates the layout again",
                suggestion: "Remove the manual animation (and the handler if nothing else remains); the guide's constraints follow the keyboard."))
        }
        for animation in analysis.animations where animation.kind == .animate {
            let call = analysis.calls[animation.call]
            // Only an animation that lays the views out again animates the guide's constraints;
            // one that fades or moves something else has nothing to do with the guide.
            guard analysis.animatedBodies(of: animation).contains(where: { body in
                analysis.calls(in: body).contains { Self.laysOutGuideOwner($0, analysis) }
            }),
                  !Self.runsOnlyWithoutGuide(call.callee, analysis) else { continue }
            report(call.callee, "UIView.animate")
        }
        for call in analysis.calls where source.isWord(call.callee, "layoutIfNeeded") {
            guard analysis.animation(enclosing: call.callee) == nil, Self.laysOutGuideOwner(call, analysis),
                  !Self.runsOnlyWithoutGuide(call.callee, analysis) else { continue }
            report(call.callee, "layoutIfNeeded()")
        }
        return diagnostics.sorted { $0.range.lowerBound < $1.range.lowerBound }
    }

    /// `layoutIfNeeded()` on the controller's view or on `self` (a view): the layout pass
    /// that moves views pinned to that view's keyboard layout guide.
    static func laysOutGuideOwner(_ call: CallSite, _ analysis: FileAnalysis) -> Bool {
        let source = analysis.source
        guard source.isWord(call.callee, "layoutIfNeeded") else { return false }
        let names = call.receiver.map { analysis.namesWithoutSelf($0) } ?? []
        return names.isEmpty || (names.count == 1 && source.isWord(names[0], "view"))
    }

    /// Whether `index` sits in a branch taken only when the guide is not in use: the `else` of
    /// `if #available(…)` or of a condition naming a layout guide setting, or the body of
    /// `if #unavailable(…)`.
    static func runsOnlyWithoutGuide(_ index: Int, _ analysis: FileAnalysis) -> Bool {
        let source = analysis.source, outline = analysis.outline
        func namesGuideOrAvailability(_ range: Range<Int>) -> Bool {
            range.contains { token in
                source.isToken(token, .poundKeyword, "#available") || source.word(token, contains: "Guide")
                    || source.word(token, contains: "guide")
            }
        }
        for scope in outline.scopesInsideExecutableBody(around: index) {
            let info = outline[scope]
            if case .block(let keyword) = info.kind {
                if source.isWord(keyword, "if"),
                   (keyword + 1..<info.open).contains(where: { source.isToken($0, .poundKeyword, "#unavailable") }) {
                    return true
                }
                if source.isWord(keyword, "else"), source.kind(keyword - 1) == .rightBrace,
                   let open = source.partnerIndex(keyword - 1) {
                    // The condition of the `if` this `else` belongs to.
                    var start = open - 1
                    var budget = 512
                    while start > 0, budget > 0, !source.isWord(start, "if") {
                        if let partner = source.partnerIndex(start), partner < start { start = partner }
                        start -= 1
                        budget -= 1
                    }
                    if source.isWord(start, "if"), namesGuideOrAvailability((start + 1)..<open) { return true }
                }
            }
        }
        return false
    }
}
