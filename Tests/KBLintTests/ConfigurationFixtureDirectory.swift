import Foundation
@testable import KBLint

/// A fresh folder under the system's temporary directory, filled from a path → contents
/// table and removed when the test ends.
final class ConfigurationFixtureDirectory {
    let path: String

    init(files: [String: String] = [:]) throws {
        let base = LexicalPath.absolute(NSTemporaryDirectory(), relativeTo: "/")
        path = LexicalPath.appending("kblint-tests-\(UUID().uuidString)", to: base)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for (relativePath, contents) in files { try write(contents, to: relativePath) }
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    func absolute(_ relativePath: String) -> String {
        LexicalPath.absolute(relativePath, relativeTo: path)
    }

    func write(_ contents: String, to relativePath: String) throws {
        let file = absolute(relativePath)
        try FileManager.default.createDirectory(
            atPath: LexicalPath.parent(of: file) ?? "/", withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: URL(fileURLWithPath: file))
    }
}

/// The disk, counting what configuration lookup reads, to prove the per-folder caches.
final class CountingFileSystem: ConfigurationFileSystem, @unchecked Sendable {
    private let disk = DiskFileSystem()
    private let lock = NSLock()
    private var fileReads: [String: Int] = [:]
    private var listings: [String: Int] = [:]

    func contentsOfFile(atPath path: String) -> [UInt8]? {
        locked { fileReads[path, default: 0] += 1 }
        return disk.contentsOfFile(atPath: path)
    }

    func isFile(atPath path: String) -> Bool { disk.isFile(atPath: path) }

    func namesInDirectory(atPath path: String) -> [String] {
        locked { listings[path, default: 0] += 1 }
        return disk.namesInDirectory(atPath: path)
    }

    private func locked<Value>(_ body: () -> Value) -> Value {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    func reads(of path: String) -> Int { locked { fileReads[path, default: 0] } }
    func listingCount(of path: String) -> Int { locked { listings[path, default: 0] } }
}
