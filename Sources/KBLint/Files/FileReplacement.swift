#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing fixed bytes over a source file, so that `--fix` never loses anything:
///
/// - The file is replaced only if it still holds exactly the bytes the fixes were computed
///   from. The comparison and the replacement happen under an advisory lock (`flock`) on the
///   file, and the path must still name the locked file: of two runs fixing the same file at
///   once, one writes and the other reports a conflict and leaves the file alone.
/// - Readers see the old or the new content, never a mix: a temporary file in the same folder
///   is renamed over the original. It gets the original's permission bits, owner and group,
///   and extended attributes (ACLs included), or the file is not written.
/// - Files that replacing would change in other ways are refused with a reason: read-only
///   files, files with more than one hard link (a rename would split them), files owned by
///   someone else when their owner cannot be kept.
/// - A symlink is resolved first, so the link stays a link and its target is fixed.
enum FileReplacement {
    /// Why a file was not written; `path` is the path as users see it.
    static func conflict(_ path: String) -> FileError {
        FileError(path: path, reason: "changed while kblint was fixing it (another kblint run or an editor); not written (run again)")
    }

    static func replace(
        _ absolutePath: String, shownAs shown: String, expecting original: [UInt8], with bytes: [UInt8]
    ) throws(FileError) {
        let target = FileSystem.resolvedPath(absolutePath) ?? absolutePath
        let descriptor = PathEncoding.openFile(target, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { throw FileError(path: shown, reason: "removed while kblint was fixing it; not written") }
            throw FileError(path: shown, errno: errno, doing: "cannot open")
        }
        // Closing the descriptor releases the lock, after the rename.
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            if errno == EWOULDBLOCK { throw FileError(path: shown, reason: "being fixed by another kblint run; not written (run again)") }
            throw FileError(path: shown, errno: errno, doing: "cannot lock")
        }
        var locked = stat()
        var named = stat()
        guard fstat(descriptor, &locked) == 0 else { throw FileError(path: shown, errno: errno, doing: "cannot read") }
        // Another run renamed its result over the path between our open and our lock.
        guard PathEncoding.statFile(target, &named) == 0, named.st_dev == locked.st_dev, named.st_ino == locked.st_ino else {
            throw conflict(shown)
        }
        guard (locked.st_mode & S_IFMT) == S_IFREG else { throw FileError(path: shown, reason: "not a regular file; not written") }
        if locked.st_mode & 0o222 == 0 || PathEncoding.accessFile(target, W_OK) != 0 {
            throw FileError(path: shown, reason: "read-only; not fixed (make it writable to fix it)")
        }
        if locked.st_nlink > 1 {
            throw FileError(path: shown, reason: "has \(locked.st_nlink) hard links; not fixed (replacing it would split them, "
                + "and writing it in place is not atomic)")
        }
        let onDisk = try FileSystem.readOpenFile(descriptor, path: shown, size: Int(locked.st_size))
        guard onDisk == original else { throw conflict(shown) }
        try writeReplacement(bytes, over: target, like: descriptor, status: locked, shownAs: shown)
    }

    /// Writes `bytes` to a temporary file next to `target` with the metadata of the open
    /// original, then renames it over `target`.
    private static func writeReplacement(
        _ bytes: [UInt8], over target: String, like original: Int32, status: stat, shownAs shown: String
    ) throws(FileError) {
        try FileSystem.writeThroughTemporaryFile(bytes, over: target, shownAs: shown) { descriptor in
            if status.st_uid != geteuid() || status.st_gid != getegid(), fchown(descriptor, status.st_uid, status.st_gid) != 0 {
                return FileError(path: shown, reason: "owned by another user or group; not fixed (kblint would become its owner)")
            }
            // After `fchown`, which may clear set-user-ID bits.
            if fchmod(descriptor, status.st_mode & 0o7777) != 0 {
                return FileError(path: shown, errno: errno, doing: "cannot keep permissions")
            }
            if let name = ExtendedAttributes.copy(from: original, to: descriptor) {
                return FileError(path: shown, reason: "cannot keep the extended attribute '\(name)'; not fixed")
            }
            return nil
        }
    }
}

/// Copying a file's extended attributes (which hold ACLs, SELinux labels, macOS metadata).
enum ExtendedAttributes {
    /// Copies every attribute of `source` to `destination`; the name of the first one that
    /// cannot be copied, or nil. A file system without attributes has none to copy.
    static func copy(from source: Int32, to destination: Int32) -> String? {
        let size = list(source, nil, 0)
        guard size > 0 else { return nil }
        var names = [CChar](repeating: 0, count: size)
        let listed = names.withUnsafeMutableBufferPointer { list(source, $0.baseAddress, size) }
        guard listed > 0 else { return listed == 0 ? nil : "(list)" }
        for name in names[..<listed].split(separator: 0) {
            let text = Array(name) + [0]
            let valueSize = get(source, text, nil, 0)
            guard valueSize >= 0 else { return String(decoding: name.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
            var value = [UInt8](repeating: 0, count: max(valueSize, 1))
            let read = value.withUnsafeMutableBytes { get(source, text, $0.baseAddress, valueSize) }
            guard read >= 0, set(destination, text, value, read) == 0 else {
                return String(decoding: name.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }
        return nil
    }

    #if canImport(Darwin)
    static func list(_ descriptor: Int32, _ names: UnsafeMutablePointer<CChar>?, _ size: Int) -> Int {
        flistxattr(descriptor, names, size, 0)
    }
    static func get(_ descriptor: Int32, _ name: [CChar], _ value: UnsafeMutableRawPointer?, _ size: Int) -> Int {
        fgetxattr(descriptor, name, value, size, 0, 0)
    }
    static func set(_ descriptor: Int32, _ name: [CChar], _ value: [UInt8], _ size: Int) -> Int32 {
        fsetxattr(descriptor, name, value, size, 0, 0)
    }
    #else
    // Glibc's Swift module does not export <sys/xattr.h>: the functions are looked up once.
    private typealias ListFunction = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int
    private typealias GetFunction = @convention(c) (Int32, UnsafePointer<CChar>, UnsafeMutableRawPointer?, Int) -> Int
    private typealias SetFunction = @convention(c) (Int32, UnsafePointer<CChar>, UnsafeRawPointer?, Int, Int32) -> Int32
    private struct Functions: @unchecked Sendable {
        let list: ListFunction?
        let get: GetFunction?
        let set: SetFunction?
    }
    private static let functions: Functions = {
        let program = dlopen(nil, RTLD_NOW)
        return Functions(
            list: dlsym(program, "flistxattr").map { unsafeBitCast($0, to: ListFunction.self) },
            get: dlsym(program, "fgetxattr").map { unsafeBitCast($0, to: GetFunction.self) },
            set: dlsym(program, "fsetxattr").map { unsafeBitCast($0, to: SetFunction.self) })
    }()
    static func list(_ descriptor: Int32, _ names: UnsafeMutablePointer<CChar>?, _ size: Int) -> Int {
        functions.list?(descriptor, names, size) ?? 0
    }
    static func get(_ descriptor: Int32, _ name: [CChar], _ value: UnsafeMutableRawPointer?, _ size: Int) -> Int {
        functions.get?(descriptor, name, value, size) ?? -1
    }
    static func set(_ descriptor: Int32, _ name: [CChar], _ value: [UInt8], _ size: Int) -> Int32 {
        functions.set?(descriptor, name, value, size, 0) ?? -1
    }
    #endif
}
