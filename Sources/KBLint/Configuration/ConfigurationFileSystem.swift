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

    func namesInDirectory(atPath path: String) -> [String] {
        (lastListing.listing(of: path) ?? (try? FileSystem.contentsOfDirectory(path)))?.entries.map(\.name) ?? []
    }
}
