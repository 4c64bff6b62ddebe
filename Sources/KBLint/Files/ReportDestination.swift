#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where `--output FILE` writes a report, by what is at FILE:
///
/// - nothing: a new file, written atomically (a temporary file renamed into place);
/// - a regular file: replaced atomically, keeping its permissions, unless it is one of the
///   files being linted (`--output a.swift` is a slip, not a request to lose a.swift);
/// - a symbolic link: followed only to a regular file, which is then replaced as above (the
///   link stays a link); a link to nothing, or to a folder, is refused rather than followed
///   to create a file elsewhere;
/// - a FIFO or a device such as `/dev/stdout` or `/dev/null`: written to directly;
/// - a folder: refused.
enum ReportDestination {
    static func write(_ bytes: [UInt8], to path: String, sparing isInput: (FileIdentity) -> Bool) throws(FileError) {
        var link = stat()
        guard PathEncoding.lstatFile(path, &link) == 0 else {
            guard errno == ENOENT else { throw FileError(path: path, errno: errno, doing: "cannot write") }
            return try FileSystem.replaceAtomically(path, with: bytes, permissions: 0o644)
        }
        var target = stat()
        if (link.st_mode & S_IFMT) == S_IFLNK {
            guard PathEncoding.statFile(path, &target) == 0 else {
                throw FileError(path: path, reason: "is a symbolic link to a missing file; not written (give the link's target instead)")
            }
        } else {
            target = link
        }
        switch target.st_mode & S_IFMT {
        case S_IFDIR:
            throw FileError(path: path, reason: "is a folder; not written")
        case S_IFREG:
            let identity = FileIdentity(device: UInt64(truncatingIfNeeded: target.st_dev), inode: UInt64(truncatingIfNeeded: target.st_ino))
            guard !isInput(identity) else {
                throw FileError(path: path, reason: "is a file being linted; not overwritten with the report")
            }
            try FileSystem.replaceAtomically(path, with: bytes, permissions: UInt32(target.st_mode & 0o7777))
        default:
            try FileSystem.writeFile(path, bytes)
        }
    }
}
