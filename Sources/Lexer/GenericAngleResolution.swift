/// Finds the `<`…`>` pairs that Swift parses as generic brackets and turns them into
/// `leftAngle` / `rightAngle` tokens, splitting closers such as `>>` or `>?>` the way the
/// compiler's parser does (`Array<Array<Int>>` ends in two `>`, `Box<T?>?` in `>` and `?`).
///
/// The test is the compiler's: the tokens between the brackets must read as a list of types
/// (or integer literals), and unless the name stands where only a type can, the token after
/// `>` must be one that cannot continue a comparison (`(`, `.`, `)`, `,`, `{`, …). It runs
/// in one pass with a stack, so it is linear whatever the nesting.
struct GenericAngleResolution {
    /// A closing operator token and how many of its leading bytes belong to the generic
    /// brackets (`>` closers and the `?`/`!` between them).
    struct Split {
        var token: Int
        var consumed: Int
    }

    struct Entry {
        var token: Int
        var isAngle: Bool
    }

    let bytes: UnsafeBufferPointer<UInt8>
    var stack: [Entry] = []
    var pendingOpens: [Int] = []
    var pendingSplits: [Split] = []
    var acceptedOpens: [Int] = []
    var acceptedSplits: [Split] = []
    var outermostIsTypeContext = false
    /// The last accepted outermost pair, so that `A<B>.C<D>` can see that `C` is a member of
    /// a generic type.
    var lastOuterOpen = -1
    var lastOuterClose = -1
    /// The opener of the first inner list that closed while the outer one was still open.
    /// When the outer list fails, lists that had not closed fail at the same token, so only
    /// from here is a second look worthwhile.
    var firstClosedInner = -1

    /// `candidates` are the indices of the tokens that may open a list (lone `<` operators and
    /// `<` split off operator names), in increasing order.
    static func resolve(_ tokens: inout [Token], candidates: [Int], bytes: UnsafeBufferPointer<UInt8>) {
        var resolution = GenericAngleResolution(bytes: bytes)
        resolution.run(&tokens, candidates: candidates)
        guard !resolution.acceptedOpens.isEmpty else { return }
        for open in resolution.acceptedOpens { tokens[open].kind = .leftAngle }
        resolution.split(&tokens)
    }

    @inline(__always)
    func byteAt(_ index: Int) -> UInt8 { index >= 0 && index < bytes.count ? bytes[index] : 0 }

    func spells(_ token: Token, _ word: StaticString) -> Bool {
        guard token.length == word.utf8CodeUnitCount else { return false }
        let start = Int(token.start)
        for index in 0..<token.length where byteAt(start + index) != word.utf8Start[index] { return false }
        return true
    }

    func previousCode(_ tokens: [Token], before index: Int) -> Int {
        var cursor = index - 1
        while cursor >= 0, tokens[cursor].kind.isComment { cursor -= 1 }
        return cursor
    }

    mutating func abandon() {
        stack.removeAll(keepingCapacity: true)
        pendingOpens.removeAll(keepingCapacity: true)
        pendingSplits.removeAll(keepingCapacity: true)
    }

    /// Scans from each candidate while a list is open. When a list fails, the complete lists
    /// inside it get their own chance (`a < Box<Int>.max {`), within a budget that keeps the
    /// whole pass linear.
    mutating func run(_ tokens: inout [Token], candidates: [Int]) {
        var retryBudget = 4 * tokens.count + 64
        var nextCandidate = 0
        var index = 0
        while nextCandidate < candidates.count {
            let candidateSlot = nextCandidate
            let opener = candidates[candidateSlot]
            nextCandidate += 1
            guard opener >= index, opener < tokens.count else { continue }
            guard let typeContext = openerContext(tokens, opener, previous: previousCode(tokens, before: opener)) else {
                continue
            }
            outermostIsTypeContext = typeContext
            firstClosedInner = -1
            stack.append(Entry(token: opener, isAngle: true))
            pendingOpens.append(opener)
            index = opener + 1
            var previous = opener
            var failed = false
            while index < tokens.count, !stack.isEmpty {
                let token = tokens[index]
                if token.kind.isComment {
                    index += 1
                    continue
                }
                if isAngleToken(token), let _ = openerContext(tokens, index, previous: previous) {
                    stack.append(Entry(token: index, isAngle: true))
                    pendingOpens.append(index)
                } else if token.kind.isOperator, byteAt(Int(token.start)) == UInt8(ascii: ">") {
                    if !close(tokens, index) { failed = true }
                } else {
                    switch token.kind {
                    case .leftParen, .leftSquare:
                        stack.append(Entry(token: index, isAngle: false))
                    case .rightParen, .rightSquare:
                        if let top = stack.last, !top.isAngle {
                            stack.removeLast()
                        } else {
                            failed = true
                        }
                    default:
                        if !isTypeToken(token) { failed = true }
                    }
                }
                if failed { break }
                previous = index
                index += 1
            }
            if !stack.isEmpty { failed = true }
            if failed {
                abandon()
                let scanned = index - opener
                if firstClosedInner > opener, retryBudget >= scanned {
                    retryBudget -= scanned
                    index = firstClosedInner
                    var slot = candidateSlot + 1
                    while slot < candidates.count, candidates[slot] < firstClosedInner { slot += 1 }
                    nextCandidate = slot
                }
            }
        }
    }

    @inline(__always)
    func isAngleToken(_ token: Token) -> Bool {
        token.kind == .leftAngle || (token.length == 1 && token.kind.isOperator
            && byteAt(Int(token.start)) == UInt8(ascii: "<"))
    }

    /// Whether the token at `index` may open generic brackets; if so, whether the name
    /// before it stands where only a type can (then no follower test applies).
    func openerContext(_ tokens: [Token], _ index: Int, previous: Int) -> Bool? {
        let token = tokens[index]
        if token.kind == .leftAngle { return true }  // split off an operator name by the lexer
        guard token.kind.isOperator, token.length == 1, byteAt(Int(token.start)) == UInt8(ascii: "<"),
              previous >= 0 else { return nil }
        let before = tokens[previous]
        switch before.kind {
        case .identifier, .keyword:
            // In `func < (…)` the `<` is the name being declared.
            if before.kind == .keyword, spells(before, "func") { return nil }
            return isTypeContext(tokens, index)
        case .postfixQuestionMark, .exclamationMark:
            // `init?<T>(…)`
            let name = previousCode(tokens, before: previous)
            return name >= 0 && spells(tokens[name], "init") ? true : nil
        case .binaryOperator, .prefixOperator, .postfixOperator, .prefixAmpersand, .equal:
            // `static func * <T>(…)`
            let name = previousCode(tokens, before: previous)
            return name >= 0 && spells(tokens[name], "func") ? true : nil
        default:
            return nil
        }
    }

    func isTypeToken(_ token: Token) -> Bool {
        switch token.kind {
        case .identifier, .keyword, .period, .comma, .colon, .postfixQuestionMark, .exclamationMark,
             .arrow, .atSign, .integerLiteral:
            return true
        case .prefixOperator:
            let first = byteAt(Int(token.start))
            return token.length == 1 && (first == UInt8(ascii: "~") || first == UInt8(ascii: "-"))
        case .postfixOperator:
            return token.length == 3 && byteAt(Int(token.start)) == UInt8(ascii: ".")
        case .binaryOperator, .prefixAmpersand:
            return token.length == 1 && byteAt(Int(token.start)) == UInt8(ascii: "&")
        default:
            return false
        }
    }

    /// Walks the bytes of an operator token that starts with `>`: each `>` closes the
    /// innermost open `<`, a `?` or `!` between closers is an optional marker.
    mutating func close(_ tokens: [Token], _ index: Int) -> Bool {
        let token = tokens[index]
        let start = Int(token.start)
        var offset = 0
        var consumed = 0
        while offset < token.length {
            let c = byteAt(start + offset)
            if c == UInt8(ascii: ">") {
                guard let top = stack.last, top.isAngle else { break }
                stack.removeLast()
                if !stack.isEmpty, firstClosedInner < 0 { firstClosedInner = top.token }
                offset += 1
                consumed = offset
                if stack.isEmpty { break }
            } else if (c == UInt8(ascii: "?") || c == UInt8(ascii: "!")) && offset > 0 {
                offset += 1
            } else {
                break
            }
        }
        guard consumed > 0 else { return false }
        pendingSplits.append(Split(token: index, consumed: consumed))
        if stack.isEmpty {
            guard outermostIsTypeContext || followerAllowsGeneric(tokens, index, consumed: consumed) else {
                return false
            }
            lastOuterOpen = pendingOpens[0]
            lastOuterClose = index
            acceptedOpens.append(contentsOf: pendingOpens)
            acceptedSplits.append(contentsOf: pendingSplits)
            pendingOpens.removeAll(keepingCapacity: true)
            pendingSplits.removeAll(keepingCapacity: true)
            return true
        }
        // `>` followed by other operator characters inside a list that is still open fails.
        return offset == token.length
    }

    /// Whether the name before the `<` at `index` stands where only a type can.
    func isTypeContext(_ tokens: [Token], _ index: Int) -> Bool {
        var cursor = previousCode(tokens, before: index)
        var steps = 0
        while cursor >= 0, steps < 64 {
            let token = tokens[cursor]
            if steps % 2 == 0 {
                if cursor == lastOuterClose, lastOuterOpen >= 0 {
                    // `Outer<T>.Inner<U>`: step over the generic arguments to the name.
                    cursor = previousCode(tokens, before: lastOuterOpen)
                    continue
                }
                guard token.kind == .identifier || token.kind == .keyword else { break }
                if token.kind == .keyword, spells(token, "init") || spells(token, "subscript") { return true }
            } else if token.kind != .period {
                break
            }
            cursor = previousCode(tokens, before: cursor)
            steps += 1
        }
        guard cursor >= 0 else { return false }
        let before = tokens[cursor]
        switch before.kind {
        case .colon, .arrow, .atSign:
            return true
        case .binaryOperator:
            // `any P & Q<T>` and `where T == Q<U>`.
            if before.length == 1 && byteAt(Int(before.start)) == UInt8(ascii: "&") { return true }
            guard before.length == 2, byteAt(Int(before.start)) == UInt8(ascii: "="),
                  byteAt(Int(before.start) + 1) == UInt8(ascii: "=") else { return false }
            var previous = cursor
            for _ in 0..<32 {
                previous = previousCode(tokens, before: previous)
                guard previous >= 0 else { return false }
                let token = tokens[previous]
                if token.kind == .keyword, spells(token, "where") { return true }
                if token.kind == .leftBrace || token.kind == .rightBrace || token.kind == .semicolon {
                    return false
                }
            }
            return false
        case .equal:
            // `typealias Name<T> = Type<U>` and `associatedtype A = Type<U>`.
            var previous = cursor
            for _ in 0..<32 {
                previous = previousCode(tokens, before: previous)
                guard previous >= 0 else { return false }
                let token = tokens[previous]
                if token.kind == .keyword {
                    return spells(token, "typealias") || spells(token, "associatedtype")
                }
                if token.kind == .leftBrace || token.kind == .rightBrace || token.kind == .semicolon {
                    return false
                }
            }
            return false
        case .postfixQuestionMark, .exclamationMark:
            let previous = previousCode(tokens, before: cursor)
            return previous >= 0 && spells(tokens[previous], "as")
        case .keyword:
            return spells(before, "as") || spells(before, "is") || spells(before, "class")
                || spells(before, "struct") || spells(before, "enum") || spells(before, "protocol")
                || spells(before, "extension") || spells(before, "typealias") || spells(before, "func")
                || spells(before, "inout") || spells(before, "associatedtype")
        case .identifier:
            return spells(before, "some") || spells(before, "any") || spells(before, "actor")
                || spells(before, "macro") || spells(before, "each") || spells(before, "borrowing")
                || spells(before, "consuming") || spells(before, "sending")
        default:
            return false
        }
    }

    /// Whether the token after a closing `>` lets an expression-position `<…>` be generic.
    func followerAllowsGeneric(_ tokens: [Token], _ closerToken: Int, consumed: Int) -> Bool {
        let closer = tokens[closerToken]
        if consumed < closer.length {
            let next = byteAt(Int(closer.start) + consumed)
            return next == UInt8(ascii: "?") || next == UInt8(ascii: "!")
        }
        var next = closerToken + 1
        while next < tokens.count, tokens[next].kind.isComment { next += 1 }
        guard next < tokens.count else { return true }
        let token = tokens[next]
        switch token.kind {
        case .rightParen, .rightSquare, .leftBrace, .rightBrace, .period, .comma, .semicolon,
             .exclamationMark, .postfixQuestionMark, .colon, .stringInterpolationEnd:
            return true
        case .binaryOperator:
            return token.length == 1 && byteAt(Int(token.start)) == UInt8(ascii: "&")
        case .postfixOperator:
            // `(Node<T>...)`: a variadic parameter of a generic type.
            return token.start == closer.end && token.length == 3 && byteAt(Int(token.start)) == UInt8(ascii: ".")
        case .leftParen, .leftSquare:
            return !token.isAtStartOfLine
        default:
            return false
        }
    }

    /// Rewrites each closing operator token into its `>`, `?` and `!` pieces and the
    /// re-lexed rest.
    func split(_ tokens: inout [Token]) {
        // A lone `>` only changes kind; anything longer is cut into pieces.
        var needsCutting = false
        for split in acceptedSplits {
            if tokens[split.token].length == 1 {
                tokens[split.token].kind = .rightAngle
            } else {
                needsCutting = true
            }
        }
        guard needsCutting else { return }
        let pass = LexingPass(bytes: bytes)
        var result: [Token] = []
        result.reserveCapacity(tokens.count + acceptedSplits.count * 2)
        var copied = 0
        for split in acceptedSplits where tokens[split.token].length > 1 {
            result.append(contentsOf: tokens[copied..<split.token])
            copied = split.token + 1
            let token = tokens[split.token]
            let consumed = split.consumed
            let start = Int(token.start), end = Int(token.end)
            let firstPiece = result.count
            var cursor = start
            while cursor < end {
                let c = bytes[cursor]
                if cursor < start + consumed, c == UInt8(ascii: ">") {
                    result.append(Token(kind: .rightAngle, start: cursor, end: cursor + 1))
                    cursor += 1
                } else if (c == UInt8(ascii: "!") || c == UInt8(ascii: "?")) && pass.isLeftBound(cursor) {
                    result.append(Token(kind: c == UInt8(ascii: "!") ? .exclamationMark : .postfixQuestionMark,
                                        start: cursor, end: cursor + 1))
                    cursor += 1
                } else {
                    result.append(Token(kind: pass.classifyOperator(cursor, end), start: cursor, end: end))
                    cursor = end
                }
            }
            result[firstPiece].flags.formUnion(token.flags.intersection([.leadingTrivia, .atStartOfLine]))
            result[result.count - 1].flags.formUnion(token.flags.intersection([.trailingTrivia]))
        }
        result.append(contentsOf: tokens[copied...])
        tokens = result
    }
}
