import Lexer

/// Reads the YAML subset `.kblint.yml` is written in: block and flow mappings and
/// sequences, plain, single-quoted and double-quoted scalars (each on one line), comments.
/// Everything else — anchors, aliases, tags, block scalars, explicit and complex keys,
/// directives, document markers, tabs as indentation, duplicate keys — is an error that
/// names the construct, so a configuration never means something other than what it says.
///
/// The reader never recurses: block nodes and flow collections are built on explicit
/// stacks, and nesting deeper than `maximumDepth` is an error (deeper trees would also make
/// the recursive release of the nodes overflow the stack).
enum YAMLReader {
    static let maximumDepth = 64

    /// The document's root node, nil for a document with no content (empty or only comments).
    static func read(_ text: String, path: String) throws(ConfigurationError) -> YAMLNode? {
        try read(Array(text.utf8), path: path)
    }

    static func read(_ bytes: [UInt8], path: String) throws(ConfigurationError) -> YAMLNode? {
        var parser = YAMLParser(bytes: bytes, path: path)
        return try parser.parseDocument()
    }
}

private enum ASCII {
    static let tab: UInt8 = 0x09
    static let lineFeed: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let quote = UInt8(ascii: "\"")
    static let apostrophe = UInt8(ascii: "'")
    static let hash = UInt8(ascii: "#")
    static let colon = UInt8(ascii: ":")
    static let comma = UInt8(ascii: ",")
    static let dash = UInt8(ascii: "-")
    static let backslash = UInt8(ascii: "\\")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
}

/// An open block collection (or the document itself) waiting for more lines.
private struct BlockFrame {
    enum Kind { case document, sequence, mapping }

    let kind: Kind
    /// Column (0-based) of the entries' first character; -1 for the document.
    let indent: Int
    let location: SourceLocation
    /// A `- ` or `key:` ended its line: the value is on the following, deeper lines.
    var awaitsChild = false
    var items: [YAMLNode] = []
    var entries: [YAMLMappingEntry] = []
    var keys: Set<String> = []
    var pendingKey: (text: String, location: SourceLocation)?
    var root: YAMLNode?

    mutating func attach(_ node: YAMLNode) {
        switch kind {
        case .document:
            root = node
        case .sequence:
            items.append(node)
        case .mapping:
            if let key = pendingKey {
                entries.append(YAMLMappingEntry(key: key.text, keyLocation: key.location, value: node))
            }
            pendingKey = nil
        }
        awaitsChild = false
    }

    var node: YAMLNode {
        switch kind {
        case .document, .sequence: YAMLNode(.sequence(items), at: location)
        case .mapping: YAMLNode(.mapping(entries), at: location)
        }
    }
}

/// An open `[`…`]` or `{`…`}`.
private struct FlowFrame {
    enum Expectation { case entry, colon, value, separator }

    let isMapping: Bool
    let opener: Int
    let location: SourceLocation
    var expectation = Expectation.entry
    var items: [YAMLNode] = []
    var entries: [YAMLMappingEntry] = []
    var keys: Set<String> = []
    var pendingKey: (text: String, location: SourceLocation)?

    var closer: UInt8 { isMapping ? ASCII.closeBrace : ASCII.closeBracket }

    mutating func attach(_ node: YAMLNode) {
        if isMapping {
            if let key = pendingKey {
                entries.append(YAMLMappingEntry(key: key.text, keyLocation: key.location, value: node))
            }
            pendingKey = nil
        } else {
            items.append(node)
        }
        expectation = .separator
    }

    var node: YAMLNode {
        isMapping ? YAMLNode(.mapping(entries), at: location) : YAMLNode(.sequence(items), at: location)
    }
}

private struct YAMLParser {
    let bytes: [UInt8]
    let file: SourceFile
    let path: String
    var frames: [BlockFrame] = []

    init(bytes: [UInt8], path: String) {
        // A byte order mark is not content; dropping it keeps line 1's columns as editors show them.
        let content = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        self.bytes = content
        self.file = SourceFile(path: path, bytes: content)
        self.path = path
    }

    // MARK: Document and block structure

    mutating func parseDocument() throws(ConfigurationError) -> YAMLNode? {
        try validateCharacters()
        var document = BlockFrame(kind: .document, indent: -1, location: file.location(of: 0))
        document.awaitsChild = true
        frames = [document]
        var position = 0
        while position < bytes.count {
            var content = position
            while content < bytes.count, bytes[content] == ASCII.space { content += 1 }
            let firstNonBlank = skipBlanks(content)
            if isLineEnd(firstNonBlank) || bytes[firstNonBlank] == ASCII.hash {
                position = nextLineStart(lineEnd(from: firstNonBlank))
                continue
            }
            if bytes[content] == ASCII.tab {
                throw error("tabs cannot be used for indentation; indent with spaces", at: content)
            }
            let indent = content - position
            if indent == 0 { try rejectDocumentMarkers(at: content) }
            position = try parseLine(at: content, indent: indent)
        }
        while frames.count > 1 { closeTopFrame() }
        if frames[0].awaitsChild { return nil }
        return frames[0].root
    }

    /// Continues or closes the open collections for a line whose content starts at
    /// `content`, indented by `indent` spaces. Returns where the next line starts.
    private mutating func parseLine(at content: Int, indent: Int) throws(ConfigurationError) -> Int {
        while true {
            // Read fields, not the frame: a copy would share the frame's arrays and make
            // every later append copy them.
            let top = frames.count - 1
            let kind = frames[top].kind, topIndent = frames[top].indent
            if frames[top].awaitsChild {
                if indent > topIndent || (kind == .mapping && indent == topIndent && isSequenceEntry(at: content)) {
                    return try parseNode(at: content)
                }
                frames[top].attach(.null(at: frames[top].pendingKey?.location ?? frames[top].location))
                continue
            }
            switch kind {
            case .document:
                throw error("unexpected content after the end of the document; check the indentation", at: content)
            case .sequence:
                if indent == topIndent, isSequenceEntry(at: content) {
                    frames[top].awaitsChild = true
                    return try parseInlineContent(at: content + 1)
                }
                let parentIsMappingAtThisIndent = frames[top - 1].kind == .mapping && frames[top - 1].indent == indent
                if indent < topIndent || (indent == topIndent && parentIsMappingAtThisIndent) {
                    closeTopFrame()
                    continue
                }
                if indent == topIndent {
                    throw error("expected '- ' to continue the list that starts at line \(frames[top].location.line)", at: content)
                }
                throw error("unexpected indentation (values must fit on one line)", at: content)
            case .mapping:
                if indent == topIndent {
                    if isSequenceEntry(at: content) {
                        throw error("expected a key, found a list entry; indent the list under its key", at: content)
                    }
                    return try parseMappingEntry(at: content)
                }
                if indent < topIndent {
                    closeTopFrame()
                    continue
                }
                throw error("unexpected indentation (values must fit on one line)", at: content)
            }
        }
    }

    /// After a `- `: either the rest of the line is empty (the item follows on deeper
    /// lines) or it holds the item.
    private mutating func parseInlineContent(at position: Int) throws(ConfigurationError) -> Int {
        let content = skipBlanks(position)
        if isLineEnd(content) || bytes[content] == ASCII.hash { return try expectLineEnd(at: content) }
        return try parseNode(at: content)
    }

    /// Starts a node at `start`: a block sequence, a block mapping, or a value that fits on
    /// this line. Compact forms (`- - a`, `- key: value`) open several collections on one line.
    private mutating func parseNode(at start: Int) throws(ConfigurationError) -> Int {
        var position = start
        while true {
            if isSequenceEntry(at: position) {
                try push(BlockFrame(kind: .sequence, indent: column(of: position), location: file.location(of: position)))
                frames[frames.count - 1].awaitsChild = true
                let content = skipBlanks(position + 1)
                if isLineEnd(content) || bytes[content] == ASCII.hash { return try expectLineEnd(at: content) }
                position = content
                continue
            }
            if bytes[position] == ASCII.openBracket || bytes[position] == ASCII.openBrace {
                let (node, end) = try parseFlow(at: position)
                let after = skipBlanks(end)
                if after < bytes.count, bytes[after] == ASCII.colon, isSeparator(at: after + 1) {
                    throw error("complex keys ([…] or {…} before ':') are not supported", at: position)
                }
                frames[frames.count - 1].attach(node)
                return try expectLineEnd(at: end)
            }
            let (scalar, end) = try parseScalar(at: position, inFlow: false)
            let after = skipBlanks(end)
            if after < bytes.count, bytes[after] == ASCII.colon, isSeparator(at: after + 1) {
                try push(BlockFrame(kind: .mapping, indent: column(of: position), location: file.location(of: position)))
                return try parseMappingValue(key: scalar.text, keyAt: position, colonAt: after)
            }
            frames[frames.count - 1].attach(YAMLNode(.scalar(scalar), at: file.location(of: position)))
            return try expectLineEnd(at: end)
        }
    }

    /// A further `key: …` line of the mapping on top of the stack.
    private mutating func parseMappingEntry(at position: Int) throws(ConfigurationError) -> Int {
        if bytes[position] == ASCII.openBracket || bytes[position] == ASCII.openBrace {
            throw error("complex keys ([…] or {…} before ':') are not supported", at: position)
        }
        let (scalar, end) = try parseScalar(at: position, inFlow: false)
        let after = skipBlanks(end)
        guard after < bytes.count, bytes[after] == ASCII.colon, isSeparator(at: after + 1) else {
            throw error("expected ':' after the key '\(scalar.text)'", at: after)
        }
        return try parseMappingValue(key: scalar.text, keyAt: position, colonAt: after)
    }

    private mutating func parseMappingValue(
        key: String, keyAt keyPosition: Int, colonAt colon: Int
    ) throws(ConfigurationError) -> Int {
        let top = frames.count - 1
        guard frames[top].keys.insert(key).inserted else {
            throw error("duplicate key '\(key)'", at: keyPosition)
        }
        frames[top].pendingKey = (key, file.location(of: keyPosition))
        let content = skipBlanks(colon + 1)
        if isLineEnd(content) || bytes[content] == ASCII.hash {
            frames[top].awaitsChild = true
            return try expectLineEnd(at: content)
        }
        if isSequenceEntry(at: content) {
            throw error("a list cannot start on the line of its key; put its '- ' entries on the following lines", at: content)
        }
        if bytes[content] == ASCII.openBracket || bytes[content] == ASCII.openBrace {
            let (node, end) = try parseFlow(at: content)
            frames[top].attach(node)
            return try expectLineEnd(at: end)
        }
        let (scalar, end) = try parseScalar(at: content, inFlow: false)
        frames[top].attach(YAMLNode(.scalar(scalar), at: file.location(of: content)))
        return try expectLineEnd(at: end)
    }

    private mutating func push(_ frame: BlockFrame) throws(ConfigurationError) {
        guard frames.count <= YAMLReader.maximumDepth else {
            throw error("nesting deeper than \(YAMLReader.maximumDepth) levels is not supported", at: offset(of: frame.location))
        }
        frames[frames.count - 1].awaitsChild = false
        frames.append(frame)
    }

    /// Finishes the collection on top of the stack and hands it to its parent.
    private mutating func closeTopFrame() {
        var frame = frames.removeLast()
        if frame.awaitsChild { frame.attach(.null(at: frame.pendingKey?.location ?? frame.location)) }
        frames[frames.count - 1].attach(frame.node)
    }

    private func rejectDocumentMarkers(at position: Int) throws(ConfigurationError) {
        for marker in ["---", "..."] where bytes[position...].starts(with: marker.utf8) {
            if isSeparator(at: position + 3) {
                throw error("document markers ('---', '...') are not supported: a configuration file holds one document", at: position)
            }
        }
        if bytes[position] == UInt8(ascii: "%") {
            throw error("directives ('%') are not supported", at: position)
        }
    }

    // MARK: Flow collections

    /// A `[…]` or `{…}` starting at `start`, which may span lines. Returns the node and the
    /// offset after its closing bracket.
    private func parseFlow(at start: Int) throws(ConfigurationError) -> (YAMLNode, Int) {
        var stack = [openFlow(at: start)]
        var position = start + 1
        while true {
            position = skipFlowWhitespace(position)
            let top = stack.count - 1
            guard position < bytes.count else {
                let opener = stack[top].opener
                throw error("'\(Character(Unicode.Scalar(bytes[opener])))' is never closed", at: opener)
            }
            let byte = bytes[position]
            let closer = stack[top].closer
            switch stack[top].expectation {
            case .entry, .value:
                if byte == closer, stack[top].expectation == .entry {
                    let node = stack.removeLast().node
                    position += 1
                    if stack.isEmpty { return (node, position) }
                    stack[stack.count - 1].attach(node)
                    continue
                }
                if stack[top].expectation == .value, byte == ASCII.comma || byte == closer {
                    stack[top].attach(.null(at: stack[top].pendingKey?.location ?? stack[top].location))
                    continue
                }
                if byte == ASCII.openBracket || byte == ASCII.openBrace {
                    if stack[top].isMapping, stack[top].expectation == .entry {
                        throw error("complex keys ([…] or {…} before ':') are not supported", at: position)
                    }
                    guard stack.count + frames.count <= YAMLReader.maximumDepth else {
                        throw error("nesting deeper than \(YAMLReader.maximumDepth) levels is not supported", at: position)
                    }
                    stack.append(openFlow(at: position))
                    position += 1
                    continue
                }
                if byte == ASCII.comma { throw error("expected a value before ','", at: position) }
                if byte == ASCII.closeBracket || byte == ASCII.closeBrace {
                    throw error("unexpected '\(Character(Unicode.Scalar(byte)))'", at: position)
                }
                let (scalar, end) = try parseScalar(at: position, inFlow: true)
                if stack[top].isMapping, stack[top].expectation == .entry {
                    guard stack[top].keys.insert(scalar.text).inserted else {
                        throw error("duplicate key '\(scalar.text)'", at: position)
                    }
                    stack[top].pendingKey = (scalar.text, file.location(of: position))
                    stack[top].expectation = .colon
                } else {
                    stack[top].attach(YAMLNode(.scalar(scalar), at: file.location(of: position)))
                }
                position = end
            case .colon:
                guard byte == ASCII.colon else {
                    throw error("expected ':' after the key '\(stack[top].pendingKey?.text ?? "")'", at: position)
                }
                stack[top].expectation = .value
                position += 1
            case .separator:
                if byte == ASCII.comma {
                    stack[top].expectation = .entry
                    position += 1
                } else if byte == closer {
                    let node = stack.removeLast().node
                    position += 1
                    if stack.isEmpty { return (node, position) }
                    stack[stack.count - 1].attach(node)
                } else if byte == ASCII.colon, !stack[top].isMapping {
                    throw error("'key: value' pairs inside [ ] are not supported; use { }", at: position)
                } else {
                    throw error("expected ',' or '\(Character(Unicode.Scalar(closer)))'", at: position)
                }
            }
        }
    }

    private func openFlow(at position: Int) -> FlowFrame {
        FlowFrame(isMapping: bytes[position] == ASCII.openBrace, opener: position, location: file.location(of: position))
    }

    /// Skips spaces, tabs, line breaks and comments between the parts of a flow collection.
    private func skipFlowWhitespace(_ start: Int) -> Int {
        var position = start
        while position < bytes.count {
            let byte = bytes[position]
            if byte == ASCII.space || byte == ASCII.tab || byte == ASCII.lineFeed || byte == ASCII.carriageReturn {
                position += 1
            } else if byte == ASCII.hash, position == 0 || isWhitespace(bytes[position - 1]) {
                position = lineEnd(from: position)
            } else {
                break
            }
        }
        return position
    }

    // MARK: Scalars

    /// A scalar starting at `start`; returns it and the offset after it (for plain scalars,
    /// after its last non-blank character).
    private func parseScalar(at start: Int, inFlow: Bool) throws(ConfigurationError) -> (YAMLScalar, Int) {
        let byte = bytes[start]
        switch byte {
        case ASCII.quote: return try parseDoubleQuoted(at: start)
        case ASCII.apostrophe: return try parseSingleQuoted(at: start)
        case UInt8(ascii: "&"):
            throw error("anchors ('&') are not supported; quote values that start with '&'", at: start)
        case UInt8(ascii: "*"):
            throw error("aliases ('*') are not supported; quote values that start with '*', e.g. \"*.swift\"", at: start)
        case UInt8(ascii: "!"):
            throw error("tags ('!') are not supported; quote values that start with '!'", at: start)
        case UInt8(ascii: "|"), UInt8(ascii: ">"):
            throw error("block scalars ('|', '>') are not supported; write the value on one line, quoted if needed", at: start)
        case UInt8(ascii: "%"), UInt8(ascii: "@"), UInt8(ascii: "`"):
            throw error("a plain value cannot start with '\(Character(Unicode.Scalar(byte)))'; quote it", at: start)
        case ASCII.comma, ASCII.openBracket, ASCII.closeBracket, ASCII.openBrace, ASCII.closeBrace, ASCII.hash:
            throw error("expected a value, found '\(Character(Unicode.Scalar(byte)))'", at: start)
        case UInt8(ascii: "?") where endsPlainIndicator(at: start + 1, inFlow: inFlow):
            throw error("explicit keys ('? ') are not supported", at: start)
        case ASCII.colon where endsPlainIndicator(at: start + 1, inFlow: inFlow):
            throw error("missing key before ':'", at: start)
        case ASCII.dash where endsPlainIndicator(at: start + 1, inFlow: inFlow):
            throw error("'- ' lists cannot appear inside [ ] or { }", at: start)
        default:
            break
        }
        var position = start
        var end = start
        while position < bytes.count {
            let current = bytes[position]
            if current == ASCII.lineFeed || current == ASCII.carriageReturn { break }
            if current == ASCII.colon, endsPlainIndicator(at: position + 1, inFlow: inFlow) { break }
            if inFlow, isFlowIndicator(current) { break }
            if current == ASCII.hash, position > start, isWhitespace(bytes[position - 1]) { break }
            position += 1
            if !isWhitespace(current) { end = position }
        }
        return (YAMLScalar(text: String(decoding: bytes[start..<end], as: UTF8.self), style: .plain), end)
    }

    private func parseSingleQuoted(at start: Int) throws(ConfigurationError) -> (YAMLScalar, Int) {
        var text: [UInt8] = []
        var position = start + 1
        while true {
            guard !isLineEnd(position) else { throw unterminatedString(at: start) }
            let byte = bytes[position]
            if byte == ASCII.apostrophe {
                if position + 1 < bytes.count, bytes[position + 1] == ASCII.apostrophe {
                    text.append(ASCII.apostrophe)
                    position += 2
                    continue
                }
                return (YAMLScalar(text: String(decoding: text, as: UTF8.self), style: .singleQuoted), position + 1)
            }
            text.append(byte)
            position += 1
        }
    }

    private func parseDoubleQuoted(at start: Int) throws(ConfigurationError) -> (YAMLScalar, Int) {
        var text: [UInt8] = []
        var position = start + 1
        while true {
            guard !isLineEnd(position) else { throw unterminatedString(at: start) }
            let byte = bytes[position]
            if byte == ASCII.quote {
                return (YAMLScalar(text: String(decoding: text, as: UTF8.self), style: .doubleQuoted), position + 1)
            }
            guard byte == ASCII.backslash else {
                text.append(byte)
                position += 1
                continue
            }
            guard !isLineEnd(position + 1) else { throw unterminatedString(at: start) }
            let escape = bytes[position + 1]
            position += 2
            let simple: [UInt8: UInt8] = [
                UInt8(ascii: "0"): 0x00, UInt8(ascii: "a"): 0x07, UInt8(ascii: "b"): 0x08,
                UInt8(ascii: "t"): 0x09, ASCII.tab: 0x09, UInt8(ascii: "n"): 0x0A,
                UInt8(ascii: "v"): 0x0B, UInt8(ascii: "f"): 0x0C, UInt8(ascii: "r"): 0x0D,
                UInt8(ascii: "e"): 0x1B, ASCII.space: 0x20, ASCII.quote: ASCII.quote,
                UInt8(ascii: "/"): UInt8(ascii: "/"), ASCII.backslash: ASCII.backslash,
            ]
            if let replacement = simple[escape] {
                text.append(replacement)
                continue
            }
            let scalarValue: UInt32
            switch escape {
            case UInt8(ascii: "N"): scalarValue = 0x85
            case UInt8(ascii: "_"): scalarValue = 0xA0
            case UInt8(ascii: "L"): scalarValue = 0x2028
            case UInt8(ascii: "P"): scalarValue = 0x2029
            case UInt8(ascii: "x"), UInt8(ascii: "u"), UInt8(ascii: "U"):
                let length = escape == UInt8(ascii: "x") ? 2 : escape == UInt8(ascii: "u") ? 4 : 8
                guard let value = hexValue(from: position, length: length) else {
                    throw error("'\\\(Character(Unicode.Scalar(escape)))' needs \(length) hexadecimal digits", at: position - 2)
                }
                scalarValue = value
                position += length
            default:
                throw error("unknown escape sequence '\\\(String(decoding: [escape], as: UTF8.self))'", at: position - 2)
            }
            guard let scalar = Unicode.Scalar(scalarValue) else {
                throw error("escape sequence is not a Unicode scalar value", at: position)
            }
            text.append(contentsOf: Array(String(Character(scalar)).utf8))
        }
    }

    private func hexValue(from start: Int, length: Int) -> UInt32? {
        guard start + length <= bytes.count else { return nil }
        var value: UInt32 = 0
        for byte in bytes[start..<start + length] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private func unterminatedString(at start: Int) -> ConfigurationError {
        error("unterminated string: a quoted value must end on the line it starts on", at: start)
    }

    // MARK: Lines and characters

    /// Only blanks and a comment may follow a value on its line. Returns where the next line starts.
    private func expectLineEnd(at start: Int) throws(ConfigurationError) -> Int {
        let position = skipBlanks(start)
        if position < bytes.count, bytes[position] == ASCII.hash {
            if position == start, position > 0, !isWhitespace(bytes[position - 1]) {
                throw error("put a space before '#' to start a comment", at: position)
            }
            return nextLineStart(lineEnd(from: position))
        }
        guard isLineEnd(position) else {
            if bytes[position] == ASCII.colon {
                throw error("a mapping cannot start on the line of its key; put nested keys on the following lines, indented", at: position)
            }
            throw error("unexpected text after the value", at: position)
        }
        return nextLineStart(position)
    }

    /// Rejects what is not UTF-8 text, control characters and lone carriage returns, so
    /// the parser only meets well-formed text and every line ends in LF or CRLF.
    private func validateCharacters() throws(ConfigurationError) {
        var position = 0
        while position < bytes.count {
            let byte = bytes[position]
            if byte < 0x80 {
                if (byte < 0x20 && byte != ASCII.tab && byte != ASCII.lineFeed && byte != ASCII.carriageReturn) || byte == 0x7F {
                    let code = String(byte, radix: 16, uppercase: true)
                    throw error("control character U+\(String(repeating: "0", count: 4 - code.count) + code) is not allowed", at: position)
                }
                if byte == ASCII.carriageReturn, position + 1 >= bytes.count || bytes[position + 1] != ASCII.lineFeed {
                    throw error("a carriage return must be followed by a line feed", at: position)
                }
                position += 1
                continue
            }
            guard let width = utf8SequenceWidth(at: position) else {
                throw error("the file is not valid UTF-8", at: position)
            }
            position += width
        }
    }

    private func utf8SequenceWidth(at position: Int) -> Int? {
        bytes.withUnsafeBufferPointer { UTF8Validation.sequenceLength($0, at: position) }
    }

    private func isSequenceEntry(at position: Int) -> Bool {
        position < bytes.count && bytes[position] == ASCII.dash && isSeparator(at: position + 1)
    }

    /// Whether an indicator (`:`, `-`, `?`) followed by `position` stands alone rather than
    /// starting or continuing a plain value such as `-1` or `a:b`.
    private func endsPlainIndicator(at position: Int, inFlow: Bool) -> Bool {
        isSeparator(at: position) || (inFlow && isFlowIndicator(bytes[position]))
    }

    private func isSeparator(at position: Int) -> Bool {
        position >= bytes.count || isWhitespace(bytes[position]) || bytes[position] == ASCII.lineFeed
            || bytes[position] == ASCII.carriageReturn
    }

    private func isFlowIndicator(_ byte: UInt8) -> Bool {
        byte == ASCII.comma || byte == ASCII.openBracket || byte == ASCII.closeBracket
            || byte == ASCII.openBrace || byte == ASCII.closeBrace
    }

    private func isWhitespace(_ byte: UInt8) -> Bool { byte == ASCII.space || byte == ASCII.tab }

    private func isLineEnd(_ position: Int) -> Bool {
        position >= bytes.count || bytes[position] == ASCII.lineFeed || bytes[position] == ASCII.carriageReturn
    }

    private func skipBlanks(_ start: Int) -> Int {
        var position = start
        while position < bytes.count, isWhitespace(bytes[position]) { position += 1 }
        return position
    }

    private func lineEnd(from start: Int) -> Int {
        var position = start
        while !isLineEnd(position) { position += 1 }
        return position
    }

    /// The start of the line after the line end at `position` (CRLF counts as one).
    private func nextLineStart(_ position: Int) -> Int {
        guard position < bytes.count else { return bytes.count }
        if bytes[position] == ASCII.carriageReturn, position + 1 < bytes.count, bytes[position + 1] == ASCII.lineFeed {
            return position + 2
        }
        return position + 1
    }

    private func column(of position: Int) -> Int { file.location(of: position).column - 1 }

    private func offset(of location: SourceLocation) -> Int {
        guard location.line >= 1, location.line <= file.lineStarts.count else { return bytes.count }
        return file.lineStarts[location.line - 1] + location.column - 1
    }

    private func error(_ message: String, at position: Int) -> ConfigurationError {
        ConfigurationError(path: path, location: file.location(of: position), message: message)
    }
}
