/// Integer and floating-point literals, following the compiler's lexer digit for digit.
extension LexingPass {
    @inline(__always)
    func skipDigits(from start: Int, hex: Bool = false) -> Int {
        var index = start
        while index < count {
            let c = bytes[index]
            if CharacterClass.isDigit(c) || c == UInt8(ascii: "_") || (hex && CharacterClass.isHexDigit(c)) {
                index += 1
            } else {
                break
            }
        }
        return index
    }

    /// Integer and floating-point literals in every radix, with the compiler's recovery:
    /// letters glued to a literal (`0xZ`, `12ab`) stay part of it.
    mutating func lexNumber() {
        let start = position
        let second = byte(start + 1)
        if bytes[start] == UInt8(ascii: "0"), second == UInt8(ascii: "x") {
            lexHexNumber()
            return
        }
        if bytes[start] == UInt8(ascii: "0"), second == UInt8(ascii: "o") || second == UInt8(ascii: "b") {
            var index = start + 2
            let limit: UInt8 = second == UInt8(ascii: "o") ? UInt8(ascii: "7") : UInt8(ascii: "1")
            while index < count {
                let c = bytes[index]
                if (c >= UInt8(ascii: "0") && c <= limit) || c == UInt8(ascii: "_") { index += 1 } else { break }
            }
            index = scanIdentifierContinuation(from: index)
            emit(.integerLiteral, start, index)
            position = index
            return
        }
        var index = skipDigits(from: start)
        if byte(index, is: UInt8(ascii: ".")) {
            if index + 1 >= count || !CharacterClass.isDigit(bytes[index + 1]) || previousKind == .period {
                emit(.integerLiteral, start, index)
                position = index
                return
            }
        } else if !(byte(index, is: UInt8(ascii: "e")) || byte(index, is: UInt8(ascii: "E"))) {
            index = scanIdentifierContinuation(from: index)
            emit(.integerLiteral, start, index)
            position = index
            return
        }
        if byte(index, is: UInt8(ascii: ".")) {
            if availabilityDepth > 0, allDigits(start, index) {
                // A version such as `15.0`: major, period, then the rest lexes anew.
                emit(.integerLiteral, start, index)
                emit(.period, index, index + 1)
                position = index + 1
                return
            }
            index = skipDigits(from: index + 1)
        }
        if byte(index, is: UInt8(ascii: "e")) || byte(index, is: UInt8(ascii: "E")) {
            index += 1
            if byte(index, is: UInt8(ascii: "-")) || byte(index, is: UInt8(ascii: "+")) { index += 1 }
            if index < count, CharacterClass.isDigit(bytes[index]) {
                index = skipDigits(from: index)
            }
            index = scanIdentifierContinuation(from: index)
        }
        emit(.floatLiteral, start, index)
        position = index
    }

    func allDigits(_ start: Int, _ end: Int) -> Bool {
        var index = start
        while index < end {
            if !CharacterClass.isDigit(bytes[index]) { return false }
            index += 1
        }
        return true
    }

    mutating func lexHexNumber() {
        let start = position
        var index = start + 2
        guard index < count, CharacterClass.isHexDigit(bytes[index]) else {
            index = scanIdentifierContinuation(from: index)
            emit(.integerLiteral, start, index)
            position = index
            return
        }
        index = skipDigits(from: index, hex: true)
        let c = byte(index)
        if c != UInt8(ascii: "."), c != UInt8(ascii: "p"), c != UInt8(ascii: "P") {
            index = scanIdentifierContinuation(from: index)
            emit(.integerLiteral, start, index)
            position = index
            return
        }
        var dot = -1
        if c == UInt8(ascii: ".") {
            dot = index
            // `0xff.description` is a member access, not a fraction.
            guard index + 1 < count, CharacterClass.isHexDigit(bytes[index + 1]) else {
                emit(.integerLiteral, start, index)
                position = index
                return
            }
            index = skipDigits(from: index + 1, hex: true)
            let afterFraction = byte(index)
            if afterFraction != UInt8(ascii: "p"), afterFraction != UInt8(ascii: "P") {
                if index + 1 < count, !CharacterClass.isDigit(bytes[index + 1]) {
                    emit(.integerLiteral, start, dot)
                    position = dot
                    return
                }
                emit(.integerLiteral, start, index)
                position = index
                return
            }
        }
        index += 1  // p or P
        var signed = false
        if byte(index, is: UInt8(ascii: "+")) || byte(index, is: UInt8(ascii: "-")) {
            index += 1
            signed = true
        }
        if index < count, !CharacterClass.isDigit(bytes[index]) {
            if dot >= 0, !CharacterClass.isDigit(byte(dot + 1)), !signed {
                emit(.integerLiteral, start, dot)
                position = dot
                return
            }
            index = scanIdentifierContinuation(from: index)
            emit(.floatLiteral, start, index)
            position = index
            return
        }
        index = skipDigits(from: index)
        index = scanIdentifierContinuation(from: index)
        emit(.floatLiteral, start, index)
        position = index
    }
}
