/// Why kblint could not get what it needed from git; printed as one line, exit code 2.
enum GitError: Error, Hashable, CustomStringConvertible {
    case gitNotFound
    case notARepository(directory: String, reason: String)
    case unknownRevision(String)
    case noCommonHistory(revision: String)
    case commandFailed(command: String, status: Int32, message: String)
    case cannotRun(String)

    var description: String {
        switch self {
        case .gitNotFound:
            "git not found in PATH; --staged, --since and install-hook need git"
        case .notARepository(let directory, let reason):
            "\(directory) is not inside a git work tree" + (reason.isEmpty ? "" : " (\(reason))")
        case .unknownRevision(let revision):
            "unknown revision '\(revision)' (for a pull request base, fetch it first, e.g. git fetch origin main)"
        case .noCommonHistory(let revision):
            "HEAD and '\(revision)' have no common ancestor in this clone; fetch more history (e.g. fetch-depth: 0 in actions/checkout)"
        case .commandFailed(let command, let status, let message):
            "\(command) failed with exit status \(status)" + (message.isEmpty ? "" : ": \(message)")
        case .cannotRun(let reason):
            reason
        }
    }
}

/// A file that git says changed, by its path in the work tree and, for staged files, the
/// blob that the index holds for it.
struct ChangedFile: Sendable, Hashable {
    /// Absolute path in the work tree (where the file is shown, and fixed when fixing).
    let path: String
    /// The index's blob id (`--staged` only).
    let blob: String?
}

/// A git work tree, asked through the `git` program (no library), so that kblint sees exactly
/// what git sees: the index a hook is given in `GIT_INDEX_FILE`, `core.hooksPath`, renames.
/// Paths cross the pipe NUL-separated (`-z`), so spaces, newlines and any Unicode survive.
struct GitRepository: Sendable {
    let git: String
    /// The work tree's root, absolute.
    let topLevel: String
    /// kblint's environment, which git runs with (and finds git through `PATH`).
    let environment: [String: String]

    /// The repository holding `directory`.
    init(containing directory: String, environment: [String: String]) throws(GitError) {
        guard let git = ChildProcess.locate("git", environment: environment) else { throw .gitNotFound }
        self.git = git
        self.environment = environment
        let result: ChildProcess.Result
        do {
            result = try ChildProcess(
                executable: git, arguments: ["rev-parse", "--show-toplevel"], directory: directory,
                baseEnvironment: environment
            ).run()
        } catch {
            throw .cannotRun(error.description)
        }
        guard result.status == 0 else {
            throw .notARepository(directory: directory, reason: result.diagnosis)
        }
        let root = GitRepository.line(result.output)
        guard !root.isEmpty else {
            throw .notARepository(directory: directory, reason: "it has no work tree")
        }
        topLevel = GitRepository.spelling(of: root, above: directory)
    }

    /// git names the work tree by its real path; kblint shows paths relative to the current
    /// directory as the user spells it (say `/tmp/app` where the real path is
    /// `/private/tmp/app`). So the root is spelled as the ancestor of `directory` that
    /// resolves to it, when there is one.
    static func spelling(of root: String, above directory: String) -> String {
        let realRoot = FileSystem.resolvedPath(root) ?? root
        var candidate: String? = LexicalPath.absolute(directory, relativeTo: "/")
        while let current = candidate {
            if current == root || FileSystem.resolvedPath(current) == realRoot { return current }
            candidate = LexicalPath.parent(of: current)
        }
        return root
    }

    /// Runs git in the work tree's root; its output, or `commandFailed`.
    func run(_ arguments: [String], input: [UInt8] = []) throws(GitError) -> [UInt8] {
        let result: ChildProcess.Result
        do {
            result = try ChildProcess(
                executable: git, arguments: arguments, directory: topLevel, input: input,
                baseEnvironment: environment
            ).run()
        } catch {
            throw .cannotRun(error.description)
        }
        guard result.status == 0 else {
            throw .commandFailed(
                command: "git " + arguments.prefix(2).joined(separator: " "),
                status: result.status, message: result.diagnosis)
        }
        return result.output
    }

    /// Files added, copied, modified or renamed in the index (what the next commit changes),
    /// with the index's blob for each. Only regular files: symlinks and submodules are not
    /// source to lint.
    func stagedFiles() throws(GitError) -> [ChangedFile] {
        let output = try run(["diff", "--cached", "--raw", "-z", "--no-abbrev", "--no-ext-diff", "--diff-filter=ACMR", "--no-color"])
        return parseRawDiff(output)
    }

    /// Files added, copied, modified or renamed between the merge base of `revision` and
    /// HEAD and the work tree: what a pull request into `revision` changes, plus uncommitted
    /// edits.
    func changedFiles(since revision: String) throws(GitError) -> [ChangedFile] {
        guard !revision.hasPrefix("-"), (try? run(["rev-parse", "--verify", "--quiet", revision + "^{commit}"])) != nil else {
            throw .unknownRevision(revision)
        }
        let base: String
        do {
            base = GitRepository.line(try run(["merge-base", revision, "HEAD"]))
        } catch {
            throw .noCommonHistory(revision: revision)
        }
        let output = try run(["diff", "--raw", "-z", "--no-abbrev", "--no-ext-diff", "--diff-filter=ACMR", "--no-color", base])
        return parseRawDiff(output).map { ChangedFile(path: $0.path, blob: nil) }
    }

    /// Every regular file of the index (stage 0), by absolute path, with its blob id.
    func indexedFiles() throws(GitError) -> [String: String] {
        let output = try run(["ls-files", "--stage", "-z"])
        var files: [String: String] = [:]
        for entry in output.split(separator: 0) {
            // "<mode> <blob> <stage>\t<path>"
            guard let tab = entry.firstIndex(of: UInt8(ascii: "\t")) else { continue }
            let header = String(decoding: entry[entry.startIndex..<tab], as: UTF8.self).split(separator: " ")
            guard header.count == 3, header[0] == "100644" || header[0] == "100755", header[2] == "0" else { continue }
            files[LexicalPath.appending(PathEncoding.decode(entry[(tab + 1)...]), to: topLevel)] = String(header[1])
        }
        return files
    }

    /// The contents of blobs, by id, read with one `git cat-file --batch`.
    func contents(ofBlobs ids: [String]) throws(GitError) -> [String: [UInt8]] {
        guard !ids.isEmpty else { return [:] }
        let unique = Array(Set(ids)).sorted()
        let output = try run(["cat-file", "--batch"], input: Array((unique.joined(separator: "\n") + "\n").utf8))
        var contents: [String: [UInt8]] = [:]
        var offset = 0
        for id in unique {
            // Header: "<id> <type> <size>\n", or "<id> missing\n".
            guard let newline = output[offset...].firstIndex(of: UInt8(ascii: "\n")) else { break }
            let header = String(decoding: output[offset..<newline], as: UTF8.self).split(separator: " ")
            offset = newline + 1
            guard header.count == 3, let size = Int(header[2]), offset + size <= output.count else {
                throw .commandFailed(command: "git cat-file", status: 0, message: "unexpected output for \(id)")
            }
            contents[id] = Array(output[offset..<offset + size])
            offset += size + 1
        }
        return contents
    }

    /// The folder git runs hooks from: `core.hooksPath` when set (relative to the work
    /// tree's root), else the common `.git/hooks`, also from linked worktrees.
    func hooksDirectory() throws(GitError) -> String {
        let path = GitRepository.line(try run(["rev-parse", "--git-path", "hooks"]))
        return LexicalPath.absolute(path, relativeTo: topLevel)
    }

    /// A one-line answer (a path, a commit id) without its final newline; only that is
    /// dropped, since a path may end with a space.
    private static func line(_ output: [UInt8]) -> String {
        String(decoding: output.last == UInt8(ascii: "\n") ? output.dropLast() : output[...], as: UTF8.self)
    }

    /// Entries of `git diff --raw -z`: `:<mode> <mode> <blob> <blob> <status>\0<path>\0`,
    /// with a second path (the new one) for renames and copies.
    private func parseRawDiff(_ output: [UInt8]) -> [ChangedFile] {
        // Paths keep bytes that are not UTF-8, so the file opens and shows as it is named.
        let fields = output.split(separator: 0, omittingEmptySubsequences: false).map { PathEncoding.decode($0) }
        var files: [ChangedFile] = []
        var index = 0
        while index < fields.count {
            let header = fields[index].split(separator: " ")
            index += 1
            guard header.count == 5, header[0].hasPrefix(":") else { continue }
            let status = header[4]
            let pathCount = status.hasPrefix("R") || status.hasPrefix("C") ? 2 : 1
            guard index + pathCount <= fields.count else { break }
            let path = fields[index + pathCount - 1]
            index += pathCount
            let mode = header[1]
            guard mode == "100644" || mode == "100755" else { continue }
            files.append(ChangedFile(path: LexicalPath.appending(path, to: topLevel), blob: String(header[3])))
        }
        return files
    }
}
