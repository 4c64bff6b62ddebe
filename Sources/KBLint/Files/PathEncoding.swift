#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// File names are bytes on Linux, and need not be UTF-8; kblint's paths are `String`s. A
/// byte that is not part of valid UTF-8 is kept as the scalar U+10FF00 + byte (the last 256
/// code points of a private use plane), so that a path read from the file system opens the
/// same file again, and is shown as `\xNN`. A name that really holds one of those scalars
/// has its UTF-8 bytes escaped the same way, so decoding and encoding are exact inverses.
enum PathEncoding {
    static let escapeBase: UInt32 = 0x10_FF00

    /// The path for the bytes of a file name or path.
    static func decode<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        let bytes = Array(bytes)
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < bytes.count {
            if let (scalar, length) = scalar(at: index, in: bytes), scalar.value < escapeBase {
                scalars.append(scalar)
                index += length
            } else {
                let length = scalar(at: index, in: bytes)?.length ?? 1
                for byte in bytes[index..<index + length] {
                    scalars.append(Unicode.Scalar(escapeBase + UInt32(byte))!)
                }
                index += length
            }
        }
        return String(scalars)
    }

    /// The bytes `path` stands for.
    static func bytes(_ path: String) -> [UInt8] {
        guard mayHoldEscapes(path) else { return Array(path.utf8) }
        var bytes: [UInt8] = []
        for scalar in path.unicodeScalars {
            if scalar.value >= escapeBase {
                bytes.append(UInt8(scalar.value - escapeBase))
            } else {
                bytes.append(contentsOf: Array(String(scalar).utf8))
            }
        }
        return bytes
    }

    /// Calls `body` with `path` as the C string the file system knows.
    /// Whether `path` may hold an escaped byte: U+10FF00 and above start with F4 8F BC in
    /// UTF-8. Searched with `memchr`, as every file and folder opened asks.
    private static func mayHoldEscapes(_ path: String) -> Bool {
        path.utf8.withContiguousStorageIfAvailable { $0.count > 0 && memchr($0.baseAddress!, 0xF4, $0.count) != nil }
            ?? path.utf8.contains(0xF4)
    }

    static func withFileSystemPath<Result>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        guard mayHoldEscapes(path) else { return try path.withCString(body) }
        let raw = bytes(path).map { CChar(bitPattern: $0) } + [0]
        return try raw.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    /// The path for a C string the file system gave.
    static func decode(cString: UnsafePointer<CChar>) -> String {
        decode(UnsafeBufferPointer(start: cString, count: strlen(cString)).lazy.map { UInt8(bitPattern: $0) })
    }

    /// `path` safe to print: bytes that are not UTF-8 as `\xNN`, control characters (which
    /// could move the cursor or recolor a terminal, or break a line-based format) as `\n`,
    /// `\t`, `\r` or `\xNN`, and backslashes doubled only when something was escaped.
    static func display(_ path: String) -> String {
        guard path.unicodeScalars.contains(where: needsEscape) else { return path }
        var output = ""
        for scalar in path.unicodeScalars {
            switch scalar {
            case "\n": output += "\\n"
            case "\t": output += "\\t"
            case "\r": output += "\\r"
            case "\\": output += "\\\\"
            case _ where scalar.value >= escapeBase: output += "\\x" + hex(scalar.value - escapeBase)
            case _ where needsEscape(scalar): output += "\\x" + hex(scalar.value)
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value >= escapeBase
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(value >> 4 & 0xF)], digits[Int(value & 0xF)]])
    }

    /// The well-formed UTF-8 scalar starting at `index`, and its length.
    private static func scalar(at index: Int, in bytes: [UInt8]) -> (Unicode.Scalar, length: Int)? {
        let lead = bytes[index]
        let length: Int
        var value: UInt32
        var lowest: UInt32
        switch lead {
        case 0x00..<0x80: return (Unicode.Scalar(lead), 1)
        case 0xC2..<0xE0: length = 2; value = UInt32(lead & 0x1F); lowest = 0x80
        case 0xE0..<0xF0: length = 3; value = UInt32(lead & 0x0F); lowest = 0x800
        case 0xF0..<0xF5: length = 4; value = UInt32(lead & 0x07); lowest = 0x1_0000
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        for offset in 1..<length {
            let byte = bytes[index + offset]
            guard byte & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        guard value >= lowest, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }
}

/// The POSIX calls kblint makes on paths, with each path given as the bytes it stands for.
extension PathEncoding {
    static func openFile(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        withFileSystemPath(path) { open($0, flags, mode) }
    }

    static func statFile(_ path: String, _ info: inout stat) -> Int32 {
        withFileSystemPath(path) { stat($0, &info) }
    }

    static func lstatFile(_ path: String, _ info: inout stat) -> Int32 {
        withFileSystemPath(path) { lstat($0, &info) }
    }

    #if canImport(Darwin)
    static func openFolder(_ path: String) -> UnsafeMutablePointer<DIR>? {
        withFileSystemPath(path) { opendir($0) }
    }
    #else
    static func openFolder(_ path: String) -> OpaquePointer? {
        withFileSystemPath(path) { opendir($0) }
    }
    #endif

    static func renameFile(_ from: String, _ to: String) -> Int32 {
        withFileSystemPath(from) { source in withFileSystemPath(to) { rename(source, $0) } }
    }

    static func unlinkFile(_ path: String) -> Int32 {
        withFileSystemPath(path) { unlink($0) }
    }

    static func accessFile(_ path: String, _ mode: Int32) -> Int32 {
        withFileSystemPath(path) { access($0, mode) }
    }

    static func makeFolder(_ path: String, _ mode: mode_t) -> Int32 {
        withFileSystemPath(path) { mkdir($0, mode) }
    }

    static func realPath(_ path: String) -> String? {
        withFileSystemPath(path) { pointer -> String? in
            guard let resolved = realpath(pointer, nil) else { return nil }
            defer { free(resolved) }
            return decode(cString: resolved)
        }
    }
}
