/// UTF-8 well-formedness (RFC 3629: no overlong forms, no surrogates, nothing above
/// U+10FFFF), written once for the engine's `invalid_utf8` and the configuration reader.
public enum UTF8Validation {
    /// The length of the well-formed sequence starting at `index`, or nil when the bytes there
    /// do not start one.
    public static func sequenceLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        let lead = bytes[index]
        if lead < 0x80 { return 1 }
        let length: Int
        var minimumSecond: UInt8 = 0x80, maximumSecond: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; minimumSecond = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; maximumSecond = 0x9F
        case 0xF0: length = 4; minimumSecond = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; maximumSecond = 0x8F
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        let second = bytes[index + 1]
        guard second >= minimumSecond, second <= maximumSecond else { return nil }
        for offset in 2..<max(length, 2) where bytes[index + offset] & 0xC0 != 0x80 { return nil }
        return length
    }

    /// The offset of the first byte that does not start or continue a well-formed sequence,
    /// or nil for valid UTF-8.
    public static func firstInvalidOffset(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { buffer in
            var index = 0
            let count = buffer.count
            let highBits: UInt64 = 0x8080_8080_8080_8080
            while index < count {
                // Source files are nearly all ASCII: skip 32 ASCII bytes at a time, then eight.
                while index + 32 <= count {
                    let union = littleEndianWord(buffer, at: index) | littleEndianWord(buffer, at: index + 8)
                        | littleEndianWord(buffer, at: index + 16) | littleEndianWord(buffer, at: index + 24)
                    if union & highBits != 0 { break }
                    index += 32
                }
                while index + 8 <= count, littleEndianWord(buffer, at: index) & highBits == 0 {
                    index += 8
                }
                guard index < count else { break }
                guard let length = sequenceLength(buffer, at: index) else { return index }
                index += length
            }
            return nil
        }
    }
}

/// 64-bit FNV-1a, written once: name hashes of the analysis, the declaration scan and finding
/// fingerprints all use it, so that hashes made in different layers agree.
public struct FNV1a: Sendable {
    public static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    public static let prime: UInt64 = 0x0000_0100_0000_01b3

    public private(set) var value: UInt64 = offsetBasis

    public init() {}

    public mutating func add(_ byte: UInt8) { value = (value ^ UInt64(byte)) &* Self.prime }

    public mutating func add(_ text: String) {
        for byte in text.utf8 { add(byte) }
    }

    /// The hash of `buffer[start..<end]`.
    public static func hash(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> UInt64 {
        var hash = offsetBasis
        var index = start
        while index < end {
            hash = (hash ^ UInt64(buffer[index])) &* prime
            index += 1
        }
        return hash
    }
}
