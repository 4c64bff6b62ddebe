/// The lint command's workflow options: which files git selects (`--staged`, `--since`) and
/// the baseline (`--baseline`, `--write-baseline`, `--strict-baseline`, `baseline prune`).
extension LintCommand {
    static let workflowOptions: [OptionSpec] = [
        .value("--baseline", "FILE", "Report only findings not recorded in FILE (also: 'baseline:' in .kblint.yml)."),
        .value("--write-baseline", "FILE", "Record the current findings in FILE (a JSON baseline)."),
        .flag("--strict-baseline", "Fail when the baseline holds findings that no longer occur (prune them)."),
        .flag("--staged", "Lint the staged (index) version of each staged Swift file; paths narrow the selection."),
        .value("--since", "REV", "Lint Swift files changed since the merge base of REV and HEAD (pull requests)."),
    ]

    /// What git selected: the staged files with their index contents, or the paths changed
    /// since a revision (nil: git selects nothing, the paths are the user's).
    enum GitSelection {
        case staged([(target: LintTarget, bytes: [UInt8])])
        case changed([String])
    }

    /// Asks git for the files of `--staged` or `--since`: `.swift` files outside hidden and
    /// build folders, narrowed to the positional paths when there are any. Staged files are not "named" on the command
    /// line, so `excluded` applies to them as to discovered ones.
    func gitSelection(_ options: LintOptions, isExcluded: (String) -> Bool) throws(GitError) -> GitSelection? {
        guard options.staged || options.since != nil else { return nil }
        let cwd = tool.currentDirectory
        let repository = try GitRepository(containing: cwd, environment: tool.environment)
        let scopes = options.paths.map { LexicalPath.absolute($0, relativeTo: cwd) }
        // As when searching folders: hidden and build folders are not source.
        let skipped = FileDiscovery.defaultSkippedFolders
        func selected(_ path: String) -> Bool {
            let folders = LexicalPath.display(path, relativeTo: repository.topLevel).split(separator: "/").dropLast()
            return path.hasFileNameSuffix(".swift")
                && !folders.contains { $0.utf8.first == UInt8(ascii: ".") || skipped.contains(String($0)) }
                && (scopes.isEmpty || scopes.contains { path == $0 || path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") })
        }
        if let revision = options.since {
            let files = try repository.changedFiles(since: revision).map(\.path).filter(selected)
            return .changed(files.sorted())
        }
        let staged = try repository.stagedFiles().filter { selected($0.path) && !isExcluded($0.path) }
        let contents = try repository.contents(ofBlobs: staged.compactMap(\.blob))
        return .staged(staged.sorted { $0.path < $1.path }.compactMap { file in
            guard let blob = file.blob, let bytes = contents[blob] else { return nil }
            let target = LintTarget(path: LexicalPath.display(file.path, relativeTo: cwd), absolutePath: file.path)
            return (target, bytes)
        })
    }

    /// What the baseline step decided.
    struct BaselineStep {
        /// The findings to report: those the baseline does not hold.
        var findings: [Finding]
        var errors: [String] = []
        /// Lines for standard error.
        var notes: [String] = []
        /// `--strict-baseline` and the baseline holds fixed findings.
        var failed = false
    }

    /// Reads the baseline (`--baseline`, else the configuration's), filters `findings`,
    /// prunes or checks it, and records the run with `--write-baseline`. The baseline is read
    /// before anything is written, so the same file may be given to both options.
    /// `lintedFiles` (absolute paths) is evaluated only when there is a baseline to compare with.
    func applyBaseline(
        to findings: [Finding], lintedFiles: @autoclosure () -> [String], options: LintOptions, configured: String?,
        index: IndexFileSystem? = nil
    ) -> BaselineStep {
        var step = BaselineStep(findings: findings)
        let cwd = tool.currentDirectory
        if let path = options.baseline ?? configured,
           // Creating the configured baseline for the first time is not an error.
           options.writeBaseline == nil || FileSystem.resolvedPath(LexicalPath.absolute(path, relativeTo: cwd)) != nil {
            let location = BaselineLocation(file: path, currentDirectory: cwd)
            let shown = options.baseline ?? LexicalPath.display(location.file, relativeTo: cwd)
            do {
                let baseline = try Baseline.read(from: location, index: index)
                let comparison = baseline.compare(findings, lintedFiles: lintedFiles(), location: location)
                step.findings = comparison.newFindings
                let fixed = comparison.fixedEntries
                if options.pruneBaseline {
                    let pruned = baseline.removing(fixed)
                    try pruned.write(to: location)
                    step.notes.append("Removed \(fixed.count) fixed \(fixed.count == 1 ? "entry" : "entries") from \(shown); \(pruned.entries.count) remain.")
                } else {
                    if comparison.acceptedCount > 0, !options.quiet {
                        step.notes.append("\(comparison.acceptedCount) \(comparison.acceptedCount == 1 ? "finding" : "findings") accepted by the baseline \(shown) not shown.")
                    }
                    if options.strictBaseline, !fixed.isEmpty {
                        step.failed = true
                        step.notes.append("kblint: the baseline \(shown) holds \(fixed.count) \(fixed.count == 1 ? "finding that no longer occurs" : "findings that no longer occur"); remove \(fixed.count == 1 ? "it" : "them") with 'kblint baseline prune \(shown)':")
                        for entry in fixed.prefix(20) {
                            step.notes.append("  \(entry.identity.place.path): \(entry.identity.place.ruleID): \(entry.identity.place.normalizedLine)")
                        }
                        if fixed.count > 20 { step.notes.append("  … and \(fixed.count - 20) more") }
                    }
                }
            } catch {
                step.errors.append(error.description)
            }
        } else if options.strictBaseline {
            step.errors.append("--strict-baseline needs a baseline: --baseline FILE or 'baseline:' in .kblint.yml")
        }
        if let path = options.writeBaseline {
            let location = BaselineLocation(file: path, currentDirectory: cwd)
            do {
                try Baseline(findings: findings, location: location).write(to: location)
                if !options.quiet {
                    step.notes.append("Wrote \(findings.count) \(findings.count == 1 ? "finding" : "findings") to the baseline \(path).")
                }
            } catch {
                step.errors.append(error.description)
            }
        }
        return step
    }
}

/// `kblint baseline prune FILE [PATH…]`: lints like `kblint --baseline FILE` and removes the
/// entries that no longer occur, so the file only ever shrinks.
struct BaselineCommand {
    static let spec = CommandSpec(
        name: "baseline",
        summary: "'baseline prune FILE [PATH…]': remove findings that no longer occur from a baseline.",
        positionalUsage: "prune FILE [PATH…]", positionalCount: 2...Int.max,
        options: LintCommand.spec.options.filter {
            ["--config", "--jobs", "--deployment-target", "--enable", "--disable", "--only", "--file-list", "--force-exclude", "--quiet"]
                .contains($0.name)
        })

    let tool: CommandLineTool

    func run(_ arguments: ParsedArguments) throws(UsageError) -> ExitCode {
        guard arguments.positionals[0] == "prune" else {
            let hint = Spelling.didYouMean(arguments.positionals[0], among: ["prune"]).map { "; " + $0 } ?? ""
            throw UsageError(message: "unknown baseline action '\(arguments.positionals[0])'\(hint); expected 'kblint baseline prune FILE'")
        }
        var lintArguments = arguments
        lintArguments.positionals = Array(arguments.positionals.dropFirst(2))
        var options = try LintOptions(lintArguments)
        options.baseline = arguments.positionals[1]
        options.pruneBaseline = true
        return LintCommand(tool: tool).run(options)
    }
}

/// `kblint install-hook [--force]` and `kblint uninstall-hook`.
struct HookCommand {
    static let installSpec = CommandSpec(
        name: "install-hook",
        summary: "Install a git pre-commit hook running 'kblint --staged --strict' (honours core.hooksPath).",
        positionalUsage: "", positionalCount: 0...0,
        options: [.flag("--force", "Replace an existing pre-commit hook that kblint did not write.")])
    static let uninstallSpec = CommandSpec(
        name: "uninstall-hook", summary: "Remove the pre-commit hook if kblint wrote it.",
        positionalUsage: "", positionalCount: 0...0, options: [])

    let tool: CommandLineTool

    func install(_ arguments: ParsedArguments) -> ExitCode {
        perform { repository throws(HookError) in
            try PreCommitHook.install(in: repository, kblint: tool.kblintExecutable, force: arguments.has("--force"))
        }
    }

    func uninstall() -> ExitCode {
        perform { repository throws(HookError) in try PreCommitHook.uninstall(in: repository) }
    }

    private func perform(_ action: (GitRepository) throws(HookError) -> PreCommitHook.Outcome) -> ExitCode {
        let outcome: PreCommitHook.Outcome
        do throws(HookError) {
            let repository: GitRepository
            do {
                repository = try GitRepository(containing: tool.currentDirectory, environment: tool.environment)
            } catch {
                throw HookError.git(error)
            }
            outcome = try action(repository)
        } catch {
            tool.reportError(error.description)
            return .failure
        }
        let cwd = tool.currentDirectory
        switch outcome {
        case .installed(let path): tool.standardOutput.write("Installed the kblint pre-commit hook at \(LexicalPath.display(path, relativeTo: cwd)).\n")
        case .updated(let path): tool.standardOutput.write("Updated the kblint pre-commit hook at \(LexicalPath.display(path, relativeTo: cwd)).\n")
        case .replaced(let path, let backup):
            tool.standardOutput.write("Replaced the existing pre-commit hook at \(LexicalPath.display(path, relativeTo: cwd)) with kblint's; "
                + "the old one is kept at \(LexicalPath.display(backup, relativeTo: cwd)).\n")
        case .removed(let path): tool.standardOutput.write("Removed the kblint pre-commit hook at \(LexicalPath.display(path, relativeTo: cwd)).\n")
        case .absent(let path): tool.standardOutput.write("No pre-commit hook at \(LexicalPath.display(path, relativeTo: cwd)); nothing to remove.\n")
        }
        return .success
    }
}

extension CommandLineTool {
    /// The path the hook should run kblint by: as this process was started (made absolute, or
    /// found in `PATH`), symlinks kept so that a package manager's link survives upgrades.
    var kblintExecutable: String {
        let invoked = executablePath ?? "kblint"
        if invoked.contains("/") { return LexicalPath.absolute(invoked, relativeTo: currentDirectory) }
        return ChildProcess.locate(invoked, environment: environment) ?? invoked
    }
}

extension LintOptions {
    /// Combinations that cannot mean what they seem to.
    func validateWorkflowOptions(fix: Bool, diff: Bool) throws(UsageError) {
        if staged, since != nil {
            throw UsageError(message: "--staged and --since exclude each other")
        }
        if staged || since != nil {
            let option = staged ? "--staged" : "--since"
            if useStdin { throw UsageError(message: "\(option) lets git choose the files; it cannot be used with --use-stdin") }
            if fileList != nil { throw UsageError(message: "\(option) lets git choose the files; it cannot be used with --file-list") }
            if writeBaseline != nil {
                throw UsageError(message: "--write-baseline records the findings of the files linted; with \(option) it would drop every other file's entries. Run it on the whole project")
            }
        }
        if staged, fix || diff {
            throw UsageError(message: "--staged lints the index, but fixes apply to the working tree; run kblint --fix on the files, then git add them")
        }
    }
}
