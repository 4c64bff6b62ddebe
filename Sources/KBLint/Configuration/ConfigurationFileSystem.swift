/// The little of the file system that configuration lookup needs, behind a protocol so tests
/// can count reads and the lookup stays independent of where files come from.
protocol ConfigurationFileSystem: Sendable {
    /// The bytes of a regular file; nil when it does not exist, is a folder or cannot be read.
    func contentsOfFile(atPath path: String) -> [UInt8]?
    func isFile(atPath path: String) -> Bool
    /// Names of a folder's entries; empty when it is not a readable folder.
    func namesInDirectory(atPath path: String) -> [String]
}

/// The real disk, through the same POSIX calls as the rest of the tool (Foundation is not
/// linked: loading it was most of the start-up time).
struct DiskFileSystem: ConfigurationFileSystem {
    init() {}

    func contentsOfFile(atPath path: String) -> [UInt8]? {
        try? FileSystem.readFile(path)
    }

    func isFile(atPath path: String) -> Bool {
        (try? FileSystem.status(of: path))?.kind == .regular
    }

    func namesInDirectory(atPath path: String) -> [String] {
        ((try? FileSystem.contentsOfDirectory(path)) ?? []).map(\.name)
    }
}
