import Lexer

/// Byte-level queries over the code view (`TokenizedSource.code`). Every analysis works with
/// indices into `code`; these helpers keep index arithmetic total (out-of-range indices read
/// as "no token") so that truncated files never trap.
extension TokenizedSource {
    /// The kind of code token `index`, or `.unknown` outside the file.
    @inline(__always)
    func kind(_ index: Int) -> TokenKind {
        index >= 0 && index < code.count ? code[index].kind : .unknown
    }

    /// Whether code token `index` is a name (identifier or keyword) spelled `word`. Most
    /// names asked about differ in length from `word`: that is decided here, inlined, before
    /// the bytes are compared.
    @inline(__always)
    func isWord(_ index: Int, _ word: StaticString) -> Bool {
        guard index >= 0, index < code.count else { return false }
        let token = code[index]
        guard token.kind == .identifier || token.kind == .keyword, token.length == word.utf8CodeUnitCount else {
            return false
        }
        return self.token(token, is: word)
    }

    /// Whether code token `index` is of `kind` and spelled `word` (for operators).
    @inline(__always)
    func isToken(_ index: Int, _ kind: TokenKind, _ word: StaticString) -> Bool {
        guard index >= 0, index < code.count, code[index].kind == kind, code[index].length == word.utf8CodeUnitCount else {
            return false
        }
        return token(code[index], is: word)
    }

    /// Index into `words` of the spelling of name token `index`, if any.
    func wordIndex(_ index: Int, in words: [StaticString]) -> Int? {
        guard index >= 0, index < code.count else { return nil }
        let token = code[index]
        guard token.kind == .identifier || token.kind == .keyword else { return nil }
        for (position, word) in words.enumerated()
        where word.utf8CodeUnitCount == token.length && self.token(token, is: word) {
            return position
        }
        return nil
    }

    /// Index into `list` of the spelling of name token `index`, if any (as
    /// `wordIndex(_:in:)` on `list.words`).
    func wordIndex(_ index: Int, in list: WordList) -> Int? {
        guard index >= 0, index < code.count else { return nil }
        let token = code[index]
        guard token.kind == .identifier || token.kind == .keyword, list.hasWords(ofLength: token.length) else { return nil }
        return file.bytes.withUnsafeBufferPointer { list.position(of: $0, Int(token.start), token.length) }
    }

    /// Whether name token `index` contains `part` anywhere (byte comparison).
    func word(_ index: Int, contains part: StaticString) -> Bool {
        guard index >= 0, index < code.count else { return false }
        let token = code[index]
        let length = part.utf8CodeUnitCount
        guard token.kind == .identifier, token.length >= length, length > 0 else { return false }
        return file.bytes.withUnsafeBufferPointer { buffer in
            let expected = part.utf8Start
            var start = Int(token.start)
            let last = Int(token.end) - length
            while start <= last {
                var offset = 0
                while offset < length, buffer[start + offset] == expected[offset] { offset += 1 }
                if offset == length { return true }
                start += 1
            }
            return false
        }
    }

    /// Whether identifier token `index` contains one of `parts` (as `word(_:contains:)` on
    /// each).
    func word(_ index: Int, containsAnyOf parts: NameParts) -> Bool {
        guard index >= 0, index < code.count else { return false }
        let token = code[index]
        guard token.kind == .identifier, token.length >= parts.shortest else { return false }
        return file.bytes.withUnsafeBufferPointer { parts.occur(in: $0, Int(token.start), Int(token.end)) }
    }

    /// A 64-bit FNV-1a hash of a token's bytes: names are compared by hash so that no
    /// `String` is built per token. Backticks around a name are ignored.
    func nameHash(_ index: Int) -> UInt64 {
        guard index >= 0, index < code.count else { return 0 }
        let token = code[index]
        return file.bytes.withUnsafeBufferPointer { NameHash.ofName($0, Int(token.start), Int(token.end)) }
    }

    /// The text of code token `index` ("" outside the file).
    func text(at index: Int) -> String {
        guard index >= 0, index < code.count else { return "" }
        return text(of: code[index])
    }

    /// The source text spanning code tokens `range` (with the trivia between them).
    func text(spanning range: Range<Int>) -> String {
        guard !range.isEmpty, range.lowerBound >= 0, range.upperBound <= code.count else { return "" }
        return file.text(Int(code[range.lowerBound].start)..<Int(code[range.upperBound - 1].end))
    }

    /// Byte range covering code tokens `range`.
    func byteRange(_ range: Range<Int>) -> Range<Int> {
        guard !range.isEmpty, range.lowerBound >= 0, range.upperBound <= code.count else {
            return 0..<0
        }
        return Int(code[range.lowerBound].start)..<Int(code[range.upperBound - 1].end)
    }

    /// The partner bracket of code token `index`, if it has one.
    @inline(__always)
    func partnerIndex(_ index: Int) -> Int? {
        guard index >= 0, index < partner.count else { return nil }
        let value = Int(partner[index])
        return value >= 0 ? value : nil
    }

    func isOpeningBracket(_ index: Int) -> Bool {
        switch kind(index) {
        case .leftParen, .leftBrace, .leftSquare, .leftAngle, .stringInterpolationStart: true
        default: false
        }
    }

    /// The first token of `range` at the range's own bracket level that satisfies
    /// `predicate`: bracket groups that open in the range are passed over whole (neither
    /// their brackets nor what they hold are offered). The one walk for "at the top level of
    /// an expression".
    func firstTopLevel(in range: Range<Int>, where predicate: (Int) -> Bool) -> Int? {
        var cursor = range.lowerBound
        while cursor < range.upperBound {
            if isOpeningBracket(cursor), let close = partnerIndex(cursor) {
                cursor = close + 1
                continue
            }
            if predicate(cursor) { return cursor }
            cursor += 1
        }
        return nil
    }

    /// Whether code token `index` begins a line.
    @inline(__always)
    func startsLine(_ index: Int) -> Bool {
        index >= 0 && index < code.count && code[index].isAtStartOfLine
    }

    /// Whether the numeric literal at `index` is zero (`0`, `0.0`, `0x0`, `0_0`).
    func isZeroLiteral(_ index: Int) -> Bool {
        guard kind(index) == .integerLiteral || kind(index) == .floatLiteral else { return false }
        return numericValue(at: index) == 0
    }

    /// The value of a decimal numeric literal token (underscores allowed).
    func numericValue(at index: Int) -> Double? {
        guard kind(index) == .integerLiteral || kind(index) == .floatLiteral else { return nil }
        var text = text(at: index)
        text.removeAll { $0 == "_" }
        if text.hasPrefix("0x") || text.hasPrefix("0X") {
            return UInt64(text.dropFirst(2), radix: 16).map(Double.init)
        }
        return Double(text)
    }

    /// The method name token inside the first `#selector(…)` of `range` (the last name of
    /// `#selector(Type.method(_:))`), or nil. One reading for handlers and observers alike.
    func selectedMethodName(in range: Range<Int>) -> Int? {
        for index in range where isWord(index, "selector") && kind(index - 1) == .pound {
            guard let close = partnerIndex(index + 1) else { continue }
            var name: Int?
            _ = firstTopLevel(in: (index + 2)..<close) { cursor in
                if kind(cursor) == .identifier { name = cursor }
                return false
            }
            return name
        }
        return nil
    }
}

/// Binary search over records kept in token order (calls by callee, assignments by
/// operator): the index of the first record whose position is at or after `bound`
/// (`records.endIndex` when none is).
func firstIndex<Records: RandomAccessCollection>(in records: Records, atOrAfter bound: Int,
                                                 position: (Records.Element) -> Int) -> Int where Records.Index == Int {
    var low = records.startIndex, high = records.endIndex
    while low < high {
        let mid = low + (high - low) / 2
        if position(records[mid]) < bound { low = mid + 1 } else { high = mid }
    }
    return low
}

/// `FNV1a` over bytes; also used for `StaticString` names so that both sides agree.
enum NameHash {
    static func of(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> UInt64 {
        FNV1a.hash(buffer, start, end)
    }

    /// The hash of a name, without the backticks around it (`` `Type` `` as `Type`).
    static func ofName(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> UInt64 {
        if end - start >= 2, buffer[start] == 0x60, buffer[end - 1] == 0x60 { return of(buffer, start + 1, end - 1) }
        return of(buffer, start, end)
    }

    static func of(_ text: String) -> UInt64 {
        var text = text
        return text.withUTF8 { of($0, 0, $0.count) }
    }
}

/// A fixed list of names that tokens are matched against, built once (`static let`): the
/// token's length picks the few words it can be, so most tokens are rejected with one table
/// read; the others have their first eight bytes packed into one integer once, and each
/// candidate word is compared with it by one integer comparison rather than a loop over its
/// bytes. For the lists that are asked about every name of a file; a short list written at
/// its call site needs none of this.
struct WordList: Sendable {
    let words: [StaticString]
    /// The positions in `words` of the words `n` bytes long, ascending, are
    /// `positions[starts[n]..<starts[n + 1]]`; lengths at or past `starts.count - 1` have none.
    private let starts: [Int32]
    private let positions: [Int32]
    /// Per entry of `positions`: the word's first eight bytes (fewer for shorter words) as
    /// `packedHead` packs them.
    private let heads: [UInt64]

    init(_ words: [StaticString]) {
        self.words = words
        let longest = words.map(\.utf8CodeUnitCount).max() ?? 0
        var starts = [Int32](repeating: 0, count: longest + 2)
        var positions: [Int32] = []
        var heads: [UInt64] = []
        for length in 0...longest {
            starts[length] = Int32(positions.count)
            for (position, word) in words.enumerated() where word.utf8CodeUnitCount == length {
                positions.append(Int32(position))
                heads.append(Self.packedHead(UnsafeBufferPointer(start: word.utf8Start, count: length), 0, length))
            }
        }
        starts[longest + 1] = Int32(positions.count)
        self.starts = starts
        self.positions = positions
        self.heads = heads
    }

    /// Whether some word is `length` bytes long.
    @inline(__always)
    func hasWords(ofLength length: Int) -> Bool {
        length + 1 < starts.count && starts[length] < starts[length + 1]
    }

    /// The first `min(length, 8)` bytes of `buffer[start...]`, the first byte lowest: two
    /// spellings of one length share it exactly when their first eight bytes agree. Where
    /// eight bytes from `start` lie in `buffer` they are read in one load and the bytes past
    /// `length` masked off; otherwise byte by byte (`packedHeadByBytes`).
    @inline(__always)
    static func packedHead(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ length: Int) -> UInt64 {
        guard start >= 0, start + 8 <= buffer.count, let base = buffer.baseAddress else {
            return packedHeadByBytes(buffer, start, length)
        }
        let word = UInt64(littleEndian: UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self))
        return length >= 8 ? word : word & ((1 &<< UInt64(8 * length)) &- 1)
    }

    /// `packedHead` one byte at a time.
    static func packedHeadByBytes(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ length: Int) -> UInt64 {
        var head: UInt64 = 0
        for offset in 0..<min(length, 8) { head |= UInt64(buffer[start + offset]) &<< UInt64(8 * offset) }
        return head
    }

    /// The position of the first word spelled `buffer[start..<start + length]`, if any.
    @inline(__always)
    func position(of buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ length: Int) -> Int? {
        guard hasWords(ofLength: length) else { return nil }
        let head = Self.packedHead(buffer, start, length)
        var candidate = Int(starts[length])
        let end = Int(starts[length + 1])
        while candidate < end {
            if heads[candidate] == head {
                let position = Int(positions[candidate])
                // Words of at most eight bytes are decided by their head; longer ones compare the rest.
                let expected = words[position].utf8Start
                var offset = 8
                while offset < length, buffer[start + offset] == expected[offset] { offset += 1 }
                if offset >= length { return position }
            }
            candidate += 1
        }
        return nil
    }
}

/// Parts of names looked for inside every name of a file (`word(_:containsAnyOf:)`), built
/// once. Each part is found through its anchor, its last capital letter (else its first
/// byte): names are mostly lower case, so most of their bytes are passed over with one
/// table read.
struct NameParts: Sendable {
    let parts: [StaticString]
    /// Per part: where its anchor lies in it.
    private let anchors: [Int]
    /// Per byte value: whether it is some part's anchor.
    private let isAnchor: [Bool]
    /// The length of the shortest part: shorter names hold none.
    let shortest: Int

    /// `parts`: non-empty.
    init(_ parts: [StaticString]) {
        self.parts = parts
        var anchors: [Int] = []
        var isAnchor = [Bool](repeating: false, count: 256)
        for part in parts {
            let bytes = UnsafeBufferPointer(start: part.utf8Start, count: part.utf8CodeUnitCount)
            let anchor = bytes.lastIndex { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") } ?? 0
            anchors.append(anchor)
            isAnchor[Int(bytes[anchor])] = true
        }
        self.anchors = anchors
        self.isAnchor = isAnchor
        shortest = parts.map(\.utf8CodeUnitCount).min() ?? 0
    }

    /// Whether `buffer[start..<end]` contains one of the parts.
    func occur(in buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        guard end - start >= shortest else { return false }
        for anchorAt in start..<end where isAnchor[Int(buffer[anchorAt])] {
            for (part, anchor) in zip(parts, anchors) where part.utf8Start[anchor] == buffer[anchorAt] {
                let length = part.utf8CodeUnitCount
                let partStart = anchorAt - anchor
                guard partStart >= start, partStart + length <= end else { continue }
                var offset = 0
                while offset < length, buffer[partStart + offset] == part.utf8Start[offset] { offset += 1 }
                if offset == length { return true }
            }
        }
        return false
    }
}
