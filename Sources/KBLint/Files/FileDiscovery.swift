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
    /// Each folder's listing is recorded here for the configuration lookup that follows.
    var lastListing = LastListing()
    var skippedFolders: Set<String> = FileDiscovery.defaultSkippedFolders
    /// Configuration's exclusion test for the entries of a folder (absolute path): whether a
    /// file or folder in it (absolute path; true when a folder) is excluded. Asked once per
    /// folder, so that configuration is looked up per folder rather than per file.
    var exclusion: (_ folder: String) -> (_ path: String, _ isFolder: Bool) -> Bool = { _ in { _, _ in false } }
    /// Apply `exclusion` to explicitly named files too.
    var forceExclude = false

    /// The files to lint under `paths`, and one error per path that cannot be read (the other
    /// paths are still searched).
    func discover(_ paths: [String]) -> (targets: [LintTarget], errors: [FileError]) {
        var targets: [LintTarget] = []
        let errors = discover(paths) { targets.append($0) }
        return (targets, errors)
    }

    /// Hands each file to lint under `paths` to `found` as soon as the walk meets it, in the
    /// order `discover(_:)` lists them; returns one error per path that cannot be read.
    func discover(_ paths: [String], found: (LintTarget) -> Void) -> [FileError] {
        var walk = Walk(pathsMayOverlap: paths.count > 1)
        for path in paths {
            let absolute = LexicalPath.absolute(path, relativeTo: currentDirectory)
            let status: FileStatus
            do {
                status = try FileSystem.status(of: absolute)
            } catch {
                walk.errors.append(FileError(path: path, reason: FileSystem.isSymbolicLink(absolute)
                    ? "broken symbolic link" : "no such file or directory"))
                continue
            }
            let isExcluded = { (isFolder: Bool) in
                forceExclude && exclusion(LexicalPath.parent(of: absolute) ?? "/")(absolute, isFolder)
            }
            switch status.kind {
            case .directory:
                if isExcluded(true) { continue }
                walk.visited = []
                self.walk(absolute, identity: status.identity, &walk, found: found)
            case .regular, .other:
                // Non-regular files (FIFOs, devices) are reported when read, not here.
                if isExcluded(false) { continue }
                if walk.seen.insert(absolute).inserted {
                    found(target(absolute))
                }
            }
        }
        return walk.errors
    }

    /// What a run of `discover` has gathered so far.
    private struct Walk {
        /// Each path comes up once, unless two of the given paths overlap or a folder holds
        /// two names that compare as the same text (Swift compares strings by canonical
        /// equivalence, so only names beyond ASCII can): only then are the paths found
        /// remembered in `seen`.
        let pathsMayOverlap: Bool
        var seen: Set<String> = []
        /// The folders walked from the current path.
        var visited: Set<FileIdentity> = []
        var errors: [FileError] = []
    }

    /// Walks `folder` unless it was walked already. `identity` is known when the folder was
    /// reached through `stat` (a named path, a symlink); a folder listed as one is identified
    /// by its listing instead, which saves a `stat` per folder.
    private func walk(_ folder: String, identity: FileIdentity?, _ walk: inout Walk, found: (LintTarget) -> Void) {
        // A folder reached twice (a symlink to an ancestor or a sibling) is walked once.
        if let identity, !walk.visited.insert(identity).inserted { return }
        let listing: FileSystem.DirectoryListing
        do {
            listing = try FileSystem.contentsOfDirectory(folder)
        } catch {
            // As when folders were `stat`ed before being listed: one that cannot be reached is
            // skipped, and one reached again is not reported twice.
            if identity == nil {
                guard let status = try? FileSystem.status(of: folder), walk.visited.insert(status.identity).inserted else { return }
            }
            walk.errors.append(FileError(path: LexicalPath.display(folder, relativeTo: currentDirectory), reason: error.reason))
            return
        }
        if identity == nil, !walk.visited.insert(listing.identity).inserted { return }
        lastListing.record(listing, of: folder)
        let isExcluded = exclusion(folder)
        for entry in listing.entries {
            let name = entry.name
            // Hidden entries, and files known not to be Swift sources, are passed over before
            // any path is made for them.
            if name.utf8.first == UInt8(ascii: ".") || entry.kind == .other || (entry.kind == .regular && !name.hasFileNameSuffix(".swift")) {
                continue
            }
            let child = LexicalPath.appending(name, to: folder)
            // Files and folders are known from the listing; symlinks need their target, so
            // only those cost a `stat`.
            var kind = entry.kind
            var identity: FileIdentity?
            if kind == nil {
                guard let status = try? FileSystem.status(of: child) else { continue }  // broken link
                kind = status.kind
                identity = status.identity
            }
            switch kind {
            case .directory?:
                if skippedFolders.contains(name) || isExcluded(child, true) { continue }
                self.walk(child, identity: identity, &walk, found: found)
            case .regular?:
                guard name.hasFileNameSuffix(".swift"), !isExcluded(child, false) else { continue }
                if (!walk.pathsMayOverlap && name.utf8.allSatisfy { $0 < 0x80 }) || walk.seen.insert(child).inserted {
                    found(target(child))
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
