import Rules

/// The settings that apply to one linted file: the `.kblint.yml` files above it merged
/// outermost first (or the single `--config` file), the deployment target (configured or
/// detected), and the command line's `--enable`/`--disable`/`--only`.
///
/// Rule enablement, in this order:
/// 1. `rules: {id: {severity: off}}` turns a rule off, whatever else says.
/// 2. When `only_rules` is set, exactly the listed rules run (opt-in ones included).
/// 3. A rule in `disabled_rules` does not run.
/// 4. A default rule runs.
/// 5. An opt-in rule runs when it is in `opt_in_rules`, or when `rules:` gives it a
///    severity (asking for a severity is asking for the rule); options alone do not enable it.
/// The engine rule `superfluous_disable_command` is a default rule for these purposes.
struct Configuration: Sendable {
    /// Ids of rules run by the engine rather than the rule catalogue; valid wherever rule
    /// ids are written.
    static let engineRules: [(id: String, defaultSeverity: Severity)] = [
        ("superfluous_disable_command", .warning),
        ("invalid_utf8", .info),
    ]
    static let fileName = ".kblint.yml"

    /// The configuration files merged into this one, outermost first; empty for defaults.
    var files: [String] = []
    /// Globs a file must match (it or a folder containing it) to be linted; empty: all files.
    var included: [PathPattern] = []
    /// Globs whose matches (and everything under them) are not linted.
    var excluded: [PathPattern] = []
    /// The configured or detected deployment target and where it came from; nil: unknown.
    var deploymentTarget: DetectedDeploymentTarget?
    var disabledRules: Set<String> = []
    var optInRules: Set<String> = []
    /// nil: not restricted.
    var onlyRules: Set<String>?
    var rules: [String: RuleConfiguration] = [:]
    /// Reporter name; nil: the command line's default.
    var reporter: String?
    var strict = false
    /// Absolute path of the baseline file; nil: no baseline.
    var baseline: String?

    init() {}

    // MARK: Rules

    func isEnabled(_ rule: RuleMetadata) -> Bool {
        isEnabled(ruleID: rule.id, isOptIn: rule.isOptIn)
    }

    /// For rules without metadata (the engine rules).
    func isEnabled(ruleID: String, isOptIn: Bool = false) -> Bool {
        if rules[ruleID]?.severity == .off { return false }
        if let onlyRules { return onlyRules.contains(ruleID) }
        if disabledRules.contains(ruleID) { return false }
        if !isOptIn { return true }
        return optInRules.contains(ruleID) || rules[ruleID]?.severity != nil
    }

    /// The configured severity, else the rule's default. Meaningful for enabled rules.
    func severity(for rule: RuleMetadata) -> Severity {
        severity(forRuleID: rule.id, defaultSeverity: rule.defaultSeverity)
    }

    func severity(forRuleID ruleID: String, defaultSeverity: Severity) -> Severity {
        rules[ruleID]?.severity?.severity ?? defaultSeverity
    }

    /// Every option of the rule: its defaults overlaid with the configured values (already
    /// validated by name and type when the file was read).
    func options(for rule: RuleMetadata) -> [String: OptionValue] {
        var options: [String: OptionValue] = [:]
        for option in rule.options { options[option.name] = option.defaultValue }
        for (name, value) in rules[rule.id]?.options ?? [:] { options[name] = value }
        return options
    }

    // MARK: Files

    /// Whether `absolutePath` (absolute, standardized) is to be linted: matched by
    /// `included` when that is set, and not matched by `excluded`.
    func shouldLint(_ absolutePath: String) -> Bool {
        isIncluded(absolutePath) && !isExcluded(absolutePath)
    }

    func isIncluded(_ absolutePath: String) -> Bool {
        included.isEmpty || included.contains { $0.matchesItselfOrAncestor(of: absolutePath) }
    }

    /// Also answers for folders, so a file walk can skip excluded folders without entering them.
    func isExcluded(_ absolutePath: String) -> Bool {
        excluded.contains { $0.matchesItselfOrAncestor(of: absolutePath) }
    }

    // MARK: Layering

    /// This configuration with a nested file's settings on top (SwiftLint-like):
    /// - `deployment_target`, `reporter`, `strict`, `baseline`: the nested file's value wins.
    /// - `included`: the nested file's list replaces the inherited one; `excluded` adds to it.
    ///   Patterns stay relative to the file that wrote them.
    /// - `disabled_rules` and `opt_in_rules` add to the inherited lists; a rule the nested
    ///   file opts in is no longer inherited-disabled, and the other way round.
    /// - `only_rules` replaces the inherited `only_rules`; without one, the nested file's
    ///   `opt_in_rules` add to an inherited `only_rules` and its `disabled_rules` remove from it.
    /// - `rules:` merge per rule: a nested severity wins, options merge name by name.
    /// A rule the nested file enables by name loses an inherited `severity: off`.
    func merging(_ file: ConfigurationFile) -> Configuration {
        var merged = self
        merged.files.append(file.path)
        if let included = file.included { merged.included = included }
        merged.excluded += file.excluded
        if let version = file.deploymentTarget {
            merged.deploymentTarget = DetectedDeploymentTarget(version: version, source: file.path, origin: .configuration)
        }
        if let onlyRules = file.onlyRules {
            merged.onlyRules = Set(onlyRules)
        } else if merged.onlyRules != nil {
            merged.onlyRules?.formUnion(file.optInRules)
            merged.onlyRules?.subtract(file.disabledRules)
        }
        merged.disabledRules.subtract(file.optInRules)
        merged.disabledRules.formUnion(file.disabledRules)
        merged.optInRules.subtract(file.disabledRules)
        merged.optInRules.formUnion(file.optInRules)
        for ruleID in file.optInRules + (file.onlyRules ?? []) { merged.clearOffSeverity(of: ruleID) }
        for (ruleID, configuration) in file.rules {
            var combined = merged.rules[ruleID] ?? RuleConfiguration()
            if let severity = configuration.severity { combined.severity = severity }
            combined.options.merge(configuration.options) { _, nested in nested }
            merged.rules[ruleID] = combined
        }
        if let reporter = file.reporter { merged.reporter = reporter }
        if let strict = file.strict { merged.strict = strict }
        if let baseline = file.baseline { merged.baseline = baseline }
        return merged
    }

    /// Applies the command line's rule flags on top of the files: `--only` replaces
    /// `only_rules`; `--enable` opts a rule in, takes it out of `disabled_rules`, adds it to
    /// `only_rules` if set and lifts a `severity: off`; `--disable` does the opposite.
    /// Validate the ids first with `RuleOverrides.validate(knownRuleIDs:)`.
    mutating func apply(_ overrides: RuleOverrides) {
        if let only = overrides.only {
            onlyRules = Set(only)
            for ruleID in only { clearOffSeverity(of: ruleID) }
        }
        for ruleID in overrides.enabled {
            optInRules.insert(ruleID)
            disabledRules.remove(ruleID)
            onlyRules?.insert(ruleID)
            clearOffSeverity(of: ruleID)
        }
        for ruleID in overrides.disabled {
            disabledRules.insert(ruleID)
            optInRules.remove(ruleID)
            onlyRules?.remove(ruleID)
        }
    }

    private mutating func clearOffSeverity(of ruleID: String) {
        if rules[ruleID]?.severity == .off { rules[ruleID]?.severity = nil }
    }
}

/// What `rules: {<id>: …}` says about one rule.
struct RuleConfiguration: Sendable, Hashable {
    /// nil: the rule's default severity.
    var severity: ConfiguredSeverity?
    /// Only the options written in the file; `Configuration.options(for:)` adds the defaults.
    var options: [String: OptionValue] = [:]
}

/// A severity as written in `.kblint.yml`: one of the diagnostic severities, or `off`.
enum ConfiguredSeverity: String, Sendable, Hashable, CaseIterable {
    case error, warning, info, off

    var severity: Severity? {
        switch self {
        case .error: .error
        case .warning: .warning
        case .info: .info
        case .off: nil
        }
    }
}

/// `--enable RULE`, `--disable RULE`, `--only RULE` (each repeatable), applied to every
/// configuration the resolver returns.
struct RuleOverrides: Sendable, Hashable {
    var enabled: [String] = []
    var disabled: [String] = []
    /// nil: no `--only` given.
    var only: [String]?

    init(enabled: [String] = [], disabled: [String] = [], only: [String]? = nil) {
        self.enabled = enabled
        self.disabled = disabled
        self.only = only
    }

    /// Rejects ids that name no rule, suggesting close ones.
    func validate(knownRuleIDs: [String]) throws(ConfigurationError) {
        let known = Set(knownRuleIDs)
        let flagged = enabled.map { ("--enable", $0) } + disabled.map { ("--disable", $0) }
            + (only ?? []).map { ("--only", $0) }
        for (flag, ruleID) in flagged where !known.contains(ruleID) {
            var message = "unknown rule '\(ruleID)' given to \(flag)"
            if let suggestion = Spelling.didYouMean(ruleID, among: knownRuleIDs) { message += "; \(suggestion)" }
            throw ConfigurationError(path: nil, location: nil, message: message)
        }
    }
}
