/// The kind of a token. The raw names (`dumpName`) are the fixed, documented list that
/// `kblint tokens` prints; a kind is only ever added, never renamed.
public enum TokenKind: UInt8, Sendable, CaseIterable {
    // Names
    case identifier            // plain, Unicode, backticked, `$0`, `$name`, contextual keywords
    case keyword               // reserved words (`class`, `func`, `self`, `true`, …)
    case poundKeyword          // `#if` `#elseif` `#else` `#endif` `#sourceLocation` `#available` `#unavailable`
    case pound                 // `#` before a macro or `#selector`/`#keyPath`/`#file…`/`#_hasSymbol` name
    case atSign                // `@` before an attribute name

    // Literals
    case integerLiteral
    case floatLiteral

    // String-literal pieces
    case stringQuote           // `"`, `"""`, `'` (for error recovery)
    case stringRawDelimiter    // the `#`s around a raw string
    case stringSegment         // literal text between quotes and interpolations
    case stringInterpolationStart  // `\(` or `\#(`
    case stringInterpolationEnd    // the `)` closing an interpolation

    // Regex-literal pieces
    case regexDelimiter        // `/`, `#/`, `/#`, …
    case regexPattern

    // Comments (trivia for rules, kept for suppression comments)
    case commentLine           // `// …`
    case commentDocLine        // `/// …`
    case commentBlock          // `/* … */`
    case commentDocBlock       // `/** … */`
    case commentShebang        // `#!…` on the first line

    // Operators
    case prefixOperator
    case postfixOperator
    case binaryOperator

    // Punctuation
    case leftParen, rightParen
    case leftBrace, rightBrace
    case leftSquare, rightSquare
    case leftAngle, rightAngle // generic argument/parameter brackets
    case period
    case comma
    case colon
    case semicolon
    case equal                 // assignment `=`
    case arrow                 // `->`
    case backslash             // key-path `\`
    case prefixAmpersand       // `&` of an inout argument
    case postfixQuestionMark   // `?` of optional chaining / optional type
    case infixQuestionMark     // `?` of the ternary operator
    case exclamationMark       // postfix `!`
    case backtick              // a stray backtick (error recovery)

    /// Bytes the lexer could not make sense of (invalid UTF-8, NUL, stray characters).
    case unknown

    /// The name printed by `kblint tokens` and documented in README.
    public var dumpName: String {
        switch self {
        case .identifier: "identifier"
        case .keyword: "keyword"
        case .poundKeyword: "pound_keyword"
        case .pound: "pound"
        case .atSign: "at_sign"
        case .integerLiteral: "integer_literal"
        case .floatLiteral: "float_literal"
        case .stringQuote: "string_quote"
        case .stringRawDelimiter: "string_raw_delimiter"
        case .stringSegment: "string_segment"
        case .stringInterpolationStart: "string_interpolation_start"
        case .stringInterpolationEnd: "string_interpolation_end"
        case .regexDelimiter: "regex_delimiter"
        case .regexPattern: "regex_pattern"
        case .commentLine: "comment_line"
        case .commentDocLine: "comment_doc_line"
        case .commentBlock: "comment_block"
        case .commentDocBlock: "comment_doc_block"
        case .commentShebang: "comment_shebang"
        case .prefixOperator: "prefix_operator"
        case .postfixOperator: "postfix_operator"
        case .binaryOperator: "binary_operator"
        case .leftParen: "left_paren"
        case .rightParen: "right_paren"
        case .leftBrace: "left_brace"
        case .rightBrace: "right_brace"
        case .leftSquare: "left_square"
        case .rightSquare: "right_square"
        case .leftAngle: "left_angle"
        case .rightAngle: "right_angle"
        case .period: "period"
        case .comma: "comma"
        case .colon: "colon"
        case .semicolon: "semicolon"
        case .equal: "equal"
        case .arrow: "arrow"
        case .backslash: "backslash"
        case .prefixAmpersand: "prefix_ampersand"
        case .postfixQuestionMark: "postfix_question_mark"
        case .infixQuestionMark: "infix_question_mark"
        case .exclamationMark: "exclamation_mark"
        case .backtick: "backtick"
        case .unknown: "unknown"
        }
    }

    /// Comments are trivia: rules see the code view, which leaves them out.
    public var isComment: Bool {
        switch self {
        case .commentLine, .commentDocLine, .commentBlock, .commentDocBlock, .commentShebang: true
        default: false
        }
    }

    public var isStringPiece: Bool {
        switch self {
        case .stringQuote, .stringRawDelimiter, .stringSegment,
             .stringInterpolationStart, .stringInterpolationEnd: true
        default: false
        }
    }

    public var isRegexPiece: Bool { self == .regexDelimiter || self == .regexPattern }

    public var isOperator: Bool {
        self == .prefixOperator || self == .postfixOperator || self == .binaryOperator
    }
}

/// Facts about the whitespace around a token and about how it ended.
public struct TokenFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// A newline (or the start of the file) lies between the previous token and this one;
    /// comments do not count as a line break unless they contain one.
    public static let atStartOfLine = TokenFlags(rawValue: 1 << 0)
    /// Whitespace, a newline or a comment immediately precedes the token.
    public static let leadingTrivia = TokenFlags(rawValue: 1 << 1)
    /// Whitespace, a newline or a comment immediately follows the token.
    public static let trailingTrivia = TokenFlags(rawValue: 1 << 2)
    /// The construct (string, comment, interpolation, regex) ran to end of file.
    public static let unterminated = TokenFlags(rawValue: 1 << 3)
}

/// One token: a kind and a half-open UTF-8 byte range into the source. Twelve bytes, so
/// that a file's tokens stay small and cheap to copy.
public struct Token: Sendable, Hashable {
    public var kind: TokenKind
    public var flags: TokenFlags
    public var start: UInt32
    public var end: UInt32

    public init(kind: TokenKind, start: Int, end: Int, flags: TokenFlags = TokenFlags()) {
        self.kind = kind
        self.flags = flags
        self.start = UInt32(truncatingIfNeeded: start)
        self.end = UInt32(truncatingIfNeeded: end)
    }

    // Inlinable: read for nearly every token by the analysis in another module.
    @inlinable public var range: Range<Int> { Int(start)..<Int(end) }
    @inlinable public var length: Int { Int(end &- start) }
    @inlinable public var isAtStartOfLine: Bool { flags.contains(.atStartOfLine) }
    @inlinable public var isUnterminated: Bool { flags.contains(.unterminated) }
}
