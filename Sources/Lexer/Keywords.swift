/// Keyword classification on raw bytes, without building strings.
///
/// The reserved set is exactly the words the Swift compiler's lexer turns into keywords
/// (swift-syntax's "lexer-classified" keywords, plus the wildcard `_`). Everything else —
/// `get`, `set`, `override`, `weak`, `async`, `await`, `some`, `any`, … — is an identifier
/// whose meaning depends on where it stands; `isContextualKeyword` names those.
enum KeywordTable {
    /// Whether `length` bytes at `start` spell a reserved word.
    static func isReserved(_ start: UnsafePointer<UInt8>, _ length: Int) -> Bool {
        switch length {
        case 1: return start[0] == 0x5F  // _
        case 2:
            return spells(start, "as") || spells(start, "do") || spells(start, "if")
                || spells(start, "in") || spells(start, "is")
        case 3:
            switch start[0] {
            case 0x41: return spells(start, "Any")
            case 0x66: return spells(start, "for")
            case 0x6C: return spells(start, "let")
            case 0x6E: return spells(start, "nil")
            case 0x74: return spells(start, "try")
            case 0x76: return spells(start, "var")
            default: return false
            }
        case 4:
            switch start[0] {
            case 0x53: return spells(start, "Self")
            case 0x63: return spells(start, "case")
            case 0x65: return spells(start, "else") || spells(start, "enum")
            case 0x66: return spells(start, "func")
            case 0x69: return spells(start, "init")
            case 0x73: return spells(start, "self")
            case 0x74: return spells(start, "true")
            default: return false
            }
        case 5:
            switch start[0] {
            case 0x62: return spells(start, "break")
            case 0x63: return spells(start, "catch") || spells(start, "class")
            case 0x64: return spells(start, "defer")
            case 0x66: return spells(start, "false")
            case 0x67: return spells(start, "guard")
            case 0x69: return spells(start, "inout")
            case 0x73: return spells(start, "super")
            case 0x74: return spells(start, "throw")
            case 0x77: return spells(start, "where") || spells(start, "while")
            default: return false
            }
        case 6:
            switch start[0] {
            case 0x64: return spells(start, "deinit")
            case 0x69: return spells(start, "import")
            case 0x70: return spells(start, "public")
            case 0x72: return spells(start, "repeat") || spells(start, "return")
            case 0x73: return spells(start, "static") || spells(start, "struct") || spells(start, "switch")
            case 0x74: return spells(start, "throws")
            default: return false
            }
        case 7:
            return spells(start, "default") || spells(start, "private")
        case 8:
            switch start[0] {
            case 0x63: return spells(start, "continue")
            case 0x69: return spells(start, "internal")
            case 0x6F: return spells(start, "operator")
            case 0x70: return spells(start, "protocol")
            case 0x72: return spells(start, "rethrows")
            default: return false
            }
        case 9:
            return spells(start, "extension") || spells(start, "subscript") || spells(start, "typealias")
        case 11:
            return spells(start, "fallthrough") || spells(start, "fileprivate")
        case 14:
            return spells(start, "associatedtype")
        case 15:
            return spells(start, "precedencegroup")
        default:
            return false
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
