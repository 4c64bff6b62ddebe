/// Reads JSON text strictly by RFC 8259 into a `JSONValue`, for the baseline file: nothing
/// beyond the grammar is accepted (no comments, trailing commas, single quotes, `NaN`), and
/// errors name the line and column. Foundation's `JSONDecoder` did this before, but linking
/// Foundation costs every run its start-up.
///
/// Choices the RFC leaves open: a leading UTF-8 byte order mark is skipped (editors on
/// Windows add one; RFC 8259 §8.1 allows ignoring it), and other encodings are refused as
/// invalid UTF-8. Integers that fit `Int` are `.int`, other numbers `.double`; a number too
/// large for `Double` is an error. Object members keep their order and duplicates (see
/// `subscript(member:)`). Nesting deeper than `maximumDepth` is an error rather than a
/// stack overflow.
enum JSONReader {
    struct SyntaxError: Error, Hashable, CustomStringConvertible {
        let line: Int
        /// In characters (Unicode scalars), from 1.
        let column: Int
        let reason: String
        var description: String { "line \(line), column \(column): \(reason)" }
    }

    static let maximumDepth = 512

    /// The value `bytes` hold, which must be one JSON value with only white space around it.
    static func value(of bytes: [UInt8]) throws(SyntaxError) -> JSONValue {
        var parser = Parser(bytes: bytes)
        parser.skipWhiteSpace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhiteSpace()
        guard parser.position == bytes.count else {
            throw parser.error(at: parser.position, "expected the end of the input after the value, found \(parser.found(at: parser.position))")
        }
        return value
    }
}

extension JSONValue {
    /// The value of the object's last member named `key` (most JSON readers let a
    /// repeated key override); nil for a missing key or a value that is not an object.
    subscript(member key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.key == key }?.value
    }

    /// A number's value, whole or not; nil for anything else.
    var number: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }
}

private struct Parser {
    let bytes: [UInt8]
    /// Where the text starts: after the byte order mark, if any.
    let contentStart: Int
    var position: Int

    init(bytes: [UInt8]) {
        self.bytes = bytes
        contentStart = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        position = contentStart
    }

    mutating func skipWhiteSpace() {
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): position += 1
            default: return
            }
        }
    }

    /// The value at `position` (after white space), and `position` moved past it.
    mutating func parseValue(depth: Int) throws(JSONReader.SyntaxError) -> JSONValue {
        guard position < bytes.count else { throw error(at: position, "expected a value, found the end of the input") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        default: throw error(at: position, "expected a value, found \(found(at: position))")
        }
    }

    private mutating func parseLiteral(_ word: StaticString, _ value: JSONValue) throws(JSONReader.SyntaxError) -> JSONValue {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes[position...].starts(with: expected) else {
            throw error(at: position, "expected a value, found \(found(at: position))")
        }
        position += expected.count
        return value
    }

    private mutating func parseArray(depth: Int) throws(JSONReader.SyntaxError) -> JSONValue {
        var elements: [JSONValue] = []
        if try opensEmpty(closing: "]", depth: depth) { return .array(elements) }
        while true {
            skipWhiteSpace()
            elements.append(try parseValue(depth: depth))
            skipWhiteSpace()
            guard try continuesAfterSeparator(closing: "]") else { return .array(elements) }
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONReader.SyntaxError) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if try opensEmpty(closing: "}", depth: depth) { return .object(members) }
        while true {
            skipWhiteSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw error(at: position, "expected a member name in double quotes, found \(found(at: position))")
            }
            let key = try parseString()
            skipWhiteSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                throw error(at: position, "expected ':' after the member name, found \(found(at: position))")
            }
            position += 1
            skipWhiteSpace()
            members.append((key, try parseValue(depth: depth)))
            skipWhiteSpace()
            guard try continuesAfterSeparator(closing: "}") else { return .object(members) }
        }
    }

    /// After an element: true past a `,` that another element follows, false past the
    /// closing bracket.
    /// Steps over the opening bracket of an array or object and the white space after it;
    /// true when `closing` follows at once (stepped over too).
    private mutating func opensEmpty(closing: Unicode.Scalar, depth: Int) throws(JSONReader.SyntaxError) -> Bool {
        try checkDepth(depth)
        position += 1
        skipWhiteSpace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: closing) else { return false }
        position += 1
        return true
    }

    private mutating func continuesAfterSeparator(closing: Unicode.Scalar) throws(JSONReader.SyntaxError) -> Bool {
        let close = UInt8(ascii: closing)
        guard position < bytes.count, bytes[position] == UInt8(ascii: ",") || bytes[position] == close else {
            throw error(at: position, "expected ',' or '\(closing)', found \(found(at: position))")
        }
        let separator = position
        position += 1
        guard bytes[separator] == UInt8(ascii: ",") else { return false }
        skipWhiteSpace()
        if position < bytes.count, bytes[position] == close {
            throw error(at: separator, "trailing comma before '\(closing)'")
        }
        return true
    }

    private func checkDepth(_ depth: Int) throws(JSONReader.SyntaxError) {
        guard depth <= JSONReader.maximumDepth else {
            throw error(at: position, "nested more than \(JSONReader.maximumDepth) levels deep")
        }
    }

    /// A string literal: UTF-8 checked, control characters refused, escapes decoded.
    private mutating func parseString() throws(JSONReader.SyntaxError) -> String {
        let opening = position
        position += 1
        var decoded: [UInt8] = []
        var segmentStart = position
        while true {
            guard position < bytes.count else { throw error(at: opening, "string not closed") }
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                let segment = bytes[segmentStart..<position]
                position += 1
                // Every escape adds to `decoded`: empty means none, and the bytes are the text.
                if decoded.isEmpty { return String(decoding: segment, as: UTF8.self) }
                decoded.append(contentsOf: segment)
                return String(decoding: decoded, as: UTF8.self)
            case UInt8(ascii: "\\"):
                decoded.append(contentsOf: bytes[segmentStart..<position])
                try parseEscape(into: &decoded)
                segmentStart = position
            case 0..<0x20:
                throw error(at: position, "control character U+\(hex(UInt32(byte), digits: 4)) in a string; write it as an escape")
            case 0..<0x80:
                position += 1
            default:
                guard let length = scalarLength(at: position) else { throw error(at: position, "invalid UTF-8") }
                position += length
            }
        }
    }

    /// The escape at `position` (a backslash), appended as UTF-8; a `\u` high surrogate
    /// must be followed by a `\u` low surrogate, and together they are one scalar.
    private mutating func parseEscape(into decoded: inout [UInt8]) throws(JSONReader.SyntaxError) {
        let start = position
        guard position + 1 < bytes.count else { throw error(at: start, "string not closed") }
        let letter = bytes[position + 1]
        position += 2
        let simple: UInt8? = switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): letter
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
        if let simple {
            decoded.append(simple)
            return
        }
        guard letter == UInt8(ascii: "u") else {
            throw error(at: start, "invalid escape '\\\(found(at: start + 1, quoted: false))'")
        }
        var value = try hexQuad(escapeAt: start)
        switch value {
        case 0xD800...0xDBFF:
            let low = position
            guard bytes[position...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) else {
                throw error(at: start, "unpaired surrogate \\u\(hex(value, digits: 4))")
            }
            position += 2
            let second = try hexQuad(escapeAt: low)
            guard (0xDC00...0xDFFF).contains(second) else {
                throw error(at: start, "unpaired surrogate \\u\(hex(value, digits: 4))")
            }
            value = 0x10000 + ((value - 0xD800) << 10) + (second - 0xDC00)
        case 0xDC00...0xDFFF:
            throw error(at: start, "unpaired surrogate \\u\(hex(value, digits: 4))")
        default:
            break
        }
        // Surrogates are handled above, so `value` is a scalar.
        UTF8.encode(Unicode.Scalar(value)!) { decoded.append($0) }
    }

    /// The four hex digits at `position`, of the `\u` escape at `escape`.
    private mutating func hexQuad(escapeAt escape: Int) throws(JSONReader.SyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard position < bytes.count, let digit = hexDigitValue(bytes[position]) else {
                throw error(at: escape, "\\u needs four hex digits")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    private func hexDigitValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    private mutating func parseNumber() throws(JSONReader.SyntaxError) -> JSONValue {
        let start = position
        var whole = true
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        if position < bytes.count, bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count, isDigit(bytes[position]) {
                throw error(at: start, "a number cannot start with 0 followed by digits")
            }
        } else {
            try skipDigits(after: "'-'")
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            whole = false
            position += 1
            try skipDigits(after: "'.'")
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            whole = false
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            try skipDigits(after: "the exponent's 'e'")
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        if whole, let value = Int(text) { return .int(value) }
        guard let value = Double(text), value.isFinite else { throw error(at: start, "number \(text) is out of range") }
        return .double(value)
    }

    private mutating func skipDigits(after what: String) throws(JSONReader.SyntaxError) {
        guard position < bytes.count, isDigit(bytes[position]) else {
            throw error(at: position, "expected a digit after \(what), found \(found(at: position))")
        }
        while position < bytes.count, isDigit(bytes[position]) { position += 1 }
    }

    private func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    /// The length of the valid UTF-8 sequence at `offset`, or nil.
    private func scalarLength(at offset: Int) -> Int? {
        var iterator = bytes[offset...].makeIterator()
        var decoder = UTF8()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return nil }
        return UTF8.width(scalar)
    }

    /// What is at `offset`, for messages: `'x'`, "the end of the input", or the byte that is
    /// not UTF-8.
    func found(at offset: Int, quoted: Bool = true) -> String {
        guard offset < bytes.count else { return "the end of the input" }
        guard let length = scalarLength(at: offset) else {
            return "invalid UTF-8 (byte 0x\(hex(UInt32(bytes[offset]), digits: 2)))"
        }
        let character = String(decoding: bytes[offset..<offset + length], as: UTF8.self)
        return quoted ? "'\(character)'" : character
    }

    /// An error at byte `offset`, located by line and column.
    func error(at offset: Int, _ reason: String) -> JSONReader.SyntaxError {
        var line = 1
        var lineStart = contentStart
        for index in contentStart..<offset where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        // Every byte but UTF-8 continuation bytes starts a character.
        let column = 1 + bytes[lineStart..<offset].count { $0 & 0xC0 != 0x80 }
        return JSONReader.SyntaxError(line: line, column: column, reason: reason)
    }

    private func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
