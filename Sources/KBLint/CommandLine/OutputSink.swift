import Rules
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the tool writes text: the process's standard output and error, or a buffer in
/// tests. `isTerminal` decides colors, the default reporter and the progress line.
protocol OutputSink: Sendable {
    var isTerminal: Bool { get }
    func write(_ bytes: [UInt8])
}

extension OutputSink {
    func write(_ text: String) { write(Array(text.utf8)) }
}

/// A file descriptor of the process (1 or 2).
struct FileDescriptorSink: OutputSink {
    let descriptor: Int32
    var isTerminal: Bool { FileSystem.isTerminal(descriptor) }

    func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                #if canImport(Darwin)
                let written = Darwin.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                #elseif canImport(Musl)
                let written = Musl.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                #else
                let written = Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                #endif
                if written < 0 {
                    if errno == EINTR { continue }
                    return  // a closed pipe: nothing useful left to do with the output
                }
                offset += written
            }
        }
    }
}

/// Collects everything written, for tests and for `--output` files.
final class CapturedOutput: OutputSink, @unchecked Sendable {
    let isTerminal: Bool
    private let lock = PThreadLock()
    private var buffer: [UInt8] = []

    init(isTerminal: Bool = false) { self.isTerminal = isTerminal }

    func write(_ bytes: [UInt8]) { lock.withLock { buffer += bytes } }

    var bytes: [UInt8] { lock.withLock { buffer } }
    var text: String { String(decoding: bytes, as: UTF8.self) }
}
