import Lexer

/// A node of a YAML document in the subset kblint reads, with the position of its first
/// character (1-based line, 1-based UTF-8 byte column) so configuration errors can point
/// at the offending value. Nesting is limited by the reader, so walking a node recursively
/// is safe.
struct YAMLNode: Sendable, Hashable {
    enum Content: Sendable, Hashable {
        case scalar(YAMLScalar)
        case sequence([YAMLNode])
        /// Entries in document order; keys are unique (the reader rejects duplicates).
        case mapping([YAMLMappingEntry])
    }

    let content: Content
    let location: SourceLocation

    init(_ content: Content, at location: SourceLocation) {
        self.content = content
        self.location = location
    }

    /// The empty value of `key:` with nothing after it.
    static func null(at location: SourceLocation) -> YAMLNode {
        YAMLNode(.scalar(YAMLScalar(text: "", style: .plain)), at: location)
    }

    var scalar: YAMLScalar? {
        if case .scalar(let scalar) = content { return scalar }
        return nil
    }

    var sequence: [YAMLNode]? {
        if case .sequence(let items) = content { return items }
        return nil
    }

    var mapping: [YAMLMappingEntry]? {
        if case .mapping(let entries) = content { return entries }
        return nil
    }

    var isNull: Bool { scalar?.isNull ?? false }

    /// What the node is, for messages such as "expected a list, found a mapping".
    var kindDescription: String {
        switch content {
        case .sequence: "a list"
        case .mapping: "a mapping"
        case .scalar(let scalar): scalar.kindDescription
        }
    }
}

struct YAMLMappingEntry: Sendable, Hashable {
    let key: String
    let keyLocation: SourceLocation
    let value: YAMLNode
}

/// A scalar as written: its text after unquoting and how it was quoted. Types follow the
/// YAML 1.2 core schema and apply to plain (unquoted) scalars only: `"15.4"` is a string,
/// `15.4` a number, `off`/`yes` are strings (not booleans as in YAML 1.1).
struct YAMLScalar: Sendable, Hashable {
    enum Style: Sendable, Hashable {
        case plain, singleQuoted, doubleQuoted
    }

    let text: String
    let style: Style

    var isNull: Bool {
        style == .plain && ["", "~", "null", "Null", "NULL"].contains(text)
    }

    var bool: Bool? {
        guard style == .plain else { return nil }
        switch text {
        case "true", "True", "TRUE": return true
        case "false", "False", "FALSE": return false
        default: return nil
        }
    }

    /// Decimal integers such as `3`, `-2`, `+7`.
    var int: Int? {
        guard style == .plain, isDecimalInteger(text) else { return nil }
        return Int(text)
    }

    /// Integers and decimal fractions such as `0.25`, `1e3`, `.5`.
    var double: Double? {
        guard style == .plain, isDecimalNumber(text) else { return nil }
        return Double(text)
    }

    /// Neither null, a boolean nor a number.
    var isString: Bool { !isNull && bool == nil && double == nil }

    var kindDescription: String {
        if isNull { return "an empty value" }
        if let bool { return "'\(bool)'" }
        if double != nil { return "the number \(text)" }
        return "the text '\(text)'"
    }

    private func isDecimalInteger(_ text: String) -> Bool {
        var digits = Substring(text)
        if digits.first == "-" || digits.first == "+" { digits = digits.dropFirst() }
        return !digits.isEmpty && digits.count <= 18 && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }

    private func isDecimalNumber(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= 64 else { return false }
        var index = 0
        func digits() -> Int {
            let start = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            return index - start
        }
        if bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
        var mantissaDigits = digits()
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            mantissaDigits += digits()
        }
        guard mantissaDigits > 0 else { return false }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                index += 1
            }
            guard digits() > 0 else { return false }
        }
        return index == bytes.count
    }
}
