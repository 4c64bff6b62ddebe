import Lexer

/// How LSP positions count characters within a line: UTF-16 code units unless client and
/// server agree on UTF-8 bytes (LSP 3.17 `positionEncoding`).
enum PositionEncoding: String, Sendable {
    case utf16 = "utf-16"
    case utf8 = "utf-8"
}

/// An LSP position: 0-based line, and a character offset in the line in the negotiated encoding.
struct TextPosition: Hashable, Sendable, Comparable {
    let line: Int
    let character: Int

    static func < (lhs: TextPosition, rhs: TextPosition) -> Bool {
        (lhs.line, lhs.character) < (rhs.line, rhs.character)
    }

    init(line: Int, character: Int) {
        self.line = line
        self.character = character
    }

    init(_ json: JSONValue) throws(JSONRPC.Failure) {
        line = try json.integer("line")
        character = try json.integer("character")
        guard line >= 0, character >= 0 else { throw JSONRPC.Failure(.invalidParams, "a position must not be negative") }
    }

    var json: JSONValue { .object([("line", .int(line)), ("character", .int(character))]) }
}

struct TextRange: Hashable, Sendable {
    let start: TextPosition
    let end: TextPosition

    init(start: TextPosition, end: TextPosition) {
        self.start = start
        self.end = end
    }

    init(_ json: JSONValue) throws(JSONRPC.Failure) {
        start = try TextPosition(json.required("start"))
        end = try TextPosition(json.required("end"))
        guard start <= end else { throw JSONRPC.Failure(.invalidParams, "a range must not end before it starts") }
    }

    var json: JSONValue { .object([("start", start.json), ("end", end.json)]) }
}

/// An open document's text as the client last sent it, with the conversions between LSP
/// positions and the byte offsets findings use. Lines end at LF (a CR before it belongs to
/// the line), as in `SourceFile`.
struct TextDocument: Sendable {
    let uri: String
    private(set) var version: Int
    private(set) var file: SourceFile

    init(uri: String, path: String, version: Int, text: String) {
        self.uri = uri
        self.version = version
        file = SourceFile(path: path, bytes: Array(text.utf8))
    }

    var bytes: [UInt8] { file.bytes }

    /// Applies `textDocument/didChange` content changes in order: a change with a range
    /// replaces that range, one without replaces the whole text.
    mutating func apply(_ changes: [JSONValue], version: Int, encoding: PositionEncoding) throws(JSONRPC.Failure) {
        var bytes = file.bytes
        for change in changes {
            let text = try change.string("text")
            if let rangeValue = change[member: "range"], rangeValue != .null {
                let range = try TextRange(rangeValue)
                // Positions refer to the text as changed so far.
                let current = SourceFile(path: file.path, bytes: bytes)
                let start = Self.offset(of: range.start, in: current, encoding: encoding)
                let end = Self.offset(of: range.end, in: current, encoding: encoding)
                bytes.replaceSubrange(start..<max(start, end), with: Array(text.utf8))
            } else {
                bytes = Array(text.utf8)
            }
        }
        file = SourceFile(path: file.path, bytes: bytes)
        self.version = version
    }

    mutating func replaceText(_ text: String) {
        file = SourceFile(path: file.path, bytes: Array(text.utf8))
    }

    func offset(of position: TextPosition, encoding: PositionEncoding) -> Int {
        Self.offset(of: position, in: file, encoding: encoding)
    }

    func position(of offset: Int, encoding: PositionEncoding) -> TextPosition {
        Self.position(of: offset, in: file, encoding: encoding)
    }

    func range(of bytes: Range<Int>, encoding: PositionEncoding) -> TextRange {
        TextRange(start: position(of: bytes.lowerBound, encoding: encoding), end: position(of: bytes.upperBound, encoding: encoding))
    }

    /// The byte offset of `position`. A line past the end is the end of the text; a character
    /// past the end of its line is the end of the line (as LSP asks), and one inside a
    /// character's code units is that character's start.
    static func offset(of position: TextPosition, in file: SourceFile, encoding: PositionEncoding) -> Int {
        guard position.line < file.lineStarts.count else { return file.bytes.count }
        let lineStart = file.lineStarts[position.line]
        var lineEnd = position.line + 1 < file.lineStarts.count ? file.lineStarts[position.line + 1] - 1 : file.bytes.count
        if lineEnd > lineStart, file.bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
        var offset = lineStart
        var units = 0
        while offset < lineEnd {
            let width = scalarWidth(at: offset, in: file.bytes, limit: lineEnd)
            let codeUnits = encoding == .utf8 ? width.bytes : width.utf16
            if units + codeUnits > position.character { break }
            units += codeUnits
            offset += width.bytes
        }
        return offset
    }

    /// The position of byte `offset` (clamped to the text).
    static func position(of offset: Int, in file: SourceFile, encoding: PositionEncoding) -> TextPosition {
        let offset = min(max(offset, 0), file.bytes.count)
        let location = file.location(of: offset)
        let lineStart = file.lineStarts[location.line - 1]
        guard encoding == .utf16 else { return TextPosition(line: location.line - 1, character: offset - lineStart) }
        var index = lineStart
        var units = 0
        while index < offset {
            let width = scalarWidth(at: index, in: file.bytes, limit: file.bytes.count)
            units += width.utf16
            index += width.bytes
        }
        return TextPosition(line: location.line - 1, character: units)
    }

    /// The length in bytes and UTF-16 code units of the scalar starting at `offset`; a byte
    /// that does not start valid UTF-8 counts as one of each (it decodes to U+FFFD).
    private static func scalarWidth(at offset: Int, in bytes: [UInt8], limit: Int) -> (bytes: Int, utf16: Int) {
        let lead = bytes[offset]
        let length: Int
        switch lead {
        case 0..<0x80: return (1, 1)
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return (1, 1)
        }
        guard offset + length <= limit else { return (1, 1) }
        for index in (offset + 1)..<(offset + length) where bytes[index] & 0xC0 != 0x80 { return (1, 1) }
        return (length, length == 4 ? 2 : 1)
    }
}

/// `file://` URIs and the paths they name.
enum FileURI {
    /// The absolute path of a `file:` URI, percent-decoded; nil for other schemes.
    static func path(of uri: String) -> String? {
        guard uri.hasPrefix("file://") else { return nil }
        var rest = Array(uri.utf8.dropFirst("file://".count))
        // file://host/path: only the local host is meaningful here.
        if let slash = rest.firstIndex(of: UInt8(ascii: "/")) {
            rest = Array(rest[slash...])
        } else {
            return nil
        }
        var bytes: [UInt8] = []
        var index = 0
        while index < rest.count {
            if rest[index] == UInt8(ascii: "%"), index + 2 < rest.count,
               let high = hexValue(rest[index + 1]), let low = hexValue(rest[index + 2]) {
                bytes.append(high << 4 | low)
                index += 3
            } else if rest[index] == UInt8(ascii: "?") || rest[index] == UInt8(ascii: "#") {
                break
            } else {
                bytes.append(rest[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func uri(of path: String) -> String {
        "file://" + SARIFReporter.percentEncoded(path)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
