/// Keyword classification on raw bytes, without building strings.
///
/// The reserved set is exactly the words the Swift compiler's lexer turns into keywords
/// (swift-syntax's "lexer-classified" keywords, plus the wildcard `_`). Everything else —
/// `get`, `set`, `override`, `weak`, `async`, `await`, `some`, `any`, … — is an identifier
/// whose meaning depends on where it stands; `isContextualKeyword` names those.
enum KeywordTable {
    /// The flavor of the reserved word that `length` bytes at `start` spell, or nil when they
    /// spell none: one classification answers both whether a name is reserved and how it
    /// affects the next token.
    static func reserved(_ start: UnsafePointer<UInt8>, _ length: Int) -> LexingPass.KeywordFlavor? {
        switch length {
        case 1: return start[0] == 0x5F ? .other : nil  // _
        case 2:
            return spells(start, "as") || spells(start, "do") || spells(start, "if")
                || spells(start, "in") || spells(start, "is") ? .other : nil
        case 3:
            switch start[0] {
            case 0x41: return spells(start, "Any") ? .expressionValue : nil
            case 0x66: return spells(start, "for") ? .other : nil
            case 0x6C: return spells(start, "let") ? .other : nil
            case 0x6E: return spells(start, "nil") ? .expressionValue : nil
            case 0x74: return spells(start, "try") ? .tryKeyword : nil
            case 0x76: return spells(start, "var") ? .other : nil
            default: return nil
            }
        case 4:
            switch start[0] {
            case 0x53: return spells(start, "Self") ? .expressionValue : nil
            case 0x63: return spells(start, "case") ? .other : nil
            case 0x65: return spells(start, "else") || spells(start, "enum") ? .other : nil
            case 0x66: return spells(start, "func") ? .funcKeyword : nil
            case 0x69: return spells(start, "init") ? .other : nil
            case 0x73: return spells(start, "self") ? .expressionValue : nil
            case 0x74: return spells(start, "true") ? .expressionValue : nil
            default: return nil
            }
        case 5:
            switch start[0] {
            case 0x62: return spells(start, "break") ? .other : nil
            case 0x63: return spells(start, "catch") || spells(start, "class") ? .other : nil
            case 0x64: return spells(start, "defer") ? .other : nil
            case 0x66: return spells(start, "false") ? .expressionValue : nil
            case 0x67: return spells(start, "guard") ? .other : nil
            case 0x69: return spells(start, "inout") ? .other : nil
            case 0x73: return spells(start, "super") ? .expressionValue : nil
            case 0x74: return spells(start, "throw") ? .other : nil
            case 0x77: return spells(start, "where") || spells(start, "while") ? .other : nil
            default: return nil
            }
        case 6:
            switch start[0] {
            case 0x64: return spells(start, "deinit") ? .other : nil
            case 0x69: return spells(start, "import") ? .other : nil
            case 0x70: return spells(start, "public") ? .other : nil
            case 0x72: return spells(start, "repeat") || spells(start, "return") ? .other : nil
            case 0x73: return spells(start, "static") || spells(start, "struct") || spells(start, "switch") ? .other : nil
            case 0x74: return spells(start, "throws") ? .other : nil
            default: return nil
            }
        case 7:
            return spells(start, "default") || spells(start, "private") ? .other : nil
        case 8:
            switch start[0] {
            case 0x63: return spells(start, "continue") ? .other : nil
            case 0x69: return spells(start, "internal") ? .other : nil
            case 0x6F: return spells(start, "operator") ? .operatorKeyword : nil
            case 0x70: return spells(start, "protocol") ? .other : nil
            case 0x72: return spells(start, "rethrows") ? .other : nil
            default: return nil
            }
        case 9:
            return spells(start, "extension") || spells(start, "subscript") || spells(start, "typealias") ? .other : nil
        case 11:
            return spells(start, "fallthrough") || spells(start, "fileprivate") ? .other : nil
        case 14:
            return spells(start, "associatedtype") ? .other : nil
        case 15:
            return spells(start, "precedencegroup") ? .other : nil
        default:
            return nil
        }
    }

    /// Whether the bytes at `start` begin with `word` (the caller has checked the length).
    @inline(__always)
    static func spells(_ start: UnsafePointer<UInt8>, _ word: StaticString) -> Bool {
        let expected = word.utf8Start
        for index in 0..<word.utf8CodeUnitCount where start[index] != expected[index] {
            return false
        }
        return true
    }

    /// Words that act as keywords only in some positions and otherwise lex as identifiers.
    static let contextual: [StaticString] = [
        "actor", "any", "associativity", "async", "await", "borrowing", "consume", "consuming",
        "convenience", "copy", "didSet", "discardSourceLocation", "distributed", "dynamic", "each",
        "final", "get", "indirect", "infix", "isolated", "lazy", "left", "macro",
        "mutating", "none", "nonisolated", "nonmutating", "open", "optional", "override",
        "package", "postfix", "precedence", "prefix", "Protocol", "required", "right", "sending",
        "set", "some", "Type", "unowned", "unsafe", "weak", "willSet", "_modify", "_read",
        "__owned", "__shared", "_borrowing", "_consuming", "_mutating", "modify", "read",
        "then", "assignment", "higherThan", "lowerThan", "safe", "unchecked", "yield",
    ]
}

extension TokenizedSource {
    /// Whether `token` is an identifier that Swift treats as a keyword in some positions
    /// (`get`, `set`, `willSet`, `override`, `weak`, `async`, `await`, `some`, …). Rules use it
    /// to read declarations without mistaking such a word for a name.
    public func isContextualKeyword(_ token: Token) -> Bool {
        guard token.kind == .identifier, token.length > 0, token.length <= 24,
              Int(token.end) <= file.bytes.count else { return false }
        return file.bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return false }
            for word in KeywordTable.contextual where word.utf8CodeUnitCount == token.length {
                if KeywordTable.spells(base + Int(token.start), word) { return true }
            }
            return false
        }
    }
}
