import Foundation
import XCTest
@testable import KBLint
@testable import Rules

/// Rules.md at the repository root is `kblint rules --format markdown`; this fails when a
/// rule's metadata changed and the file was not regenerated.
final class RulesDocumentTests: XCTestCase {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func testCommittedRulesMarkdownIsCurrent() throws {
        let generated = RuleDocumentation.render(
            RuleRegistry.all.map { $0.metadata } + EngineDiagnostics.all, format: .markdown)
        let committed = try String(decoding: Data(contentsOf: Self.repositoryRoot.appendingPathComponent("Rules.md")), as: UTF8.self)
        XCTAssertEqual(committed, generated, "Rules.md is stale: run `swift run kblint rules --format markdown > Rules.md`")
    }

    func testEveryRuleHasAnAnchorHeadingAndItsFacts() {
        let all = RuleRegistry.all.map { $0.metadata } + EngineDiagnostics.all + testRules.map { $0.metadata }
        let markdown = RuleDocumentation.render(all, format: .markdown)
        for rule in all {
            XCTAssertTrue(markdown.contains("\n### \(rule.id)\n"), rule.id)
            XCTAssertTrue(markdown.contains("[`\(rule.id)`](#\(rule.id))"), rule.id)
        }
        XCTAssertTrue(markdown.contains("**Opt-in:** yes"))
        XCTAssertTrue(markdown.contains("| `also_flag` | `\"\"` | Another identifier to flag. |"), markdown)
        XCTAssertTrue(markdown.contains("<summary>Corrections</summary>"))
    }

    /// The reason a rule has no fix reaches every format; rules with a fix have none.
    func testEveryFormatShowsWhyARuleHasNoFix() throws {
        let reason = "Which value to restore is the author's choice."
        let withoutFix = RuleMetadata(
            id: "no_fix", category: .engine, defaultSeverity: .info, summary: "s", rationale: "r", fix: "f",
            noFixReason: reason, triggering: [], nonTriggering: [])
        let withFix = RuleMetadata(
            id: "with_fix", category: .engine, defaultSeverity: .info, summary: "s", rationale: "r", fix: "f",
            fixAvailability: .safe, triggering: [], nonTriggering: [])
        XCTAssertTrue(RuleDocumentation.render([withoutFix], format: .text).contains("No automatic fix: \(reason)"))
        XCTAssertTrue(RuleDocumentation.render([withoutFix], format: .markdown).contains("**No automatic fix.** \(reason)"))
        XCTAssertTrue(RuleDocumentation.explain(withoutFix).contains("Automatic fix: none. \(reason)"))
        let json = RuleDocumentation.render([withoutFix, withFix], format: .json)
        let rules = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        XCTAssertEqual(rules.first { $0["id"] as? String == "no_fix" }?["no_fix_reason"] as? String, reason)
        XCTAssertTrue(rules.first { $0["id"] as? String == "with_fix" }?["no_fix_reason"] is NSNull)
    }

    func testFencesOutgrowBackticksInExamples() {
        let rule = RuleMetadata(
            id: "x", category: .engine, defaultSeverity: .info, summary: "s", rationale: "r", fix: "f",
            triggering: [RuleExample("let s = \"```\"\n")], nonTriggering: [])
        XCTAssertTrue(RuleDocumentation.render([rule], format: .markdown).contains("````swift\nlet s = \"```\"\n````"))
    }
}
