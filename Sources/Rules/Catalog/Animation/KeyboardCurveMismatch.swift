import Lexer

/// Views that move with the keyboard must use the keyboard's animation curve.
public struct KeyboardCurveMismatch: Rule {
    public static let metadata = RuleMetadata(
        id: "keyboard_curve_mismatch",
        category: .animation,
        defaultSeverity: .warning,
        summary: "A keyboard handler animates with a hard-coded or default curve instead of the keyboard's.",
        rationale: """
        The keyboard moves with its own, undocumented curve (raw value 7), delivered in \
        `keyboardAnimationCurveUserInfoKey`. An animation with `.curveEaseInOut`, `.curveEaseOut`, \
        `.curveLinear` — or with no curve at all, which means ease-in-out — accelerates differently, so the \
        view visibly slides apart from the keyboard and catches up at the end. An animation started \
        synchronously inside a `will` handler is nested in the keyboard's own animation and inherits its \
        curve (unless it passes `.overrideInheritedCurve`), so there the risk is latent: it appears as soon \
        as the work is deferred (`DispatchQueue.main.async`, `Task`, `receive(on:)`) or the code runs \
        outside the notification, and the message says so. Deferred animations, `did` handlers and \
        `.overrideInheritedCurve` mismatch today.

        Severity: warning. The mismatch is visible but nothing stops working.
        """,
        fix: "Build the options from the keyboard's curve: `UIView.AnimationOptions(rawValue: curve << 16)` (or pass the message's `animationCurve`).",
        fixAvailability: .unsafe,
        triggering: [
            RuleExample("""
            final class LoginViewController: UIViewController {
                @objc func keyboardWillShow(_ notification: Notification) {
                    guard let duration = notification.userInfo?[UIResponder.keyboardAnimationDurationUserInfoKey] as? Double else { return }
                    UIView.↓animate(withDuration: duration) { self.view.layoutIfNeeded() }
                }
            }
            """),
            RuleExample("""
            final class ComposerViewController: UIViewController {
                func observe() {
                    token = NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillHideNotification, object: nil, queue: .main) { [weak self] note in
                        let duration = note.userInfo?[UIResponder.keyboardAnimationDurationUserInfoKey] as? Double ?? 0
                        UIView.↓animate(withDuration: duration, delay: 0, options: .curveEaseOut, animations: {
                            self?.view.layoutIfNeeded()
                        })
                    }
                }
            }
            """),
            RuleExample("""
            final class SearchViewController: UIViewController {
                func bind() {
                    NotificationCenter.default.publisher(for: UIResponder.keyboardWillChangeFrameNotification)
                        .receive(on: DispatchQueue.main)
                        .sink { [weak self] _ in
                            UIView.↓animate(withDuration: 0.25, delay: 0, options: [.beginFromCurrentState]) {
                                self?.view.layoutIfNeeded()
                            }
                        }
                        .store(in: &bag)
                }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                func observe(on screen: UIScreen) {
                    token = NotificationCenter.default.addObserver(of: screen, for: .keyboardWillShow) { [weak self] message in
                        let animator = ↓UIViewPropertyAnimator(duration: message.animationDuration, curve: .easeInOut) {
                            self?.view.layoutIfNeeded()
                        }
                        animator.startAnimation()
                    }
                }
            }
            """),
            RuleExample("""
            final class NotesViewController: UIViewController {
                @objc func keyboardWillHide(_ note: Notification) {
                    slideDown(duration: 0.3)
                }
                private func slideDown(duration: TimeInterval) {
                    UIViewPropertyAnimator.↓runningPropertyAnimator(withDuration: duration, delay: 0, options: .curveLinear) {
                        self.view.layoutIfNeeded()
                    }
                }
            }
            """),
        ],
        nonTriggering: [
            RuleExample("""
            final class LoginViewController: UIViewController {
                @objc func keyboardWillShow(_ notification: Notification) {
                    guard let info = notification.userInfo,
                          let duration = info[UIResponder.keyboardAnimationDurationUserInfoKey] as? Double,
                          let curve = info[UIResponder.keyboardAnimationCurveUserInfoKey] as? UInt else { return }
                    UIView.animate(withDuration: duration, delay: 0, options: UIView.AnimationOptions(rawValue: curve << 16)) {
                        self.view.layoutIfNeeded()
                    }
                }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                func observe(on screen: UIScreen) {
                    token = NotificationCenter.default.addObserver(of: screen, for: .keyboardWillShow) { [weak self] message in
                        let animator = UIViewPropertyAnimator(duration: message.animationDuration, curve: message.animationCurve) {
                            self?.view.layoutIfNeeded()
                        }
                        animator.startAnimation()
                    }
                }
            }
            """),
            RuleExample("""
            final class IntroViewController: UIViewController {
                override func viewDidAppear(_ animated: Bool) {
                    super.viewDidAppear(animated)
                    UIView.animate(withDuration: 0.3, delay: 0, options: .curveEaseOut) { self.logo.alpha = 1 }
                }
            }
            """),
            RuleExample("""
            final class FormViewController: UIViewController {
                @objc func keyboardWillShow(_ notification: Notification) {
                    isKeyboardVisible = true
                    analytics.track("keyboard")
                }
            }
            """),
            RuleExample("""
            final class FormViewController: UIViewController {
                @objc func keyboardWillShow(_ notification: Notification) {
                    let raw = notification.userInfo?[UIResponder.keyboardAnimationCurveUserInfoKey] as? Int ?? 0
                    let options = UIView.AnimationOptions(rawValue: UInt(raw) << 16)
                    UIView.animate(withDuration: 0.25, delay: 0, options: [options, .beginFromCurrentState]) {
                        self.view.layoutIfNeeded()
                    }
                }
            }
            """),
            RuleExample("""
            final class FormViewController: UIViewController {
                @objc func keyboardWillHide(_ notification: Notification) {
                    UIView.animate(withDuration: 0) { self.view.layoutIfNeeded() }
                }
            }
            """),
            RuleExample("""
            final class FormViewController: UIViewController {
                @objc func keyboardWillHide(_ notification: Notification) {
                    UIView.animate(withDuration: duration, delay: 0, options: animationOptions) { self.view.layoutIfNeeded() }
                }
            }
            """),
        ],
        corrections: [
            RuleCorrection("""
            final class LoginViewController: UIViewController {
                @objc func keyboardWillShow(_ notification: Notification) {
                    guard let duration = notification.userInfo?[UIResponder.keyboardAnimationDurationUserInfoKey] as? Double else { return }
                    UIView.↓animate(withDuration: duration) { self.view.layoutIfNeeded() }
                }
            }
            """, """
            final class LoginViewController: UIViewController {
                @objc func keyboardWillShow(_ notification: Notification) {
                    guard let duration = notification.userInfo?[UIResponder.keyboardAnimationDurationUserInfoKey] as? Double else { return }
                    UIView.animate(withDuration: duration, delay: 0, options: UIView.AnimationOptions(rawValue: ((notification.userInfo?[UIResponder.keyboardAnimationCurveUserInfoKey] as? UInt) ?? 7) << 16)) { self.view.layoutIfNeeded() }
                }
            }
            """),
            RuleCorrection("""
            final class FormViewController: UIViewController {
                @objc func keyboardWillHide(_ note: Notification) {
                    guard let duration = note.userInfo?[UIResponder.keyboardAnimationDurationUserInfoKey] as? Double else { return }
                    UIView.↓animate(withDuration: duration, delay: 0, options: [.beginFromCurrentState, .curveEaseOut], animations: {
                        self.view.layoutIfNeeded()
                    })
                }
            }
            """, """
            final class FormViewController: UIViewController {
                @objc func keyboardWillHide(_ note: Notification) {
                    guard let duration = note.userInfo?[UIResponder.keyboardAnimationDurationUserInfoKey] as? Double else { return }
                    UIView.animate(withDuration: duration, delay: 0, options: [.beginFromCurrentState, UIView.AnimationOptions(rawValue: ((note.userInfo?[UIResponder.keyboardAnimationCurveUserInfoKey] as? UInt) ?? 7) << 16)], animations: {
                        self.view.layoutIfNeeded()
                    })
                }
            }
            """),
        ]
    )

    /// Members of `UIView.AnimationOptions` that choose a curve.
    /// `UIView.animate` given the handler's own notification's curve: a curve option in a
    /// literal option set is replaced, other options are kept, and a call without options
    /// gets `delay: 0, options: …` after its duration. Unsafe: when the notification lacks the
    /// curve the keyboard's 7 stands in; other animations (property animators, keyframes)
    /// and option sets built elsewhere need a reviewer.
    static func keyboardCurveFix(_ animation: AnimationCall, _ analysis: FileAnalysis) -> Fix? {
        let source = analysis.source
        let call = analysis.calls[animation.call]
        guard animation.kind == .animate, source.isWord(call.callee, "animate"),
              let handler = analysis.handler(at: call.callee), let duration = animation.duration else { return nil }
        let curve: String
        switch analysis.notificationAccess(of: handler) {
        case .message(let name)?:
            curve = "UIView.AnimationOptions(rawValue: UInt(\(name).animationCurve.rawValue) << 16)"
        case .notification(let name)?:
            curve = "UIView.AnimationOptions(rawValue: ((\(name).userInfo?[UIResponder.keyboardAnimationCurveUserInfoKey] as? UInt) ?? 7) << 16)"
        case nil:
            return nil
        }
        guard let options = animation.options else {
            let after = analysis.argument(call, "delay")?.value ?? duration.value
            let insertion = source.byteRange(after).upperBound
            let text = analysis.argument(call, "delay") == nil ? ", delay: 0, options: \(curve)" : ", options: \(curve)"
            return Fix(.unsafe, edits: [Edit(range: insertion..<insertion, replacement: text)])
        }
        let value = options.value
        guard !value.isEmpty, isLiteralOptionSet(value, source) else { return nil }
        let curveMembers = value.filter { source.wordIndex($0, in: optionCurves) != nil && source.kind($0 - 1) == .period }
        if curveMembers.count == 1, let member = curveMembers.first {
            // `.curveEaseOut`, or `UIView.AnimationOptions.curveEaseOut`.
            let start = analysis.chainStart(endingAt: member)
            return Fix(.unsafe, edits: [Edit(range: source.byteRange(start..<(member + 1)), replacement: curve)])
        }
        guard curveMembers.isEmpty else { return nil }
        if source.kind(value.lowerBound) == .leftSquare, source.partnerIndex(value.lowerBound) == value.upperBound - 1 {
            let close = source.byteRange((value.upperBound - 1)..<value.upperBound).lowerBound
            return Fix(.unsafe, edits: [Edit(range: close..<close, replacement: value.count == 2 ? curve : ", \(curve)")])
        }
        let range = source.byteRange(value)
        return Fix(.unsafe, edits: [Edit(range: range, replacement: "[\(source.text(spanning: value)), \(curve)]")])
    }

    static let optionCurves: [StaticString] = ["curveEaseInOut", "curveEaseIn", "curveEaseOut", "curveLinear"]
    /// Members of `UIView.AnimationCurve`.
    static let curves: [StaticString] = ["easeInOut", "easeIn", "easeOut", "linear"]

    public init() {}

    public func check(_ context: RuleContext) -> [Diagnostic] {
        let analysis = context.analysis
        guard analysis.mentionsKeyboard else { return [] }
        let source = analysis.source
        var diagnostics: [Diagnostic] = []
        for animation in analysis.animations where !animation.hasCustomTiming {
            let call = analysis.calls[animation.call]
            guard analysis.isInKeyboardHandler(call.callee) else { continue }
            if let duration = animation.duration, analysis.literalNumber(duration.value)?.value == 0 { continue }
            guard let problem = Self.problem(of: animation, analysis) else { continue }
            let deferral = analysis.deferral(at: call.callee)
            let name = source.text(at: call.callee)
            let overrides = animation.options?.value.contains { source.isWord($0, "overrideInheritedCurve") } ?? false
            let handler = analysis.handler(at: call.callee)
            let message: String
            if let deferral {
                message = "`\(name)` runs after `\(source.text(at: deferral))`, outside the keyboard's animation, and \(problem), out of step with the keyboard's curve"
            } else if overrides {
                message = "`\(name)` in a keyboard handler \(problem), and `.overrideInheritedCurve` makes it win over the keyboard's curve, so the view slides out of step with the keyboard"
            } else if handler.map({ $0.events.isEmpty || $0.events.contains(where: \.isWill) }) ?? true {
                message = "`\(name)` in a keyboard will-handler \(problem): it follows the keyboard's curve only while it runs inside the keyboard's own animation, and slides out of step as soon as it is deferred or called outside the notification"
            } else {
                message = "`\(name)` in a keyboard did-handler \(problem), out of step with the keyboard's curve"
            }
            diagnostics.append(Self.metadata.diagnostic(
                analysis, at: call.callee..<(call.callee + 1),
                message: message,
                suggestion: "Pass `UIView.AnimationOptions(rawValue: curve << 16)` built from `keyboardAnimationCurveUserInfoKey` (or the message's `animationCurve`).",
                fix: Self.keyboardCurveFix(animation, analysis)))
        }
        return diagnostics
    }

    /// What is wrong with the animation's curve, or nil when it takes the keyboard's (or says
    /// nothing the rule can judge).
    static func problem(of animation: AnimationCall, _ analysis: FileAnalysis) -> String? {
        let source = analysis.source
        if animation.isSpring { return "animates with a spring" }
        switch animation.kind {
        case .animate, .runningPropertyAnimator:
            guard let options = animation.options else { return "has no curve option, so it runs ease-in-out" }
            if analysis.keyboardValue(of: options.value)?.has(.curve) == true { return nil }
            guard isLiteralOptionSet(options.value, source) || analysis.isEmptyAnimationOptions(options.value) else {
                return nil
            }
            if let curve = options.value.first(where: { source.wordIndex($0, in: optionCurves) != nil }) {
                return "uses `.\(source.text(at: curve))`"
            }
            return "has no curve option, so it runs ease-in-out"
        case .propertyAnimator:
            guard let curve = animation.curve, analysis.keyboardValue(of: curve.value)?.has(.curve) != true,
                  let member = curve.value.first(where: { source.wordIndex($0, in: curves) != nil }) else { return nil }
            return "uses `.\(source.text(at: member))`"
        case .keyframes, .transition, .transactionDuration:
            return nil
        }
    }

    /// Whether an options argument is written out as members (`.curveEaseOut`,
    /// `[.beginFromCurrentState, .allowUserInteraction]`, `UIView.AnimationOptions.curveLinear`),
    /// so its curve is known.
    static func isLiteralOptionSet(_ range: Range<Int>, _ source: TokenizedSource) -> Bool {
        for index in range {
            switch source.kind(index) {
            case .leftSquare, .rightSquare, .comma, .period:
                continue
            case .identifier:
                if source.kind(index - 1) == .period { continue }
                if source.isWord(index, "UIView") || source.isWord(index, "AnimationOptions") { continue }
                return false
            default:
                return false
            }
        }
        return !range.isEmpty
    }
}
