import Lexer

/// A UIKit/Core Animation call that animates layout: `UIView.animate(withDuration:…)`,
/// `animateKeyframes`, `transition(with:duration:…)`, `UIViewPropertyAnimator(duration:…)`,
/// `runningPropertyAnimator(withDuration:…)`, `CATransaction.setAnimationDuration(_:)`.
struct AnimationCall: Sendable {
    enum Kind: Sendable, Hashable {
        case animate, keyframes, transition, propertyAnimator, runningPropertyAnimator, transactionDuration
    }
    let kind: Kind
    /// Index into `FileAnalysis.calls`.
    let call: Int
    /// The duration argument.
    let duration: Argument?
    /// The `options:` argument.
    let options: Argument?
    /// The `curve:` argument (`UIViewPropertyAnimator`).
    let curve: Argument?
    /// Whether the call states its curve some other way (spring, timing parameters, control
    /// points): it then has no default curve to complain about.
    let hasCustomTiming: Bool
}

extension FileAnalysis {
    static func findAnimations(_ source: TokenizedSource, _ calls: [CallSite]) -> [AnimationCall] {
        var found: [AnimationCall] = []
        for (index, call) in calls.enumerated() {
            let receiverName = call.receiver.flatMap { ExpressionBounds.lastName(source, ofChainEndingAt: $0.upperBound - 1) }
            func argument(_ label: StaticString) -> Argument? { call.argument(label, source) }
            let custom = call.arguments.contains { argument in
                argument.label.map {
                    source.wordIndex($0, in: ["usingSpringWithDamping", "dampingRatio", "timingParameters",
                                              "controlPoint1", "springDuration", "bounce"]) != nil
                } ?? false
            }
            let onView = receiverName.map { source.isWord($0, "UIView") || source.isWord($0, "Self") } ?? true
            let kind: AnimationCall.Kind
            var duration: Argument?
            if source.isWord(call.callee, "animate"), onView,
               let value = argument("withDuration") ?? argument("springDuration") {
                kind = .animate
                duration = value
            } else if source.isWord(call.callee, "animateKeyframes"), onView, let value = argument("withDuration") {
                kind = .keyframes
                duration = value
            } else if source.isWord(call.callee, "transition"), onView, let value = argument("duration") {
                kind = .transition
                duration = value
            } else if source.isWord(call.callee, "UIViewPropertyAnimator"), let value = argument("duration") {
                kind = .propertyAnimator
                duration = value
            } else if source.isWord(call.callee, "runningPropertyAnimator"), let value = argument("withDuration") {
                kind = .runningPropertyAnimator
                duration = value
            } else if source.isWord(call.callee, "setAnimationDuration"),
                      receiverName.map({ source.isWord($0, "CATransaction") }) ?? false {
                kind = .transactionDuration
                duration = call.arguments.first
            } else {
                continue
            }
            found.append(AnimationCall(
                kind: kind, call: index, duration: duration, options: argument("options"),
                curve: argument("curve"), hasCustomTiming: custom))
        }
        return found
    }
}

extension FileAnalysis {
    /// The animation whose closure contains code token `index` (innermost).
    func animation(enclosing index: Int) -> AnimationCall? {
        var current = outline.scope(at: index)
        var steps = 0
        while let scope = current, steps < 10_000 {
            steps += 1
            if case .closure(let closure) = outline.scopes[scope].kind, let call = outline.closures[closure].call {
                let found = firstIndex(in: animations, atOrAfter: call) { $0.call }
                if found < animations.count, animations[found].call == call { return animations[found] }
            }
            current = outline.scopes[scope].parent
        }
        return nil
    }

    /// Whether an animation is called later than `index` in the same function or closure body.
    func hasAnimation(after index: Int) -> Bool {
        guard let sameScope = animationsByScope[outline.executableScope(at: index) ?? -1],
              let last = sameScope.last else { return false }
        return calls[animations[last].call].callee > index
    }
}
