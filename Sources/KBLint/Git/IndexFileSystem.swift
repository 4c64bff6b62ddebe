import Rules

/// Configuration lookup for `--staged`: files git tracks are read as the index holds them
/// (what the commit will contain: `.kblint.yml`, the baseline, the project files naming the
/// deployment target), not as the work tree has them, which may hold unstaged edits. Paths
/// git does not track, and paths outside the work tree, are read from the disk.
final class IndexFileSystem: ConfigurationFileSystem, @unchecked Sendable {
    private let repository: GitRepository
    /// Absolute path → blob id, for every regular file of the index.
    private let blobs: [String: String]
    /// Absolute folder → the names of its files and folders in the index.
    private let names: [String: [String]]
    private let disk = DiskFileSystem()
    private let lock = PThreadLock()
    private var contents: [String: [UInt8]] = [:]

    init(repository: GitRepository) throws(GitError) {
        self.repository = repository
        blobs = try repository.indexedFiles()
        var names: [String: Set<String>] = [:]
        for path in blobs.keys {
            var child = path
            while let parent = LexicalPath.parent(of: child), child != repository.topLevel {
                let (inserted, _) = names[parent, default: []].insert(String(LexicalPath.lastComponent(of: child)))
                if !inserted { break }
                child = parent
            }
        }
        self.names = names.mapValues { $0.sorted() }
    }

    private func isTracked(_ path: String) -> Bool { blobs[path] != nil }

    private func isInWorkTree(_ path: String) -> Bool {
        path == repository.topLevel || path.hasPrefix(repository.topLevel.hasSuffix("/") ? repository.topLevel : repository.topLevel + "/")
    }

    /// The index's bytes of a tracked file (read once).
    func indexedContents(atPath path: String) -> [UInt8]? {
        guard let blob = blobs[path] else { return nil }
        if let cached = lock.withLock({ contents[path] }) { return cached }
        guard let bytes = (try? repository.contents(ofBlobs: [blob]))?[blob] else { return nil }
        lock.withLock { contents[path] = bytes }
        return bytes
    }

    func contentsOfFile(atPath path: String) -> [UInt8]? {
        isTracked(path) ? indexedContents(atPath: path) : disk.contentsOfFile(atPath: path)
    }

    func isFile(atPath path: String) -> Bool {
        isTracked(path) || disk.isFile(atPath: path)
    }

    func namesInDirectory(atPath path: String) -> [String] {
        guard isInWorkTree(path) else { return disk.namesInDirectory(atPath: path) }
        return Array(Set(names[path] ?? []).union(disk.namesInDirectory(atPath: path))).sorted()
    }

    func configurationBytes(atPath path: String) throws(FileError) -> [UInt8]? {
        guard isTracked(path) else { return try disk.configurationBytes(atPath: path) }
        guard let bytes = indexedContents(atPath: path) else { throw FileError(path: path, reason: "cannot read it from the git index") }
        guard bytes.count <= maximumConfigurationSize else {
            throw FileError(path: path, reason: "larger than \(maximumConfigurationSize >> 20) MB; a configuration file is never this large")
        }
        return bytes
    }
}
