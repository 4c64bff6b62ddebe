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

    /// Made with room for `name` from the start: discovery builds a path per entry it lists.
    static func appending(_ name: String, to directory: String) -> String {
        let separator = directory.hasSuffix("/") ? "" : "/"
        var path = ""
        path.reserveCapacity(directory.utf8.count + separator.utf8.count + name.utf8.count)
        path += directory
        path += separator
        path += name
        return path
    }

    /// Whether `path` and `other` (absolute, standardized) are in the same folder, without
    /// copying either folder's path out: discovery lists a folder's files together, so
    /// consecutive files mostly are.
    static func areInSameFolder(_ path: String, _ other: String) -> Bool {
        guard let slash = lastSlash(in: path), let otherSlash = lastSlash(in: other) else { return false }
        return path[..<slash] == other[..<otherSlash]
    }

    /// `path` relative to `directory` when it lies inside it, else `path` unchanged: how
    /// paths are shown to users.
    static func display(_ path: String, relativeTo directory: String) -> String {
        if path == directory { return "." }
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
