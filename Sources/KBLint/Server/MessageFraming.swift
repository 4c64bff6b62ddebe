import Rules
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The base protocol's framing: header fields (`Content-Length: N`, optionally
/// `Content-Type`), an empty line, then N bytes of JSON. Headers are ASCII and end in CRLF;
/// a lone LF is accepted too (some hand-written clients send it).
struct MessageReader {
    /// What the next read produced.
    enum Item: Equatable {
        case message([UInt8])
        /// A header the reader could not use; the bytes up to the end of that header are
        /// skipped, so the stream carries on with the next message.
        case malformedHeader(String)
        case endOfInput
    }

    /// Headers longer than this are not headers: the stream is garbage up to the next blank line.
    static let maximumHeaderLength = 8 * 1024

    private let readChunk: (inout [UInt8]) -> Bool
    private var buffer: [UInt8] = []
    private var start = 0

    /// Reads from a file descriptor (the server's standard input).
    init(descriptor: Int32) {
        readChunk = { buffer in
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                buffer.append(contentsOf: chunk[0..<count])
                return true
            }
        }
    }

    /// Reads from `chunks` in order (tests): each call to the source appends one chunk.
    init(chunks: [[UInt8]]) {
        var remaining = chunks[...]
        readChunk = { buffer in
            guard let next = remaining.popFirst() else { return false }
            buffer.append(contentsOf: next)
            return true
        }
    }

    mutating func next() -> Item {
        // The header: up to the first empty line.
        var headerEnd: (content: Int, body: Int)?
        while headerEnd == nil {
            headerEnd = Self.endOfHeader(in: buffer, from: start)
            if headerEnd != nil { break }
            if buffer.count - start > Self.maximumHeaderLength {
                buffer.removeAll()
                start = 0
                return .malformedHeader("a header longer than \(Self.maximumHeaderLength) bytes without an empty line")
            }
            compact()
            guard readChunk(&buffer) else {
                let leftover = buffer[start...].contains { !Self.isWhiteSpace($0) }
                buffer.removeAll()
                start = 0
                return leftover ? .malformedHeader("the input ended inside a message header") : .endOfInput
            }
        }
        let (contentEnd, bodyStart) = headerEnd!
        let header = String(decoding: buffer[start..<contentEnd], as: UTF8.self)
        start = bodyStart
        let length: Int
        switch Self.contentLength(of: header) {
        case .success(let value): length = value
        case .failure(let problem): return .malformedHeader(problem.reason)
        }
        while buffer.count - start < length {
            compact()
            guard readChunk(&buffer) else {
                let missing = length - (buffer.count - start)
                buffer.removeAll()
                start = 0
                return .malformedHeader("the input ended \(missing) bytes short of the Content-Length")
            }
        }
        let body = Array(buffer[start..<(start + length)])
        start += length
        return .message(body)
    }

    private struct HeaderProblem: Error { let reason: String }

    /// The `Content-Length` field's value; other fields (`Content-Type`) are accepted and ignored.
    private static func contentLength(of header: String) -> Result<Int, HeaderProblem> {
        var length: Int?
        for line in header.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else {
                return .failure(HeaderProblem(reason: "a header line without ':' (\(line.prefix(60)))"))
            }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingSpaces
            if name == "content-length" {
                guard let number = Int(value), number >= 0 else {
                    return .failure(HeaderProblem(reason: "Content-Length is not a length: '\(value.prefix(40))'"))
                }
                length = number
            }
        }
        guard let length else { return .failure(HeaderProblem(reason: "a message header without Content-Length")) }
        return .success(length)
    }

    /// Where the header's text ends and the body starts (after the blank line), if the
    /// buffer holds a whole header.
    private static func endOfHeader(in bytes: [UInt8], from start: Int) -> (Int, Int)? {
        var index = start
        while index < bytes.count {
            if bytes[index] == 0x0A {
                // LF LF, or LF CR LF.
                if index + 1 < bytes.count, bytes[index + 1] == 0x0A { return (index, index + 2) }
                if index + 2 < bytes.count, bytes[index + 1] == 0x0D, bytes[index + 2] == 0x0A { return (index, index + 3) }
            }
            index += 1
        }
        return nil
    }

    private static func isWhiteSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Drops the bytes already consumed once they dominate the buffer.
    private mutating func compact() {
        if start > 0, start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" || last == "\r" { text.removeLast() }
        return text
    }
}

/// Writes framed messages; one message's header and body go out in one write, under a lock,
/// so that messages from different threads never interleave.
final class MessageWriter: Sendable {
    private let sink: any OutputSink
    private let lock = PThreadLock()

    init(sink: any OutputSink) { self.sink = sink }

    func send(_ message: JSONValue) {
        let body = Array(message.compactText.utf8)
        let frame = Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
        lock.withLock { sink.write(frame) }
    }
}
