import Lexer
@testable import Rules

/// Test-only rules: they flag chosen identifiers so that the command line can be tested
/// without depending on the catalogue's rules.

/// `forbidden` → warning, safe fix to `allowed`.
struct ForbiddenIdentifierRule: Rule {
    static let metadata = RuleMetadata(
        id: "test_forbidden_identifier", category: .relatedPitfalls, defaultSeverity: .warning,
        summary: "Flags the identifier `forbidden`.", rationale: "It is a test.", fix: "Rename it to `allowed`.",
        options: [RuleOption(name: "also_flag", defaultValue: .string(""), summary: "Another identifier to flag.")],
        triggering: [RuleExample("let ↓forbidden = 1\n")], nonTriggering: [RuleExample("let allowed = 1\n")],
        corrections: [RuleCorrection("let ↓forbidden = 1\n", "let allowed = 1\n")])

    func check(_ context: RuleContext) -> [Diagnostic] {
        var extra: String?
        if case .string(let name)? = context.options["also_flag"], !name.isEmpty { extra = name }
        return context.source.code.filter { token in
            token.kind == .identifier
                && (context.source.token(token, is: "forbidden") || context.source.text(of: token) == extra)
        }.map { token in
            Diagnostic(
                ruleID: Self.metadata.id, severity: .warning,
                message: "'\(context.source.text(of: token))' is forbidden", range: token.range,
                suggestion: "Rename it to `allowed`.",
                fix: Fix(.safe, edits: [Edit(range: token.range, replacement: "allowed")]))
        }
    }

    /// The tests set `also_flag` to `allowed` only.
    static let requiredMarkers: [StaticString] = ["forbidden", "allowed"]
}

/// `dangerous` → error, unsafe fix inserting a line above the declaration (tests line endings).
struct DangerousIdentifierRule: Rule {
    static let metadata = RuleMetadata(
        id: "test_dangerous_identifier", category: .relatedPitfalls, defaultSeverity: .error,
        summary: "Flags the identifier `dangerous`.", rationale: "It is a test.", fix: "Rename it.",
        triggering: [RuleExample("let ↓dangerous = 1\n")], nonTriggering: [RuleExample("let safe = 1\n")])

    func check(_ context: RuleContext) -> [Diagnostic] {
        context.source.code.filter { $0.kind == .identifier && context.source.token($0, is: "dangerous") }.map { token in
            let lineStart = context.source.file.lineRange(context.source.file.location(of: token.range.lowerBound).line).lowerBound
            return Diagnostic(
                ruleID: Self.metadata.id, severity: .error, message: "'dangerous' is dangerous",
                range: token.range, suggestion: "Rename it.",
                fix: Fix(.unsafe, edits: [
                    Edit(range: lineStart..<lineStart, replacement: "// was dangerous\n"),
                    Edit(range: token.range, replacement: "defused"),
                ]))
        }
    }

    /// Exercises the pre-check: files without the word are never lexed for this rule.
    static let requiredMarkers: [StaticString] = ["dangerous"]
}

/// `legacy` → info; applies from iOS 15.4 on. Like the real rules, it reads the target itself:
/// the driver cannot rule it out, since `#available` may raise the target of any position.
struct ModernOnlyRule: Rule {
    static let metadata = RuleMetadata(
        id: "test_modern_only", category: .mixingApproaches, defaultSeverity: .info, isOptIn: true,
        summary: "Flags `legacy` when the target is at least iOS 15.4.", rationale: "It is a test.",
        fix: "Modernise.", minimumTarget: OSVersion(15, 4),
        triggering: [RuleExample("let ↓legacy = 1\n", deploymentTarget: OSVersion(16))],
        nonTriggering: [RuleExample("let legacy = 1\n", deploymentTarget: OSVersion(15))])

    static let requiredMarkers: [StaticString] = ["legacy"]

    func check(_ context: RuleContext) -> [Diagnostic] {
        guard let target = context.deploymentTarget, target >= OSVersion(15, 4) else { return [] }
        return context.source.code.filter { $0.kind == .identifier && context.source.token($0, is: "legacy") }.map {
            Diagnostic(ruleID: Self.metadata.id, severity: .info, message: "'legacy' on a modern target",
                       range: $0.range, suggestion: "Modernise.")
        }
    }
}

let testRules: [any Rule.Type] = [ForbiddenIdentifierRule.self, DangerousIdentifierRule.self, ModernOnlyRule.self]
