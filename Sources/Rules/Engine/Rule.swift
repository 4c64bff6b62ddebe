import Lexer

/// What a rule sees of one file: its tokens, the project-wide facts of pass 1, the
/// effective deployment target and the rule's options (defaults already filled in).
public struct RuleContext: Sendable {
    public let source: TokenizedSource
    public let project: ProjectFacts
    /// The configured or detected deployment target; nil when unknown.
    public let deploymentTarget: OSVersion?
    public let options: [String: OptionValue]

    public init(
        source: TokenizedSource, project: ProjectFacts,
        deploymentTarget: OSVersion?, options: [String: OptionValue]
    ) {
        self.source = source
        self.project = project
        self.deploymentTarget = deploymentTarget
        self.options = options
    }

    public func bool(_ option: String) -> Bool {
        if case .bool(let value)? = options[option] { return value }
        return false
    }
}

/// One check of the catalogue. Rules are pure: they read the context and return
/// diagnostics, never touching files, the environment or the clock.
public protocol Rule: Sendable {
    static var metadata: RuleMetadata { get }
    init()
    func check(_ context: RuleContext) -> [Diagnostic]
    /// A cheap byte-level test run before a file is lexed for this rule: false means the rule
    /// cannot report anything in `file` (say, it never mentions a keyboard notification), so
    /// the driver skips it, and skips lexing when no rule is left. Must not give false
    /// negatives. The default runs the rule on every file.
    static func mayReport(in file: SourceFile, project: ProjectFacts) -> Bool
}

extension Rule {
    public static func mayReport(in file: SourceFile, project: ProjectFacts) -> Bool { true }

    public var metadata: RuleMetadata { Self.metadata }
}
