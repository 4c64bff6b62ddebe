/// The forward pass over the bytes of one file. It keeps the facts that Swift's lexical
/// decisions depend on — the previous code token (regex literals, tuple indices such as
/// `x.0.1`), the whitespace around an operator (prefix, postfix or infix) and the stack of
/// open strings and interpolations — and nothing else.
struct LexingPass {
    let bytes: UnsafeBufferPointer<UInt8>
    let count: Int
    var position = 0
    /// The tokens: appending to raw memory keeps the per-token cost to a store and a capacity
    /// check, and the newest token's flags can still be set in place when the next token shows
    /// that trivia follows it. `run` allocates it; whoever runs the pass reads the tokens
    /// through `lexedTokens` and then calls `deallocateTokens`.
    var storage: UnsafeMutablePointer<Token>? = nil
    var storageCount = 0
    var storageCapacity = 0
    /// Indices in `lexedTokens` of lone `<` operators and of `<` split off operator names: the
    /// only places where generic brackets can open.
    var angleCandidates: [Int] = []
    /// Whether an `#if` occurs: only then can a branch be left out of the code view.
    var hasConditionalCompilation = false

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

    /// The few keywords whose identity changes how the next token lexes (`KeywordTable`
    /// tells each reserved word's).
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

    /// Lexes the whole file into `lexedTokens`; runs once per pass. The token storage is
    /// owned by this pass alone: a pass is not copied after `run`, and `deallocateTokens`
    /// frees it once.
    mutating func run() {
        precondition(storage == nil, "a lexing pass runs once")
        storageCapacity = count / 4 + 16
        storage = UnsafeMutablePointer<Token>.allocate(capacity: storageCapacity)
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
            // Names are nearly half of all tokens: they skip `lexToken`'s dispatch.
            if CharacterClass.isASCIIIdentifierStart(bytes[position]) {
                lexIdentifier(from: position, afterFirst: position + 1)
            } else {
                lexToken()
            }
        }
        if !frames.isEmpty { flagLastUnterminated() }
        frames.removeAll()
    }

    /// The tokens `run` lexed, valid until `deallocateTokens`.
    var lexedTokens: UnsafeBufferPointer<Token> {
        UnsafeBufferPointer(start: storage, count: storageCount)
    }

    mutating func deallocateTokens() {
        storage?.deallocate()
        storage = nil
        storageCount = 0
        storageCapacity = 0
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

    /// Appends a token of `kind` with the trivia flags its position implies plus `extra`.
    /// `keyword` is the flavor of a `keyword` token and `.none` for every other kind. (`extra`
    /// defaults to `TokenFlags()`: an empty array literal would leave a release of the empty
    /// array in every inlined emit.)
    @inline(__always)
    mutating func emit(
        _ kind: TokenKind, _ start: Int, _ end: Int, _ extra: TokenFlags = TokenFlags(), keyword: KeywordFlavor = .none
    ) {
        let isComment = kind.isComment
        var flags = extra
        let gap = start > lastEnd
        if gap || lastWasComment { flags.insert(.leadingTrivia) }
        if isComment ? newlineSinceToken : newlineSinceCode { flags.insert(.atStartOfLine) }
        if gap || isComment, storageCount > 0 {
            storage.unsafelyUnwrapped[storageCount - 1].flags.insert(.trailingTrivia)
        }
        store(Token(kind: kind, start: start, end: end, flags: flags))
        lastEnd = end
        lastWasComment = isComment
        newlineSinceToken = false
        if !isComment {
            newlineSinceCode = false
            noteCodeToken(kind, start, end, keyword: keyword)
        }
    }

    /// Records what the next token's lexing may depend on. Most tokens change only the
    /// previous kinds, whether a regex may follow and the keyword flavor; pound keywords,
    /// attribute names and tokens inside availability arguments take the longer way.
    @inline(__always)
    mutating func noteCodeToken(_ kind: TokenKind, _ start: Int, _ end: Int, keyword: KeywordFlavor) {
        preferRegexNext = false
        let before = previousKind
        previousPreviousKind = before
        previousKind = kind
        if availabilityArmed || availabilityDepth > 0 || kind == .poundKeyword
            || (kind == .identifier && before == .atSign) {
            noteUncommonCodeToken(kind, before, start, end, keyword: keyword)
            return
        }
        if kind == .keyword {
            previousAllowsRegex = keyword != .expressionValue
        } else {
            previousAllowsRegex = Self.allowsRegex(after: kind)
        }
        previousKeyword = keyword
    }

    /// `noteCodeToken` for the tokens that affect more than the previous kinds; out of line
    /// so that the common path stays small enough to inline into every emit.
    @inline(never)
    mutating func noteUncommonCodeToken(
        _ kind: TokenKind, _ before: TokenKind?, _ start: Int, _ end: Int, keyword: KeywordFlavor
    ) {
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
            previousKeyword = keyword
            previousAllowsRegex = keyword != .expressionValue
            return
        case .poundKeyword:
            // `#if`, `#elseif`, `#else`, `#endif` sequence expressions; `#available` and
            // friends do not.
            previousAllowsRegex = end - start <= 7 && byte(start + 1) != UInt8(ascii: "a")
        default:
            previousAllowsRegex = Self.allowsRegex(after: kind)
        }
        previousKeyword = .none
    }

    /// Whether a `/` after a code token of `kind` (not a keyword or pound keyword) may open a
    /// regex literal: after an opening bracket, a separator or an operator, yes.
    @inline(__always)
    static func allowsRegex(after kind: TokenKind) -> Bool {
        switch kind {
        case .leftParen, .leftBrace, .leftSquare, .prefixOperator, .prefixAmpersand, .binaryOperator,
             .equal, .semicolon, .comma, .colon, .infixQuestionMark, .stringInterpolationStart, .unknown:
            true
        default:
            false
        }
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

    /// Flags the last token as running to the end of its line or file.
    mutating func flagLastUnterminated() {
        if storageCount > 0 { storage.unsafelyUnwrapped[storageCount - 1].flags.insert(.unterminated) }
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
                position = skipSpaces(from: position + 1)
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
                position = skipSpaces(from: position + 1)
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

    /// The first index at or after `index` that holds no space. Indentation makes runs of
    /// spaces long, so once a run has begun eight bytes are tested at a time.
    @inline(__always)
    func skipSpaces(from index: Int) -> Int {
        var index = index
        guard index < count, bytes[index] == 0x20 else { return index }
        index += 1
        while index + 8 <= count {
            // The lowest lane that is not a space holds the first byte that is not.
            let others = littleEndianWord(bytes, at: index) ^ 0x2020_2020_2020_2020
            if others != 0 { return index + others.trailingZeroBitCount >> 3 }
            index += 8
        }
        while index < count, bytes[index] == 0x20 { index += 1 }
        return index
    }

    mutating func lexLineComment() {
        let start = position
        var end = start + 2
        // Comments run long: look for the line break eight bytes at a time first.
        while end + 8 <= count {
            let word = littleEndianWord(bytes, at: end)
            let lineBreaks = CharacterClass.zeroLanes(word ^ 0x0A0A_0A0A_0A0A_0A0A)
                | CharacterClass.zeroLanes(word ^ 0x0D0D_0D0D_0D0D_0D0D)
            if lineBreaks != 0 {
                end += lineBreaks.trailingZeroBitCount >> 3
                break
            }
            end += 8
        }
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
        emit(isDoc ? .commentDocBlock : .commentBlock, start, index, depth > 0 ? .unterminated : TokenFlags())
        if sawNewline { newlineSinceCode = true }
        position = index
    }

    // MARK: - Tokens

    /// Lexes the token at `position`. The switch has single bytes only, so that it compiles to
    /// one jump table; the byte ranges (names, digits, non-ASCII) are told apart after it.
    @inline(__always)
    mutating func lexToken() {
        let start = position
        let c = bytes[start]
        switch c {
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
        case UInt8(ascii: "."):
            // A lone `.`, the commonest operator, is a period (but names an operator after
            // `func`); a run such as `..<` goes through the operator rules.
            let next = byte(start + 1)
            if next < 0x80, next != UInt8(ascii: "."), !CharacterClass.isASCIIOperator(next),
               previousKeyword != .funcKeyword {
                single(.period)
            } else {
                lexOperator()
            }
        case UInt8(ascii: "!"), UInt8(ascii: "?"):
            if isLeftBound(start) {
                let afterTry = previousKeyword == .tryKeyword
                single(c == UInt8(ascii: "!") ? .exclamationMark : .postfixQuestionMark)
                preferRegexNext = afterTry
            } else {
                lexOperator()
            }
        default:
            if CharacterClass.isASCIIIdentifierStart(c) {
                lexIdentifier(from: start, afterFirst: start + 1)
            } else if CharacterClass.isDigit(c) {
                lexNumber()
            } else if c >= 0x80 {
                lexNonASCII()
            } else if CharacterClass.isASCIIOperator(c) {
                lexOperator()
            } else {
                lexUnknownRun()
            }
        }
    }

    /// A name, an operator or unknown bytes, starting with a non-ASCII byte.
    mutating func lexNonASCII() {
        let start = position
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
}
