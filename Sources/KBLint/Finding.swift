import Lexer
import Rules

/// A diagnostic placed in a file, ready for reporters: the rule's byte range resolved to
/// lines and columns, the severity after configuration, and the path as users see it.
struct Finding: Sendable, Hashable {
    let ruleID: String
    let severity: Severity
    let message: String
    let suggestion: String
    /// Relative to the folder reports start from (`ReportPathRoot`; the current directory
    /// until the report is made) when the file is under it, else absolute.
    var path: String
    let absolutePath: String
    let range: Range<Int>
    /// 1-based; columns count UTF-8 bytes. `end` is exclusive (the position after the range).
    let start: SourceLocation
    let end: SourceLocation
    /// The text of the start line (without its terminator), for carets and column kinds.
    let lineText: String
    let fix: Fix?
    var related: [RelatedFinding]
    /// The other rules whose findings of the same defect this one stands for
    /// (`Diagnostic.covers`).
    var covers: [String] = []
    /// The findings this one stands for, each where its rule found it: a baseline entry
    /// written for one of them (before findings were merged, or when another rule was
    /// reported) still accepts this finding.
    var covered: [CoveredPlace] = []
    /// The text of the end line when the range ends on a later line (nil otherwise or when
    /// unknown); reporters need it to express the end column in UTF-16 code units.
    var endLineText: String? = nil
    /// The fix's edits with their positions resolved (same order as `fix.edits`); empty when
    /// there is no fix or the positions are unknown.
    var resolvedEdits: [ResolvedEdit] = []
    /// The statement and declarations around the finding, for baseline keys; nil when the
    /// finding was not placed in a tokenized file.
    var anchor: FindingAnchor? = nil
}

extension Finding {
    /// The finding `covered` would have been on its own, for baseline keys: its rule, line
    /// and anchor in this finding's file.
    func standingIn(for covered: CoveredPlace) -> Finding {
        Finding(ruleID: covered.ruleID, severity: severity, message: "", suggestion: "", path: path,
                absolutePath: absolutePath, range: range, start: covered.start, end: covered.start,
                lineText: covered.lineText, fix: nil, related: [], anchor: covered.anchor)
    }
}

/// A finding folded into another one (`Diagnostic.covered`), placed like a finding.
struct CoveredPlace: Sendable, Hashable {
    let ruleID: String
    let start: SourceLocation
    let lineText: String
    var anchor: FindingAnchor? = nil
}

struct RelatedFinding: Sendable, Hashable {
    var path: String
    let start: SourceLocation
    let end: SourceLocation
    let message: String
    /// The text of the start line, and of the end line when it differs; nil when unknown.
    /// Reporters that count columns in UTF-16 code units need them.
    var lineText: String? = nil
    var endLineText: String? = nil
}

/// A fix edit with its byte range resolved to 1-based lines and UTF-8 byte columns of the
/// finding's file (`end` exclusive), so that reporters can show where it applies without
/// reading the file.
struct ResolvedEdit: Sendable, Hashable {
    let range: Range<Int>
    let start: SourceLocation
    let end: SourceLocation
    let replacement: String
}
