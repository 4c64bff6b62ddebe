#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Path arithmetic on POSIX paths by their text alone (no symlink resolution, no disk
/// access), so that configuration lookups stay cheap for thousands of files and give the
/// same answer for the same spelling.
enum LexicalPath {
    /// `path` made absolute against `directory` (itself absolute), with `.`, `..`, empty and
    /// repeated separators removed. `..` above the root stays at the root.
    static func absolute(_ path: String, relativeTo directory: String) -> String {
        // Discovery produces standardized absolute paths and asks about each file several
        // times; splitting and joining them was a tenth of a whole run.
        if isStandardizedAbsolute(path) { return path }
        let joined = path.hasPrefix("/") ? path : directory + "/" + path
        var components: [Substring] = []
        for component in joined.split(separator: "/", omittingEmptySubsequences: true) {
            switch component {
            case ".": continue
            case "..": _ = components.popLast()
            default: components.append(component)
            }
        }
        return "/" + components.joined(separator: "/")
    }

    /// Whether `path` starts with `/` and has no empty, `.` or `..` component and no
    /// trailing slash (the root itself qualifies): `absolute` would return it unchanged.
    static func isStandardizedAbsolute(_ path: String) -> Bool {
        var path = path
        path.makeContiguousUTF8()  // a no-op for native strings
        return path.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard bytes.first == UInt8(ascii: "/") else { return false }
            if bytes.count == 1 { return true }
            guard bytes.last != UInt8(ascii: "/") else { return false }
            var componentStart = 1
            for index in 1...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: "/") {
                let length = index - componentStart
                if length == 0 { return false }
                if bytes[componentStart] == UInt8(ascii: "."),
                   length == 1 || (length == 2 && bytes[componentStart + 1] == UInt8(ascii: ".")) {
                    return false
                }
                componentStart = index + 1
            }
            return true
        } ?? false
    }

    /// The folder that holds `path` (an absolute, standardized path); nil for the root.
    static func parent(of path: String) -> String? {
        guard path != "/", let slash = lastSlash(in: path) else { return nil }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The name `path` (an absolute, standardized path) ends with; empty for the root.
    static func lastComponent(of path: String) -> Substring {
        guard let slash = lastSlash(in: path) else { return path[...] }
        return path[path.utf8.index(after: slash)...]
    }

    /// Searched in the UTF-8 bytes: discovery asks for the folder of every file.
    private static func lastSlash(in path: String) -> String.Index? {
        let utf8 = path.utf8
        let offset = utf8.withContiguousStorageIfAvailable { $0.lastIndex(of: UInt8(ascii: "/")) }
        guard let offset else { return utf8.lastIndex(of: UInt8(ascii: "/")) }
        return offset.map { utf8.index(utf8.startIndex, offsetBy: $0) }
    }

    /// Copied byte for byte into a string of the right size: discovery builds a path per
    /// entry it lists.
    static func appending(_ name: String, to directory: String) -> String {
        var directory = directory, name = name
        return directory.withUTF8 { folder in
            name.withUTF8 { name in
                let separator = folder.last == UInt8(ascii: "/") ? 0 : 1
                return String(unsafeUninitializedCapacity: folder.count + separator + name.count) { path in
                    var end = path.initialize(fromContentsOf: folder)
                    if separator == 1 {
                        path[end] = UInt8(ascii: "/")
                        end += 1
                    }
                    return end + UnsafeMutableBufferPointer(rebasing: path[end...]).initialize(fromContentsOf: name)
                }
            }
        }
    }

    /// `path` after `directory` and a `/` when its bytes start so and the next byte is ASCII
    /// (nearly always); nil when undecided. `display` compares text by characters, and an
    /// ASCII byte after the `/` starts a character of its own, so there the bytes decide
    /// alike. Saves `display`, asked once per file found, from comparing text.
    private static func bytesBelow(_ path: String, _ directory: String) -> String? {
        var path = path, directory = directory
        return path.withUTF8 { path in
            directory.withUTF8 { directory in
                let start = directory.last == UInt8(ascii: "/") ? directory.count : directory.count + 1
                guard path.count > start, path[start] < 0x80, path[start - 1] == UInt8(ascii: "/"),
                      path[..<directory.count].elementsEqual(directory) else { return nil }
                return String(decoding: path[start...], as: UTF8.self)
            }
        }
    }

    /// Whether `path` and `other` (absolute, standardized) are in the same folder, spelled with
    /// the same bytes, without copying either folder's path out: discovery lists a folder's
    /// files together, so consecutive files mostly are.
    static func areInSameFolder(_ path: String, _ other: String) -> Bool {
        var path = path, other = other  // `withUTF8` copies only strings that are not native
        return path.withUTF8 { path in
            other.withUTF8 { other in
                guard let slash = path.lastIndex(of: UInt8(ascii: "/")), other.lastIndex(of: UInt8(ascii: "/")) == slash else {
                    return false
                }
                return memcmp(path.baseAddress!, other.baseAddress!, slash) == 0
            }
        }
    }

    /// `path` relative to `directory` when it lies inside it, else `path` unchanged: how
    /// paths are shown to users.
    static func display(_ path: String, relativeTo directory: String) -> String {
        if path == directory { return "." }
        if let below = bytesBelow(path, directory) { return below }
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
