import Lexer

extension KeyboardHandlerFinder {
    /// Closures stored in a project wrapper's table under a keyboard event,
    /// `callbacks[.willShow] = { notification in … }`: the wrapper calls them when that
    /// notification fires, so they are wrapper-event handlers registered at the assignment.
    mutating func eventTableRegistrations() {
        for assignment in assignments where !assignment.isCompound {
            let close = assignment.lhs.upperBound - 1
            guard source.kind(close) == .rightSquare, let open = source.partnerIndex(close), close - open == 3,
                  source.kind(open + 1) == .period,
                  let position = source.wordIndex(open + 2, in: KeyboardVocabulary.wrapperEvents),
                  let event = KeyboardEvent(rawValue: position) else { continue }
            let brace = assignment.rhs.lowerBound
            guard source.kind(brace) == .leftBrace, source.partnerIndex(brace) == assignment.rhs.upperBound - 1,
                  let scope = outline.scope(at: brace), outline.scopes[scope].open == brace,
                  case .closure(let closure) = outline.scopes[scope].kind else { continue }
            add(.wrapperEvent, scope: scope, events: [event], registration: assignment.lhs.lowerBound,
                parameter: outline.closures[closure].parameters.first)
        }
    }
}
