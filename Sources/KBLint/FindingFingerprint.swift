import Lexer
/// A key that identifies a finding across edits that only move it: the rule, the path, the
/// start line's text with whitespace collapsed, and the occurrence index among findings
/// sharing those three — deliberately not the line number. SARIF's partialFingerprints,
/// Code Climate's fingerprint and the baseline all use it, so the hash must be the same on
/// every run and platform (Swift's `Hasher` is seeded per process and cannot be used).
/// The path is `Finding.path`, relative to the current directory, so fingerprints match
/// between runs started from the same directory (normally the repository root).
enum FindingFingerprint {
    /// The fingerprints of `findings`, in the same order. Occurrence indexes count in the
    /// order given, so pass findings sorted (as `LintReport` holds them).
    static func fingerprints(of findings: [Finding]) -> [String] {
        // The hash of the key up to the occurrence index, once per rule, path and line text.
        var prefixes: [NumberedPlace: FNV1a64] = [:]
        return numberedIdentities(of: findings, path: \.path).map { identity, place in
            var hash = prefixes[place] ?? FNV1a64(identity.place)
            prefixes[place] = hash
            hash.add(String(identity.occurrence))
            return hash.hex
        }
    }

    /// The parts of the key, for the baseline, which stores them readably and keys findings
    /// by their path relative to the baseline file's folder so that it matches from any
    /// directory. Occurrence indexes count in the order given, as above.
    static func identities(of findings: [Finding], path: (Finding) -> String) -> [FindingIdentity] {
        numberedIdentities(of: findings, path: path).map(\.identity)
    }

    /// A place with its normalized line replaced by the line's number among the distinct
    /// normalized lines: hashing it costs nothing for long lines.
    private struct NumberedPlace: Hashable {
        let ruleID: String
        let path: String
        let line: Int
    }

    /// Each finding's identity and numbered place. A line is normalized once for all the
    /// findings on it (sorted findings on one line are adjacent), and places are compared by
    /// line number: thousands of findings on one long line each normalized and hashed it.
    private static func numberedIdentities(
        of findings: [Finding], path: (Finding) -> String
    ) -> [(identity: FindingIdentity, place: NumberedPlace)] {
        var lineNumbers: [String: Int] = [:]
        var occurrences: [NumberedPlace: Int] = [:]
        var previous: (absolutePath: String, line: Int, text: String, number: Int)?
        return findings.map { finding in
            let text: String, number: Int
            if let previous, previous.line == finding.start.line, previous.absolutePath == finding.absolutePath {
                (text, number) = (previous.text, previous.number)
            } else {
                text = normalizedLine(finding.lineText)
                number = lineNumbers[text] ?? lineNumbers.count
                lineNumbers[text] = number
                previous = (finding.absolutePath, finding.start.line, text, number)
            }
            let findingPath = path(finding)
            let place = NumberedPlace(ruleID: finding.ruleID, path: findingPath, line: number)
            let occurrence = occurrences[place, default: 0]
            occurrences[place] = occurrence + 1
            let identity = FindingIdentity(
                place: FindingIdentity.Place(ruleID: finding.ruleID, path: findingPath, normalizedLine: text),
                occurrence: occurrence)
            return (identity, place)
        }
    }

    /// The line without leading and trailing whitespace, inner runs collapsed to one space,
    /// so that re-indenting code keeps its findings' fingerprints.
    static func normalizedLine(_ line: String) -> String {
        var line = line
        if let normalized = line.withUTF8(asciiNormalizedLine) { return normalized }
        return line.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// `normalizedLine` of an ASCII line, byte by byte (its whitespace characters are tab,
    /// line feed, vertical tab, form feed, carriage return and space); nil for other lines.
    private static func asciiNormalizedLine(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var normalized: [UInt8] = []
        normalized.reserveCapacity(bytes.count)
        var separated = false
        for byte in bytes {
            guard byte < 0x80 else { return nil }
            if byte == 0x20 || (0x09...0x0D).contains(byte) {
                separated = !normalized.isEmpty
                continue
            }
            if separated {
                normalized.append(0x20)
                separated = false
            }
            normalized.append(byte)
        }
        return String(decoding: normalized, as: UTF8.self)
    }

    /// FNV-1a, 64-bit, over the UTF-8 bytes, as 16 lowercase hex digits.
    static func hexFNV1a64(_ text: String) -> String {
        var hash = FNV1a64()
        hash.add(text)
        return hash.hex
    }
}

/// `FNV1a` fed piece by piece, so that a prefix shared by many keys is hashed once.
struct FNV1a64 {
    private var hash = FNV1a()
    var value: UInt64 { hash.value }

    init() {}

    /// The hash of a place's key up to the occurrence index: rule, path and normalized line,
    /// each followed by the separator.
    init(_ place: FindingIdentity.Place) {
        for part in [place.ruleID, place.path, place.normalizedLine] {
            add(part)
            add(FindingIdentity.separator)
        }
    }

    mutating func add(_ text: String) { hash.add(text) }

    /// 16 lowercase hex digits.
    var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// What a fingerprint is computed from: a finding's rule, path and normalized start line,
/// and its index among findings sharing those three.
struct FindingIdentity: Sendable, Hashable {
    struct Place: Sendable, Hashable {
        let ruleID: String
        let path: String
        let normalizedLine: String
    }

    /// Between the parts of the hashed key.
    static let separator = "\u{1F}"

    let place: Place
    let occurrence: Int

    var fingerprint: String {
        var hash = FNV1a64(place)
        hash.add(String(occurrence))
        return hash.hex
    }
}
