/// Findings a team has accepted for now, so that kblint can be adopted on a legacy codebase
/// and report only what is new. An entry is a finding's `FindingIdentity` — rule, path,
/// normalized source line, occurrence index — never its line number, so entries survive
/// unrelated edits and code moving up or down.
///
/// Paths are relative to the folder holding the baseline file (with `../` when a file lies
/// outside it), so the same file matches whatever directory kblint runs from. The JSON is
/// versioned, sorted and one key per line, so that it diffs and merges like code.
struct Baseline: Sendable, Equatable {
    static let formatVersion = 1

    struct Entry: Sendable, Hashable {
        let identity: FindingIdentity
        /// The finding's message when it was recorded; for people reading the file, not
        /// part of the key (messages may be reworded between versions).
        let message: String

        var fingerprint: String { identity.fingerprint }
    }

    /// Sorted by path, rule, line text and occurrence.
    let entries: [Entry]

    init(entries: [Entry]) {
        self.entries = entries.sorted { lhs, rhs in
            let left = lhs.identity, right = rhs.identity
            if left.place.path != right.place.path { return left.place.path < right.place.path }
            if left.place.ruleID != right.place.ruleID { return left.place.ruleID < right.place.ruleID }
            if left.place.normalizedLine != right.place.normalizedLine {
                return left.place.normalizedLine < right.place.normalizedLine
            }
            return left.occurrence < right.occurrence
        }
    }

    /// A baseline holding every finding of a run.
    init(findings: [Finding], location: BaselineLocation) {
        let sorted = findings.sorted(by: LintReport.precedes)
        let identities = FindingFingerprint.identities(of: sorted) { location.key(for: $0.absolutePath) }
        self.init(entries: zip(identities, sorted).map { Entry(identity: $0, message: $1.message) })
    }

    /// Splits a run's findings into the new ones and the ones the baseline accepts, and
    /// finds the entries that are fixed: entries of a file that was linted (or no longer
    /// exists) that matched no finding. `lintedFiles` are absolute paths; entries of files
    /// this run did not look at (say, with `--staged`) are neither used nor fixed.
    func compare(
        _ findings: [Finding], lintedFiles: [String], location: BaselineLocation
    ) -> BaselineComparison {
        let sorted = findings.sorted(by: LintReport.precedes)
        let identities = FindingFingerprint.identities(of: sorted) { location.key(for: $0.absolutePath) }
        let accepted = Set(entries.map(\.fingerprint))
        var newFindings: [Finding] = []
        var matched: Set<String> = []
        for (finding, identity) in zip(sorted, identities) {
            let fingerprint = identity.fingerprint
            if accepted.contains(fingerprint) {
                matched.insert(fingerprint)
            } else {
                newFindings.append(finding)
            }
        }
        let lintedKeys = Set(lintedFiles.map(location.key(for:)))
        let fixed = entries.filter { entry in
            guard !matched.contains(entry.fingerprint) else { return false }
            return lintedKeys.contains(entry.identity.place.path)
                || !location.fileExists(forKey: entry.identity.place.path)
        }
        return BaselineComparison(
            newFindings: newFindings, acceptedCount: sorted.count - newFindings.count,
            fixedEntries: fixed)
    }

    /// This baseline without `fixed` entries (what `kblint baseline prune` writes).
    func removing(_ fixed: [Entry]) -> Baseline {
        let removed = Set(fixed.map(\.fingerprint))
        return Baseline(entries: entries.filter { !removed.contains($0.fingerprint) })
    }
}

/// The outcome of matching a run against a baseline.
struct BaselineComparison: Sendable, Equatable {
    /// Findings the baseline does not hold, in report order; the only ones reported.
    let newFindings: [Finding]
    let acceptedCount: Int
    /// Entries that no longer occur; `--strict-baseline` fails when there are any, so that
    /// the baseline only ever shrinks.
    let fixedEntries: [Baseline.Entry]
}

/// Where a baseline file lives, which decides the paths its entries use.
struct BaselineLocation: Sendable, Equatable {
    /// The baseline file's absolute path as given (symlinks not resolved).
    let file: String
    /// The absolute folder holding the file, symlinks resolved, without a trailing slash.
    let directory: String

    /// `path` may be relative to `currentDirectory`.
    init(file path: String, currentDirectory: String) {
        let absolute = LexicalPath.absolute(path, relativeTo: currentDirectory)
        file = absolute
        directory = BaselineLocation.resolvingSymlinks(LexicalPath.parent(of: absolute) ?? "/")
    }

    /// The path an entry uses for a finding's file: relative to `directory`, `/`-separated,
    /// climbing with `..` when the file lies outside it.
    func key(for absolutePath: String) -> String {
        let target = BaselineLocation.resolvingSymlinks(absolutePath)
        let from = directory.split(separator: "/")
        let to = target.split(separator: "/")
        var common = 0
        while common < from.count, common < to.count, from[common] == to[common] { common += 1 }
        let climb = Array(repeating: "..", count: from.count - common)
        return (climb + to[common...].map(String.init)).joined(separator: "/")
    }

    func fileExists(forKey key: String) -> Bool {
        FileSystem.resolvedPath(LexicalPath.absolute(key, relativeTo: directory)) != nil
    }

    /// `path` (absolute) with symlinks resolved in its longest existing prefix, so that
    /// `/tmp/x` and `/private/tmp/x` (macOS) give the same key, even for a file that does not
    /// exist (an editor buffer named with `--stdin-path`).
    static func resolvingSymlinks(_ path: String) -> String {
        let standardized = LexicalPath.absolute(path, relativeTo: "/")
        var existing = standardized
        var missing: [String] = []
        while FileSystem.resolvedPath(existing) == nil, let parent = LexicalPath.parent(of: existing) {
            missing.insert(String(existing.split(separator: "/").last ?? ""), at: 0)
            existing = parent
        }
        let resolved = FileSystem.resolvedPath(existing) ?? existing
        return missing.reduce(resolved) { LexicalPath.appending($1, to: $0) }
    }
}
