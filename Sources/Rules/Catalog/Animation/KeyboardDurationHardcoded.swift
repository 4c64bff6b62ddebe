import Lexer

/// Animations that move layout with the keyboard must take the keyboard's duration.
public struct KeyboardDurationHardcoded: Rule {
    public static let metadata = RuleMetadata(
        id: "keyboard_duration_hardcoded",
        category: .animation,
        defaultSeverity: .warning,
        summary: "A keyboard handler animates with a hard-coded duration instead of the keyboard's.",
        rationale: """
        The keyboard animates with its own duration (`keyboardAnimationDurationUserInfoKey`), which varies \
        with the device, accessibility settings and the kind of change. Inside a synchronous `will` handler \
        UIKit's animation block mostly overrides a literal, which hides the bug; as soon as the animation is \
        deferred (`DispatchQueue.main.async`, `Task`, Combine `receive(on:)`) or opts out with \
        `.overrideInheritedDuration`, the literal wins and the view slides out of step with the keyboard. \
        Messages say which of these applies; `keyboard_curve_mismatch` reads the same situations the same way.

        Severity: warning. The mismatch is visible but nothing stops working.
        """,
        fix: "Read the duration from the notification (`keyboardAnimationDurationUserInfoKey`, or the message's `animationDuration`) and pass it on.",
        fixAvailability: .unsafe,
        options: [
            RuleOption(name: "check_fallbacks", defaultValue: .bool(false), summary: """
            Also flag literal fallbacks for the duration key (`?? 0.25`, a variable initialised with a literal \
            and overwritten by the key, a default assigned in `guard … else`, a floor such as `max(0.25, duration)`).
            """),
        ],
        triggering: [
            RuleExample("""
            final class LoginViewController: UIViewController {
                @objc func keyboardWillShow(_ notification: Notification) {
                    bottomConstraint.constant = 260
                    UIView.animate(withDuration: ↓0.25) { self.view.layoutIfNeeded() }
                }
            }
            """),
            RuleExample("""
            final class ComposerViewController: UIViewController {
                func observe() {
                    token = NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillHideNotification, object: nil, queue: .main) { [weak self] _ in
                        DispatchQueue.main.async {
                            UIView.animate(withDuration: ↓0.3, delay: 0, options: [.curveEaseOut]) {
                                self?.view.layoutIfNeeded()
                            }
                        }
                    }
                }
            }
            """),
            RuleExample("""
            final class SearchViewController: UIViewController {
                private let slideDuration: TimeInterval = 0.35
                func bind() {
                    NotificationCenter.default.publisher(for: UIResponder.keyboardWillChangeFrameNotification)
                        .sink { [weak self] _ in
                            guard let self else { return }
                            UIView.animate(withDuration: ↓slideDuration) { self.view.layoutIfNeeded() }
                        }
                        .store(in: &bag)
                }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                func observe(on screen: UIScreen) {
                    token = NotificationCenter.default.addObserver(of: screen, for: .keyboardWillShow) { [weak self] message in
                        let animator = UIViewPropertyAnimator(duration: ↓0.4, curve: .easeOut) {
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
                    applyLayout()
                }
                private func applyLayout() {
                    CATransaction.begin()
                    CATransaction.setAnimationDuration(↓0.2)
                    CATransaction.commit()
                }
            }
            """),
            RuleExample("""
            final class FormViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    let duration = note.userInfo?[UIResponder.keyboardAnimationDurationUserInfoKey] as? Double ?? ↓0.25
                    UIView.animate(withDuration: duration) { self.view.layoutIfNeeded() }
                }
            }
            """, options: ["check_fallbacks": .bool(true)]),
            RuleExample("""
            final class FormViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    UIView.animate(withDuration: ↓0.25, delay: 0, options: [.overrideInheritedDuration]) {
                        self.view.layoutIfNeeded()
                    }
                }
            }
            """),
        ],
        nonTriggering: [
            RuleExample("""
            final class LoginViewController: UIViewController {
                override func viewDidAppear(_ animated: Bool) {
                    super.viewDidAppear(animated)
                    UIView.animate(withDuration: 0.25) { self.logo.alpha = 1 }
                }
            }
            """),
            RuleExample("""
            final class LoginViewController: UIViewController {
                @objc func keyboardWillShow(_ notification: Notification) {
                    UIView.animate(withDuration: 0) { self.view.layoutIfNeeded() }
                }
            }
            """),
            RuleExample("""
            final class LoginViewController: UIViewController {
                @objc func keyboardWillShow(_ notification: Notification) {
                    guard let duration = notification.userInfo?[UIResponder.keyboardAnimationDurationUserInfoKey] as? Double else { return }
                    UIView.animate(withDuration: duration) { self.view.layoutIfNeeded() }
                }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                func observe(on screen: UIScreen) {
                    token = NotificationCenter.default.addObserver(of: screen, for: .keyboardWillHide) { [weak self] message in
                        UIView.animate(withDuration: message.animationDuration) { self?.view.layoutIfNeeded() }
                    }
                }
            }
            """),
            RuleExample("""
            final class FormViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    let duration = note.userInfo?[UIResponder.keyboardAnimationDurationUserInfoKey] as? Double ?? 0.25
                    UIView.animate(withDuration: duration) { self.view.layoutIfNeeded() }
                }
            }
            """),
            RuleExample("""
            final class InputBarController: KeyboardObserving {
                func keyboardWillShow(height: CGFloat, duration: TimeInterval) {
                    UIView.animate(withDuration: duration) { self.view.layoutIfNeeded() }
                }
            }
            """),
            RuleExample("""
            final class ToastView: UIView {
                @objc func keyboardWillHide(_ note: Notification) {
                    let instant = 0.0
                    UIView.animate(withDuration: instant) { self.alpha = 0 }
                }
            }
            """),
        ],
        corrections: [
            RuleCorrection("""
            final class LoginViewController: UIViewController {
                @objc func keyboardWillShow(_ notification: Notification) {
                    bottomConstraint.constant = 260
                    UIView.animate(withDuration: ↓0.25) { self.view.layoutIfNeeded() }
                }
            }
            """, """
            final class LoginViewController: UIViewController {
                @objc func keyboardWillShow(_ notification: Notification) {
                    bottomConstraint.constant = 260
                    UIView.animate(withDuration: (notification.userInfo?[UIResponder.keyboardAnimationDurationUserInfoKey] as? Double) ?? 0.25) { self.view.layoutIfNeeded() }
                }
            }
            """),
            RuleCorrection("""
            final class ChatViewController: UIViewController {
                func observe(on screen: UIScreen) {
                    token = NotificationCenter.default.addObserver(of: screen, for: .keyboardWillShow) { [weak self] message in
                        UIView.animate(withDuration: ↓0.3) { self?.view.layoutIfNeeded() }
                    }
                }
            }
            """, """
            final class ChatViewController: UIViewController {
                func observe(on screen: UIScreen) {
                    token = NotificationCenter.default.addObserver(of: screen, for: .keyboardWillShow) { [weak self] message in
                        UIView.animate(withDuration: message.animationDuration) { self?.view.layoutIfNeeded() }
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
        for animation in analysis.animations {
            let call = analysis.calls[animation.call]
            guard let handler = analysis.handler(at: call.callee), let duration = animation.duration,
                  let literal = literalDuration(duration.value, analysis), literal.value != 0 else { continue }
            if analysis.keyboardValue(of: duration.value)?.has(.duration) == true { continue }
            let deferral = analysis.deferral(at: call.callee)
            let overrides = animation.options.map { options in
                options.value.contains { source.isWord($0, "overrideInheritedDuration") }
            } ?? false
            let amount = source.text(spanning: duration.value)
            let message: String
            if let deferral {
                message = "The `\(amount)` s animation runs after `\(source.text(at: deferral))`, outside the keyboard's animation, so its duration differs from the keyboard's and the view slides out of step"
            } else if overrides {
                message = "`.overrideInheritedDuration` makes the hard-coded `\(amount)` s win over the keyboard's duration, so the view slides out of step with the keyboard"
            } else if handler.events.contains(where: \.isWill) || handler.events.isEmpty {
                message = "Hard-coded `\(amount)` s duration in a keyboard will-handler: it follows the keyboard's duration only while it runs inside the keyboard's own animation, and slides out of step as soon as it is deferred or called outside the notification"
            } else {
                message = "Hard-coded `\(amount)` s duration in a keyboard did-handler runs after the keyboard has moved, out of step with the keyboard's animation"
            }
            diagnostics.append(Self.metadata.diagnostic(
                analysis, at: literal.tokens,
                message: message,
                suggestion: "Pass the keyboard's duration (`keyboardAnimationDurationUserInfoKey` or the message's `animationDuration`).",
                fix: Self.notificationDurationFix(duration.value, handler, analysis)))
        }
        if context.bool("check_fallbacks") { diagnostics += fallbacks(analysis) }
        return diagnostics
    }

    /// The handler's own notification's duration in place of the literal, which stays as the
    /// fallback when the notification lacks it. Unsafe: the animation's length changes.
    static func notificationDurationFix(_ value: Range<Int>, _ handler: KeyboardHandler, _ analysis: FileAnalysis) -> Fix? {
        let source = analysis.source
        let replacement: String
        switch analysis.notificationAccess(of: handler) {
        case .message(let name)?:
            replacement = "\(name).animationDuration"
        case .notification(let name)?:
            let fallback = value.count == 1 ? source.text(spanning: value) : "(\(source.text(spanning: value)))"
            replacement = "(\(name).userInfo?[UIResponder.keyboardAnimationDurationUserInfoKey] as? Double) ?? \(fallback)"
        case nil:
            return nil
        }
        return Fix(.unsafe, edits: [Edit(range: source.byteRange(value), replacement: replacement)])
    }

    /// A literal duration argument, or a constant initialised with one (`let d = 0.3`,
    /// `AnimationTiming.standard` in another file).
    func literalDuration(_ value: Range<Int>, _ analysis: FileAnalysis) -> (tokens: Range<Int>, value: Double)? {
        if let literal = analysis.literalNumber(value) { return (value, literal.value) }
        return analysis.constantNumber(value).map { (value, $0) }
    }

    /// Literal fallbacks for the duration key: `?? 0.25`, `var d = 0.3` overwritten by the key,
    /// defaults assigned in a `guard … else`, and floors (`max(0.25, duration)`).
    func fallbacks(_ analysis: FileAnalysis) -> [Diagnostic] {
        let source = analysis.source
        var diagnostics: [Diagnostic] = []
        func report(_ literal: Int) {
            diagnostics.append(Self.metadata.diagnostic(
                analysis, at: literal..<(literal + 1),
                message: "`\(source.text(at: literal))` s fallback for the keyboard's duration: a guessed timing that will not match the keyboard",
                suggestion: "Fall back to no animation (0) or skip the animation when the key is missing."))
        }
        for index in source.code.indices where source.kind(index) == .binaryOperator && source.token(source.code[index], is: "??") {
            guard let literal = analysis.literalNumber(index + 1..<(index + 2)), literal.value != 0 else { continue }
            let start = ExpressionBounds.statementStart(source, containing: index)
            var left = index - 1
            // The left operand: back to the `=` of the binding or the statement start.
            while left > start, source.kind(left) != .equal { left -= 1 }
            if analysis.keyboardValue(of: (left + 1)..<index)?.has(.duration) == true { report(literal.token) }
        }
        // Floors: `max(0.25, duration)` lengthens a short (or zero) keyboard duration to a guess.
        for call in analysis.calls where call.receiver == nil && source.isWord(call.callee, "max") && call.arguments.count >= 2 {
            guard call.arguments.contains(where: { analysis.keyboardValue(of: $0.value)?.has(.duration) == true })
            else { continue }
            for argument in call.arguments {
                if let literal = analysis.literalNumber(argument.value), literal.value != 0 { report(literal.token) }
            }
        }
        for binding in analysis.bindings where binding.isVariable {
            guard let value = binding.value, let literal = analysis.literalNumber(value), literal.value != 0 else { continue }
            let overwritten = analysis.assignments.contains { assignment in
                assignment.op > binding.nameToken && assignment.lhs.count == 1
                    && source.nameHash(assignment.lhs.lowerBound) == binding.nameHash
                    && analysis.keyboardValue(of: assignment)?.has(.duration) == true
            }
            if overwritten { report(literal.token) }
        }
        for (index, scope) in analysis.outline.scopes.enumerated() {
            guard case .block(let keyword) = scope.kind, source.isWord(keyword, "else") else { continue }
            let start = ExpressionBounds.statementStart(source, containing: keyword)
            guard source.isWord(start, "guard"),
                  analysis.keyboardValue(of: start..<keyword)?.has(.duration) == true else { continue }
            for assignment in analysis.assignments where analysis.outline.scope(at: assignment.op) == ScopeID(index) {
                if let literal = analysis.literalNumber(assignment.rhs), literal.value != 0 { report(literal.token) }
            }
        }
        return diagnostics
    }
}
