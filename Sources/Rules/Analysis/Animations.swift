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
    /// Whether the call states its curve some other way (timing parameters, control points,
    /// which may be built from the keyboard's curve): it then has no default curve to
    /// complain about.
    let hasCustomTiming: Bool
    /// Whether it animates with a spring (`dampingRatio:`, `usingSpringWithDamping:`,
    /// `bounce:`): a timing of its own, never the keyboard's curve.
    let isSpring: Bool
}

extension FileAnalysis {
    static func findAnimations(_ source: TokenizedSource, _ calls: [CallSite]) -> [AnimationCall] {
        var found: [AnimationCall] = []
        // Only calls of these names can be animations (see the branches below): the others
        // are passed over before a call is copied.
        for index in calls.indices where source.wordIndex(calls[index].callee, in: animationCallees) != nil {
            let call = calls[index]
            let receiverName = call.receiver.flatMap { ExpressionBounds.lastName(source, ofChainEndingAt: $0.upperBound - 1) }
            func argument(_ label: StaticString) -> Argument? { call.argument(label, source) }
            let custom = call.arguments.contains { argument in
                argument.label.map { source.wordIndex($0, in: ["timingParameters", "controlPoint1"]) != nil } ?? false
            }
            let spring = call.arguments.contains { argument in
                argument.label.map {
                    source.wordIndex($0, in: ["usingSpringWithDamping", "dampingRatio", "springDuration", "bounce"]) != nil
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
                curve: argument("curve"), hasCustomTiming: custom, isSpring: spring))
        }
        return found
    }

    /// The callees of `findAnimations`' branches.
    private static let animationCallees = WordList([
        "animate", "animateKeyframes", "transition", "UIViewPropertyAnimator", "runningPropertyAnimator",
        "setAnimationDuration",
    ])
}

extension FileAnalysis {
    /// Whether `call` builds a `UIView.AnimationOptions`: `UIView.AnimationOptions(…)`,
    /// `UIViewAnimationOptions(…)`, `AnimationOptions.init(…)`, or an implicit `.init(…)`
    /// passed as an animation's `options:`.
    func isAnimationOptionsInit(_ call: CallSite) -> Bool {
        var name = call.callee
        if source.isWord(name, "init"), source.kind(name - 1) == .period {
            if !ExpressionBounds.isChainPiece(source, name - 2) {
                return animations.contains { $0.options?.value.lowerBound == name - 1 }
            }
            name -= 2
        }
        return source.isWord(name, "AnimationOptions") || source.isWord(name, "UIViewAnimationOptions")
    }

    /// Whether an animation's `options:` names no curve, so it runs ease-in-out: `[]`,
    /// `UIView.AnimationOptions()`, `.init()`.
    func isEmptyAnimationOptions(_ range: Range<Int>) -> Bool {
        guard let last = range.last else { return false }
        if range.count == 2, source.kind(range.lowerBound) == .leftSquare, source.kind(last) == .rightSquare { return true }
        guard source.kind(last) == .rightParen, let open = source.partnerIndex(last), open == last - 1,
              let call = call(at: open - 1), call.arguments.isEmpty, call.trailingClosures.isEmpty else { return false }
        return isAnimationOptionsInit(call)
    }

    /// The animation whose closure contains code token `index` (innermost), or that takes the
    /// method whose body contains it by name (`animations: updateLayout`).
    func animation(enclosing index: Int) -> AnimationCall? {
        for scope in outline.enclosingScopes(from: outline.scope(at: index)) {
            if let named = animationOfNamedBody[scope] { return animations[named] }
            if case .closure(let closure) = outline[scope].kind, let call = outline[closure].call {
                let found = firstIndex(in: animations, atOrAfter: call) { $0.call }
                if found < animations.count, animations[found].call == call { return animations[found] }
            }
        }
        return nil
    }

    /// The code an animation animates: its closure arguments and the bodies of the methods it
    /// takes by name.
    func animatedBodies(of animation: AnimationCall) -> [Range<Int>] {
        let call = calls[animation.call]
        var bodies = [call.callee..<(call.end + 1)]
        for function in fileIndex.methodsPassedByName[animation.call] ?? [] {
            if let scope = outline[function].scope { bodies.append(outline[scope].body) }
        }
        return bodies
    }

    /// Whether an animation is called later than `index` in the same function or closure body.
    func hasAnimation(after index: Int) -> Bool {
        guard let sameScope = animationsByScope[outline.executableScope(at: index)],
              let last = sameScope.last else { return false }
        return calls[animations[last].call].callee > index
    }
}
