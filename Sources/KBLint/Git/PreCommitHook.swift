/// Why a hook could not be installed or removed; printed as one line, exit code 2.
enum HookError: Error, Hashable, CustomStringConvertible {
    case notWrittenByKBLint(path: String, action: String)
    case file(FileError)
    case git(GitError)

    var description: String {
        switch self {
        case .notWrittenByKBLint(let path, let action):
            "\(path) exists and was not written by kblint; not \(action) "
                + (action == "overwritten" ? "(use --force to replace it, or call kblint from it)" : "(remove it yourself)")
        case .file(let error): error.description
        case .git(let error): error.description
        }
    }
}

/// The git pre-commit hook that lints exactly what is being committed. The hook carries a
/// marker line, so kblint replaces or removes only hooks it wrote, never a team's own.
enum PreCommitHook {
    static let marker = "# kblint-managed: written by `kblint install-hook`"

    /// What happened, for the line kblint prints.
    enum Outcome: Hashable {
        case installed(path: String)
        case updated(path: String)
        /// A foreign hook was replaced; it is kept at `backup`.
        case replaced(path: String, backup: String)
        case removed(path: String)
        case absent(path: String)
    }

    /// The script. It runs the kblint that installed it (by the path it was started with, so
    /// a Homebrew symlink survives upgrades), falling back to `kblint` in `PATH`: GUI git
    /// clients and Xcode run hooks with a minimal `PATH`.
    static func script(kblint: String) -> String {
        """
        #!/bin/sh
        \(marker); remove with `kblint uninstall-hook`.
        # Lints the staged version of each staged Swift file; skip once with `git commit --no-verify`.
        kblint=\(shellQuoted(kblint))
        if [ ! -x "$kblint" ]; then
          kblint=$(command -v kblint) || {
            echo "kblint pre-commit hook: kblint not found; install it or run kblint install-hook again" >&2
            exit 1
          }
        fi
        "$kblint" --staged --strict
        status=$?
        if [ "$status" -ne 0 ]; then
          echo "kblint pre-commit hook: commit refused (kblint exited with status $status)." >&2
          echo "  Fix the findings above, or accept the current ones: kblint --write-baseline kblint-baseline.json" >&2
          echo "  and add 'baseline: kblint-baseline.json' to .kblint.yml. Skip the check once: git commit --no-verify" >&2
        fi
        exit "$status"

        """
    }

    /// Writes the hook into the repository's hooks folder (honouring `core.hooksPath`),
    /// replacing a hook kblint wrote, and a foreign one only when `force` is set.
    static func install(
        in repository: GitRepository, kblint: String, force: Bool
    ) throws(HookError) -> Outcome {
        let folder: String
        do { folder = try repository.hooksDirectory() } catch { throw .git(error) }
        let path = LexicalPath.appending("pre-commit", to: folder)
        var outcome = Outcome.installed(path: path)
        if let existing = try? FileSystem.readFile(path) {
            if isWrittenByKBLint(existing) {
                outcome = .updated(path: path)
            } else if force {
                do {
                    outcome = .replaced(path: path, backup: try keepBackup(of: path, existing))
                } catch {
                    throw .file(error)
                }
            } else {
                throw .notWrittenByKBLint(path: path, action: "overwritten")
            }
        } else if FileSystem.resolvedPath(path) != nil || FileSystem.isSymbolicLink(path) {
            // Exists but cannot be read as a file (a folder, a dangling link): leave it be.
            throw .notWrittenByKBLint(path: path, action: "overwritten")
        }
        do {
            try FileSystem.createDirectories(folder)
            try FileSystem.replaceAtomically(path, with: Array(script(kblint: kblint).utf8), permissions: 0o755)
        } catch {
            throw .file(error)
        }
        return outcome
    }

    /// Copies the hook `--force` replaces to `pre-commit.kblint-backup` (or `…-backup.2`, `.3`
    /// when that exists: a backup is never overwritten), with its permissions.
    static func keepBackup(of path: String, _ bytes: [UInt8]) throws(FileError) -> String {
        let permissions = (try? FileSystem.status(of: path).permissions) ?? 0o755
        var backup = path + ".kblint-backup"
        var number = 1
        while true {
            do {
                try FileSystem.createFile(backup, bytes, permissions: permissions)
                return backup
            } catch where error.reason == FileSystem.alreadyExists && number < 100 {
                number += 1
                backup = path + ".kblint-backup.\(number)"
            }
        }
    }

    /// Removes the hook if kblint wrote it.
    static func uninstall(in repository: GitRepository) throws(HookError) -> Outcome {
        let folder: String
        do { folder = try repository.hooksDirectory() } catch { throw .git(error) }
        let path = LexicalPath.appending("pre-commit", to: folder)
        guard FileSystem.resolvedPath(path) != nil || FileSystem.isSymbolicLink(path) else {
            return .absent(path: path)
        }
        guard let existing = try? FileSystem.readFile(path), isWrittenByKBLint(existing) else {
            throw .notWrittenByKBLint(path: path, action: "removed")
        }
        do { try FileSystem.removeFile(path) } catch { throw .file(error) }
        return .removed(path: path)
    }

    static func isWrittenByKBLint(_ bytes: [UInt8]) -> Bool {
        String(decoding: bytes.prefix(4096), as: UTF8.self)
            .split(separator: "\n").contains { $0.hasPrefix(marker) }
    }

    /// `text` as one POSIX shell word.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
