import Lexer

/// Where expressions, statements and member chains start and end. Swift's grammar decides
/// these with newlines as much as with punctuation: a line continues the previous one when
/// it starts with `.`, a binary operator or `?`/`:` of a ternary, or when the previous line
/// ends in an operator, `=`, `,` or an opening bracket.
enum ExpressionBounds {
    /// The compound assignment operators that make an `Assignment`.
    static let compoundAssignmentOperators: [StaticString] = ["+=", "-=", "*=", "/="]

    /// The exclusive end of the expression that starts at `start`. Bracket groups are
    /// skipped whole; a `{` is a trailing closure unless `stopAtBrace` (conditions, where a
    /// `{` opens the body). With `stopAtAssignment` (a right-hand side) it also ends before
    /// an assignment operator at its level: in `a = b = c` the right-hand side of `a` is
    /// `b`, and `b = c` is an assignment of its own. Letting every link of a chain run to
    /// the end of the chain made chained assignments quadratic.
    static func end(_ source: TokenizedSource, from start: Int, stopAtBrace: Bool = false,
                    stopAtComma: Bool = true, stopAtAssignment: Bool = false) -> Int {
        var cursor = start
        let count = source.code.count
        var steps = 0
        while cursor < count, steps < Limits.expressionTokens {
            steps += 1
            let kind = source.kind(cursor)
            if cursor > start, source.startsLine(cursor), !continuesLine(source, cursor) { return cursor }
            switch kind {
            // An opener without a partner (unbalanced code) is passed over like any token.
            // Running to the end of the file instead made every expression after a stray
            // bracket span the rest of the file: quadratic analysis time on broken input.
            case .leftParen, .leftSquare, .leftAngle, .stringInterpolationStart:
                guard let end = source.partnerIndex(cursor) else { cursor += 1; continue }
                cursor = end + 1
                continue
            case .leftBrace:
                if stopAtBrace { return cursor }
                guard let end = source.partnerIndex(cursor) else { cursor += 1; continue }
                cursor = end + 1
                continue
            case .rightParen, .rightSquare, .rightBrace, .rightAngle, .stringInterpolationEnd, .semicolon:
                return cursor
            case .comma:
                if stopAtComma { return cursor }
            case .equal:
                if stopAtAssignment { return cursor }
            case .binaryOperator:
                if stopAtAssignment, source.wordIndexOperator(cursor, in: compoundAssignmentOperators) { return cursor }
            case .keyword:
                if source.wordIndex(cursor, in: ["else", "in", "where", "let", "var", "return", "guard", "if", "case"]) != nil,
                   cursor > start {
                    return cursor
                }
            default:
                break
            }
            cursor += 1
        }
        return min(cursor, count)
    }

    /// Whether a token at the start of a line continues the expression of the line before.
    static func continuesLine(_ source: TokenizedSource, _ index: Int) -> Bool {
        switch source.kind(index) {
        case .period, .binaryOperator, .infixQuestionMark, .arrow, .equal:
            return true
        case .keyword:
            if source.wordIndex(index, in: ["as", "is"]) != nil { return true }
        default:
            break
        }
        switch source.kind(index - 1) {
        case .binaryOperator, .equal, .comma, .period, .infixQuestionMark, .leftParen, .leftSquare,
             .colon, .arrow, .prefixOperator:
            return true
        default:
            return false
        }
    }

    /// The first token of the statement that contains `index` (bounded backward scan).
    /// Tokens walked back from a `guard`'s `else` to find the `guard`: longer conditions are
    /// not followed.
    static let maximumGuardConditionLength = 512

    /// The `guard` keyword whose `else` is `elseToken`, however its conditions are wrapped
    /// over lines; nil when the `else` belongs to an `if`.
    static func guardKeyword(_ source: TokenizedSource, ofElse elseToken: Int) -> Int? {
        var cursor = elseToken - 1
        var steps = 0
        while cursor >= 0, steps < maximumGuardConditionLength {
            steps += 1
            let kind = source.kind(cursor)
            if kind == .rightParen || kind == .rightSquare || kind == .rightBrace, let open = source.partnerIndex(cursor) {
                // A closing brace right before `else` ends an `if` body.
                if kind == .rightBrace, cursor == elseToken - 1 { return nil }
                cursor = open - 1
                continue
            }
            if kind == .leftBrace || kind == .semicolon || kind == .leftParen || kind == .leftSquare { return nil }
            if kind == .keyword {
                if source.isWord(cursor, "guard") { return cursor }
                if source.wordIndex(cursor, in: ["if", "while", "return", "func", "var"]) != nil { return nil }
            }
            cursor -= 1
        }
        return nil
    }

    /// Whether the colon at `colon` ends a `case …:` or `default:` label of a `switch` whose
    /// first statement starts on the next line.
    static func isCaseLabel(endingAt colon: Int, _ source: TokenizedSource) -> Bool {
        guard source.kind(colon) == .colon, source.startsLine(colon + 1) else { return false }
        let start = statementStart(source, containing: colon)
        return source.kind(start) == .keyword && source.wordIndex(start, in: ["case", "default"]) != nil
    }

    static func statementStart(_ source: TokenizedSource, containing index: Int) -> Int {
        var cursor = index
        var steps = 0
        while cursor > 0, steps < Limits.expressionTokens {
            steps += 1
            let kind = source.kind(cursor - 1)
            if kind == .rightParen || kind == .rightSquare || kind == .rightBrace || kind == .rightAngle {
                if let open = source.partnerIndex(cursor - 1) {
                    if source.startsLine(cursor), !continuesLine(source, cursor) { return cursor }
                    cursor = open
                    continue
                }
            }
            if kind == .leftParen || kind == .leftSquare || kind == .leftBrace || kind == .semicolon {
                return cursor
            }
            if source.isWord(cursor - 1, "in"), source.kind(cursor - 1) == .keyword { return cursor }
            if source.startsLine(cursor), !continuesLine(source, cursor) { return cursor }
            cursor -= 1
        }
        return cursor
    }

    /// One step of the backward walk to a member chain's first token from token `index`:
    /// the token the chain continues at, or the chain's start. Calls and subscripts inside
    /// the chain are passed over whole; an implicit member (`.zero`) starts at its `.`. The
    /// one definition of where a chain starts, for the walk and the table alike.
    enum ChainStep { case continues(at: Int), starts(at: Int) }

    @inline(__always)
    static func chainStep(_ source: TokenizedSource, at index: Int) -> ChainStep {
        switch source.kind(index) {
        case .rightParen, .rightSquare, .rightAngle:
            guard let open = source.partnerIndex(index) else { return .starts(at: index) }
            if !source.startsLine(open), isChainPiece(source, open - 1) { return .continues(at: open - 1) }
            return .starts(at: open)
        case .postfixQuestionMark, .exclamationMark:
            return .continues(at: index - 1)
        case .identifier, .keyword:
            guard source.kind(index - 1) == .period else { return .starts(at: index) }
            return isChainPiece(source, index - 2) ? .continues(at: index - 2) : .starts(at: index - 1)
        case .integerLiteral, .floatLiteral:
            return .starts(at: index)
        default:
            return .starts(at: index + 1)
        }
    }

    /// The last name of the chain that ends at `end` at the chain's own level: what
    /// `chainNames(chainStart(endingAt: end)...end).last` finds, walking back only to that
    /// name (`UIView` in `UIView.animate`, `animator` in `self.animator?`), so that reading
    /// it for every call of a long call chain stays linear.
    static func lastName(_ source: TokenizedSource, ofChainEndingAt end: Int) -> Int? {
        var cursor = end
        while cursor >= 0 {
            switch source.kind(cursor) {
            case .identifier, .keyword:
                return cursor
            case .postfixQuestionMark, .exclamationMark:
                cursor -= 1
            case .rightParen, .rightSquare, .rightAngle:
                guard let open = source.partnerIndex(cursor), !source.startsLine(open),
                      isChainPiece(source, open - 1) else { return nil }
                cursor = open - 1
            default:
                return nil
            }
        }
        return nil
    }

    static func isChainPiece(_ source: TokenizedSource, _ index: Int) -> Bool {
        switch source.kind(index) {
        case .identifier, .rightParen, .rightSquare, .postfixQuestionMark, .exclamationMark, .rightAngle:
            return true
        case .keyword:
            return source.wordIndex(index, in: ["self", "super", "Self", "init"]) != nil
        default:
            return false
        }
    }

    /// The last token of the member chain that starts at `start` (calls and subscripts
    /// included, trailing closures not).
    static func chainEnd(_ source: TokenizedSource, startingAt start: Int) -> Int {
        var cursor = start
        if source.kind(cursor) == .period { cursor += 1 }
        var steps = 0
        while steps < Limits.expressionTokens {
            steps += 1
            let next = cursor + 1
            switch source.kind(next) {
            case .period:
                let kind = source.kind(next + 1)
                guard kind == .identifier || kind == .keyword || kind == .integerLiteral else { return cursor }
                cursor = next + 1
            case .leftParen, .leftSquare:
                guard !source.startsLine(next), let close = source.partnerIndex(next) else { return cursor }
                cursor = close
            case .postfixQuestionMark, .exclamationMark:
                cursor = next
            case .leftAngle:
                guard let close = source.partnerIndex(next) else { return cursor }
                cursor = close
            default:
                return cursor
            }
        }
        return cursor
    }

    /// The member names of a chain at its own level (not inside call arguments), in order:
    /// `self.scrollView.contentInset.bottom` → `self`, `scrollView`, `contentInset`, `bottom`.
    static func chainNames(_ source: TokenizedSource, _ range: Range<Int>, upTo limit: Int = .max) -> [Int] {
        // This is asked for most calls, assignments and bindings of a file, and chains mostly
        // have a few names: those are gathered on the stack in one walk and copied into an
        // array allocated once at its size. A longer chain is counted in that walk and
        // gathered in a second one.
        let gatheredCapacity = 8
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: gatheredCapacity) { gathered in
            var count = 0
            _ = source.firstTopLevel(in: range) { cursor in
                let kind = source.kind(cursor)
                if kind == .identifier || kind == .keyword {
                    if count < gatheredCapacity { gathered[count] = cursor }
                    count += 1
                }
                return count >= limit
            }
            guard count > gatheredCapacity else { return Array(UnsafeBufferPointer(rebasing: gathered[..<count])) }
            var names: [Int] = []
            names.reserveCapacity(count)
            _ = source.firstTopLevel(in: range) { cursor in
                let kind = source.kind(cursor)
                if kind == .identifier || kind == .keyword { names.append(cursor) }
                return names.count >= limit
            }
            return names
        }
    }

    /// The name of a chain that has exactly one (`self`, `strongSelf?`), else nil: what
    /// `chainNames(_:_:upTo: 2)` tells when it finds one name, without an array.
    static func soleChainName(_ source: TokenizedSource, _ range: Range<Int>) -> Int? {
        var name: Int?
        var count = 0
        _ = source.firstTopLevel(in: range) { cursor in
            let kind = source.kind(cursor)
            if kind == .identifier || kind == .keyword {
                count += 1
                name = cursor
            }
            return count >= 2
        }
        return count == 1 ? name : nil
    }
}

/// The first token of the postfix expression (member chain) that ends at each token
/// (`self.scrollView.contentInset` for an end at `contentInset`, see `chainStep`), from one
/// forward pass: a chain's start is found once, not once per member, call and assignment
/// along it (walking back from each made long chains quadratic). The one answer to "where
/// does this chain start": `FileIndex.chainStart(endingAt:)`.
struct ChainStarts: Sendable {
    /// Per code token: where the walk ends once it has reached that token.
    let reached: [Int32]

    init(_ source: TokenizedSource) {
        let count = source.code.count
        reached = [Int32](unsafeUninitializedCapacity: count) { reached, initialized in
            // A step only ever continues at an earlier token, whose walk is known by then
            // (a token before the file reads as 0).
            for index in 0..<count {
                switch ExpressionBounds.chainStep(source, at: index) {
                case .continues(let next): reached[index] = next >= 0 && next < index ? reached[next] : 0
                case .starts(let start): reached[index] = Int32(truncatingIfNeeded: start)
                }
            }
            initialized = count
        }
    }

    /// The first token of the member chain that ends at `end`.
    func chainStart(endingAt end: Int) -> Int {
        guard end >= 0 else { return 0 }
        guard end < reached.count else { return end }
        // A token that is no chain piece ends the walk where it starts.
        return min(Int(reached[end]), end)
    }
}
