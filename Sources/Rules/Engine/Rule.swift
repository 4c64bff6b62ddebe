import Lexer

/// What a rule sees of one file: its tokens, the project-wide facts of pass 1, the
/// effective deployment target and the rule's options (defaults already filled in).
public struct RuleContext: Sendable {
    public let source: TokenizedSource
    /// The analysis's project: read through it rather than copied into every rule's context,
    /// as a copy of the project's many tables costs a retain of each.
    public var project: ProjectFacts { analysis.project }
    /// The configured or detected deployment target; nil when unknown.
    public let deploymentTarget: OSVersion?
    public let options: [String: OptionValue]

    /// The file's analysis (outline, handlers, keyboard values), built once and shared by
    /// every rule that checks the file.
    public let analysis: FileAnalysis

    public init(
        source: TokenizedSource, project: ProjectFacts,
        deploymentTarget: OSVersion?, options: [String: OptionValue]
    ) {
        self.init(analysis: FileAnalysis(source, project: project),
                  deploymentTarget: deploymentTarget, options: options)
    }

    /// A context over an analysis already built: the driver builds one `FileAnalysis` per
    /// file and derives each rule's context with `withOptions(_:)`.
    public init(analysis: FileAnalysis, deploymentTarget: OSVersion?, options: [String: OptionValue]) {
        self.source = analysis.source
        self.analysis = analysis
        self.deploymentTarget = deploymentTarget
        self.options = options
    }

    /// The same file and analysis with another rule's options.
    public func withOptions(_ options: [String: OptionValue]) -> RuleContext {
        RuleContext(analysis: analysis, deploymentTarget: deploymentTarget, options: options)
    }

    /// The effective deployment target at code token `index` (the configured one raised by
    /// `#available`/`@available` around it) when `rule` applies to code built for it; nil when
    /// it does not or the target is unknown. Rules ask this instead of comparing versions.
    public func applicableTarget(of rule: RuleMetadata, at index: Int) -> OSVersion? {
        guard let target = analysis.effectiveTarget(at: index, configured: deploymentTarget),
              rule.applies(toEffectiveTarget: target) else { return nil }
        return target
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
    /// Byte strings of which a file must contain at least one for this rule to find
    /// anything (default: the keyboard markers); see `mayTrigger(on:)`.
    static var requiredMarkers: [StaticString] { get }
    init()
    func check(_ context: RuleContext) -> [Diagnostic]
}

extension Rule {
    public var metadata: RuleMetadata { Self.metadata }

    /// Keyboard rules need keyboard code: the driver skips them (and the analysis) for
    /// files without it.
    public static var requiredMarkers: [StaticString] { KeyboardVocabulary.keyboardMarkers }

    /// The cheap byte-level pre-check: false when the rule cannot trigger on `bytes`.
    public static func mayTrigger(on bytes: [UInt8]) -> Bool {
        KeyboardVocabulary.mayContain(requiredMarkers, in: bytes)
    }
}
