/// The forward pass over the bytes of one file. It keeps the facts that Swift's lexical
/// decisions depend on — the previous code token (regex literals, tuple indices such as
/// `x.0.1`), the whitespace around an operator (prefix, postfix or infix) and the stack of
/// open strings and interpolations — and nothing else.
struct LexingPass {
    let bytes: UnsafeBufferPointer<UInt8>
    let count: Int
    var position = 0
    /// Finished tokens; the newest token waits in `last` until the next one shows whether
    /// trivia follows it, so that flags are set on a local value, not inside the array.
    var tokens: [Token] = []
    /// Storage for tokens while lexing: appending to raw memory keeps the per-token cost to a
    /// store and a capacity check. `run` copies it into `tokens` and frees it.
    var storage: UnsafeMutablePointer<Token>? = nil
    var storageCount = 0
    var storageCapacity = 0
    var last = Token(kind: .unknown, start: 0, end: 0)
    var hasLast = false
    /// Indices in `tokens` of lone `<` operators and of `<` split off operator names: the
    /// only places where generic brackets can open.
    var angleCandidates: [Int] = []

    /// Open string literals and interpolations, innermost last. Grows only with nesting
    /// depth, which is why string interpolation needs no recursion.
    var frames: [Frame] = []

    // Trivia bookkeeping for TokenFlags.
    var lastEnd = 0
    var lastWasComment = false
    var newlineSinceToken = true
    var newlineSinceCode = true

    // The previous code token, as far as the lexical decisions need it.
    var previousKind: TokenKind? = nil
    var previousPreviousKind: TokenKind? = nil
    var previousAllowsRegex = true
    var previousKeyword = KeywordFlavor.none
    /// Set after `try?` / `try!`: a `/` that follows starts a regex even when it looks binary.
    var preferRegexNext = false
    /// Set after `#available`, `@available` and the other attributes whose arguments hold
    /// version tuples; the next `(` opens such an argument list.
    var availabilityArmed = false
    /// Parenthesis depth inside an availability argument list (0 outside). There the
    /// compiler reads `15.0` as the version `15` `.` `0`, not as a float.
    var availabilityDepth = 0

    struct Frame {
        var isString: Bool
        var isMultiline: Bool
        var quote: UInt8
        var pounds: Int
        /// Parentheses opened inside an interpolation and not yet closed.
        var parenDepth: Int
    }

    /// The few keywords whose identity changes how the next token lexes.
    enum KeywordFlavor {
        case none, expressionValue, funcKeyword, operatorKeyword, tryKeyword, other
    }

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        self.count = bytes.count
    }

    @inline(__always)
    func byte(_ index: Int) -> UInt8 { index < count && index >= 0 ? bytes[index] : 0 }

    @inline(__always)
    func byte(_ index: Int, is value: UInt8) -> Bool { index < count && bytes[index] == value }

    // MARK: - Driver

    mutating func run() {
        storageCapacity = count / 4 + 16
        storage = UnsafeMutablePointer<Token>.allocate(capacity: storageCapacity)
        defer {
            storage?.deallocate()
            storage = nil
        }
        if count >= 2, bytes[0] == UInt8(ascii: "#"), bytes[1] == UInt8(ascii: "!") {
            var end = 2
            while end < count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
            emit(.commentShebang, 0, end)
            position = end
        }
        while true {
            if let top = frames.last, top.isString {
                lexStringContent()
                continue
            }
            skipTrivia()
            guard position < count else { break }
            lexToken()
        }
        if !frames.isEmpty { flagLastUnterminated() }
        frames.removeAll()
        if hasLast { store(last) }
        hasLast = false
        if let storage { tokens = Array(UnsafeBufferPointer(start: storage, count: storageCount)) }
    }

    @inline(__always)
    mutating func store(_ token: Token) {
        if storageCount == storageCapacity { grow() }
        storage.unsafelyUnwrapped[storageCount] = token
        storageCount += 1
    }

    mutating func grow() {
        let capacity = storageCapacity * 2
        let larger = UnsafeMutablePointer<Token>.allocate(capacity: capacity)
        if let storage {
            larger.moveInitialize(from: storage, count: storageCount)
            storage.deallocate()
        }
        storage = larger
        storageCapacity = capacity
    }

    // MARK: - Emitting

    @inline(__always)
    mutating func emit(_ kind: TokenKind, _ start: Int, _ end: Int, _ extra: TokenFlags = []) {
        let isComment = kind.isComment
        var flags = extra
        let gap = start > lastEnd
        if gap || lastWasComment { flags.insert(.leadingTrivia) }
        if isComment ? newlineSinceToken : newlineSinceCode { flags.insert(.atStartOfLine) }
        if hasLast {
            if gap || isComment { last.flags.insert(.trailingTrivia) }
            store(last)
        }
        last = Token(kind: kind, start: start, end: end, flags: flags)
        hasLast = true
        lastEnd = end
        lastWasComment = isComment
        newlineSinceToken = false
        if !isComment {
            newlineSinceCode = false
            noteCodeToken(kind, start, end)
        }
    }

    /// Records what the next token's lexing may depend on.
    @inline(__always)
    mutating func noteCodeToken(_ kind: TokenKind, _ start: Int, _ end: Int) {
        preferRegexNext = false
        let before = previousKind
        previousPreviousKind = before
        previousKind = kind
        if availabilityArmed {
            availabilityArmed = false
            if kind == .leftParen { availabilityDepth = 1 }
        } else if availabilityDepth > 0 {
            if kind == .leftParen { availabilityDepth += 1 }
            if kind == .rightParen { availabilityDepth -= 1 }
        }
        if kind == .poundKeyword {
            // `#available` and `#unavailable`.
            availabilityArmed = end - start >= 10 && (byte(start + 1) == UInt8(ascii: "a") || byte(start + 1) == UInt8(ascii: "u"))
        } else if kind == .identifier, before == .atSign {
            availabilityArmed = isVersionedAttribute(start, end - start)
        }
        switch kind {
        case .keyword:
            let flavor = keywordFlavor(start, end - start)
            previousKeyword = flavor
            previousAllowsRegex = flavor != .expressionValue
            return
        case .leftParen, .leftBrace, .leftSquare, .prefixOperator, .prefixAmpersand, .binaryOperator,
             .equal, .semicolon, .comma, .colon, .infixQuestionMark, .stringInterpolationStart, .unknown:
            previousAllowsRegex = true
        case .poundKeyword:
            // `#if`, `#elseif`, `#else`, `#endif` sequence expressions; `#available` and
            // friends do not.
            previousAllowsRegex = end - start <= 7 && byte(start + 1) != UInt8(ascii: "a")
        default:
            previousAllowsRegex = false
        }
        previousKeyword = .none
    }

    /// Attributes whose arguments the compiler parses as availability lists with versions.
    func isVersionedAttribute(_ start: Int, _ length: Int) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let pointer = base + start
        switch length {
        case 9: return KeywordTable.spells(pointer, "available")
        case 12: return KeywordTable.spells(pointer, "backDeployed")
        case 14: return KeywordTable.spells(pointer, "_spi_available")
        case 20: return KeywordTable.spells(pointer, "_originallyDefinedIn")
        default: return false
        }
    }

    func keywordFlavor(_ start: Int, _ length: Int) -> KeywordFlavor {
        guard let base = bytes.baseAddress else { return .other }
        let pointer = base + start
        switch length {
        case 3:
            if KeywordTable.spells(pointer, "nil") || KeywordTable.spells(pointer, "Any") { return .expressionValue }
            if KeywordTable.spells(pointer, "try") { return .tryKeyword }
        case 4:
            if KeywordTable.spells(pointer, "true") || KeywordTable.spells(pointer, "self")
                || KeywordTable.spells(pointer, "Self") { return .expressionValue }
            if KeywordTable.spells(pointer, "func") { return .funcKeyword }
        case 5:
            if KeywordTable.spells(pointer, "false") || KeywordTable.spells(pointer, "super") { return .expressionValue }
        case 8:
            if KeywordTable.spells(pointer, "operator") { return .operatorKeyword }
        default:
            break
        }
        return .other
    }

    /// Flags the last token as running to the end of its line or file.
    mutating func flagLastUnterminated() {
        if hasLast { last.flags.insert(.unterminated) }
    }

    // MARK: - Trivia and comments

    /// Skips whitespace, newlines and BOMs, emitting comments as tokens. Inside the
    /// interpolation of a single-line string a newline ends the interpolation and the string.
    @inline(__always)
    mutating func skipTrivia() {
        while position < count {
            let c = bytes[position]
            switch c {
            case 0x20, 0x09, 0x0B, 0x0C:
                position += 1
                while position < count, bytes[position] == 0x20 { position += 1 }
            case 0x0A, 0x0D:
                if !frames.isEmpty, let top = frames.last, !top.isString, frames.count >= 2,
                   !frames[frames.count - 2].isMultiline {
                    // A single-line string cannot continue past the end of its line.
                    flagLastUnterminated()
                    frames.removeLast(2)
                    continue
                }
                newlineSinceToken = true
                newlineSinceCode = true
                position += 1
                while position < count, bytes[position] == 0x20 { position += 1 }
            case UInt8(ascii: "/"):
                let next = byte(position + 1)
                if next == UInt8(ascii: "/") {
                    lexLineComment()
                } else if next == UInt8(ascii: "*") {
                    lexBlockComment()
                } else {
                    return
                }
            case 0xEF:
                guard byte(position + 1, is: 0xBB), byte(position + 2, is: 0xBF) else { return }
                position += 3
            case 0xC2:
                guard byte(position + 1, is: 0xA0) else { return }
                position += 2
            default:
                return
            }
        }
    }

    mutating func lexLineComment() {
        let start = position
        var end = start + 2
        while end < count {
            let c = bytes[end]
            if c == 0x0A || c == 0x0D { break }
            end += 1
        }
        // `///` (and, as the compiler sees it, `////`) is documentation.
        let isDoc = byte(start + 2, is: UInt8(ascii: "/"))
        emit(isDoc ? .commentDocLine : .commentLine, start, end)
        position = end
    }

    mutating func lexBlockComment() {
        let start = position
        var index = start + 2
        var depth = 1
        var sawNewline = false
        while index < count {
            let c = bytes[index]
            if c == UInt8(ascii: "*"), byte(index + 1, is: UInt8(ascii: "/")) {
                index += 2
                depth -= 1
                if depth == 0 { break }
            } else if c == UInt8(ascii: "/"), byte(index + 1, is: UInt8(ascii: "*")) {
                index += 2
                depth += 1
            } else {
                if c == 0x0A || c == 0x0D { sawNewline = true }
                index += 1
            }
        }
        // `/**` opens documentation, but `/**/` does not.
        let isDoc = byte(start + 2, is: UInt8(ascii: "*")) && start + 3 < count
            && bytes[start + 3] != UInt8(ascii: "/")
        emit(isDoc ? .commentDocBlock : .commentBlock, start, index, depth > 0 ? .unterminated : [])
        if sawNewline { newlineSinceCode = true }
        position = index
    }

    // MARK: - Tokens

    @inline(__always)
    mutating func lexToken() {
        let start = position
        let c = bytes[start]
        switch c {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"):
            lexIdentifier(from: start, afterFirst: start + 1)
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            lexNumber()
        case UInt8(ascii: "$"):
            position = scanIdentifierContinuation(from: start + 1)
            emit(.identifier, start, position)
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            openString(poundsStart: start, quoteAt: start)
        case UInt8(ascii: "#"):
            lexPound()
        case UInt8(ascii: "`"):
            lexBacktick()
        case UInt8(ascii: "@"):
            single(.atSign)
        case UInt8(ascii: "("):
            if !frames.isEmpty { frames[frames.count - 1].parenDepth += 1 }
            single(.leftParen)
        case UInt8(ascii: ")"):
            if let top = frames.last, !top.isString {
                if top.parenDepth == 0 {
                    frames.removeLast()
                    single(.stringInterpolationEnd)
                    return
                }
                frames[frames.count - 1].parenDepth -= 1
            }
            single(.rightParen)
        case UInt8(ascii: "["): single(.leftSquare)
        case UInt8(ascii: "]"): single(.rightSquare)
        case UInt8(ascii: "{"): single(.leftBrace)
        case UInt8(ascii: "}"): single(.rightBrace)
        case UInt8(ascii: ","): single(.comma)
        case UInt8(ascii: ";"): single(.semicolon)
        case UInt8(ascii: ":"): single(.colon)
        case UInt8(ascii: "\\"): single(.backslash)
        case UInt8(ascii: "!"), UInt8(ascii: "?"):
            if isLeftBound(start) {
                let afterTry = previousKeyword == .tryKeyword
                single(c == UInt8(ascii: "!") ? .exclamationMark : .postfixQuestionMark)
                preferRegexNext = afterTry
            } else {
                lexOperator()
            }
        case 0x80...0xFF:
            let (scalar, length) = decodeScalar(bytes, at: start)
            if length == 0 {
                lexUnknownRun()
            } else if CharacterClass.isIdentifierStart(scalar) {
                lexIdentifier(from: start, afterFirst: start + length)
            } else if CharacterClass.isOperatorStart(scalar) {
                lexOperator()
            } else if CharacterClass.isIdentifierContinuation(scalar) {
                // A combining mark cannot start a name; keep the run together as one name.
                lexIdentifier(from: start, afterFirst: start + length)
            } else {
                lexUnknownRun()
            }
        default:
            if CharacterClass.isASCIIOperator(c) || c == UInt8(ascii: ".") {
                lexOperator()
            } else {
                lexUnknownRun()
            }
        }
    }

    @inline(__always)
    mutating func single(_ kind: TokenKind) {
        emit(kind, position, position + 1)
        position += 1
    }

    /// Bytes that cannot start any token (invalid UTF-8, NUL, control characters, stray
    /// symbols) become one `unknown` token per run.
    mutating func lexUnknownRun() {
        let start = position
        var index = start + max(unknownLength(at: start), 1)
        while index < count {
            let length = unknownLength(at: index)
            if length == 0 { break }
            index += length
        }
        emit(.unknown, start, index)
        position = index
    }

    /// The byte length of the character at `index` if no token can start with it, else 0.
    func unknownLength(at index: Int) -> Int {
        let c = bytes[index]
        if c < 0x80 {
            switch c {
            case 0x00...0x08, 0x0E...0x1F, 0x7F: return 1
            default: return 0
            }
        }
        let (scalar, length) = decodeScalar(bytes, at: index)
        if length == 0 { return 1 }
        if scalar == 0xA0 || scalar == 0xFEFF || CharacterClass.isIdentifierContinuation(scalar)
            || CharacterClass.isOperatorStart(scalar) {
            return 0
        }
        return length
    }

    // MARK: Names

    @inline(__always)
    func scanIdentifierContinuation(from start: Int) -> Int {
        var index = start
        while index < count {
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
        var isKeyword = KeywordTable.isReserved(bytes.baseAddress! + start, end - start)
        if isKeyword, isKeywordUsedAsName(start, end) { isKeyword = false }
        emit(isKeyword ? .keyword : .identifier, start, end)
        position = end
    }

    /// A reserved word is a name, as the compiler's parser reads it, after `.` (`x.default`,
    /// `node.as(…)`) or `@` (`@rethrows`), as an argument label (`f(for: x)`, `s[as: T.self]`,
    /// `} else: {`) or parameter name (`func f(in range: R)`, `_ protocol: Int32`); `self`,
    /// `Self`, `init` and `_` keep their keyword meaning.
    func isKeywordUsedAsName(_ start: Int, _ end: Int) -> Bool {
        let length = end - start
        if length == 1 { return false }
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
        case .leftParen, .comma:
            break
        case .identifier, .keyword:
            // A parameter name after its label: `(_ protocol: Int32)`, `(to protocol: String)`.
            return colonFollows && (previousPreviousKind == .leftParen || previousPreviousKind == .comma)
        case .rightBrace:
            // A trailing-closure label: `} else: {`.
            return colonFollows && !newlineSinceCode
        case .leftSquare:
            // A subscript label, but not a dictionary key such as `[true: 1]`.
            return colonFollows && keywordFlavor(start, length) != .expressionValue
        default:
            return false
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

    // MARK: Numbers

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

    // MARK: Operators

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
        angleCandidates.append(storageCount + (hasLast ? 1 : 0))
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
