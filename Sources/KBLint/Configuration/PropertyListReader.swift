/// A value of an old-style (OpenStep) property list, the format of `project.pbxproj`.
indirect enum PropertyListValue: Sendable, Equatable {
    case string(String)
    case array([PropertyListValue])
    case dictionary([String: PropertyListValue])

    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var array: [PropertyListValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    var dictionary: [String: PropertyListValue]? {
        if case .dictionary(let members) = self { return members }
        return nil
    }

    subscript(key: String) -> PropertyListValue? { dictionary?[key] }
}

/// Reads old-style property lists: `{ key = value; }`, `( a, b, )`, quoted and unquoted
/// strings, `<hex data>` (kept as text), `/* */` and `//` comments. Nesting deeper than
/// `maximumDepth` or any syntax error gives nil: project files are read for a best-effort
/// deployment target, never to reject them.
enum PropertyListReader {
    static let maximumDepth = 64

    static func read(_ text: String) -> PropertyListValue? {
        var parser = Parser(bytes: Array(text.utf8))
        guard let value = parser.value(depth: 0) else { return nil }
        parser.skipTrivia()
        return parser.position == parser.bytes.count ? value : nil
    }

    private struct Parser {
        let bytes: [UInt8]
        var position = 0

        mutating func skipTrivia() {
            while position < bytes.count {
                let byte = bytes[position]
                if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                    position += 1
                } else if byte == 0x2F, position + 1 < bytes.count, bytes[position + 1] == 0x2A {  // /*
                    position += 2
                    while position + 1 < bytes.count, !(bytes[position] == 0x2A && bytes[position + 1] == 0x2F) { position += 1 }
                    position = min(bytes.count, position + 2)
                } else if byte == 0x2F, position + 1 < bytes.count, bytes[position + 1] == 0x2F {  // //
                    while position < bytes.count, bytes[position] != 0x0A { position += 1 }
                } else {
                    return
                }
            }
        }

        mutating func value(depth: Int) -> PropertyListValue? {
            guard depth < PropertyListReader.maximumDepth else { return nil }
            skipTrivia()
            guard position < bytes.count else { return nil }
            switch bytes[position] {
            case UInt8(ascii: "{"):
                position += 1
                var members: [String: PropertyListValue] = [:]
                while true {
                    skipTrivia()
                    guard position < bytes.count else { return nil }
                    if bytes[position] == UInt8(ascii: "}") {
                        position += 1
                        return .dictionary(members)
                    }
                    guard case .string(let key)? = value(depth: depth + 1) else { return nil }
                    skipTrivia()
                    guard position < bytes.count, bytes[position] == UInt8(ascii: "=") else { return nil }
                    position += 1
                    guard let member = value(depth: depth + 1) else { return nil }
                    members[key] = member
                    skipTrivia()
                    guard position < bytes.count, bytes[position] == UInt8(ascii: ";") else { return nil }
                    position += 1
                }
            case UInt8(ascii: "("):
                position += 1
                var items: [PropertyListValue] = []
                while true {
                    skipTrivia()
                    guard position < bytes.count else { return nil }
                    if bytes[position] == UInt8(ascii: ")") {
                        position += 1
                        return .array(items)
                    }
                    guard let item = value(depth: depth + 1) else { return nil }
                    items.append(item)
                    skipTrivia()
                    guard position < bytes.count else { return nil }
                    if bytes[position] == UInt8(ascii: ",") { position += 1 }
                }
            case UInt8(ascii: "\""):
                return quoted()
            case UInt8(ascii: "<"):
                let start = position
                while position < bytes.count, bytes[position] != UInt8(ascii: ">") { position += 1 }
                guard position < bytes.count else { return nil }
                position += 1
                return .string(String(decoding: bytes[start..<position], as: UTF8.self))
            default:
                let start = position
                while position < bytes.count, Self.isUnquoted(bytes[position]) { position += 1 }
                guard position > start else { return nil }
                return .string(String(decoding: bytes[start..<position], as: UTF8.self))
            }
        }

        /// A `"…"` string with `\"`, `\\`, `\n` and `\t` escapes.
        mutating func quoted() -> PropertyListValue? {
            position += 1
            var text: [UInt8] = []
            while position < bytes.count {
                let byte = bytes[position]
                position += 1
                if byte == UInt8(ascii: "\"") { return .string(String(decoding: text, as: UTF8.self)) }
                if byte == UInt8(ascii: "\\"), position < bytes.count {
                    let escaped = bytes[position]
                    position += 1
                    switch escaped {
                    case UInt8(ascii: "n"): text.append(0x0A)
                    case UInt8(ascii: "t"): text.append(0x09)
                    default: text.append(escaped)
                    }
                    continue
                }
                text.append(byte)
            }
            return nil
        }

        static func isUnquoted(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return true
            case UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "-"):
                return true
            default:
                return byte >= 0x80
            }
        }
    }
}
