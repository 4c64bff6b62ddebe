import Foundation

/// The little of the file system that configuration lookup needs, behind a protocol so tests
/// can count reads and the lookup stays independent of where files come from.
protocol ConfigurationFileSystem: Sendable {
    /// The bytes of a regular file; nil when it does not exist, is a folder or cannot be read.
    func contentsOfFile(atPath path: String) -> [UInt8]?
    func isFile(atPath path: String) -> Bool
    /// Names of a folder's entries; empty when it is not a readable folder.
    func namesInDirectory(atPath path: String) -> [String]
}

/// The real disk, through Foundation.
struct DiskFileSystem: ConfigurationFileSystem {
    init() {}

    func contentsOfFile(atPath path: String) -> [UInt8]? {
        guard isFile(atPath: path), let data = FileManager.default.contents(atPath: path) else { return nil }
        return [UInt8](data)
    }

    func isFile(atPath path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }

    func namesInDirectory(atPath path: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    }
}
