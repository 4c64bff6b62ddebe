/// The little of the file system that configuration lookup needs, behind a protocol so tests
/// can count reads and the lookup stays independent of where files come from.
protocol ConfigurationFileSystem: Sendable {
    /// The bytes of a regular file; nil when it does not exist, is a folder or cannot be read.
    func contentsOfFile(atPath path: String) -> [UInt8]?
    func isFile(atPath path: String) -> Bool
    /// Names of a folder's entries; empty when it is not a readable folder.
    func namesInDirectory(atPath path: String) -> [String]
    /// The bytes of a configuration file; nil when nothing is at `path`. Anything else there
    /// (a folder, a FIFO, a device, a file above `maximumConfigurationSize`) is an error, not
    /// a configuration silently ignored.
    func configurationBytes(atPath path: String) throws(FileError) -> [UInt8]?
}

/// Configuration files are small: a larger one is a mistake, and reading it would cost
/// memory out of proportion.
let maximumConfigurationSize = 1 << 20

extension ConfigurationFileSystem {
    func configurationBytes(atPath path: String) throws(FileError) -> [UInt8]? {
        guard isFile(atPath: path) else { return nil }
        guard let bytes = contentsOfFile(atPath: path) else { throw FileError(path: path, reason: "cannot read the configuration file") }
        return bytes
    }
}

/// The real disk, through the same POSIX calls as the rest of the tool (Foundation is not
/// linked: loading it was most of the start-up time).
struct DiskFileSystem: ConfigurationFileSystem {
    /// Discovery's last listing: the folder whose configuration is being looked up.
    let lastListing: LastListing

    init(lastListing: LastListing = LastListing()) {
        self.lastListing = lastListing
    }

    func contentsOfFile(atPath path: String) -> [UInt8]? {
        try? FileSystem.readFile(path)
    }

    /// Answered from discovery's listing of the folder when it has one (a regular file, or
    /// no such name); symlinks, and other folders, cost a `stat`.
    func isFile(atPath path: String) -> Bool {
        if let folder = LexicalPath.parent(of: path), let listing = lastListing.listing(of: folder) {
            let name = LexicalPath.lastComponent(of: path)
            guard let entry = listing.entries.first(where: { $0.name == name }) else { return false }
            if let kind = entry.kind { return kind == .regular }
        }
        return (try? FileSystem.status(of: path))?.kind == .regular
    }

    /// A name absent from discovery's listing of the folder costs no `stat`.
    func configurationBytes(atPath path: String) throws(FileError) -> [UInt8]? {
        if let folder = LexicalPath.parent(of: path), let listing = lastListing.listing(of: folder) {
            let name = LexicalPath.lastComponent(of: path)
            guard listing.entries.contains(where: { $0.name == name }) else { return nil }
        }
        let status: FileStatus
        do {
            status = try FileSystem.status(of: path)
        } catch where error.reason.hasSuffix("No such file or directory") {
            return nil
        }
        switch status.kind {
        case .directory: throw FileError(path: path, reason: "is a folder, not a configuration file")
        case .other: throw FileError(path: path, reason: "is a FIFO, device or socket, not a configuration file")
        case .regular: break
        }
        guard status.size <= maximumConfigurationSize else {
            throw FileError(path: path, reason: "larger than \(maximumConfigurationSize >> 20) MB; a configuration file is never this large")
        }
        let bytes = try FileSystem.readFile(path)
        guard bytes.count <= maximumConfigurationSize else {
            throw FileError(path: path, reason: "larger than \(maximumConfigurationSize >> 20) MB; a configuration file is never this large")
        }
        return bytes
    }

    func namesInDirectory(atPath path: String) -> [String] {
        (lastListing.listing(of: path) ?? (try? FileSystem.contentsOfDirectory(path)))?.entries.map(\.name) ?? []
    }
}
