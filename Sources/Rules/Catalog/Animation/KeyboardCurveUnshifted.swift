import Lexer

/// The keyboard's curve is a `UIView.AnimationCurve` raw value; `AnimationOptions` keeps the
/// curve in bits 16–19.
public struct KeyboardCurveUnshifted: Rule {
    public static let metadata = RuleMetadata(
        id: "keyboard_curve_unshifted",
        category: .animation,
        defaultSeverity: .error,
        summary: "`UIView.AnimationOptions(rawValue:)` gets the keyboard's curve without `<< 16`.",
        rationale: """
        `keyboardAnimationCurveUserInfoKey` holds a `UIView.AnimationCurve` raw value (7 for the keyboard), \
        while `UIView.AnimationOptions` stores the curve in bits 16–19. Used unshifted, 7 sets the low bits \
        instead: `.layoutSubviews`, `.allowUserInteraction` and `.beginFromCurrentState`, and the animation \
        runs with the default ease-in-out curve, out of step with the keyboard.
        """,
        fix: "Shift the raw curve into place: `UIView.AnimationOptions(rawValue: curve << 16)`.",
        fixAvailability: .safe,
        triggering: [
            RuleExample("""
            final class LoginViewController: UIViewController {
                @objc func keyboardWillShow(_ notification: Notification) {
                    guard let curve = notification.userInfo?[UIResponder.keyboardAnimationCurveUserInfoKey] as? UInt else { return }
                    let options = UIView.AnimationOptions(rawValue: ↓curve)
                    UIView.animate(withDuration: 0.25, delay: 0, options: options) { self.view.layoutIfNeeded() }
                }
            }
            """),
            RuleExample("""
            final class ComposerViewController: UIViewController {
                func observe() {
                    token = NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillHideNotification, object: nil, queue: .main) { [weak self] note in
                        let curveRaw = note.userInfo?[UIResponder.keyboardAnimationCurveUserInfoKey] as? Int ?? 0
                        UIView.animate(withDuration: 0.25, delay: 0, options: UIView.AnimationOptions(rawValue: ↓UInt(curveRaw))) {
                            self?.view.layoutIfNeeded()
                        }
                    }
                }
            }
            """),
            RuleExample("""
            class LegacyViewController: UIViewController {
                func keyboardWillChangeFrame(_ note: NSNotification) {
                    let info = note.userInfo!
                    let options = UIViewAnimationOptions(rawValue: ↓(info[UIKeyboardAnimationCurveUserInfoKey] as! NSNumber).uintValue)
                    UIView.animate(withDuration: 0.25, delay: 0, options: options, animations: { self.view.layoutIfNeeded() })
                }
            }
            """),
            RuleExample("""
            final class FeedViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    let options = UIView.AnimationOptions(rawValue: ↓note.keyboardCurve)
                    UIView.animate(withDuration: 0.25, delay: 0, options: options) { self.view.layoutIfNeeded() }
                }
            }
            """, files: ["Notification+Keyboard.swift": """
            extension Notification {
                var keyboardCurve: UInt {
                    (userInfo?[UIResponder.keyboardAnimationCurveUserInfoKey] as? NSNumber)?.uintValue ?? 0
                }
            }
            """]),
            RuleExample("""
            final class ChatViewController: UIViewController {
                func observe(on screen: UIScreen) {
                    token = NotificationCenter.default.addObserver(of: screen, for: .keyboardWillShow) { [weak self] message in
                        let options = UIView.AnimationOptions(rawValue: ↓UInt(message.animationCurve.rawValue))
                        UIView.animate(withDuration: message.animationDuration, delay: 0, options: options) {
                            self?.view.layoutIfNeeded()
                        }
                    }
                }
            }
            """),
        ],
        nonTriggering: [
            RuleExample("""
            @objc func keyboardWillShow(_ notification: Notification) {
                guard let curve = notification.userInfo?[UIResponder.keyboardAnimationCurveUserInfoKey] as? UInt else { return }
                let options = UIView.AnimationOptions(rawValue: curve << 16)
            }
            """),
            RuleExample("""
            @objc func keyboardWillShow(_ notification: Notification) {
                let raw = notification.userInfo?[UIResponder.keyboardAnimationCurveUserInfoKey] as? UInt ?? 7
                let shifted = raw << 16
                let options = UIView.AnimationOptions(rawValue: shifted)
            }
            """),
            RuleExample("""
            @objc func keyboardWillShow(_ notification: Notification) {
                let options = UIView.AnimationOptions(rawValue: settings.preferredCurve)
            }
            """),
            RuleExample("""
            @objc func keyboardWillShow(_ notification: Notification) {
                guard let raw = notification.userInfo?[UIResponder.keyboardAnimationCurveUserInfoKey] as? Int,
                      let curve = UIView.AnimationCurve(rawValue: raw) else { return }
                animator = UIViewPropertyAnimator(duration: 0.25, curve: curve)
            }
            """),
            RuleExample("""
            @objc func keyboardWillShow(_ notification: Notification) {
                let raw = notification.userInfo?[UIResponder.keyboardAnimationCurveUserInfoKey] as? Int ?? 0
                let options = UIView.AnimationOptions(rawValue: UInt(raw) << 16)
            }
            """),
            RuleExample("""
            @objc func keyboardWillShow(_ notification: Notification) {
                let options = UIView.AnimationOptions(rawValue: 7 << 16)
            }
            """),
            RuleExample("""
            @objc func keyboardWillShow(_ notification: Notification) {
                let curve = notification.userInfo?[UIResponder.keyboardAnimationCurveUserInfoKey] as? UInt ?? 0
                let options = UIView.AnimationOptions(rawValue: (curve << 16) | UIView.AnimationOptions.beginFromCurrentState.rawValue)
            }
            """),
        ],
        corrections: [
            RuleCorrection("""
            @objc func keyboardWillShow(_ notification: Notification) {
                let curve = notification.userInfo?[UIResponder.keyboardAnimationCurveUserInfoKey] as? UInt ?? 0
                let options = UIView.AnimationOptions(rawValue: curve)
            }
            """, """
            @objc func keyboardWillShow(_ notification: Notification) {
                let curve = notification.userInfo?[UIResponder.keyboardAnimationCurveUserInfoKey] as? UInt ?? 0
                let options = UIView.AnimationOptions(rawValue: curve << 16)
            }
            """),
            RuleCorrection("""
            @objc func keyboardWillShow(_ notification: Notification) {
                let options = UIView.AnimationOptions(rawValue: notification.userInfo?[UIResponder.keyboardAnimationCurveUserInfoKey] as! UInt)
            }
            """, """
            @objc func keyboardWillShow(_ notification: Notification) {
                let options = UIView.AnimationOptions(rawValue: (notification.userInfo?[UIResponder.keyboardAnimationCurveUserInfoKey] as! UInt) << 16)
            }
            """),
            RuleCorrection("""
            @objc func keyboardWillShow(_ notification: Notification) {
                let curve = notification.userInfo?[UIResponder.keyboardAnimationCurveUserInfoKey] as? UInt
                let options = UIView.AnimationOptions(rawValue: (curve ?? 7) | UIView.AnimationOptions.beginFromCurrentState.rawValue)
            }
            """, """
            @objc func keyboardWillShow(_ notification: Notification) {
                let curve = notification.userInfo?[UIResponder.keyboardAnimationCurveUserInfoKey] as? UInt
                let options = UIView.AnimationOptions(rawValue: (curve ?? 7) << 16 | UIView.AnimationOptions.beginFromCurrentState.rawValue)
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
        for call in analysis.calls {
            guard call.arguments.count == 1, analysis.isAnimationOptionsInit(call),
                  let argument = analysis.argument(call, "rawValue"), !argument.value.isEmpty,
                  let value = analysis.keyboardValue(of: argument.value), value.has(.curve), !value.has(.shifted)
            else { continue }
            // In `curve | UIView.AnimationOptions.x.rawValue` only the curve operand is shifted.
            let operands = Self.bitwiseOrOperands(argument.value, source)
            let curveOperands = operands.count == 1 ? operands : operands.filter {
                guard let value = analysis.keyboardValue(of: $0) else { return false }
                return value.has(.curve) && !value.has(.shifted)
            }
            let operand = curveOperands.first ?? argument.value
            let text = source.text(spanning: operand)
            let isSingleChain = analysis.chainStart(endingAt: operand.upperBound - 1) == operand.lowerBound
            let range = source.byteRange(operand)
            let shifted = isSingleChain ? "\(text) << 16" : "(\(text)) << 16"
            // A fallback that is already an options value (`?? .curveEaseOut.rawValue`) must not
            // be shifted again; which part to shift there is the author's call.
            let isMechanical = curveOperands.count == 1 && !Self.mentionsAnimationOptions(operand, source)
            let fix = isMechanical
                ? Fix(.safe, edits: isSingleChain
                    ? [Edit(range: range.upperBound..<range.upperBound, replacement: " << 16")]
                    : [Edit(range: range.lowerBound..<range.lowerBound, replacement: "("),
                       Edit(range: range.upperBound..<range.upperBound, replacement: ") << 16")])
                : nil
            diagnostics.append(Self.metadata.diagnostic(
                analysis, at: argument.value,
                message: "`\(analysis.snippet(argument.value))` is the keyboard's raw curve (7): unshifted it sets `.layoutSubviews`, `.allowUserInteraction` and `.beginFromCurrentState` instead of a curve",
                suggestion: isMechanical ? "Write `\(shifted)`." : "Shift only the keyboard's curve by 16 bits, not the animation options around it.",
                fix: fix))
        }
        return diagnostics
    }

    /// The operands of the top-level `|` operators of `range` (the whole range when it has none).
    static func bitwiseOrOperands(_ range: Range<Int>, _ source: TokenizedSource) -> [Range<Int>] {
        var operands: [Range<Int>] = []
        var start = range.lowerBound
        while let bar = source.firstTopLevel(in: start..<range.upperBound, where: { source.isToken($0, .binaryOperator, "|") }) {
            operands.append(start..<bar)
            start = bar + 1
        }
        operands.append(start..<range.upperBound)
        return operands.filter { !$0.isEmpty }
    }

    /// Whether `range` names an animation option (`UIView.AnimationOptions.curveEaseOut.rawValue`):
    /// such a value is already shifted.
    static func mentionsAnimationOptions(_ range: Range<Int>, _ source: TokenizedSource) -> Bool {
        range.contains { index in
            source.isWord(index, "AnimationOptions") || source.isWord(index, "UIViewAnimationOptions")
                || ["curveEaseIn", "curveEaseOut", "curveEaseInOut", "curveLinear"].contains(source.text(at: index))
        }
    }

    /// `UIView.AnimationOptions(…)`, `UIViewAnimationOptions(…)`, `AnimationOptions.init(…)`.
    static func isAnimationOptionsInit(_ call: CallSite, _ source: TokenizedSource) -> Bool {
        var name = call.callee
        if source.isWord(name, "init"), source.kind(name - 1) == .period { name -= 2 }
        return source.isWord(name, "AnimationOptions") || source.isWord(name, "UIViewAnimationOptions")
    }
}
