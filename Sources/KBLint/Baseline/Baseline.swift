/// Findings a team has accepted for now, so that kblint can be adopted on a legacy codebase
/// and report only what is new. An entry is keyed by a finding's `BaselineKey` — rule, path,
/// enclosing declaration, the normalized text of its whole statement, and its occurrence
/// index among findings sharing those — never its line number, so entries survive unrelated
/// edits and code moving up or down, and two multi-line statements that start with the same
/// line (`NotificationCenter.default.addObserver(`) are told apart.
///
/// Version 1 files keyed entries by the start line alone (`FindingIdentity`); they are still
/// read and matched that way, and `--write-baseline` rewrites them as version 2.
///
/// Paths are relative to the folder holding the baseline file (with `../` when a file lies
/// outside it), so the same file matches whatever directory kblint runs from. The JSON is
/// versioned, sorted and one key per line, so that it diffs and merges like code.
///
/// A merged finding is written under the rule it is reported as; it matches an entry for
/// any rule it covers too (see `compare`).
struct Baseline: Sendable, Equatable {
    static let formatVersion = 2
    static let readableVersions = [1, 2]

    struct Entry: Sendable, Hashable {
        /// The start line's identity: shown to people, and the key of version 1 entries.
        let identity: FindingIdentity
        /// The key of version 2 entries; nil for entries read from a version 1 file.
        let key: BaselineKey?
        /// The finding's message when it was recorded; for people reading the file, not
        /// part of the key (messages may be reworded between versions).
        let message: String
    }

    /// Sorted by path, rule, line text, declaration, statement and occurrence.
    let entries: [Entry]

    init(entries: [Entry]) {
        self.entries = entries.sorted { lhs, rhs in
            let left = lhs.identity.place, right = rhs.identity.place
            if left.path != right.path { return left.path < right.path }
            if left.ruleID != right.ruleID { return left.ruleID < right.ruleID }
            if left.normalizedLine != right.normalizedLine { return left.normalizedLine < right.normalizedLine }
            let leftKey = lhs.key.map { [$0.declaration, $0.statementHash] } ?? []
            let rightKey = rhs.key.map { [$0.declaration, $0.statementHash] } ?? []
            if leftKey != rightKey { return leftKey.lexicographicallyPrecedes(rightKey) }
            return (lhs.key?.occurrence ?? lhs.identity.occurrence) < (rhs.key?.occurrence ?? rhs.identity.occurrence)
        }
    }

    /// A baseline holding every finding of a run.
    init(findings: [Finding], location: BaselineLocation) {
        let keyed = Self.keyed(findings, location: location)
        // The line identity of a keyed entry carries the key's occurrence, as when read back.
        self.init(entries: keyed.map {
            Entry(identity: FindingIdentity(place: $0.identity.place, occurrence: $0.key.occurrence), key: $0.key,
                  message: findings[$0.index].message)
        })
    }

    /// Each finding's index in `findings`, in report order, with its version 1 identity and
    /// its key.
    private static func keyed(
        _ findings: [Finding], location: BaselineLocation
    ) -> [(index: Int, identity: FindingIdentity, key: BaselineKey)] {
        let order = findings.indices.sorted { LintReport.precedes(findings[$0], findings[$1]) }
        let identities = FindingFingerprint.identities(of: order.map { findings[$0] }) { location.key(for: $0.absolutePath) }
        var occurrences: [BaselineKey: Int] = [:]
        return zip(order, identities).map { index, identity in
            let unnumbered = BaselineKey(findings[index], path: identity.place.path, line: identity.place.normalizedLine)
            let occurrence = occurrences[unnumbered, default: 0]
            occurrences[unnumbered] = occurrence + 1
            return (index, identity, unnumbered.numbered(occurrence))
        }
    }

    /// Splits a run's findings into the new ones and the ones the baseline accepts, and
    /// finds the entries that are fixed: entries of a file that was linted (or no longer
    /// exists) that matched no finding. `lintedFiles` are absolute paths; entries of files
    /// this run did not look at (say, with `--staged`) are neither used nor fixed.
    ///
    /// A finding that stands for others of the same defect (`Finding.covered`) is accepted by
    /// an entry for itself or for any of them, each keyed as if it had been reported on its
    /// own: a baseline written before findings were merged, or when another rule of the
    /// defect was the one reported, keeps accepting it, and none of its entries is fixed.
    func compare(
        _ findings: [Finding], lintedFiles: [String], location: BaselineLocation
    ) -> BaselineComparison {
        var owners: [Int] = []
        var aspects: [Finding] = []
        for (index, finding) in findings.enumerated() {
            owners.append(index)
            aspects.append(finding)
            for covered in finding.covered {
                owners.append(index)
                aspects.append(finding.standingIn(for: covered))
            }
        }
        let acceptedKeys = Set(entries.compactMap(\.key))
        let acceptedIdentities = Set(entries.filter { $0.key == nil }.map(\.identity))
        var accepted = Set<Int>()
        var matchedKeys: Set<BaselineKey> = []
        var matchedIdentities: Set<FindingIdentity> = []
        for (aspect, identity, key) in Self.keyed(aspects, location: location) {
            if acceptedKeys.contains(key) {
                matchedKeys.insert(key)
                accepted.insert(owners[aspect])
            } else if acceptedIdentities.contains(identity) {
                matchedIdentities.insert(identity)
                accepted.insert(owners[aspect])
            }
        }
        let newFindings = findings.indices.sorted { LintReport.precedes(findings[$0], findings[$1]) }
            .filter { !accepted.contains($0) }.map { findings[$0] }
        let lintedKeys = Set(lintedFiles.map(location.key(for:)))
        let fixed = entries.filter { entry in
            let matched = entry.key.map(matchedKeys.contains) ?? matchedIdentities.contains(entry.identity)
            guard !matched else { return false }
            return lintedKeys.contains(entry.identity.place.path)
                || !location.fileExists(forKey: entry.identity.place.path)
        }
        return BaselineComparison(
            newFindings: newFindings, acceptedCount: findings.count - newFindings.count,
            fixedEntries: fixed)
    }

    /// This baseline without `fixed` entries (what `kblint baseline prune` writes).
    func removing(_ fixed: [Entry]) -> Baseline {
        let removed = Set(fixed)
        return Baseline(entries: entries.filter { !removed.contains($0) })
    }
}

/// What a baseline entry of version 2 matches: the rule, the path (relative to the baseline's
/// folder), the enclosing declaration, a hash of the normalized statement (its code tokens,
/// so comments and layout do not count), and the occurrence index among findings that share
/// all of these. Edits outside the statement keep it; edits of the statement make the
/// finding new.
struct BaselineKey: Sendable, Hashable {
    let ruleID: String
    let path: String
    let declaration: String
    /// `FindingAnchor.statement` hashed (FNV-1a, 16 hex digits), so that the file stays
    /// readable; the start line's text is stored next to it for people.
    let statementHash: String
    let occurrence: Int

    /// The key before numbering; a finding without an anchor uses its start line as its
    /// statement.
    init(_ finding: Finding, path: String, line: String) {
        self.init(
            ruleID: finding.ruleID, path: path, declaration: finding.anchor?.declaration ?? "",
            statementHash: FindingFingerprint.hexFNV1a64(finding.anchor?.statement ?? line), occurrence: 0)
    }

    init(ruleID: String, path: String, declaration: String, statementHash: String, occurrence: Int) {
        self.ruleID = ruleID
        self.path = path
        self.declaration = declaration
        self.statementHash = statementHash
        self.occurrence = occurrence
    }

    func numbered(_ occurrence: Int) -> BaselineKey {
        BaselineKey(ruleID: ruleID, path: path, declaration: declaration, statementHash: statementHash, occurrence: occurrence)
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
