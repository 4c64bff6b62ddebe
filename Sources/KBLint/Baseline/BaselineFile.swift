import Foundation

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
            JSONValue.object([
                ("path", .string(entry.identity.place.path)),
                ("rule", .string(entry.identity.place.ruleID)),
                ("line", .string(entry.identity.place.normalizedLine)),
                ("occurrence", .int(entry.identity.occurrence)),
                ("message", .string(entry.message)),
            ])
        }
        return JSONValue.object([
            ("version", .int(Baseline.formatVersion)),
            ("note", .string(Baseline.note)),
            ("findings", .array(findings)),
        ]).rendered() + "\n"
    }

    static let note = "Findings accepted by kblint --baseline. Paths are relative to this file's folder; "
        + "entries are matched by rule, path, source line and occurrence, not line number. "
        + "Remove fixed entries with: kblint baseline prune FILE"

    /// Parses a baseline file's text. `path` names the file in errors.
    init(parsing bytes: [UInt8], path: String) throws(BaselineError) {
        func fail(_ reason: String) -> BaselineError { BaselineError(path: path, reason: reason) }
        let root: [String: ParsedJSON]
        do {
            guard case .object(let object) = try JSONDecoder().decode(ParsedJSON.self, from: Data(bytes)) else {
                throw fail("not a kblint baseline: expected a JSON object with 'version' and 'findings'")
            }
            root = object
        } catch let error as BaselineError {
            throw error
        } catch {
            throw fail("not a kblint baseline: the file is not valid JSON")
        }
        guard case .number(let version)? = root["version"] else {
            throw fail("not a kblint baseline: 'version' is missing or not a number")
        }
        guard version == Double(Baseline.formatVersion) else {
            throw fail("baseline version \(Int(exactly: version).map(String.init) ?? String(version)) is not supported by this kblint (it reads version \(Baseline.formatVersion)); regenerate it with --write-baseline")
        }
        guard case .array(let list)? = root["findings"] else {
            throw fail("'findings' is missing or not a list")
        }
        var entries: [Entry] = []
        for (index, element) in list.enumerated() {
            guard case .object(let object) = element,
                  case .string(let entryPath)? = object["path"],
                  case .string(let rule)? = object["rule"],
                  case .string(let line)? = object["line"],
                  case .number(let occurrence)? = object["occurrence"],
                  let occurrence = Int(exactly: occurrence), occurrence >= 0
            else {
                throw fail("findings[\(index)] needs 'path', 'rule', 'line' (strings) and 'occurrence' (a whole number ≥ 0)")
            }
            var message = ""
            if case .string(let text)? = object["message"] { message = text }
            let place = FindingIdentity.Place(ruleID: rule, path: entryPath, normalizedLine: line)
            entries.append(Entry(identity: FindingIdentity(place: place, occurrence: occurrence), message: message))
        }
        self.init(entries: entries)
    }

    static func read(from location: BaselineLocation) throws(BaselineError) -> Baseline {
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

/// Any JSON value, decoded strictly (a number is never a boolean), so that a baseline's
/// shape can be checked with messages that name the wrong key.
private enum ParsedJSON: Decodable {
    case null, bool(Bool), number(Double), string(String)
    case array([ParsedJSON]), object([String: ParsedJSON])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([ParsedJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: ParsedJSON].self))
        }
    }
}
