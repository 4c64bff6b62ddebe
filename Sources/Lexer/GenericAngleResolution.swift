/// Finds the `<`…`>` pairs that Swift parses as generic brackets and turns them into
/// `leftAngle` / `rightAngle` tokens, splitting closers such as `>>` or `>?` the way the
/// compiler's parser does (`Array<Array<Int>>` ends in two `>`, `Foo<T>?` in `>` and `?`).
///
/// The test is the compiler's: the tokens between the brackets must read as a list of types
/// (or integer literals), and unless the name stands where a type is expected, the token
/// after `>` must be one that cannot continue a comparison (`(`, `.`, `)`, `,`, `{`, …).
/// It runs in one pass with a stack, so it is linear whatever the nesting.
enum GenericAngleResolution {
    /// A generic `>` found inside an operator token: which token and which of its bytes.
    struct Closer {
        var token: Int
        var offset: Int
    }

    struct Entry {
        var token: Int
        var isAngle: Bool
    }

    static func resolve(_ tokens: inout [Token], bytes: UnsafeBufferPointer<UInt8>) {
        var stack: [Entry] = []
        var pendingOpens: [Int] = []
        var pendingClosers: [Closer] = []
        var acceptedOpens: [Int] = []
        var acceptedClosers: [Closer] = []
        var outermostIsTypeContext = false
        var previousCode = -1

        func byteAt(_ index: Int) -> UInt8 { index >= 0 && index < bytes.count ? bytes[index] : 0 }

        func isOpenCandidate(_ index: Int) -> Bool {
            let token = tokens[index]
            guard token.kind.isOperator, token.length == 1, byteAt(Int(token.start)) == UInt8(ascii: "<"),
                  previousCode >= 0 else { return false }
            let previous = tokens[previousCode]
            return previous.kind == .identifier || previous.kind == .keyword
        }

        func isTypeToken(_ token: Token) -> Bool {
            switch token.kind {
            case .identifier, .keyword, .period, .comma, .colon, .postfixQuestionMark, .exclamationMark,
                 .arrow, .atSign, .integerLiteral, .infixQuestionMark:
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

        /// Leading `>` characters of an operator token.
        func closingCount(_ token: Token) -> Int {
            guard token.kind.isOperator else { return 0 }
            var count = 0
            while count < token.length, byteAt(Int(token.start) + count) == UInt8(ascii: ">") { count += 1 }
            return count
        }

        /// Whether the name before the `<` at `index` stands where only a type can.
        func isTypeContext(_ index: Int) -> Bool {
            var cursor = index - 1
            var steps = 0
            while cursor >= 0, steps < 64 {
                let token = tokens[cursor]
                if token.kind.isComment { cursor -= 1; continue }
                if steps % 2 == 0 {
                    guard token.kind == .identifier || token.kind == .keyword else { break }
                    if token.kind == .keyword, spells(token, "init") || spells(token, "subscript") { return true }
                } else if token.kind != .period {
                    break
                }
                cursor -= 1
                steps += 1
            }
            guard cursor >= 0 else { return false }
            let before = tokens[cursor]
            switch before.kind {
            case .colon, .arrow:
                return true
            case .postfixQuestionMark, .exclamationMark:
                var previous = cursor - 1
                while previous >= 0, tokens[previous].kind.isComment { previous -= 1 }
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

        func spells(_ token: Token, _ word: StaticString) -> Bool {
            guard token.length == word.utf8CodeUnitCount else { return false }
            let start = Int(token.start)
            for index in 0..<token.length where byteAt(start + index) != word.utf8Start[index] { return false }
            return true
        }

        /// Whether the token after a closing `>` lets an expression-position `<…>` be generic.
        func followerAllowsGeneric(closerToken: Int, consumed: Int) -> Bool {
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
            case .leftParen, .leftSquare:
                return !token.isAtStartOfLine
            default:
                return false
            }
        }

        func abandon() {
            stack.removeAll(keepingCapacity: true)
            pendingOpens.removeAll(keepingCapacity: true)
            pendingClosers.removeAll(keepingCapacity: true)
        }

        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            if token.kind.isComment { index += 1; continue }
            defer { previousCode = index; index += 1 }

            if isOpenCandidate(index) {
                if stack.isEmpty {
                    outermostIsTypeContext = isTypeContext(index)
                }
                stack.append(Entry(token: index, isAngle: true))
                pendingOpens.append(index)
                continue
            }
            guard !stack.isEmpty else { continue }

            let closers = closingCount(token)
            if closers > 0 {
                var consumed = 0
                while consumed < closers, let top = stack.last, top.isAngle {
                    stack.removeLast()
                    pendingClosers.append(Closer(token: index, offset: consumed))
                    consumed += 1
                    if stack.isEmpty { break }
                }
                if consumed == 0 {
                    abandon()
                    continue
                }
                if stack.isEmpty {
                    if outermostIsTypeContext || followerAllowsGeneric(closerToken: index, consumed: consumed) {
                        acceptedOpens.append(contentsOf: pendingOpens)
                        acceptedClosers.append(contentsOf: pendingClosers)
                    }
                    pendingOpens.removeAll(keepingCapacity: true)
                    pendingClosers.removeAll(keepingCapacity: true)
                } else if consumed < token.length {
                    // `>` followed by more operator characters inside an open list.
                    abandon()
                }
                continue
            }
            switch token.kind {
            case .leftParen, .leftSquare:
                stack.append(Entry(token: index, isAngle: false))
            case .rightParen, .rightSquare:
                if let top = stack.last, !top.isAngle {
                    stack.removeLast()
                } else {
                    abandon()
                }
            default:
                if !isTypeToken(token) { abandon() }
            }
        }

        guard !acceptedOpens.isEmpty else { return }
        for open in acceptedOpens { tokens[open].kind = .leftAngle }
        splitClosers(&tokens, acceptedClosers, bytes: bytes)
    }

    /// Rewrites each closing operator token into its `>` pieces and the re-lexed rest.
    static func splitClosers(_ tokens: inout [Token], _ closers: [Closer], bytes: UnsafeBufferPointer<UInt8>) {
        var consumedByToken: [Int: Int] = [:]
        for closer in closers {
            consumedByToken[closer.token] = max(consumedByToken[closer.token] ?? 0, closer.offset + 1)
        }
        let pass = LexingPass(bytes: bytes)
        var result: [Token] = []
        result.reserveCapacity(tokens.count + closers.count)
        for (index, token) in tokens.enumerated() {
            guard let consumed = consumedByToken[index] else {
                result.append(token)
                continue
            }
            let start = Int(token.start), end = Int(token.end)
            var pieces: [Token] = []
            for offset in 0..<consumed {
                pieces.append(Token(kind: .rightAngle, start: start + offset, end: start + offset + 1))
            }
            var cursor = start + consumed
            while cursor < end {
                let c = bytes[cursor]
                if (c == UInt8(ascii: "!") || c == UInt8(ascii: "?")) && pass.isLeftBound(cursor) {
                    pieces.append(Token(kind: c == UInt8(ascii: "!") ? .exclamationMark : .postfixQuestionMark,
                                        start: cursor, end: cursor + 1))
                    cursor += 1
                } else {
                    pieces.append(Token(kind: pass.classifyOperator(cursor, end), start: cursor, end: end))
                    cursor = end
                }
            }
            let leading = token.flags.intersection([.leadingTrivia, .atStartOfLine])
            let trailing = token.flags.intersection([.trailingTrivia])
            pieces[0].flags.formUnion(leading)
            pieces[pieces.count - 1].flags.formUnion(trailing)
            result.append(contentsOf: pieces)
        }
        tokens = result
    }
}
