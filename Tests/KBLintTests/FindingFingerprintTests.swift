import Lexer
import Rules
import XCTest
@testable import KBLint

final class FindingFingerprintTests: XCTestCase {
    func findings(in text: String, rule: String = "sample_rule", marking needle: String) -> [Finding] {
        let file = SourceFile(path: "Sources/View.swift", text: text)
        let bytes = Array(needle.utf8)
        var result: [Finding] = []
        var start = 0
        while start + bytes.count <= file.bytes.count {
            if Array(file.bytes[start..<start + bytes.count]) == bytes {
                let diagnostic = Diagnostic(
                    ruleID: rule, severity: .warning, message: "m",
                    range: start..<start + bytes.count, suggestion: "s")
                result.append(Finding(
                    diagnostic: diagnostic, lines: LineTexts(file), path: file.path,
                    absolutePath: "/p/" + file.path))
                start += bytes.count
            } else {
                start += 1
            }
        }
        return result
    }

    func testFNV1a64MatchesReferenceVectors() {
        XCTAssertEqual(FindingFingerprint.hexFNV1a64(""), "cbf29ce484222325")
        XCTAssertEqual(FindingFingerprint.hexFNV1a64("a"), "af63dc4c8601ec8c")
        XCTAssertEqual(FindingFingerprint.hexFNV1a64("foobar"), "85944171f73967e8")
    }

    func testSurvivesLineShiftAndReindentation() {
        let before = findings(in: "let a = 1\nview.frame = kb\n", marking: "view.frame")
        let after = findings(in: "// new comment\n\nlet a = 1\n    view.frame  =\tkb\n", marking: "view.frame")
        XCTAssertEqual(before.count, 1)
        XCTAssertNotEqual(before[0].start.line, after[0].start.line)
        XCTAssertEqual(FindingFingerprint.fingerprints(of: before), FindingFingerprint.fingerprints(of: after))
    }

    func testDistinguishesDuplicatesOnIdenticalLines() {
        let duplicates = findings(in: "view.frame = kb\nview.frame = kb\n", marking: "view.frame")
        XCTAssertEqual(duplicates.count, 2)
        let prints = FindingFingerprint.fingerprints(of: duplicates)
        XCTAssertNotEqual(prints[0], prints[1])
        // Removing the first duplicate keeps one of the two fingerprints, not a new one.
        let remaining = findings(in: "view.frame = kb\n", marking: "view.frame")
        XCTAssertEqual(FindingFingerprint.fingerprints(of: remaining), [prints[0]])
    }

    func testDependsOnRuleAndLineText() {
        let text = "view.frame = kb\n"
        let first = FindingFingerprint.fingerprints(of: findings(in: text, rule: "rule_a", marking: "view"))
        let other = FindingFingerprint.fingerprints(of: findings(in: text, rule: "rule_b", marking: "view"))
        let changed = FindingFingerprint.fingerprints(of: findings(in: "view.frame = kb2\n", rule: "rule_a", marking: "view"))
        XCTAssertNotEqual(first, other)
        XCTAssertNotEqual(first, changed)
        XCTAssertEqual(first[0].count, 16)
    }

    func testNormalizedLineCollapsesWhitespace() {
        XCTAssertEqual(FindingFingerprint.normalizedLine("\t  a   b\t c  \r"), "a b c")
        XCTAssertEqual(FindingFingerprint.normalizedLine("a\u{00A0}\r\nb"), "a b")
    }

    /// ASCII lines are normalized byte by byte; the result is what splitting at whitespace
    /// characters gives.
    func testNormalizedLineMatchesTheCharacterSplit() {
        let lines = [
            "", " ", "\t\u{0B}\u{0C}\r\n", "a", "  let x = 1  ", "a\tb\u{0B}c\u{0C}d\re\r\nf", "x  \t y",
            "emoji 🎹  key", "a\u{3000}b\u{2028}c\u{0085}d", "é  \t ü",
        ]
        for line in lines {
            XCTAssertEqual(FindingFingerprint.normalizedLine(line),
                           line.split(whereSeparator: \.isWhitespace).joined(separator: " "), line.debugDescription)
        }
    }

    /// Findings that share lines hash each line's part of the key once; the fingerprints are
    /// those of the whole keys.
    func testFingerprintsOfFindingsSharingLinesAreThoseOfTheirKeys() {
        let text = "view.frame = kb; view.frame = kb\nlet a = 1\n  view.frame = kb ; view.frame = kb\n"
        let all = findings(in: text, rule: "rule_a", marking: "view.frame") + findings(in: text, rule: "rule_b", marking: "view")
        let sorted = all.sorted(by: LintReport.precedes)
        let expected = FindingFingerprint.identities(of: sorted, path: \.path).map { identity in
            FindingFingerprint.hexFNV1a64([identity.place.ruleID, identity.place.path, identity.place.normalizedLine,
                                           String(identity.occurrence)].joined(separator: "\u{1F}"))
        }
        XCTAssertEqual(FindingFingerprint.fingerprints(of: sorted), expected)
        XCTAssertEqual(Set(expected).count, sorted.count)
    }
}
