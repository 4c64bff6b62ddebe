/// Path arithmetic on POSIX paths by their text alone (no symlink resolution, no disk
/// access), so that configuration lookups stay cheap for thousands of files and give the
/// same answer for the same spelling.
enum LexicalPath {
    /// `path` made absolute against `directory` (itself absolute), with `.`, `..`, empty and
    /// repeated separators removed. `..` above the root stays at the root.
    static func absolute(_ path: String, relativeTo directory: String) -> String {
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

    /// The folder that holds `path` (an absolute, standardized path); nil for the root.
    static func parent(of path: String) -> String? {
        guard path != "/", let slash = path.lastIndex(of: "/") else { return nil }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func appending(_ name: String, to directory: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// `path` relative to `directory` when it lies inside it, else `path` unchanged: how
    /// paths are shown to users.
    static func display(_ path: String, relativeTo directory: String) -> String {
        if path == directory { return "." }
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
