#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension FileSystem {
    /// Creates `path` (absolute) and any missing parents, like `mkdir -p`.
    static func createDirectories(_ path: String) throws(FileError) {
        var current = ""
        for component in path.split(separator: "/") {
            current += "/" + component
            if PathEncoding.makeFolder(current, 0o755) != 0, errno != EEXIST {
                throw FileError(path: current, errno: errno, doing: "cannot create folder")
            }
        }
        guard (try? status(of: path))?.kind == .directory else {
            throw FileError(path: path, reason: "exists and is not a folder")
        }
    }

    /// Removes a file or symbolic link (not a folder).
    static func removeFile(_ path: String) throws(FileError) {
        guard PathEncoding.unlinkFile(path) == 0 else { throw FileError(path: path, errno: errno, doing: "cannot remove") }
    }
}
