/// Catalogue sections, in the order Rules.md lists them.
public enum RuleCategory: String, Sendable, CaseIterable {
    case animation = "Animation"
    case geometry = "Geometry"
    case mixingApproaches = "Mixing approaches"
    case observers = "Observers"
    case inputAccessoryViews = "Input accessory views"
    case relatedPitfalls = "Related pitfalls"
    case engine = "Engine"
}

/// A value of a rule option in `.kblint.yml` (`rules: {id: {option: value}}`).
public enum OptionValue: Sendable, Hashable, CustomStringConvertible {
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)

    public var description: String {
        switch self {
        case .bool(let value): String(value)
        case .int(let value): String(value)
        case .double(let value): String(value)
        case .string(let value): value
        }
    }
}

public struct RuleOption: Sendable {
    public let name: String
    public let defaultValue: OptionValue
    public let summary: String
    public init(name: String, defaultValue: OptionValue, summary: String) {
        self.name = name
        self.defaultValue = defaultValue
        self.summary = summary
    }
}

/// A piece of Swift that a rule must or must not flag. In triggering examples each `↓`
/// marks where a diagnostic starts; the marks are removed before the code is checked.
/// `files` holds further files of the same project for cross-file rules.
public struct RuleExample: Sendable {
    public let code: String
    public let options: [String: OptionValue]
    public let deploymentTarget: OSVersion?
    public let files: [String: String]

    public init(
        _ code: String, options: [String: OptionValue] = [:],
        deploymentTarget: OSVersion? = nil, files: [String: String] = [:]
    ) {
        self.code = code
        self.options = options
        self.deploymentTarget = deploymentTarget
        self.files = files
    }
}

/// `before` (with `↓` marks like a triggering example) becomes `after` under `--fix`.
public struct RuleCorrection: Sendable {
    public let before: String
    public let after: String
    public let options: [String: OptionValue]
    public init(_ before: String, _ after: String, options: [String: OptionValue] = [:]) {
        self.before = before
        self.after = after
        self.options = options
    }
}

/// Whether a rule's findings carry a mechanical fix, and how far `--fix` may trust it. A test
/// checks the declaration against the fixes the rule's examples produce.
public enum FixAvailability: String, Sendable {
    /// No finding carries a fix.
    case none
    /// Findings carry safe fixes, which `--fix` applies.
    case safe
    /// Findings carry unsafe fixes, applied only with `--unsafe-fixes`.
    case unsafe
}

/// Everything a user reads about a rule; Rules.md, `kblint explain` and the examples test
/// are all generated from it.
public struct RuleMetadata: Sendable {
    public let id: String
    public let category: RuleCategory
    public let defaultSeverity: Severity
    public let isOptIn: Bool
    /// One line: what the rule finds.
    public let summary: String
    /// Why it is a bug at run time (2–4 sentences).
    public let rationale: String
    /// How to fix it.
    public let fix: String
    /// Whether findings carry a mechanical fix (then `corrections` show it).
    public let fixAvailability: FixAvailability
    /// Why there is no mechanical fix, for a rule whose `fixAvailability` is `.none`: the
    /// judgment the edit would need. Required for every such rule (a test checks it), nil for
    /// a rule with a fix.
    public let noFixReason: String?
    /// The rule applies when the effective deployment target is at least this (nil: any).
    public let minimumTarget: OSVersion?
    /// The rule applies when the effective deployment target is below this (nil: any).
    public let targetBelow: OSVersion?
    public let options: [RuleOption]
    public let triggering: [RuleExample]
    public let nonTriggering: [RuleExample]
    public let corrections: [RuleCorrection]

    /// Whether the rule can apply anywhere in a file built for `target`. `#available` and
    /// `@available` only raise the effective target, so a target at or above `targetBelow`
    /// rules it out everywhere; a target below `minimumTarget` does not (code under
    /// `if #available(iOS 26, *)` has 26), so `applicableTarget(at:)` decides per position.
    /// An unknown target admits every rule.
    public func applies(toFilesBuiltFor target: OSVersion?) -> Bool {
        guard let target, let below = targetBelow else { return true }
        return target < below
    }

    /// Whether the rule applies to some deployment targets only: where the target is unknown
    /// it stays silent.
    public var dependsOnDeploymentTarget: Bool { minimumTarget != nil || targetBelow != nil }

    /// Whether the rule applies to code whose effective deployment target is `target`: the
    /// one place that decides by `minimumTarget` and `targetBelow`.
    public func applies(toEffectiveTarget target: OSVersion) -> Bool {
        if let minimumTarget, target < minimumTarget { return false }
        if let targetBelow, target >= targetBelow { return false }
        return true
    }

    public init(
        id: String, category: RuleCategory, defaultSeverity: Severity, isOptIn: Bool = false,
        summary: String, rationale: String, fix: String, fixAvailability: FixAvailability = .none,
        noFixReason: String? = nil, minimumTarget: OSVersion? = nil, targetBelow: OSVersion? = nil,
        options: [RuleOption] = [],
        triggering: [RuleExample], nonTriggering: [RuleExample],
        corrections: [RuleCorrection] = []
    ) {
        self.id = id
        self.category = category
        self.defaultSeverity = defaultSeverity
        self.isOptIn = isOptIn
        self.summary = summary
        self.rationale = rationale
        self.fix = fix
        self.fixAvailability = fixAvailability
        self.noFixReason = noFixReason
        self.minimumTarget = minimumTarget
        self.targetBelow = targetBelow
        self.options = options
        self.triggering = triggering
        self.nonTriggering = nonTriggering
        self.corrections = corrections
    }
}
