import Lexer

/// Diagnostics the engine itself reports, always on and never suppressible. They have
/// metadata like rules so that `kblint rules`, `kblint explain` and Rules.md document them.
public enum EngineDiagnostics {
    public static let superfluousDisableCommandID = "superfluous_disable_command"
    public static let invalidUTF8ID = "invalid_utf8"

    public static let unsuppressibleIDs: Set<String> = [superfluousDisableCommandID, invalidUTF8ID]

    public static let all: [RuleMetadata] = [superfluousDisableCommand, invalidUTF8]

    public static let superfluousDisableCommand = RuleMetadata(
        id: superfluousDisableCommandID, category: .engine, defaultSeverity: .warning,
        summary: "A `kblint:disable` comment that suppressed nothing, names an unknown rule id, or cannot be parsed.",
        rationale: """
            A disable comment that no longer covers a finding hides the next real bug on that \
            line, and one with a misspelt id never worked at all. Reporting them keeps \
            suppressions honest as the code changes.
            """,
        fix: "Remove the id (or the whole comment); for an unknown id, use the suggested spelling.",
        noFixReason: "A comment that suppresses nothing may be waiting for code that is about to change, and a misspelt id can be close to more than one rule: whether to delete it or which id was meant is the author's call.",
        triggering: [
            RuleExample("// kblint:disable:next ↓keybord_duration_hardcoded\nlet duration = 0.25\n"),
            RuleExample("let count = 1 // kblint:disable:this ↓observer_token_discarded\n"),
            RuleExample("// kblint:↓disabel:next observer_token_discarded\nlet count = 1\n"),
        ],
        nonTriggering: [
            RuleExample("// A comment that mentions kblint but is no directive.\nlet count = 1\n"),
            RuleExample("let text = \"// kblint:disable:next all\"\n"),
        ])

    public static let invalidUTF8 = RuleMetadata(
        id: invalidUTF8ID, category: .engine, defaultSeverity: .info,
        summary: "The file is not valid UTF-8; it was linted byte by byte.",
        rationale: """
            Swift source must be UTF-8. kblint still lints such a file, but names with broken \
            bytes may not match what the compiler sees, so findings in it can be incomplete.
            """,
        fix: "Re-save the file as UTF-8.",
        noFixReason: "The file's real encoding is not known, so converting it to UTF-8 could change its text.",
        triggering: [], nonTriggering: [RuleExample("let café = 1\n")])

    /// `invalid_utf8` at the first byte that is not part of a valid UTF-8 sequence, or nil for a
    /// valid file.
    public static func invalidUTF8Diagnostic(in file: SourceFile) -> Diagnostic? {
        guard let offset = UTF8Validation.firstInvalidOffset(file.bytes) else { return nil }
        return Diagnostic(
            ruleID: invalidUTF8ID, severity: invalidUTF8.defaultSeverity,
            message: "the file is not valid UTF-8 (first bad byte at offset \(offset)); it was linted byte by byte",
            range: offset..<min(offset + 1, file.bytes.count),
            suggestion: invalidUTF8.fix)
    }
}
