/// The one folder every report's relative paths start from, so that GitHub annotations,
/// SARIF (`SRCROOT`), Code Climate, Checkstyle, JUnit, JSON and the terminal name a file
/// the same way, and fingerprints do not depend on the folder kblint ran in: the root of the
/// git repository holding the current folder (the nearest folder with a `.git` entry, as in
/// a worktree or submodule too), else `GITHUB_WORKSPACE` when it is set, else the current
/// folder. Files outside the root are shown with absolute paths.
enum ReportPathRoot {
    static func find(currentDirectory: String, environment: [String: String], fileSystem: any ConfigurationFileSystem = DiskFileSystem()) -> String {
        var folder: String? = currentDirectory
        while let current = folder {
            if fileSystem.namesInDirectory(atPath: current).contains(".git") { return current }
            folder = LexicalPath.parent(of: current)
        }
        if let workspace = environment["GITHUB_WORKSPACE"], !workspace.isEmpty {
            return LexicalPath.absolute(workspace, relativeTo: currentDirectory)
        }
        return currentDirectory
    }
}

extension Finding {
    /// The finding with its path and its related places' paths shown relative to `root`
    /// (absolute, standardized). Related paths are relative to `currentDirectory` or absolute.
    func shown(relativeTo root: String, currentDirectory: String) -> Finding {
        guard root != currentDirectory else { return self }
        var shown = self
        shown.path = LexicalPath.display(absolutePath, relativeTo: root)
        shown.related = related.map { place in
            var moved = place
            moved.path = LexicalPath.display(LexicalPath.absolute(place.path, relativeTo: currentDirectory), relativeTo: root)
            return moved
        }
        return shown
    }
}
