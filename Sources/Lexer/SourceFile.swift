#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file's path and UTF-8 bytes, with the line table that turns byte offsets into
/// 1-based line and column (columns count UTF-8 bytes). Built from bytes, never from disk:
/// reading files belongs to the KBLint layer.
///
/// The fields live in one immutable object, so that copying a file (every `TokenizedSource`
/// and many analysis values hold one) costs one reference count, not one per field.
public struct SourceFile: Sendable {
    @usableFromInline
    final class Storage: Sendable {
        @usableFromInline let path: String
        @usableFromInline let bytes: [UInt8]
        @usableFromInline let lineStarts: [Int]

        init(path: String, bytes: [UInt8], lineStarts: [Int]) {
            self.path = path
            self.bytes = bytes
            self.lineStarts = lineStarts
        }
    }

    @usableFromInline let storage: Storage

    @inlinable public var path: String { storage.path }
    @inlinable public var bytes: [UInt8] { storage.bytes }
    /// Byte offset at which each line starts; `lineStarts[0] == 0`. A line ends at LF; a
    /// CR before the LF belongs to the line it ends.
    @inlinable public var lineStarts: [Int] { storage.lineStarts }

    public init(path: String, bytes: [UInt8]) {
        storage = Storage(path: path, bytes: bytes, lineStarts: Self.lineStarts(of: bytes))
    }

    /// Byte offset of each line start (after each line feed). `memchr`, vectorised in every C
    /// library, jumps from line feed to line feed: every analysed file is indexed.
    static func lineStarts(of bytes: [UInt8]) -> [Int] {
        var starts = [0]
        // Room for lines of 32 bytes on average (source lines are longer): few files grow it.
        starts.reserveCapacity(bytes.count / 32 + 1)
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let count = buffer.count
            var position = 0
            while position < count, let lineFeed = memchr(base + position, 0x0A, count - position) {
                position = base.distance(to: lineFeed.assumingMemoryBound(to: UInt8.self)) + 1
                starts.append(position)
            }
        }
        return starts
    }

    public init(path: String, text: String) {
        self.init(path: path, bytes: Array(text.utf8))
    }

    /// 1-based line and 1-based UTF-8 byte column of `offset` (clamped to the file).
    public func location(of offset: Int) -> SourceLocation {
        let offset = min(max(offset, 0), bytes.count)
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return SourceLocation(line: low + 1, column: offset - lineStarts[low] + 1)
    }

    /// Byte range of 1-based `line` without its line terminator (LF or CRLF).
    public func lineRange(_ line: Int) -> Range<Int> {
        guard line >= 1, line <= lineStarts.count else { return bytes.count..<bytes.count }
        let start = lineStarts[line - 1]
        var end = line < lineStarts.count ? lineStarts[line] - 1 : bytes.count
        if end > start, bytes[end - 1] == 0x0D, line < lineStarts.count { end -= 1 }
        return start..<end
    }

    /// The text of a byte range, with invalid UTF-8 replaced by U+FFFD.
    public func text(_ range: Range<Int>) -> String {
        String(decoding: bytes[range.clamped(to: 0..<bytes.count)], as: UTF8.self)
    }
}

public struct SourceLocation: Sendable, Hashable, Comparable {
    public let line: Int
    public let column: Int
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}
