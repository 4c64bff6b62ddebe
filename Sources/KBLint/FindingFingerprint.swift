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
        var occurrences: [String: Int] = [:]
        return findings.map { finding in
            let key = [finding.ruleID, finding.path, normalizedLine(finding.lineText)]
                .joined(separator: "\u{1F}")
            let index = occurrences[key, default: 0]
            occurrences[key] = index + 1
            return hexFNV1a64(key + "\u{1F}" + String(index))
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
