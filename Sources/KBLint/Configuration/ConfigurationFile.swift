import Lexer
import Rules

/// What one `.kblint.yml` says, checked against the known rules and options. Fields the
/// file does not set are nil (or empty lists), so that nesting can tell "not written" from
/// "written empty". Paths are already absolute, resolved against the file's folder.
struct ConfigurationFile: Sendable {
    static let keys = [
        "included", "excluded", "deployment_target", "disabled_rules", "opt_in_rules",
        "only_rules", "rules", "reporter", "strict", "baseline",
    ]

    /// Absolute path of the file.
    let path: String
    var included: [PathPattern]?
    var excluded: [PathPattern] = []
    var deploymentTarget: OSVersion?
    var disabledRules: [String] = []
    var optInRules: [String] = []
    var onlyRules: [String]?
    var rules: [String: RuleConfiguration] = [:]
    var reporter: String?
    var strict: Bool?
    var baseline: String?

    /// The folder its relative paths start from.
    var directory: String { LexicalPath.parent(of: path) ?? "/" }

    init(path: String) {
        self.path = path
    }

    /// Reads and validates a configuration file's bytes.
    /// - Parameters:
    ///   - path: absolute path of the file (relative paths inside it resolve against its folder).
    ///   - displayPath: how errors name the file; defaults to `path`.
    ///   - knownRules: the rules whose ids and options the file may name (the engine rules are added).
    ///   - knownReporters: reporter names `reporter:` may take; empty accepts any name.
    static func parse(
        _ bytes: [UInt8], path: String, displayPath: String? = nil,
        knownRules: [RuleMetadata], knownReporters: [String] = []
    ) throws(ConfigurationError) -> ConfigurationFile {
        let shownPath = displayPath ?? path
        let root = try YAMLReader.read(bytes, path: shownPath)
        let reader = ConfigurationFileReader(path: shownPath, knownRules: knownRules, knownReporters: knownReporters)
        let file = reader.read(root, into: ConfigurationFile(path: path))
        if let first = reader.problems.errors.first {
            throw ConfigurationError(first, further: Array(reader.problems.errors.dropFirst()))
        }
        return file
    }
}

/// The problems found in one file so far: reading goes on after each, so that one run
/// reports them all.
private final class ConfigurationProblems {
    var errors: [ConfigurationError] = []

    /// Runs `read`; a problem it throws is recorded and `fallback` returned instead.
    func collect<Value>(_ fallback: Value, _ read: () throws(ConfigurationError) -> Value) -> Value {
        do {
            return try read()
        } catch {
            errors.append(error)
            return fallback
        }
    }
}

/// Turns the YAML tree of a configuration file into a `ConfigurationFile`, recording every
/// problem at the node that has it (a bad entry is skipped, its siblings are still read).
private struct ConfigurationFileReader {
    let path: String
    let knownRules: [String: RuleMetadata]
    let knownRuleIDs: [String]
    let knownReporters: [String]
    let problems = ConfigurationProblems()

    init(path: String, knownRules: [RuleMetadata], knownReporters: [String]) {
        self.path = path
        var byID: [String: RuleMetadata] = [:]
        for rule in knownRules { byID[rule.id] = rule }
        self.knownRules = byID
        self.knownRuleIDs = knownRules.map(\.id) + Configuration.engineRules.map(\.id)
        self.knownReporters = knownReporters
    }

    func read(_ root: YAMLNode?, into initial: ConfigurationFile) -> ConfigurationFile {
        var file = initial
        guard let root else { return file }
        guard let entries = root.mapping else {
            problems.errors.append(error("a configuration file must be a mapping of keys such as 'excluded:', found \(root.kindDescription)", at: root.location))
            return file
        }
        let directory = file.directory
        for entry in entries {
            problems.collect(()) { () throws(ConfigurationError) in try read(entry, into: &file, directory: directory) }
        }
        if file.onlyRules != nil, let only = entries.first(where: { $0.key == "only_rules" }) {
            for other in ["opt_in_rules", "disabled_rules"] where entries.contains(where: { $0.key == other }) {
                problems.errors.append(error(
                    "'only_rules' cannot be combined with '\(other)' in the same file: it lists exactly the rules that run",
                    at: only.keyLocation
                ))
            }
        }
        return file
    }

    private func read(_ entry: YAMLMappingEntry, into file: inout ConfigurationFile, directory: String) throws(ConfigurationError) {
        let value = entry.value
        switch entry.key {
        case "included":
            file.included = value.isNull ? nil : try patterns(value, key: entry.key, directory: directory)
        case "excluded":
            file.excluded = try patterns(value, key: entry.key, directory: directory)
        case "deployment_target":
            file.deploymentTarget = try version(value)
        case "disabled_rules":
            file.disabledRules = try ruleIDs(value, key: entry.key)
        case "opt_in_rules":
            file.optInRules = try ruleIDs(value, key: entry.key)
        case "only_rules":
            file.onlyRules = value.isNull ? nil : try ruleIDs(value, key: entry.key)
        case "rules":
            file.rules = try ruleConfigurations(value)
        case "reporter":
            file.reporter = try reporter(value)
        case "strict":
            file.strict = try bool(value, key: entry.key)
        case "baseline":
            file.baseline = try text(value, key: entry.key, expected: "a file path").map {
                LexicalPath.absolute($0, relativeTo: directory)
            }
        default:
            throw unknown("key", entry.key, among: ConfigurationFile.keys, at: entry.keyLocation)
        }
    }

    // MARK: Values

    /// A list of strings; a single string counts as a one-element list, an empty value as
    /// an empty list.
    private func strings(_ node: YAMLNode, key: String, expected: String) throws(ConfigurationError) -> [(String, SourceLocation)] {
        if node.isNull { return [] }
        let items = node.sequence ?? [node]
        var result: [(String, SourceLocation)] = []
        for item in items {
            guard let scalar = item.scalar, !scalar.isNull, scalar.bool == nil else {
                throw error("'\(key)' must be a list of \(expected)s, found \(item.kindDescription)", at: item.location)
            }
            result.append((scalar.text, item.location))
        }
        return result
    }

    private func patterns(_ node: YAMLNode, key: String, directory: String) throws(ConfigurationError) -> [PathPattern] {
        var patterns: [PathPattern] = []
        for (text, location) in try strings(node, key: key, expected: "path or glob") {
            guard !text.isEmpty else {
                problems.errors.append(error("'\(key)' entries cannot be empty", at: location))
                continue
            }
            do {
                patterns.append(try PathPattern(text, relativeTo: directory))
            } catch {
                problems.errors.append(self.error("invalid glob '\(text)': \(error.message)", at: location))
            }
        }
        return patterns
    }

    private func ruleIDs(_ node: YAMLNode, key: String) throws(ConfigurationError) -> [String] {
        var ids: [String] = []
        for (ruleID, location) in try strings(node, key: key, expected: "rule id") {
            problems.collect(()) { () throws(ConfigurationError) in
                try checkRuleID(ruleID, at: location)
                ids.append(ruleID)
            }
        }
        return ids
    }

    private func checkRuleID(_ ruleID: String, at location: SourceLocation) throws(ConfigurationError) {
        guard knownRuleIDs.contains(ruleID) else {
            throw unknown("rule", ruleID, among: knownRuleIDs, at: location)
        }
    }

    /// YAML reads `15.0` as a number and `"15.0"` as a string; both are accepted, and the
    /// text as written is parsed so `15.10` stays 15.10.
    private func version(_ node: YAMLNode) throws(ConfigurationError) -> OSVersion? {
        if node.isNull { return nil }
        guard let scalar = node.scalar, scalar.bool == nil,
              let version = OSVersion(parsing: scalar.text.trimmingSpaces) else {
            throw error("'deployment_target' must be an iOS version such as 15.4, found \(node.kindDescription)", at: node.location)
        }
        return version
    }

    private func bool(_ node: YAMLNode, key: String) throws(ConfigurationError) -> Bool? {
        if node.isNull { return nil }
        guard let value = node.scalar?.bool else {
            throw error("'\(key)' must be true or false, found \(node.kindDescription)\(booleanSuggestion(node))", at: node.location)
        }
        return value
    }

    private func text(_ node: YAMLNode, key: String, expected: String) throws(ConfigurationError) -> String? {
        if node.isNull { return nil }
        guard let scalar = node.scalar, scalar.bool == nil, !scalar.text.isEmpty else {
            throw error("'\(key)' must be \(expected), found \(node.kindDescription)", at: node.location)
        }
        return scalar.text
    }

    private func reporter(_ node: YAMLNode) throws(ConfigurationError) -> String? {
        guard let name = try text(node, key: "reporter", expected: "a reporter name") else { return nil }
        if !knownReporters.isEmpty, !knownReporters.contains(name) {
            throw unknown("reporter", name, among: knownReporters, at: node.location, listingAll: true)
        }
        return name
    }

    // MARK: rules:

    private func ruleConfigurations(_ node: YAMLNode) throws(ConfigurationError) -> [String: RuleConfiguration] {
        if node.isNull { return [:] }
        guard let entries = node.mapping else {
            throw error("'rules' must map rule ids to their settings, found \(node.kindDescription)", at: node.location)
        }
        var configurations: [String: RuleConfiguration] = [:]
        for entry in entries {
            problems.collect(()) { () throws(ConfigurationError) in
                try checkRuleID(entry.key, at: entry.keyLocation)
                configurations[entry.key] = try ruleConfiguration(entry.value, ruleID: entry.key)
            }
        }
        return configurations
    }

    /// `{severity: …, <option>: …}`, or just a severity (`rule_id: off`).
    private func ruleConfiguration(_ node: YAMLNode, ruleID: String) throws(ConfigurationError) -> RuleConfiguration {
        var configuration = RuleConfiguration()
        if node.isNull { return configuration }
        if node.scalar != nil {
            configuration.severity = try severity(node)
            return configuration
        }
        guard let entries = node.mapping else {
            throw error("the settings of '\(ruleID)' must be a mapping such as {severity: warning}, found \(node.kindDescription)", at: node.location)
        }
        let options = knownRules[ruleID]?.options ?? []
        for entry in entries {
            problems.collect(()) { () throws(ConfigurationError) in
                if entry.key == "severity" {
                    configuration.severity = try severity(entry.value)
                    return
                }
                guard let option = options.first(where: { $0.name == entry.key }) else {
                    if options.isEmpty {
                        throw error("unknown option '\(entry.key)': '\(ruleID)' only takes 'severity'", at: entry.keyLocation)
                    }
                    throw unknown("option", entry.key, among: ["severity"] + options.map(\.name), at: entry.keyLocation, listingAll: true, of: ruleID)
                }
                configuration.options[option.name] = try optionValue(entry.value, for: option, ruleID: ruleID)
            }
        }
        return configuration
    }

    private func severity(_ node: YAMLNode) throws(ConfigurationError) -> ConfiguredSeverity {
        let names = ConfiguredSeverity.allCases.map(\.rawValue)
        guard let scalar = node.scalar, let severity = ConfiguredSeverity(rawValue: scalar.text), scalar.isString else {
            var message = "severity must be one of \(names.joined(separator: ", ")), found \(node.kindDescription)"
            if let scalar = node.scalar, scalar.bool == false {
                message += "; write 'off' to turn the rule off"
            } else if let text = node.scalar?.text, let suggestion = Spelling.didYouMeanValue(text, among: names) {
                message += "; \(suggestion)"
            }
            throw error(message, at: node.location)
        }
        return severity
    }

    /// Checks a value against the type of the option's default. Integers are accepted
    /// where a decimal is expected; strings accept any text that is not a boolean.
    private func optionValue(_ node: YAMLNode, for option: RuleOption, ruleID: String) throws(ConfigurationError) -> OptionValue {
        let scalar = node.scalar
        let value: OptionValue?
        let expected: String
        switch option.defaultValue {
        case .bool:
            expected = "true or false"
            value = scalar?.bool.map(OptionValue.bool)
        case .int:
            expected = "an integer"
            value = scalar?.int.map(OptionValue.int)
        case .double:
            expected = "a number"
            value = scalar?.double.map(OptionValue.double)
        case .string:
            expected = "text"
            value = scalar.flatMap { $0.isNull || $0.bool != nil ? nil : OptionValue.string($0.text) }
        }
        guard let value else {
            let hint = if case .bool = option.defaultValue { booleanSuggestion(node) } else { "" }
            throw error("option '\(option.name)' of '\(ruleID)' must be \(expected), found \(node.kindDescription)\(hint)", at: node.location)
        }
        return value
    }

    /// "; write true" for the words other YAML dialects read as booleans (`yes`, `on`,
    /// `True`), which YAML 1.2 reads as text.
    private func booleanSuggestion(_ node: YAMLNode) -> String {
        guard let text = node.scalar?.text.lowercased() else { return "" }
        if ["yes", "y", "on", "true"].contains(text) { return "; write true" }
        if ["no", "n", "off", "false"].contains(text) { return "; write false" }
        return ""
    }

    // MARK: Errors

    private func error(_ message: String, at location: SourceLocation) -> ConfigurationError {
        ConfigurationError(path: path, location: location, message: message)
    }

    private func unknown(
        _ kind: String, _ name: String, among candidates: [String], at location: SourceLocation,
        listingAll: Bool = false, of ruleID: String? = nil
    ) -> ConfigurationError {
        var message = "unknown \(kind) \(ConfigurationFile.quoted(name))"
        if let ruleID { message += " for '\(ruleID)'" }
        if let suggestion = kind == "reporter" ? Spelling.didYouMeanValue(name, among: candidates) : Spelling.didYouMean(name, among: candidates) {
            message += "; \(suggestion)"
        } else if listingAll {
            message += " (expected one of: \(candidates.joined(separator: ", ")))"
        }
        return error(message, at: location)
    }
}

extension ConfigurationFile {
    /// Names longer than this are shortened in messages: a line of errors, not a page.
    static let longestNameShown = 80

    /// `name` in quotes, or its start and its length when it is too long to echo.
    static func quoted(_ name: String) -> String {
        guard name.count > longestNameShown else { return "'\(name)'" }
        return "'\(name.prefix(longestNameShown))…' (\(name.count) characters)"
    }
}

private extension String {
    var trimmingSpaces: Substring {
        var text = Substring(self)
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return text
    }
}
