/// Why a baseline file could not be used; printed as one line, exit code 2. A broken
/// baseline is an error rather than "no baseline", since silently reporting every legacy
/// finding (or none) would mislead.
struct BaselineError: Error, Hashable, CustomStringConvertible {
    let path: String
    let reason: String
    var description: String { "\(path): \(reason)" }
}

extension Baseline {
    /// The file's text: `version`, a note for readers, then `findings` sorted, one key per
    /// line, ending with a newline.
    func rendered() -> String {
        let findings = entries.map { entry in
            var members: [(String, JSONValue)] = [
                ("path", .string(entry.identity.place.path)),
                ("rule", .string(entry.identity.place.ruleID)),
                ("line", .string(entry.identity.place.normalizedLine)),
            ]
            if let key = entry.key {
                members += [
                    ("declaration", .string(key.declaration)),
                    ("statement", .string(key.statementHash)),
                    ("occurrence", .int(key.occurrence)),
                ]
            } else {
                members.append(("occurrence", .int(entry.identity.occurrence)))
            }
            members.append(("message", .string(entry.message)))
            return JSONValue.object(members)
        }
        return JSONValue.object([
            ("version", .int(Baseline.formatVersion)),
            ("note", .string(Baseline.note)),
            ("findings", .array(findings)),
        ]).rendered() + "\n"
    }

    static let note = "Findings accepted by kblint --baseline. Paths are relative to this file's folder; "
        + "entries are matched by rule, path, enclosing declaration, statement and occurrence, not line number. "
        + "Remove fixed entries with: kblint baseline prune FILE"

    /// Parses a baseline file's text. `path` names the file in errors.
    init(parsing bytes: [UInt8], path: String) throws(BaselineError) {
        func fail(_ reason: String) -> BaselineError { BaselineError(path: path, reason: reason) }
        let root: JSONValue
        do {
            root = try JSONReader.value(of: bytes)
        } catch {
            throw fail("not a kblint baseline: the file is not valid JSON (\(error))")
        }
        guard case .object = root else {
            throw fail("not a kblint baseline: expected a JSON object with 'version' and 'findings'")
        }
        guard let version = root[member: "version"]?.number else {
            throw fail("not a kblint baseline: 'version' is missing or not a number")
        }
        guard let format = Int(exactly: version), Baseline.readableVersions.contains(format) else {
            throw fail("baseline version \(Int(exactly: version).map(String.init) ?? String(version)) is not supported by this kblint (it reads versions \(Baseline.readableVersions.map(String.init).joined(separator: " and "))); regenerate it with --write-baseline")
        }
        guard case .array(let list)? = root[member: "findings"] else {
            throw fail("'findings' is missing or not a list")
        }
        var entries: [Entry] = []
        for (index, element) in list.enumerated() {
            guard case .object = element,
                  case .string(let entryPath)? = element[member: "path"],
                  case .string(let rule)? = element[member: "rule"],
                  case .string(let line)? = element[member: "line"],
                  let occurrence = element[member: "occurrence"]?.number.flatMap({ Int(exactly: $0) }), occurrence >= 0
            else {
                throw fail("findings[\(index)] needs 'path', 'rule', 'line' (strings) and 'occurrence' (a whole number ≥ 0)")
            }
            var message = ""
            if case .string(let text)? = element[member: "message"] { message = text }
            let place = FindingIdentity.Place(ruleID: rule, path: entryPath, normalizedLine: line)
            var key: BaselineKey?
            if format >= 2 {
                guard case .string(let declaration)? = element[member: "declaration"],
                      case .string(let statement)? = element[member: "statement"] else {
                    throw fail("findings[\(index)] needs 'declaration' and 'statement' (strings) in a version \(format) baseline")
                }
                key = BaselineKey(ruleID: rule, path: entryPath, declaration: declaration, statementHash: statement, occurrence: occurrence)
            }
            // A version 2 entry's occurrence counts among equal keys, not equal lines: its line
            // identity is for display only.
            entries.append(Entry(identity: FindingIdentity(place: place, occurrence: occurrence), key: key, message: message))
        }
        self.init(entries: entries)
    }

    /// `index`: with `--staged`, a baseline git tracks is read as the index holds it.
    static func read(from location: BaselineLocation, index: IndexFileSystem? = nil) throws(BaselineError) -> Baseline {
        if let bytes = index?.indexedContents(atPath: location.file) {
            return try Baseline(parsing: bytes, path: location.file)
        }
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readFile(location.file)
        } catch {
            throw BaselineError(path: location.file, reason: error.reason
                + (FileSystem.resolvedPath(location.file) == nil ? " (create it with --write-baseline)" : ""))
        }
        return try Baseline(parsing: bytes, path: location.file)
    }

    /// Replaces the file atomically, so that an interrupted run never leaves half a baseline.
    func write(to location: BaselineLocation) throws(BaselineError) {
        let bytes = Array(rendered().utf8)
        do {
            if let existing = try? FileSystem.status(of: location.file) {
                try FileSystem.replaceAtomically(location.file, with: bytes, permissions: existing.permissions)
            } else {
                try FileSystem.writeFile(location.file, bytes)
            }
        } catch {
            throw BaselineError(path: location.file, reason: error.reason)
        }
    }
}
