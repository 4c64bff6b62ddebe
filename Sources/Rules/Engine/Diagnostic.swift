import Lexer

public enum Severity: String, Sendable, CaseIterable, Comparable {
    case info, warning, error

    private var rank: Int {
        switch self {
        case .info: 0
        case .warning: 1
        case .error: 2
        }
    }
    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// A replacement of a byte range of the file the diagnostic belongs to.
public struct Edit: Sendable, Hashable {
    public let range: Range<Int>
    public let replacement: String
    public init(range: Range<Int>, replacement: String) {
        self.range = range
        self.replacement = replacement
    }
}

/// Safe fixes keep the program's meaning apart from the bug they remove and are applied by
/// `--fix`; unsafe ones need a human look and are applied only with `--unsafe-fixes`.
public enum FixApplicability: String, Sendable {
    case safe, unsafe
}

public struct Fix: Sendable, Hashable {
    public let applicability: FixApplicability
    public let edits: [Edit]
    public init(_ applicability: FixApplicability, edits: [Edit]) {
        self.applicability = applicability
        self.edits = edits
    }
}

/// A second place that explains a diagnostic ("the guide is pinned here"). `path` is nil
/// for the diagnostic's own file, else the path of another file of the project.
public struct RelatedLocation: Sendable, Hashable {
    public let path: String?
    public let range: Range<Int>
    public let message: String
    public init(path: String? = nil, range: Range<Int>, message: String) {
        self.path = path
        self.range = range
        self.message = message
    }
}

/// What a rule reports: a byte range of the checked file, a message naming the concrete
/// code, a one-line fix suggestion, and optionally a mechanical fix and related places.
public struct Diagnostic: Sendable, Hashable {
    public let ruleID: String
    public var severity: Severity
    public let message: String
    public let range: Range<Int>
    public let suggestion: String
    public var fix: Fix?
    public var related: [RelatedLocation]
    /// The findings of other rules (or repeats of this one) that describe the same defect at
    /// the same place and that this one stands for (see `FindingMerging`), in order.
    public var covered: [CoveredFinding] = []

    /// The ids of the other rules this finding stands for, without repeats.
    public var covers: [String] {
        var seen: Set<String> = [ruleID]
        return covered.map(\.ruleID).filter { seen.insert($0).inserted }
    }

    public init(
        ruleID: String, severity: Severity, message: String, range: Range<Int>,
        suggestion: String, fix: Fix? = nil, related: [RelatedLocation] = []
    ) {
        self.ruleID = ruleID
        self.severity = severity
        self.message = message
        self.range = range
        self.suggestion = suggestion
        self.fix = fix
        self.related = related
    }
}

/// A finding folded into another one: it stays known by rule and place so that a suppression
/// comment or a baseline entry written for it still applies to the finding that covers it.
public struct CoveredFinding: Sendable, Hashable {
    public let ruleID: String
    public let range: Range<Int>
    public let message: String
}
