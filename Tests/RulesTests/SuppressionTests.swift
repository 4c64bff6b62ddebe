import Lexer
import XCTest
@testable import Rules

/// Flags every identifier spelled `forbidden`, with a safe fix renaming it to `allowed`.
struct ForbiddenIdentifierRule: Rule {
    static let metadata = RuleMetadata(
        id: "forbidden_identifier", category: .relatedPitfalls, defaultSeverity: .warning,
        summary: "Test rule.", rationale: "Test rule.", fix: "Rename it.",
        triggering: [RuleExample("let ↓forbidden = 1\n")], nonTriggering: [RuleExample("let allowed = 1\n")])

    static let requiredMarkers: [StaticString] = ["forbidden"]

    func check(_ context: RuleContext) -> [Diagnostic] {
        context.source.code.filter { $0.kind == .identifier && context.source.token($0, is: "forbidden") }.map {
            Diagnostic(ruleID: Self.metadata.id, severity: .warning, message: "forbidden", range: $0.range,
                       suggestion: "Rename it.", fix: Fix(.safe, edits: [Edit(range: $0.range, replacement: "allowed")]))
        }
    }
}

final class SuppressionTests: XCTestCase {
    let known = Set(["forbidden_identifier", "other_rule"]).union(EngineDiagnostics.unsuppressibleIDs)

    /// Runs the test rule on `code` and suppression after it; returns "line:ruleID" per result.
    func lint(_ code: String, active: Set<String> = ["forbidden_identifier", "other_rule"]) -> [String] {
        let source = Lexer.tokenize(SourceFile(path: "T.swift", text: code))
        let diagnostics = ForbiddenIdentifierRule().check(RuleContext(
            source: source, project: .empty, deploymentTarget: nil, options: [:]))
        return Suppression.filter(
            diagnostics, in: source, activeRuleIDs: active, knownRuleIDs: known,
            closeMatches: { word, candidates in
                word == "forbiden_identifier" && candidates.contains("forbidden_identifier") ? ["forbidden_identifier"] : []
            }
        ).map { "\(source.file.location(of: $0.range.lowerBound).line):\($0.ruleID)" }
    }

    func testLineScopes() {
        XCTAssertEqual(lint("// kblint:disable:next forbidden_identifier\nlet forbidden = 1\nlet forbidden = 2\n"),
                       ["3:forbidden_identifier"])
        XCTAssertEqual(lint("let forbidden = 1 // kblint:disable:this forbidden_identifier\n"), [])
        XCTAssertEqual(lint("let forbidden = 1\n/* kblint:disable:previous forbidden_identifier */\n"), [])
        XCTAssertEqual(lint("/// kblint:disable:next all - legacy code\nlet forbidden = 1\n"), [])
    }

    func testRegionsEndAtEnableAndAllCanBeReenabledPerRule() {
        let code = """
            // kblint:disable forbidden_identifier
            let forbidden = 1
            // kblint:enable forbidden_identifier
            let forbidden = 2
            // kblint:disable all
            let forbidden = 3
            // kblint:enable forbidden_identifier
            let forbidden = 4

            """
        XCTAssertEqual(lint(code), ["4:forbidden_identifier", "8:forbidden_identifier"])
        XCTAssertEqual(lint("// kblint:disable all\nlet fine = 1\n"), ["1:superfluous_disable_command"])
    }

    func testDirectivesInStringsDoNothing() {
        XCTAssertEqual(lint("let forbidden = \"// kblint:disable:this forbidden_identifier\"\n"), ["1:forbidden_identifier"])
        XCTAssertEqual(lint("let s = \"\"\"\n// kblint:disable:next all\n\"\"\"\nlet forbidden = 1\n"), ["4:forbidden_identifier"])
    }

    func testSuperfluousUnknownAndMalformedDirectivesAreReported() {
        XCTAssertEqual(lint("// kblint:disable:next forbidden_identifier\nlet fine = 1\n"), ["1:superfluous_disable_command"])
        XCTAssertEqual(lint("// kblint:disable:next forbiden_identifier\nlet forbidden = 1\n"),
                       ["2:forbidden_identifier", "1:superfluous_disable_command"])
        XCTAssertEqual(lint("// kblint:disabel:next forbidden_identifier\nlet x = 1\n"), ["1:superfluous_disable_command"])
        XCTAssertEqual(lint("// kblint:disable:next\nlet x = 1\n"), ["1:superfluous_disable_command"])
        // A comment merely mentioning kblint is no directive.
        XCTAssertEqual(lint("// see kblint:disable in README\nlet x = 1\n"), [])
    }

    func testUnknownIDMessageSuggestsCloseIDs() {
        let source = Lexer.tokenize(SourceFile(path: "T.swift", text: "// kblint:disable:next forbiden_identifier\n"))
        let result = Suppression.filter([], in: source, activeRuleIDs: [], knownRuleIDs: known,
                                        closeMatches: { _, _ in ["forbidden_identifier"] })
        XCTAssertEqual(result.map(\.message), ["'forbiden_identifier' is not a kblint rule id; did you mean 'forbidden_identifier'?"])
        XCTAssertEqual(result.first?.range, 23..<42)
    }

    func testUnknownCommandSuggestsTheClosestOne() {
        let source = Lexer.tokenize(SourceFile(path: "T.swift", text: "// kblint:disabel:next all\n"))
        let result = Suppression.filter([], in: source, activeRuleIDs: [], knownRuleIDs: known,
                                        closeMatches: { word, candidates in
                                            word == "disabel:next" && candidates.contains("disable:next") ? ["disable:next"] : []
                                        })
        XCTAssertEqual(result.map(\.message), ["'kblint:disabel:next' is not a kblint command; did you mean 'kblint:disable:next'?"])
    }

    func testDisablesOfRulesThatDidNotRunAreNotSuperfluous() {
        XCTAssertEqual(lint("// kblint:disable:next other_rule\nlet x = 1\n", active: ["forbidden_identifier"]), [])
        XCTAssertEqual(lint("// kblint:disable:next other_rule\nlet x = 1\n"), ["1:superfluous_disable_command"])
    }

    func testEngineDiagnosticsCannotBeSuppressed() {
        let source = Lexer.tokenize(SourceFile(path: "T.swift", text: "// kblint:disable:next invalid_utf8\nlet x = 1\n"))
        let invalid = Diagnostic(ruleID: "invalid_utf8", severity: .info, message: "m", range: 40..<41, suggestion: "s")
        let result = Suppression.filter([invalid], in: source, activeRuleIDs: [], knownRuleIDs: known)
        XCTAssertEqual(result.map(\.ruleID), ["invalid_utf8", "superfluous_disable_command"])
    }

    /// The engine's own documented examples hold.
    func testSuperfluousDisableCommandExamples() {
        let metadata = EngineDiagnostics.superfluousDisableCommand
        for example in metadata.triggering {
            var code = example.code
            let marker = code.range(of: "↓")!
            let offset = code.utf8.distance(from: code.startIndex, to: marker.lowerBound)
            code.removeSubrange(marker)
            let source = Lexer.tokenize(SourceFile(path: "T.swift", text: code))
            let result = Suppression.filter([], in: source, activeRuleIDs: ["observer_token_discarded"],
                                            knownRuleIDs: ["observer_token_discarded", "keyboard_duration_hardcoded"])
            XCTAssertEqual(result.map(\.range.lowerBound), [offset], example.code)
        }
        for example in metadata.nonTriggering {
            let source = Lexer.tokenize(SourceFile(path: "T.swift", text: example.code))
            XCTAssertEqual(Suppression.filter([], in: source, activeRuleIDs: ["observer_token_discarded"],
                                              knownRuleIDs: ["observer_token_discarded"]), [], example.code)
        }
    }

    func testInvalidUTF8IsFoundAtTheFirstBadByte() {
        XCTAssertNil(EngineDiagnostics.invalidUTF8Diagnostic(in: SourceFile(path: "a", text: "let café = \"😀\"\n")))
        let bytes: [UInt8] = Array("let a".utf8) + [0xC3, 0x28] + Array(" = 1".utf8)
        XCTAssertEqual(EngineDiagnostics.invalidUTF8Diagnostic(in: SourceFile(path: "a", bytes: bytes))?.range, 5..<6)
        XCTAssertEqual(UTF8Validation.firstInvalidOffset([0xED, 0xA0, 0x80]), 0)  // surrogate
        XCTAssertEqual(UTF8Validation.firstInvalidOffset([0x41, 0xF0, 0x9F, 0x98]), 1)  // truncated
        XCTAssertNil(UTF8Validation.firstInvalidOffset([0xF0, 0x9F, 0x98, 0x80]))
    }
}

/// SwiftLint's observer rules overlap two kblint rules: their `swiftlint:disable` comments
/// also silence the kblint rule, and other SwiftLint comments are none of kblint's business.
final class SwiftLintSuppressionTests: XCTestCase {
    func kept(_ code: String, rule: String) -> [Int] {
        let source = Lexer.tokenize(SourceFile(path: "T.swift", text: code))
        let diagnostics = source.code.filter { source.token($0, is: "flagged") }.map {
            Diagnostic(ruleID: rule, severity: .error, message: "m", range: $0.range, suggestion: "")
        }
        let known: Set<String> = ["observer_token_discarded", "observer_removed_greedily"]
        return Suppression.filter(diagnostics, in: source, activeRuleIDs: known, knownRuleIDs: known)
            .map { source.file.location(of: $0.range.lowerBound).line }
    }

    func testMappedSwiftLintIdsSilenceTheOverlappingRule() {
        let code = """
            // swiftlint:disable:next discarded_notification_center_observer
            flagged()
            flagged() // swiftlint:disable:this discarded_notification_center_observer
            flagged()

            """
        XCTAssertEqual(kept(code, rule: "observer_token_discarded"), [4])
        XCTAssertEqual(kept(code, rule: "observer_removed_greedily"), [2, 3, 4])
        XCTAssertEqual(kept("// swiftlint:disable notification_center_detachment\nflagged()\n// swiftlint:enable notification_center_detachment\nflagged()\n",
                            rule: "observer_removed_greedily"), [4])
    }

    func testOtherSwiftLintCommentsAreIgnoredAndNeverSuperfluous() {
        XCTAssertEqual(kept("// swiftlint:disable:next all\nflagged()\n", rule: "observer_token_discarded"), [1 + 1])
        XCTAssertEqual(kept("// swiftlint:disable:next discarded_notification_center_observer line_length\nlet fine = 1\n",
                            rule: "observer_token_discarded"), [])
        XCTAssertEqual(kept("// swiftlint:disable:nxt discarded_notification_center_observer\nflagged()\n",
                            rule: "observer_token_discarded"), [2])
    }
    /// The catalogue markers a scan found answer the search for directives: the same
    /// directives (kblint and SwiftLint ones, malformed ones) as the search finds.
    func testKnownMarkersFindTheDirectivesTheSearchFinds() {
        let texts = [
            "// kblint:disable:next forbidden_identifier\nlet forbidden = 1\n", "// kblint: nonsense\n",
            "// swiftlint:disable:next discarded_notification_center_observer\nlet token = 1\n",
            "/* swiftlint:disable notification_center_detachment */\n", "let s = \"kblint:disable all\"\n",
            "// kblint:disable unknown_rule\n", "let plain = 1 // kblint\n", "",
        ]
        for text in texts {
            let source = Lexer.tokenize(SourceFile(path: "T.swift", text: text))
            let markers = FileChecker.catalogueMarkers.present(in: source.file.bytes)
            let known = String(describing: Suppression.directives(in: source, markers: markers))
            XCTAssertEqual(known, String(describing: Suppression.directives(in: source)), text)
        }
        let swiftLint = Lexer.tokenize(SourceFile(path: "T.swift", text: texts[2]))
        let markers = FileChecker.catalogueMarkers.present(in: swiftLint.file.bytes)
        XCTAssertEqual(Suppression.directives(in: swiftLint, markers: markers).directives.count, 1)
    }
}
