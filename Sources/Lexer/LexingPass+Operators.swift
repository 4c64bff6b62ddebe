/// Operator runs and Swift's whitespace rule that makes them prefix, postfix or infix.
extension LexingPass {
    /// Whether the character before `index` binds an operator on its left (Swift's rule:
    /// whitespace, an opening bracket, a separator or the end of a block comment do not).
    @inline(__always)
    func isLeftBound(_ index: Int) -> Bool {
        guard index > 0 else { return false }
        switch bytes[index - 1] {
        case 0x20, 0x0D, 0x0A, 0x09, UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"),
             UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"), 0:
            return false
        case UInt8(ascii: "/"):
            return !(index >= 2 && bytes[index - 2] == UInt8(ascii: "*"))
        case 0xA0:
            return !(index >= 2 && bytes[index - 2] == 0xC2)
        default:
            return true
        }
    }

    @inline(__always)
    func isRightBound(_ index: Int, leftBound: Bool) -> Bool {
        guard index < count else { return false }
        switch bytes[index] {
        case 0x20, 0x0D, 0x0A, 0x09, UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"),
             UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"), 0:
            return false
        case UInt8(ascii: "."):
            return !leftBound
        case UInt8(ascii: "/"):
            let next = byte(index + 1)
            return !(next == UInt8(ascii: "/") || next == UInt8(ascii: "*"))
        case 0xC2:
            return !byte(index + 1, is: 0xA0)
        default:
            return true
        }
    }

    /// The end of the operator-character run starting at `start`. A `.` continues only an
    /// operator that starts with a dot (`..<`, `...`), so `x?.y` and `a+.b` split.
    func scanOperatorRun(from start: Int) -> Int {
        let startsWithDot = bytes[start] == UInt8(ascii: ".")
        var index = start
        let (_, firstLength) = decodeScalar(bytes, at: start)
        index += max(firstLength, 1)
        while index < count {
            let c = bytes[index]
            if c == UInt8(ascii: ".") {
                if !startsWithDot { break }
                index += 1
            } else if c < 0x80 {
                if !CharacterClass.isASCIIOperator(c) { break }
                index += 1
            } else {
                let (scalar, length) = decodeScalar(bytes, at: index)
                if length == 0 || !CharacterClass.isOperatorContinuation(scalar) { break }
                index += length
            }
        }
        return index
    }

    mutating func lexOperator() {
        let start = position
        if bytes[start] == UInt8(ascii: "<"), byte(start + 1, is: UInt8(ascii: "#")), lexEditorPlaceholder() { return }
        var end = scanOperatorRun(from: start)

        // `\.?.value`: in a key path the leading dot is a member access of its own.
        if previousKind == .backslash, bytes[start] == UInt8(ascii: "."), end - start > 1 {
            emit(.period, start, start + 1)
            position = start + 1
            return
        }

        // A regex literal may start at the first `/` of the run (`/abc/`, `!/x/`).
        var slash = start
        while slash < end, bytes[slash] != UInt8(ascii: "/") { slash += 1 }
        if slash < end, tryOperatorAsRegex(operatorStart: start, operatorEnd: end, slashAt: slash) {
            return
        }

        // `//` or `/*` inside a run starts a comment.
        if end - start > 2 {
            var index = start + 1
            while index < end - 1 {
                if bytes[index] == UInt8(ascii: "/"),
                   bytes[index + 1] == UInt8(ascii: "/") || bytes[index + 1] == UInt8(ascii: "*") {
                    end = index
                    break
                }
                index += 1
            }
        }
        // `func ==<T>(…)`: the compiler splits the `<` off the name to open generic parameters.
        if previousKeyword == .funcKeyword, end - start >= 2, bytes[end - 1] == UInt8(ascii: "<"),
           end < count, CharacterClass.isASCIIIdentifierStart(bytes[end]) {
            emit(.binaryOperator, start, end - 1)
            noteAngleCandidate()
            emit(.leftAngle, end - 1, end)
            position = end
            return
        }
        // The name in `func ==(…)` is an infix operator whatever the spacing.
        let kind = previousKeyword == .funcKeyword ? .binaryOperator : classifyOperator(start, end)
        if end - start == 1, bytes[start] == UInt8(ascii: "<") { noteAngleCandidate() }
        emit(kind, start, end)
        position = end
    }

    /// Remembers that the token about to be emitted may open generic brackets.
    @inline(__always)
    mutating func noteAngleCandidate() {
        angleCandidates.append(storageCount)
    }

    /// `<#name#>`, an Xcode placeholder, is one identifier as far as the compiler is concerned.
    mutating func lexEditorPlaceholder() -> Bool {
        let start = position
        var index = start + 2
        while index + 1 < count {
            let c = bytes[index]
            if c == 0x0A || c == 0x0D { return false }
            if c == UInt8(ascii: "<"), bytes[index + 1] == UInt8(ascii: "#") { return false }
            if c == UInt8(ascii: "#"), bytes[index + 1] == UInt8(ascii: ">") {
                emit(.identifier, start, index + 2)
                position = index + 2
                return true
            }
            index += 1
        }
        return false
    }

    /// Swift's whitespace rule: bound on both sides or on neither is infix, bound on the left
    /// only is postfix, on the right only prefix; a few spellings are punctuation.
    func classifyOperator(_ start: Int, _ end: Int) -> TokenKind {
        let leftBound = isLeftBound(start)
        let rightBound = isRightBound(end, leftBound: leftBound)
        let length = end - start
        if length == 1 {
            switch bytes[start] {
            case UInt8(ascii: "="): return .equal
            case UInt8(ascii: "&"): if !leftBound && rightBound { return .prefixAmpersand }
            case UInt8(ascii: "."): return .period
            case UInt8(ascii: "?"): return leftBound ? .postfixQuestionMark : .infixQuestionMark
            default: break
            }
        } else if length == 2 {
            if bytes[start] == UInt8(ascii: "-"), bytes[start + 1] == UInt8(ascii: ">") { return .arrow }
            if bytes[start] == UInt8(ascii: "*"), bytes[start + 1] == UInt8(ascii: "/") { return .unknown }
        } else {
            var index = start
            while index < end - 1 {
                if bytes[index] == UInt8(ascii: "*"), bytes[index + 1] == UInt8(ascii: "/") { return .unknown }
                index += 1
            }
        }
        if leftBound == rightBound { return .binaryOperator }
        return leftBound ? .postfixOperator : .prefixOperator
    }
}
