/// Identifiers (plain, Unicode, `$`, backticked), reserved words and `#` forms.
extension LexingPass {
    @inline(__always)
    func scanIdentifierContinuation(from start: Int) -> Int {
        var index = start
        while index < count {
            if index + 8 <= count {
                // Eight ASCII name bytes at a time. The first byte that is none ends the step
                // and is looked at below (a non-ASCII one may still continue the name).
                let word = littleEndianWord(bytes, at: index)
                let stops = ~CharacterClass.asciiIdentifierContinuationLanes(word) & 0x8080_8080_8080_8080
                if stops == 0 {
                    index += 8
                    continue
                }
                index += stops.trailingZeroBitCount >> 3
            }
            let c = bytes[index]
            if c < 0x80 {
                if CharacterClass.isASCIIIdentifierContinuation(c) { index += 1; continue }
                break
            }
            let (scalar, length) = decodeScalar(bytes, at: index)
            if length == 0 || !CharacterClass.isIdentifierContinuation(scalar) { break }
            index += length
        }
        return index
    }

    @inline(__always)
    mutating func lexIdentifier(from start: Int, afterFirst: Int) {
        let end = scanIdentifierContinuation(from: afterFirst)
        if let flavor = KeywordTable.reserved(bytes.baseAddress! + start, end - start),
           !isKeywordUsedAsName(start, end, flavor: flavor) {
            emit(.keyword, start, end, keyword: flavor)
        } else {
            emit(.identifier, start, end)
        }
        position = end
    }

    /// A reserved word is a name, as the compiler's parser reads it, after `.` (`x.default`,
    /// `node.as(…)`) or `@` (`@rethrows`), as an argument label (`f(for: x)`, `s[as: T.self]`,
    /// `} else: {`) or parameter name (`func f(in range: R)`, `_ protocol: Int32`); `self`,
    /// `Self`, `init` and `_` keep their keyword meaning.
    func isKeywordUsedAsName(_ start: Int, _ end: Int, flavor: KeywordFlavor) -> Bool {
        let length = end - start
        if length == 1 { return false }
        // The tokens before tell most keywords apart first, without looking ahead.
        switch previousKind {
        case .period, .atSign, .leftParen, .comma, .leftSquare:
            break
        case .identifier, .keyword:
            // A parameter name after its label: `(_ protocol: Int32)`, `(to protocol: String)`.
            guard previousPreviousKind == .leftParen || previousPreviousKind == .comma else { return false }
        case .rightBrace:
            // A trailing-closure label: `} else: {`.
            guard !newlineSinceCode else { return false }
        default:
            return false
        }
        if let base = bytes.baseAddress, length == 4 {
            let pointer = base + start
            if KeywordTable.spells(pointer, "self") || KeywordTable.spells(pointer, "Self")
                || KeywordTable.spells(pointer, "init") { return false }
        }
        if previousKind == .period || previousKind == .atSign { return true }
        var index = end
        while index < count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        let colonFollows = byte(index, is: UInt8(ascii: ":")) && !byte(index + 1, is: UInt8(ascii: ":"))
        switch previousKind {
        case .identifier, .keyword, .rightBrace:
            return colonFollows
        case .leftSquare:
            // A subscript label, but not a dictionary key such as `[true: 1]`.
            return colonFollows && flavor != .expressionValue
        default:
            break
        }
        if colonFollows { return true }
        guard index > end, index < count, CharacterClass.isASCIIIdentifierStart(bytes[index]) else { return false }
        if let base = bytes.baseAddress, length == 5, KeywordTable.spells(base + start, "inout") { return false }
        index = scanIdentifierContinuation(from: index + 1)
        while index < count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        return byte(index, is: UInt8(ascii: ":"))
    }

    /// `` `name` `` and raw identifiers such as `` `with spaces` `` are one identifier; a
    /// backtick without a partner on the same line is a `backtick` token.
    mutating func lexBacktick() {
        let start = position
        var index = start + 1
        while index < count {
            let c = bytes[index]
            if c == UInt8(ascii: "`") {
                emit(.identifier, start, index + 1)
                position = index + 1
                return
            }
            if c == 0x0A || c == 0x0D { break }
            index += 1
        }
        single(.backtick)
    }

    /// `#` starts a shebang (first line only), a raw string, an extended regex literal, a
    /// pound keyword (`#if`, `#available`, …) or a lone `pound` before a macro name.
    mutating func lexPound() {
        let start = position
        var index = start
        while index < count, bytes[index] == UInt8(ascii: "#") { index += 1 }
        if index < count {
            let next = bytes[index]
            if next == UInt8(ascii: "\"") {
                openString(poundsStart: start, quoteAt: index)
                return
            }
            if next == UInt8(ascii: "/"), lexRegex(operatorStart: start, slashAt: index, pounds: index - start, mustBeRegex: true) {
                return
            }
        }
        var end = start + 1
        while end < count, CharacterClass.isASCIIIdentifierStart(bytes[end]) { end += 1 }
        if isPoundKeyword(start + 1, end - start - 1) {
            if end - start == 3 { hasConditionalCompilation = true }  // `#if`
            emit(.poundKeyword, start, end)
            position = end
        } else {
            single(.pound)
        }
    }

    func isPoundKeyword(_ start: Int, _ length: Int) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let pointer = base + start
        switch length {
        case 2: return KeywordTable.spells(pointer, "if")
        case 4: return KeywordTable.spells(pointer, "else")
        case 5: return KeywordTable.spells(pointer, "endif")
        case 6: return KeywordTable.spells(pointer, "elseif")
        case 9: return KeywordTable.spells(pointer, "available")
        case 11: return KeywordTable.spells(pointer, "unavailable")
        case 14: return KeywordTable.spells(pointer, "sourceLocation")
        default: return false
        }
    }
}
