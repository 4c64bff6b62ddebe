/// Byte- and scalar-level character classes of Swift's lexical grammar. ASCII is decided
/// with arithmetic on the byte (no table lookups, no globals); non-ASCII scalars go through
/// the range lists of the Swift reference ("Identifiers" and "Operators").
enum CharacterClass {
    @inline(__always)
    static func isASCIIIdentifierStart(_ byte: UInt8) -> Bool {
        (byte | 0x20) &- 0x61 < 26 || byte == 0x5F
    }

    @inline(__always)
    static func isASCIIIdentifierContinuation(_ byte: UInt8) -> Bool {
        byteClasses.utf8Start[Int(byte)] & 1 != 0
    }

    /// `isASCIIIdentifierContinuation` for the eight bytes of `word` (little-endian) at once:
    /// the high bit of each byte lane is set when the lane holds `[A-Za-z0-9_$]`. Each range
    /// test adds and subtracts within 7-bit lane values, so no lane carries into another and
    /// the answer is exact.
    @inline(__always)
    static func asciiIdentifierContinuationLanes(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let isASCII = ~word & (ones &* 0x80)
        let low = word & (ones &* 0x7F)
        let lowerCased = (word | (ones &* 0x20)) & (ones &* 0x7F)
        /// High bit of a lane set when `m < x < n` (x < 0x80, 0 <= m, n <= 0x80).
        func between(_ x: UInt64, _ m: UInt64, _ n: UInt64) -> UInt64 {
            ((ones &* (127 + n)) &- x) & (x &+ ones &* (127 - m))
        }
        let letters = between(lowerCased, 0x60, 0x7B)
        let digits = between(low, 0x2F, 0x3A)
        let underscores = between(low, 0x5E, 0x60)
        let dollars = between(low, 0x23, 0x25)
        return isASCII & (letters | digits | underscores | dollars)
    }

    /// The high bit of each byte lane of `word` that is zero, exactly: no lane's arithmetic
    /// carries into another. XOR with a byte in every lane first to find that byte.
    @inline(__always)
    static func zeroLanes(_ word: UInt64) -> UInt64 {
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        return ~(((word & low) &+ low) | word | low)
    }

    /// One entry per byte value, `0x40` plus flags: 1 continues an identifier
    /// (`[A-Za-z0-9_$]`), 2 starts one, 4 is an ASCII operator character. A string literal
    /// keeps the table in the binary's constant data: no initialisation, no allocation.
    static let byteClasses: StaticString = """
        @@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@D@@ADD@@@DD@D@DAAAAAAAAAA@@DDDD@CCCCCCCCCCCCCCCCCCCCCCCCCC@@@DC\
        @CCCCCCCCCCCCCCCCCCCCCCCCCC@D@D@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\
        @@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@
        """

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

    @inline(__always)
    static func isHexDigit(_ byte: UInt8) -> Bool {
        byte &- 0x30 < 10 || (byte | 0x20) &- 0x61 < 6
    }

    /// `/ = - + ! * % < > & | ^ ~ ?` — the ASCII operator characters (`.` is handled
    /// separately: it may only continue an operator that starts with a dot).
    @inline(__always)
    static func isASCIIOperator(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x2F, 0x3D, 0x2D, 0x2B, 0x21, 0x2A, 0x25, 0x3C, 0x3E, 0x26, 0x7C, 0x5E, 0x7E, 0x3F:
            return true
        default:
            return false
        }
    }

    /// Non-ASCII scalars that may start an identifier.
    static func isIdentifierStart(_ scalar: UInt32) -> Bool {
        if scalar < 0x80 {
            return isASCIIIdentifierStart(UInt8(truncatingIfNeeded: scalar))
        }
        if isCombining(scalar) { return false }
        return isIdentifierScalar(scalar)
    }

    /// Non-ASCII scalars that may continue an identifier (starts plus combining marks).
    static func isIdentifierContinuation(_ scalar: UInt32) -> Bool {
        if scalar < 0x80 {
            return isASCIIIdentifierContinuation(UInt8(truncatingIfNeeded: scalar))
        }
        return isCombining(scalar) || isIdentifierScalar(scalar)
    }

    @inline(__always)
    static func isCombining(_ scalar: UInt32) -> Bool {
        (0x0300...0x036F).contains(scalar) || (0x1DC0...0x1DFF).contains(scalar)
            || (0x20D0...0x20FF).contains(scalar) || (0xFE20...0xFE2F).contains(scalar)
    }

    private static func isIdentifierScalar(_ c: UInt32) -> Bool {
        switch c {
        case 0xA8, 0xAA, 0xAD, 0xAF, 0xB2...0xB5, 0xB7...0xBA, 0xBC...0xBE, 0xC0...0xD6,
             0xD8...0xF6, 0xF8...0xFF, 0x100...0x2FF, 0x370...0x167F, 0x1681...0x180D,
             0x180F...0x1DBF, 0x1E00...0x1FFF, 0x200B...0x200D, 0x202A...0x202E,
             0x203F...0x2040, 0x2054, 0x2060...0x206F, 0x2070...0x20CF, 0x2100...0x218F,
             0x2460...0x24FF, 0x2776...0x2793, 0x2C00...0x2DFF, 0x2E80...0x2FFF,
             0x3004...0x3007, 0x3021...0x302F, 0x3031...0x303F, 0x3040...0xD7FF,
             0xF900...0xFD3D, 0xFD40...0xFDCF, 0xFDF0...0xFE1F, 0xFE30...0xFE44,
             0xFE47...0xFFFD:
            return true
        case 0x10000...0xEFFFD:
            // Every supplementary plane's 0000–FFFD, which covers emoji.
            return c & 0xFFFF <= 0xFFFD
        default:
            return false
        }
    }

    /// Non-ASCII scalars that may start an operator.
    static func isOperatorStart(_ c: UInt32) -> Bool {
        if c < 0x80 { return isASCIIOperator(UInt8(truncatingIfNeeded: c)) || c == 0x2E }
        switch c {
        case 0xA1...0xA7, 0xA9, 0xAB, 0xAC, 0xAE, 0xB0, 0xB1, 0xB6, 0xBB, 0xBF, 0xD7, 0xF7,
             0x2016...0x2017, 0x2020...0x2027, 0x2030...0x203E, 0x2041...0x2053,
             0x2055...0x205E, 0x2190...0x23FF, 0x2500...0x2775, 0x2794...0x2BFF,
             0x2E00...0x2E7F, 0x3001...0x3003, 0x3008...0x3020, 0x3030:
            return true
        default:
            return false
        }
    }

    /// Non-ASCII scalars that may continue an operator (starts plus combining marks).
    static func isOperatorContinuation(_ c: UInt32) -> Bool {
        isOperatorStart(c) || (0x0300...0x036F).contains(c) || (0x1DC0...0x1DFF).contains(c)
            || (0x20D0...0x20FF).contains(c) || (0xFE00...0xFE0F).contains(c)
            || (0xFE20...0xFE2F).contains(c) || (0xE0100...0xE01EF).contains(c)
    }
}

/// The eight bytes from `index` on as one little-endian word (lane 0 holds `bytes[index]`),
/// for the scans that test a word at a time. The caller guarantees `index + 8 <= bytes.count`.
@inline(__always)
func littleEndianWord(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt64 {
    UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped + index).loadUnaligned(as: UInt64.self))
}

/// Decodes one UTF-8 scalar at `index`. Returns the scalar and its byte length, or a length
/// of 0 when the bytes there are not valid UTF-8 (overlong forms, surrogates, truncation).
@inline(__always)
func decodeScalar(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (scalar: UInt32, length: Int) {
    let count = bytes.count
    let b0 = UInt32(bytes[index])
    if b0 < 0x80 { return (b0, 1) }
    if b0 < 0xC2 { return (0, 0) }
    if b0 < 0xE0 {
        guard index + 1 < count else { return (0, 0) }
        let b1 = UInt32(bytes[index + 1])
        guard b1 & 0xC0 == 0x80 else { return (0, 0) }
        return ((b0 & 0x1F) << 6 | (b1 & 0x3F), 2)
    }
    if b0 < 0xF0 {
        guard index + 2 < count else { return (0, 0) }
        let b1 = UInt32(bytes[index + 1]), b2 = UInt32(bytes[index + 2])
        guard b1 & 0xC0 == 0x80, b2 & 0xC0 == 0x80 else { return (0, 0) }
        let scalar = (b0 & 0x0F) << 12 | (b1 & 0x3F) << 6 | (b2 & 0x3F)
        guard scalar >= 0x800, !(0xD800...0xDFFF).contains(scalar) else { return (0, 0) }
        return (scalar, 3)
    }
    if b0 < 0xF5 {
        guard index + 3 < count else { return (0, 0) }
        let b1 = UInt32(bytes[index + 1]), b2 = UInt32(bytes[index + 2]), b3 = UInt32(bytes[index + 3])
        guard b1 & 0xC0 == 0x80, b2 & 0xC0 == 0x80, b3 & 0xC0 == 0x80 else { return (0, 0) }
        let scalar = (b0 & 0x07) << 18 | (b1 & 0x3F) << 12 | (b2 & 0x3F) << 6 | (b3 & 0x3F)
        guard scalar >= 0x10000, scalar <= 0x10FFFF else { return (0, 0) }
        return (scalar, 4)
    }
    return (0, 0)
}
