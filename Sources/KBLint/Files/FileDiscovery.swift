/// A file to lint: the path as users see it (relative to the current directory when under
/// it) and the absolute path, both with `.`/`..` removed but symlinks kept as written.
struct LintTarget: Sendable, Hashable {
    let path: String
    let absolutePath: String
}

/// Finds the `.swift` files under the paths users give, the way every run must see them:
/// sorted, each file once, hidden and build folders skipped, symlink loops cut.
struct FileDiscovery {
    /// Folder names never entered (besides hidden ones, whose names start with a dot).
    static let defaultSkippedFolders: Set<String> = [".build", "Pods", "Carthage", "DerivedData"]

    let currentDirectory: String
    var skippedFolders: Set<String> = FileDiscovery.defaultSkippedFolders
    /// Whether a file or folder (absolute path; true when a folder) is excluded by
    /// configuration.
    var isExcluded: (String, Bool) -> Bool = { _, _ in false }
    /// Apply `isExcluded` to explicitly named files too.
    var forceExclude = false

    /// The files to lint under `paths`, and one error per path that cannot be read (the other
    /// paths are still searched).
    func discover(_ paths: [String]) -> (targets: [LintTarget], errors: [FileError]) {
        var targets: [LintTarget] = []
        var errors: [FileError] = []
        var seen: Set<String> = []
        for path in paths {
            let absolute = LexicalPath.absolute(path, relativeTo: currentDirectory)
            let status: FileStatus
            do {
                status = try FileSystem.status(of: absolute)
            } catch {
                errors.append(FileError(path: path, reason: FileSystem.isSymbolicLink(absolute)
                    ? "broken symbolic link" : "no such file or directory"))
                continue
            }
            switch status.kind {
            case .directory:
                if forceExclude, isExcluded(absolute, true) { continue }
                var visited: Set<FileIdentity> = [status.identity]
                walk(absolute, visited: &visited, into: &targets, seen: &seen, errors: &errors)
            case .regular, .other:
                // Non-regular files (FIFOs, devices) are reported when read, not here.
                if forceExclude, isExcluded(absolute, false) { continue }
                if seen.insert(absolute).inserted {
                    targets.append(target(absolute))
                }
            }
        }
        return (targets, errors)
    }

    private func walk(
        _ folder: String, visited: inout Set<FileIdentity>, into targets: inout [LintTarget],
        seen: inout Set<String>, errors: inout [FileError]
    ) {
        let entries: [FileSystem.DirectoryEntry]
        do {
            entries = try FileSystem.contentsOfDirectory(folder)
        } catch {
            errors.append(error)
            return
        }
        for entry in entries {
            let name = entry.name
            let child = folder == "/" ? "/" + name : folder + "/" + name
            // Regular files are known from the listing; folders need their identity (to cut
            // loops) and symlinks their target, so only those cost a `stat`.
            var kind = entry.kind
            var identity: FileIdentity?
            if kind != .regular {
                guard let status = try? FileSystem.status(of: child) else { continue }  // broken link
                kind = status.kind
                identity = status.identity
            }
            switch kind {
            case .directory?:
                if name.hasPrefix(".") || skippedFolders.contains(name) || isExcluded(child, true) { continue }
                // A folder reached twice (a symlink to an ancestor or a sibling) is walked once.
                guard let identity, visited.insert(identity).inserted else { continue }
                walk(child, visited: &visited, into: &targets, seen: &seen, errors: &errors)
            case .regular?:
                guard name.hasSuffix(".swift"), !name.hasPrefix("."), !isExcluded(child, false) else { continue }
                if seen.insert(child).inserted {
                    targets.append(target(child))
                }
            case .other?, nil:
                continue
            }
        }
    }

    private func target(_ absolute: String) -> LintTarget {
        LintTarget(
            path: LexicalPath.display(absolute, relativeTo: currentDirectory),
            absolutePath: absolute)
    }
}
