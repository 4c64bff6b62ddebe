#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file-system problem with one path, printable as the line users see (exit code 2).
struct FileError: Error, Hashable, CustomStringConvertible {
    let path: String
    let reason: String
    var description: String { "\(PathEncoding.display(path)): \(reason)" }

    init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// The C library's text for `code` (ENOENT → "No such file or directory").
    init(path: String, errno code: Int32, doing action: String) {
        self.init(path: path, reason: "\(action): \(String(cString: strerror(code)))")
    }
}

/// What kind of thing a path names, following symlinks; `identity` tells directories apart
/// so that a symlink loop is noticed.
struct FileStatus: Sendable, Hashable {
    enum Kind: Sendable { case regular, directory, other }
    let kind: Kind
    let identity: FileIdentity
    let permissions: UInt32
    var size = 0
}

struct FileIdentity: Sendable, Hashable {
    let device: UInt64
    let inode: UInt64
}

/// The handful of POSIX calls kblint needs, behind typed errors. Reading never blocks on a
/// FIFO or device (non-regular files are refused before any read), and writing is atomic.
enum FileSystem {
    /// Files above this size are refused: token offsets are 32-bit, and no Swift source is
    /// this large.
    static let maximumFileSize = 256 << 20

    static func status(of path: String) throws(FileError) -> FileStatus {
        var info = stat()
        guard PathEncoding.statFile(path, &info) == 0 else {
            throw FileError(path: path, errno: errno, doing: "cannot read")
        }
        return FileStatus(info)
    }

    /// Whether `path` is a symbolic link (not followed).
    static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return PathEncoding.lstatFile(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    /// Whether something is at `path` and it is not a symlink (the path's last component
    /// resolves to itself).
    static func existsAndIsNoSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return PathEncoding.lstatFile(path, &info) == 0 && (info.st_mode & S_IFMT) != S_IFLNK
    }

    /// The bytes of a regular file.
    static func readFile(_ path: String) throws(FileError) -> [UInt8] {
        try readFileAndIdentity(path).bytes
    }

    /// The bytes of a regular file and which file it is (device and inode), read from the
    /// open file: two paths to one file (a symlink, a hard link) read as the same identity.
    static func readFileAndIdentity(_ path: String) throws(FileError) -> (bytes: [UInt8], identity: FileIdentity) {
        let descriptor = PathEncoding.openFile(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileError(path: path, errno: errno, doing: "cannot open") }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw FileError(path: path, errno: errno, doing: "cannot read")
        }
        let status = FileStatus(info)
        switch status.kind {
        case .directory: throw FileError(path: path, reason: "is a directory")
        case .other: throw FileError(path: path, reason: "not a regular file (device, FIFO or socket); skipped")
        case .regular: break
        }
        return (try readOpenFile(descriptor, path: path, size: Int(info.st_size)), status.identity)
    }

    /// The bytes of a regular file just opened, `size` bytes long by `fstat`.
    static func readOpenFile(_ descriptor: Int32, path: String, size: Int) throws(FileError) -> [UInt8] {
        guard size <= maximumFileSize else {
            throw FileError(path: path, reason: "larger than \(maximumFileSize >> 20) MB; skipped")
        }
        // Read straight into the array at the size `fstat` gave (every file of a run is read,
        // so no intermediate buffer). The file is read as it was then: one that grows while
        // it is read is being written, and any moment's bytes of it are as good. A size of
        // zero is not trusted (pseudo-files report none): such a file is read to its end.
        let expected = size
        var failure: Int32?
        let bytes = [UInt8](unsafeUninitializedCapacity: expected) { buffer, initialized in
            while initialized < expected {
                let count = read(descriptor, buffer.baseAddress! + initialized, expected - initialized)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if count == 0 { return }
                initialized += count
            }
        }
        if let failure { throw FileError(path: path, errno: failure, doing: "cannot read") }
        guard expected == 0 else { return bytes }
        return try readRest(descriptor, name: path)
    }

    /// The bytes of a file, a FIFO or a device such as `/dev/stdin` (a file list), read to its
    /// end (blocking), up to `maximumFileSize`.
    static func readStream(_ path: String) throws(FileError) -> [UInt8] {
        let descriptor = PathEncoding.openFile(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileError(path: path, errno: errno, doing: "cannot open") }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw FileError(path: path, errno: errno, doing: "cannot read") }
        switch FileStatus(info).kind {
        case .directory: throw FileError(path: path, reason: "is a directory")
        case .regular: return try readOpenFile(descriptor, path: path, size: Int(info.st_size))
        case .other: return try readRest(descriptor, name: path)
        }
    }

    /// Reads everything from a file descriptor (standard input), up to `limit` bytes: an
    /// endless input ends in a clear error rather than exhausted memory.
    static func readAll(descriptor: Int32, name: String, limit: Int = maximumFileSize) throws(FileError) -> [UInt8] {
        do {
            return try readRest(descriptor, name: name, limit: limit)
        } catch where error.reason.hasPrefix("larger than") {
            throw FileError(path: name, reason: "larger than \(limit >> 20) MB, the limit for one source file; nothing linted")
        }
    }

    /// What remains to read from `descriptor`, in chunks of 64 kB, refused beyond `limit`
    /// bytes.
    private static func readRest(_ descriptor: Int32, name: String, limit: Int = maximumFileSize) throws(FileError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileError(path: name, errno: errno, doing: "cannot read")
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
            guard bytes.count <= limit else {
                throw FileError(path: name, reason: "larger than \(limit >> 20) MB; skipped")
            }
        }
    }

    /// An entry of a folder. `kind` comes from the directory listing itself when the file
    /// system provides it, so a walk needs no `stat` per regular file; nil means unknown
    /// (a symlink, or a file system without types): ask `status(of:)`.
    struct DirectoryEntry: Sendable, Hashable {
        let name: String
        let kind: FileStatus.Kind?
    }

    /// A folder's entries (without `.` and `..`), sorted bytewise by name so that every run
    /// walks the tree in the same order, and the folder's identity (read from the open
    /// folder, so a walk needs no `stat` per folder to cut loops).
    struct DirectoryListing: Sendable {
        let identity: FileIdentity
        let entries: [DirectoryEntry]
    }

    static func contentsOfDirectory(_ path: String) throws(FileError) -> DirectoryListing {
        guard let directory = PathEncoding.openFolder(path) else {
            throw FileError(path: path, errno: errno, doing: "cannot list")
        }
        defer { closedir(directory) }
        var info = stat()
        guard fstat(dirfd(directory), &info) == 0 else {
            throw FileError(path: path, errno: errno, doing: "cannot list")
        }
        var entries: [DirectoryEntry] = []
        // The first 16 bytes of each name, big-endian: comparing them orders nearly every pair
        // of names without looking at the strings.
        var prefixes: [NamePrefix] = []
        // Every name's bytes, kept once a name is not ASCII: such names sort by their bytes,
        // which string comparison (by canonical equivalence) does not follow.
        var byteNames: [[UInt8]] = []
        while let entry = readdir(directory) {
            let listed = withUnsafeBytes(of: entry.pointee.d_name) { raw -> (String, [UInt8]?, NamePrefix)? in
                let bytes = UnsafeRawBufferPointer(
                    rebasing: raw[..<strnlen(raw.baseAddress!.assumingMemoryBound(to: CChar.self), raw.count)])
                if bytes.first == UInt8(ascii: "."), bytes.count == 1 || (bytes.count == 2 && bytes[1] == UInt8(ascii: ".")) {
                    return nil
                }
                return (PathEncoding.decode(bytes),
                        byteNames.isEmpty && bytes.allSatisfy { $0 < 0x80 } ? nil : Array(bytes),
                        NamePrefix(bytes))
            }
            guard let (name, bytes, prefix) = listed else { continue }
            if let bytes {
                if byteNames.isEmpty { byteNames = entries.map { Array($0.name.utf8) } }
                byteNames.append(bytes)
            }
            prefixes.append(prefix)
            let kind: FileStatus.Kind?
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_REG): kind = .regular
            case Int32(DT_DIR): kind = .directory
            case Int32(DT_LNK), Int32(DT_UNKNOWN): kind = nil
            default: kind = .other
            }
            entries.append(DirectoryEntry(name: name, kind: kind))
        }
        let order = entries.indices.sorted { left, right in
            if prefixes[left] != prefixes[right] { return prefixes[left] < prefixes[right] }
            return byteNames.isEmpty
                ? asciiPrecedes(entries[left].name, entries[right].name)
                : byteNames[left].lexicographicallyPrecedes(byteNames[right])
        }
        return DirectoryListing(identity: FileStatus(info).identity, entries: order.map { entries[$0] })
    }

    /// The first 16 bytes of a name as two big-endian words, zero-padded: names whose
    /// prefixes differ sort as their prefixes do (a name that ends within the prefix sorts
    /// before the longer names it begins, as a byte never is zero in a name).
    struct NamePrefix: Comparable {
        let high: UInt64
        let low: UInt64

        init(_ bytes: UnsafeRawBufferPointer) {
            func word(from start: Int) -> UInt64 {
                var word: UInt64 = 0
                for offset in 0..<8 {
                    word <<= 8
                    if start + offset < bytes.count { word |= UInt64(bytes[start + offset]) }
                }
                return word
            }
            high = word(from: 0)
            low = word(from: 8)
        }

        static func < (left: NamePrefix, right: NamePrefix) -> Bool {
            (left.high, left.low) < (right.high, right.low)
        }
    }

    /// Whether ASCII name `left` sorts before `right` by its bytes (what `<` on strings gives
    /// for ASCII, without its per-character comparison).
    private static func asciiPrecedes(_ left: String, _ right: String) -> Bool {
        var left = left, right = right
        return left.withUTF8 { left in
            right.withUTF8 { right in
                let common = min(left.count, right.count)
                let order = common == 0 ? 0 : memcmp(left.baseAddress!, right.baseAddress!, common)
                return order != 0 ? order < 0 : left.count < right.count
            }
        }
    }

    /// Replaces the file at `path` with `bytes` so that readers see either the old or the new
    /// content, never a mix: write a temporary file in the same folder, give it the old
    /// permissions, then rename it over the original. A symlink is resolved first so that the
    /// link stays a link. (Fixed source files go through `FileReplacement`, which also keeps
    /// owner, group and extended attributes and refuses to replace what changed.)
    static func replaceAtomically(_ path: String, with bytes: [UInt8], permissions: UInt32) throws(FileError) {
        try writeThroughTemporaryFile(bytes, over: resolvedPath(path) ?? path, shownAs: path) { descriptor in
            fchmod(descriptor, mode_t(permissions)) == 0 ? nil : FileError(path: path, errno: errno, doing: "cannot keep permissions")
        }
    }

    /// Writes `bytes` to a temporary file next to `target`, lets `setUp` give it its
    /// metadata (an error stops the replacement), flushes it to disk and renames it over
    /// `target`. The temporary file is removed when anything fails.
    static func writeThroughTemporaryFile(
        _ bytes: [UInt8], over target: String, shownAs shown: String, setUp: (Int32) -> FileError?
    ) throws(FileError) {
        let (temporary, descriptor) = try createTemporaryFile(nextTo: target, shownAs: shown)
        var failure: FileError?
        if let error = writeAll(bytes, to: descriptor) {
            failure = FileError(path: shown, errno: error, doing: "cannot write")
        }
        if failure == nil { failure = setUp(descriptor) }
        if failure == nil, fsync(descriptor) != 0 {
            failure = FileError(path: shown, errno: errno, doing: "cannot write")
        }
        close(descriptor)
        if failure == nil, PathEncoding.renameFile(temporary, target) != 0 {
            failure = FileError(path: shown, errno: errno, doing: "cannot replace")
        }
        if let failure {
            _ = PathEncoding.unlinkFile(temporary)
            throw failure
        }
    }

    /// A new, empty, hidden file in the folder of `target` (so that a rename can replace
    /// `target`): its path and an open descriptor.
    static func createTemporaryFile(nextTo target: String, shownAs shown: String) throws(FileError) -> (path: String, descriptor: Int32) {
        let folder = target.lastIndex(of: "/").map { String(target[..<$0]) } ?? "."
        let name = target.lastIndex(of: "/").map { String(target[target.index(after: $0)...]) } ?? target
        var template = PathEncoding.bytes("\(folder.isEmpty ? "/" : folder)/.\(name).kblint-XXXXXX").map { CChar(bitPattern: $0) } + [0]
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw FileError(path: shown, errno: errno, doing: "cannot create a temporary file next to it") }
        let path = PathEncoding.decode(template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) })
        return (path, descriptor)
    }

    /// Writes all of `bytes` to `descriptor`; the error number of a failed write, or nil.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
    }

    /// Writes `bytes` to a new or existing file (reports given with `--output`).
    static func writeFile(_ path: String, _ bytes: [UInt8]) throws(FileError) {
        let descriptor = PathEncoding.openFile(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FileError(path: path, errno: errno, doing: "cannot write") }
        defer { close(descriptor) }
        let failure = writeAll(bytes, to: descriptor)
        if let failure { throw FileError(path: path, errno: failure, doing: "cannot write") }
    }

    /// The canonical absolute path (symlinks resolved), or nil when it does not exist.
    static func resolvedPath(_ path: String) -> String? {
        PathEncoding.realPath(path)
    }

    static func currentDirectory() -> String {
        guard let buffer = getcwd(nil, 0) else { return "." }
        defer { free(buffer) }
        return PathEncoding.decode(cString: buffer)
    }

    static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// The reason `createFile` gives when the file is already there.
    static let alreadyExists = "already exists"

    /// Creates a new file with `bytes`, failing (with `alreadyExists`) when something is
    /// already at `path`: `kblint init` never overwrites.
    static func createFile(_ path: String, _ bytes: [UInt8], permissions: UInt32 = 0o644) throws(FileError) {
        let descriptor = PathEncoding.openFile(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(permissions))
        guard descriptor >= 0 else {
            if errno == EEXIST { throw FileError(path: path, reason: alreadyExists) }
            throw FileError(path: path, reason: String(cString: strerror(errno)))
        }
        // The umask applies to `open`'s mode, not to `fchmod`.
        let failure = writeAll(bytes, to: descriptor) ?? (fchmod(descriptor, mode_t(permissions)) == 0 ? nil : errno)
        close(descriptor)
        if let failure { throw FileError(path: path, errno: failure, doing: "cannot write") }
    }

    /// The process environment, read from the C library (Foundation's `ProcessInfo` is not
    /// linked, to keep start-up short).
    static func environment() -> [String: String] {
        var variables: [String: String] = [:]
        guard let table = environmentTable else { return variables }
        var index = 0
        while let pointer = table[index] {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                let name = String(text[..<equals])
                if variables[name] == nil { variables[name] = String(text[text.index(after: equals)...]) }
            }
            index += 1
        }
        return variables
    }

    /// The C library's `environ`: `NAME=value` strings, NULL-terminated (what a child
    /// inherits).
    static var environmentTable: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        #if canImport(Darwin)
        _NSGetEnviron().pointee
        #else
        environ
        #endif
    }
}

extension FileStatus {
    fileprivate init(_ info: stat) {
        let kind: Kind
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        default: kind = .other
        }
        self.init(
            kind: kind,
            identity: FileIdentity(device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino)),
            permissions: UInt32(info.st_mode & 0o7777),
            size: Int(info.st_size))
    }
}
