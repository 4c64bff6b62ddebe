import Lexer

/// A call that subscribes to notifications — `addObserver` (selector, block, iOS 26 typed
/// message), `publisher(for:)`, `rx.notification(…)`, `notifications(named:)` — for any
/// notification, with what happens to the observer it returns. Observer rules (tokens,
/// lifecycles, object filters) start here.
public struct ObserverRegistration: Sendable {
    public enum Kind: Sendable, Hashable {
        case selector, block, typedMessage, publisher, rxNotification, asyncSequence
    }

    /// What the code does with the returned token, cancellable or sequence.
    public enum ResultUse: Sendable, Hashable {
        /// Thrown away: a statement of its own, or `_ = …`.
        case discarded
        /// Assigned to a property or variable (`token = …`, `self.token = …`).
        case assigned(lhs: Range<Int>)
        /// Bound to a new local (`let token = …`).
        case bound(name: Int)
        /// `.store(in: &cancellables)` at the end of a publisher chain.
        case storedInCollection
        /// Returned, passed as an argument or appended to a collection.
        case passedOn
        /// Anything else (a `for await` loop, a longer expression).
        case other
    }

    public let kind: Kind
    /// Index into `FileAnalysis.calls`.
    public let call: Int
    /// The keyboard notifications or messages registered for (empty for other notifications).
    public let events: [KeyboardEvent]
    /// The `object:` (or `of:`) argument.
    public let object: Range<Int>?
    /// The function whose body contains the registration (nil at file level or in a closure
    /// property initializer).
    public let function: Int?
    public let result: ResultUse
}

extension FileAnalysis {
    static func findRegistrations(_ source: TokenizedSource, _ outline: Outline, _ calls: [CallSite],
                                  callAtCallee: [Int: Int], constants: ConstantResolver) -> [ObserverRegistration] {
        var found: [ObserverRegistration] = []
        for (index, call) in calls.enumerated() {
            let kind: ObserverRegistration.Kind
            let callee = call.callee
            func label(_ argument: Argument, _ word: StaticString) -> Bool {
                argument.label.map { source.isWord($0, word) } ?? false
            }
            if source.isWord(callee, "addObserver") {
                if call.arguments.contains(where: { label($0, "selector") }) {
                    kind = .selector
                } else if call.arguments.contains(where: { label($0, "forName") }) {
                    kind = .block
                } else if call.arguments.contains(where: { label($0, "of") || label($0, "for") || label($0, "forMessage") }) {
                    kind = .typedMessage
                } else {
                    continue
                }
            } else if source.isWord(callee, "publisher"), call.arguments.first.map({ label($0, "for") }) ?? false {
                kind = .publisher
            } else if source.isWord(callee, "notifications"), call.arguments.first.map({ label($0, "named") }) ?? false {
                kind = .asyncSequence
            } else if source.isWord(callee, "notification"), let receiver = call.receiver,
                      source.isWord(receiver.upperBound - 1, "rx") {
                kind = .rxNotification
            } else {
                continue
            }
            let events = KeyboardHandlerFinder.registeredEvents(
                call, messages: kind == .typedMessage, source, outline, calls, constants: constants)
            let object = call.arguments.first { label($0, "object") || label($0, "of") }?.value
            let function = outline.executableScope(at: callee).flatMap {
                outline.function(ofScope: outline.functionBody(ofScope: $0))
            }
            found.append(ObserverRegistration(
                kind: kind, call: index, events: events, object: object, function: function,
                result: resultUse(of: call, kind: kind, source, calls, callAtCallee)))
        }
        return found
    }

    /// How the value of the registration expression (the whole chain for publishers) is used.
    static func resultUse(of call: CallSite, kind: ObserverRegistration.Kind, _ source: TokenizedSource,
                          _ calls: [CallSite], _ callAtCallee: [Int: Int]) -> ObserverRegistration.ResultUse {
        var end = call.end
        var last = call.callee
        var steps = 0
        while steps < 64, source.kind(end + 1) == .period, let next = callAtCallee[end + 2] {
            steps += 1
            last = calls[next].callee
            end = calls[next].end
        }
        if source.isWord(last, "store") { return .storedInCollection }
        if kind == .asyncSequence { return .other }
        let start = call.start
        let before = start - 1
        switch source.kind(before) {
        case .equal:
            let lhsStart = ExpressionBounds.chainStart(source, endingAt: before - 1)
            if source.isWord(lhsStart, "_"), lhsStart == before - 1 { return .discarded }
            if source.wordIndex(lhsStart - 1, in: ["let", "var"]) != nil { return .bound(name: lhsStart) }
            if source.kind(before - 1) == .rightParen || source.kind(before - 1) == .identifier
                || source.kind(before - 1) == .keyword {
                // `let token: NSObjectProtocol = …`
                let statement = ExpressionBounds.statementStart(source, containing: before)
                if source.wordIndex(statement, in: ["let", "var"]) != nil, source.kind(statement + 1) == .identifier {
                    return .bound(name: statement + 1)
                }
                return .assigned(lhs: lhsStart..<before)
            }
            return .other
        case .colon where ExpressionBounds.isCaseLabel(endingAt: before, source):
            // The first statement of a `switch` case.
            return .discarded
        case .leftParen, .comma, .colon, .leftSquare:
            return .passedOn
        case .keyword:
            if source.isWord(before, "return") { return .passedOn }
            if source.isWord(before, "in") || source.isWord(before, "else") { return .discarded }
            return .other
        default:
            // A statement of its own.
            if ExpressionBounds.statementStart(source, containing: start) == start,
               ExpressionBounds.end(source, from: start, stopAtComma: false) > end {
                return .discarded
            }
            return .other
        }
    }
}
