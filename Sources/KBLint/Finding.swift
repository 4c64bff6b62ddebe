import Lexer
import Rules

/// A diagnostic placed in a file, ready for reporters: the rule's byte range resolved to
/// lines and columns, the severity after configuration, and the path as users see it.
struct Finding: Sendable, Hashable {
    let ruleID: String
    let severity: Severity
    let message: String
    let suggestion: String
    /// Relative to the current directory when the file is under it, else absolute.
    let path: String
    let absolutePath: String
    let range: Range<Int>
    /// 1-based; columns count UTF-8 bytes. `end` is exclusive (the position after the range).
    let start: SourceLocation
    let end: SourceLocation
    /// The text of the start line (without its terminator), for carets and column kinds.
    let lineText: String
    let fix: Fix?
    let related: [RelatedFinding]
}

struct RelatedFinding: Sendable, Hashable {
    let path: String
    let start: SourceLocation
    let end: SourceLocation
    let message: String
}
