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
        identities(of: findings, path: \.path).map(\.fingerprint)
    }

    /// The parts of the key, for the baseline, which stores them readably and keys findings
    /// by their path relative to the baseline file's folder so that it matches from any
    /// directory. Occurrence indexes count in the order given, as above.
    static func identities(of findings: [Finding], path: (Finding) -> String) -> [FindingIdentity] {
        var occurrences: [FindingIdentity.Place: Int] = [:]
        return findings.map { finding in
            let place = FindingIdentity.Place(
                ruleID: finding.ruleID, path: path(finding),
                normalizedLine: normalizedLine(finding.lineText))
            let index = occurrences[place, default: 0]
            occurrences[place] = index + 1
            return FindingIdentity(place: place, occurrence: index)
        }
    }

    /// The line without leading and trailing whitespace, inner runs collapsed to one space,
    /// so that re-indenting code keeps its findings' fingerprints.
    static func normalizedLine(_ line: String) -> String {
        line.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// FNV-1a, 64-bit, over the UTF-8 bytes, as 16 lowercase hex digits.
    static func hexFNV1a64(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let digits = String(hash, radix: 16)
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

    let place: Place
    let occurrence: Int

    var fingerprint: String {
        let key = [place.ruleID, place.path, place.normalizedLine, String(occurrence)]
        return FindingFingerprint.hexFNV1a64(key.joined(separator: "\u{1F}"))
    }
}
