/// String and regex literals. A string is lexed as pieces — delimiters, quotes, literal
/// segments, interpolation starts and ends — so that code inside `\(…)` is ordinary tokens
/// and nesting of any depth lives on the frame stack, not the call stack.
extension LexingPass {
    // MARK: Strings

    /// Opens a string literal whose optional raw `#`s start at `poundsStart` and whose quote
    /// is at `quoteAt`.
    mutating func openString(poundsStart: Int, quoteAt: Int) {
        let pounds = quoteAt - poundsStart
        if pounds > 0 { emit(.stringRawDelimiter, poundsStart, quoteAt) }
        let quote = bytes[quoteAt]
        var isMultiline = false
        if quote == UInt8(ascii: "\""), byte(quoteAt + 1, is: quote), byte(quoteAt + 2, is: quote) {
            isMultiline = true
            if pounds > 0, closesOnSameLine(after: quoteAt + 1, pounds: pounds) {
                // `#"""#` is a one-line raw string holding a quote.
                isMultiline = false
            }
        }
        let quoteEnd = quoteAt + (isMultiline ? 3 : 1)
        emit(.stringQuote, quoteAt, quoteEnd)
        position = quoteEnd
        frames.append(Frame(isString: true, isMultiline: isMultiline, quote: quote, pounds: pounds, parenDepth: 0))
    }

    /// Whether a `"` followed by `pounds` `#`s occurs between `index` and the end of its line.
    func closesOnSameLine(after index: Int, pounds: Int) -> Bool {
        var cursor = index
        while cursor < count {
            let c = bytes[cursor]
            if c == 0x0A || c == 0x0D { return false }
            cursor += 1
            if c == UInt8(ascii: "\""), hasPounds(at: cursor, pounds) { return true }
        }
        return false
    }

    @inline(__always)
    func hasPounds(at index: Int, _ pounds: Int) -> Bool {
        guard pounds > 0 else { return true }
        guard index + pounds <= count else { return false }
        for offset in 0..<pounds where bytes[index + offset] != UInt8(ascii: "#") { return false }
        return true
    }

    /// Lexes from inside a string up to and including the next interpolation start or the
    /// closing delimiter; a single-line string also stops (unterminated) at a line break.
    mutating func lexStringContent() {
        let frame = frames[frames.count - 1]
        let quote = frame.quote
        let pounds = frame.pounds
        let start = position
        var index = start
        while index < count {
            let c = bytes[index]
            if c == UInt8(ascii: "\\") {
                let afterPounds = index + 1 + pounds
                guard hasPounds(at: index + 1, pounds) else {
                    index += 1
                    continue
                }
                if byte(afterPounds, is: UInt8(ascii: "(")) {
                    if index > start { emit(.stringSegment, start, index) }
                    emit(.stringInterpolationStart, index, afterPounds + 1)
                    position = afterPounds + 1
                    frames.append(Frame(isString: false, isMultiline: false, quote: 0, pounds: 0, parenDepth: 0))
                    return
                }
                // An escape: the escaped character cannot close the string. A line break
                // after `\` continues a multi-line string and ends a single-line one.
                index = afterPounds
                if index < count {
                    let escaped = bytes[index]
                    if escaped == 0x0A || escaped == 0x0D {
                        if !frame.isMultiline { continue }
                        if escaped == 0x0D, byte(index + 1, is: 0x0A) { index += 1 }
                    }
                    index += 1
                }
                continue
            }
            if c == quote {
                var closeEnd = index + 1
                if frame.isMultiline {
                    guard byte(index + 1, is: quote), byte(index + 2, is: quote) else {
                        index += 1
                        continue
                    }
                    closeEnd = index + 3
                }
                guard hasPounds(at: closeEnd, pounds) else {
                    index += 1
                    continue
                }
                if index > start { emit(.stringSegment, start, index) }
                emit(.stringQuote, index, closeEnd)
                if pounds > 0 { emit(.stringRawDelimiter, closeEnd, closeEnd + pounds) }
                position = closeEnd + pounds
                frames.removeLast()
                return
            }
            if (c == 0x0A || c == 0x0D) && !frame.isMultiline {
                if index > start { emit(.stringSegment, start, index) }
                flagLastUnterminated()
                position = index
                frames.removeLast()
                return
            }
            index += 1
        }
        // End of file inside the string.
        if index > start { emit(.stringSegment, start, index) }
        flagLastUnterminated()
        position = count
        frames.removeLast()
    }

    // MARK: Regex literals

    /// Tries a regex literal at the first `/` of an operator run, with Swift's heuristics
    /// for telling `/…/` from division. Returns false when the run is an operator.
    mutating func tryOperatorAsRegex(operatorStart: Int, operatorEnd: Int, slashAt: Int) -> Bool {
        let leftBound = isLeftBound(operatorStart)
        guard !leftBound else { return false }
        // `operator /^/` and `func /(…)` name an operator.
        guard previousKeyword != .funcKeyword, previousKeyword != .operatorKeyword else { return false }
        let rightBound = isRightBound(operatorEnd, leftBound: leftBound)
        var mustBeRegex = false
        if leftBound == rightBound {
            mustBeRegex = preferRegexNext
            if !mustBeRegex && !previousAllowsRegex { return false }
            switch previousKind {
            case .leftParen, .leftSquare, .comma, .colon: break
            default: mustBeRegex = true
            }
        }
        return lexRegex(operatorStart: operatorStart, slashAt: slashAt, pounds: 0, mustBeRegex: mustBeRegex)
    }

    /// Scans a regex literal whose opening `#`s (if any) end at `slashAt`. On success emits
    /// any prefix operator before it and the literal's pieces, and returns true.
    mutating func lexRegex(operatorStart: Int, slashAt: Int, pounds: Int, mustBeRegex: Bool) -> Bool {
        let openStart = slashAt - pounds
        var cursor = slashAt + 1
        if pounds == 0 {
            if cursor < count {
                let next = bytes[cursor]
                if next == 0x20 || next == 0x09 {
                    if !mustBeRegex { return false }
                } else if next == UInt8(ascii: "*") || next == UInt8(ascii: "/") {
                    return false
                }
            }
            if slashAt > 0, bytes[slashAt - 1] == UInt8(ascii: "*") { return false }
        }
        var isMultiline = false
        var firstNewline = -1
        if pounds > 0 {
            var scan = cursor
            while scan < count, bytes[scan] == 0x20 || bytes[scan] == 0x09 { scan += 1 }
            if scan < count, bytes[scan] == 0x0A || bytes[scan] == 0x0D {
                isMultiline = true
                firstNewline = scan
                cursor = scan
            }
        }
        var groupDepth = 0
        var classDepth = 0
        var lastUnescapedSpace = -1
        var closing: (slash: Int, end: Int)? = nil
        var escaped = false
        scan: while true {
            if !escaped, cursor < count, bytes[cursor] == UInt8(ascii: "/") {
                var end = cursor + 1
                var closePounds = 0
                if pounds > 0 {
                    while end < count, bytes[end] == UInt8(ascii: "#") { end += 1; closePounds += 1 }
                }
                if closePounds >= pounds {
                    if closePounds == 0 {
                        let after = byte(end)
                        if end < count, after == UInt8(ascii: "*") || after == UInt8(ascii: "/") {
                            // Prefer a comment over closing the literal.
                            if !mustBeRegex { return false }
                            break scan
                        }
                        if lastUnescapedSpace >= 0, lastUnescapedSpace + 1 == cursor, !mustBeRegex { return false }
                    }
                    closing = (cursor, end)
                    break scan
                }
            }
            guard cursor < count else {
                if !mustBeRegex { return false }
                if firstNewline >= 0 { cursor = firstNewline }
                break scan
            }
            let c = bytes[cursor]
            if c == 0x0A || c == 0x0D {
                if !isMultiline {
                    if !mustBeRegex { return false }
                    break scan
                }
                cursor += 1
                escaped = false
                continue
            }
            if escaped {
                escaped = false
            } else {
                switch c {
                case UInt8(ascii: "\\"): escaped = true
                case UInt8(ascii: "("): if classDepth == 0 { groupDepth += 1 }
                case UInt8(ascii: ")"):
                    if classDepth == 0 {
                        if groupDepth == 0 {
                            if !mustBeRegex { return false }
                        } else {
                            groupDepth -= 1
                        }
                    }
                case UInt8(ascii: "["): classDepth += 1
                case UInt8(ascii: "]"): if classDepth > 0 { classDepth -= 1 }
                case 0x20, 0x09: lastUnescapedSpace = cursor
                default: break
                }
            }
            let (_, length) = decodeScalar(bytes, at: cursor)
            cursor += max(length, 1)
        }

        // Committed: a prefix operator before the `/` (as in `!/x/`), then the pieces.
        if openStart > operatorStart {
            emit(classifyOperator(operatorStart, openStart), operatorStart, openStart)
        }
        let patternStart = slashAt + 1
        emit(.regexDelimiter, openStart, patternStart)
        if let closing {
            if closing.slash > patternStart { emit(.regexPattern, patternStart, closing.slash) }
            emit(.regexDelimiter, closing.slash, closing.end)
            position = closing.end
        } else {
            let end = max(cursor, patternStart)
            if end > patternStart { emit(.regexPattern, patternStart, end) }
            flagLastUnterminated()
            position = end
        }
        return true
    }
}
