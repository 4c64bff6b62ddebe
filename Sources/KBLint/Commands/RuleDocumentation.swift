import Rules

/// The user documentation of the rules, rendered from their metadata: `kblint rules` in
/// three formats, `kblint explain RULE`, and the committed Rules.md (which is exactly
/// `kblint rules --format markdown`, so a test can tell when it is stale).
enum RuleDocumentation {
    enum Format: String, CaseIterable {
        case text, markdown, json
    }

    /// Catalogue rules then engine diagnostics, by category in catalogue order, then by id.
    static func ordered(_ rules: [RuleMetadata]) -> [RuleMetadata] {
        let categoryOrder = Dictionary(uniqueKeysWithValues: RuleCategory.allCases.enumerated().map { ($1, $0) })
        return rules.sorted {
            (categoryOrder[$0.category] ?? 0, $0.id) < (categoryOrder[$1.category] ?? 0, $1.id)
        }
    }

    static func render(_ rules: [RuleMetadata], format: Format) -> String {
        let rules = ordered(rules)
        switch format {
        case .text: return text(rules)
        case .markdown: return markdown(rules)
        case .json: return json(rules).rendered() + "\n"
        }
    }

    // MARK: - Text

    /// One line per rule: id, severity, flags, summary.
    private static func text(_ rules: [RuleMetadata]) -> String {
        let width = (rules.map(\.id.count).max() ?? 0) + 2
        var output = ""
        for category in RuleCategory.allCases {
            let members = rules.filter { $0.category == category }
            guard !members.isEmpty else { continue }
            output += "\(category.rawValue)\n"
            for rule in members {
                let padding = String(repeating: " ", count: width - rule.id.count)
                let severity = rule.defaultSeverity.rawValue.padding(toLength: 8)
                let flags = [rule.isOptIn ? "opt-in" : nil, rule.fixFlag].compactMap { $0 }
                let flagText = flags.isEmpty ? "" : " [\(flags.joined(separator: ", "))]"
                output += "  \(rule.id)\(padding)\(severity)\(rule.summary)\(flagText)\n"
                if let reason = rule.noFixReason {
                    output += String(repeating: " ", count: width + 10) + "No automatic fix: \(reason)\n"
                }
            }
            output += "\n"
        }
        output += "\(rules.count) rules. 'kblint explain RULE' shows one rule with its examples.\n"
        return output
    }

    /// `kblint explain RULE`: everything about one rule, examples included, as plain text.
    static func explain(_ rule: RuleMetadata) -> String {
        var output = "\(rule.id)\n\(String(repeating: "=", count: rule.id.count))\n\n"
        output += "\(rule.summary)\n\n"
        output += "Category: \(rule.category.rawValue)\n"
        output += "Severity: \(rule.defaultSeverity.rawValue)\(rule.isOptIn ? " (opt-in: enable it in opt_in_rules)" : "")\n"
        output += "Deployment targets: \(targets(rule))\n"
        switch rule.fixAvailability {
        case .none: if let reason = rule.noFixReason { output += "Automatic fix: none. \(reason)\n" }
        case .safe: output += "Automatic fix: yes (kblint --fix)\n"
        case .unsafe: output += "Automatic fix: unsafe (kblint --fix --unsafe-fixes)\n"
        }
        output += "\nWhy\n---\n\(rule.rationale)\n\nFix\n---\n\(rule.fix)\n"
        if !rule.options.isEmpty {
            output += "\nOptions\n-------\n"
            for option in rule.options {
                output += "  \(option.name) (default \(literal(option.defaultValue))): \(option.summary)\n"
            }
        }
        func examples(_ title: String, _ examples: [RuleExample]) {
            guard !examples.isEmpty else { return }
            output += "\n\(title)\n\(String(repeating: "-", count: title.count))\n"
            for (index, example) in examples.enumerated() {
                if index > 0 { output += "\n" }
                if let note = note(for: example) { output += "    // \(note)\n" }
                output += indented(example.code) + "\n"
                for (path, code) in example.files.sorted(by: { $0.key < $1.key }) {
                    output += "    // \(path)\n" + indented(code) + "\n"
                }
            }
        }
        examples("Triggering examples (↓ marks the reported position)", rule.triggering)
        examples("Non-triggering examples", rule.nonTriggering)
        if !rule.corrections.isEmpty {
            output += "\nCorrections\n-----------\n"
            for correction in rule.corrections {
                output += indented(correction.before) + "\n  becomes\n" + indented(correction.after) + "\n"
            }
        }
        return output
    }

    private static func indented(_ code: String) -> String {
        code.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? "" : "    " + $0 }
            .joined(separator: "\n")
            .trimmingTrailingNewlines()
    }

    // MARK: - Markdown

    private static func markdown(_ rules: [RuleMetadata]) -> String {
        var output = """
            # kblint rules

            <!-- Generated by `kblint rules --format markdown` from the rules' metadata. Do not edit: \
            change the rule and regenerate. -->

            \(rules.count) rules. Severities: `error` is almost surely a runtime bug, `warning` a likely \
            bug or fragile code, `info` modernisation advice. Opt-in rules run only when listed in \
            `opt_in_rules` (or given a severity) in `.kblint.yml`. Any rule can be silenced for one \
            line with `// kblint:disable:next <id>` (see README).


            """
        for category in RuleCategory.allCases {
            let members = rules.filter { $0.category == category }
            guard !members.isEmpty else { continue }
            output += "- [\(category.rawValue)](#\(anchor(category.rawValue))): "
            output += members.map { "[`\($0.id)`](#\($0.id))" }.joined(separator: ", ") + "\n"
        }
        for category in RuleCategory.allCases {
            let members = rules.filter { $0.category == category }
            guard !members.isEmpty else { continue }
            output += "\n## \(category.rawValue)\n"
            for rule in members { output += "\n" + markdown(rule) }
        }
        return output
    }

    private static func markdown(_ rule: RuleMetadata) -> String {
        var output = "### \(rule.id)\n\n"
        var facts = [
            "**Severity:** \(rule.defaultSeverity.rawValue)",
            "**Opt-in:** \(rule.isOptIn ? "yes" : "no")",
            "**Deployment targets:** \(targets(rule))",
        ]
        switch rule.fixAvailability {
        case .none: break
        case .safe: facts.append("**Automatic fix:** yes")
        case .unsafe: facts.append("**Automatic fix:** unsafe (`--fix --unsafe-fixes`)")
        }
        output += facts.joined(separator: " · ") + "\n\n"
        output += "\(rule.summary)\n\n"
        output += "**Why.** \(rule.rationale)\n\n"
        output += "**Fix.** \(rule.fix)\n"
        if let reason = rule.noFixReason { output += "\n**No automatic fix.** \(reason)\n" }
        if !rule.options.isEmpty {
            output += "\n| Option | Default | Meaning |\n|---|---|---|\n"
            for option in rule.options {
                output += "| `\(option.name)` | `\(literal(option.defaultValue))` | \(option.summary) |\n"
            }
        }
        func examples(_ title: String, _ examples: [RuleExample]) {
            guard !examples.isEmpty else { return }
            output += "\n<details>\n<summary>\(title)</summary>\n\n"
            for example in examples {
                if let note = note(for: example) { output += "_\(note)_\n\n" }
                output += fenced(example.code)
                for (path, code) in example.files.sorted(by: { $0.key < $1.key }) {
                    output += "`\(path)`:\n\n" + fenced(code)
                }
            }
            output += "</details>\n"
        }
        examples("Triggering examples (↓ marks the reported position)", rule.triggering)
        examples("Non-triggering examples", rule.nonTriggering)
        if !rule.corrections.isEmpty {
            output += "\n<details>\n<summary>Corrections</summary>\n\n"
            for correction in rule.corrections {
                output += fenced(correction.before) + "becomes\n\n" + fenced(correction.after)
            }
            output += "</details>\n"
        }
        return output
    }

    /// A Swift code block whose fence is longer than any backtick run in the code.
    private static func fenced(_ code: String) -> String {
        var longest = 0, run = 0
        for character in code {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: max(3, longest + 1))
        return "\(fence)swift\n\(code.trimmingTrailingNewlines())\n\(fence)\n\n"
    }

    /// GitHub's heading anchor: lowercase, spaces to dashes, punctuation dropped.
    private static func anchor(_ heading: String) -> String {
        String(heading.lowercased().compactMap { character -> Character? in
            if character == " " { return "-" }
            return character.isLetter || character.isNumber || character == "_" || character == "-" ? character : nil
        })
    }

    // MARK: - JSON

    private static func json(_ rules: [RuleMetadata]) -> JSONValue {
        .array(rules.map { rule in
            func examples(_ examples: [RuleExample]) -> JSONValue {
                .array(examples.map { example in
                    var members: [(key: String, value: JSONValue)] = [("code", .string(example.code))]
                    if !example.options.isEmpty { members.append(("options", options(example.options))) }
                    if let target = example.deploymentTarget { members.append(("deployment_target", .string(target.description))) }
                    if !example.files.isEmpty {
                        members.append(("files", .object(example.files.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })))
                    }
                    return .object(members)
                })
            }
            return .object([
                ("id", .string(rule.id)),
                ("category", .string(rule.category.rawValue)),
                ("severity", .string(rule.defaultSeverity.rawValue)),
                ("opt_in", .bool(rule.isOptIn)),
                ("minimum_target", rule.minimumTarget.map { .string($0.description) } ?? .null),
                ("target_below", rule.targetBelow.map { .string($0.description) } ?? .null),
                ("automatic_fix", .bool(rule.hasAutomaticFix)),
                ("fix_availability", .string(rule.fixAvailability.rawValue)),
                ("no_fix_reason", rule.noFixReason.map { .string($0) } ?? .null),
                ("summary", .string(rule.summary)),
                ("rationale", .string(rule.rationale)),
                ("how_to_fix", .string(rule.fix)),
                ("options", .array(rule.options.map { option in
                    .object([
                        ("name", .string(option.name)),
                        ("default", json(option.defaultValue)),
                        ("summary", .string(option.summary)),
                    ])
                })),
                ("triggering", examples(rule.triggering)),
                ("non_triggering", examples(rule.nonTriggering)),
                ("corrections", .array(rule.corrections.map { correction in
                    .object([("before", .string(correction.before)), ("after", .string(correction.after))])
                })),
            ])
        })
    }

    private static func options(_ options: [String: OptionValue]) -> JSONValue {
        .object(options.sorted { $0.key < $1.key }.map { ($0.key, json($0.value)) })
    }

    private static func json(_ value: OptionValue) -> JSONValue {
        switch value {
        case .bool(let value): .bool(value)
        case .int(let value): .int(value)
        case .double(let value): .string(String(value))
        case .string(let value): .string(value)
        }
    }

    // MARK: - Shared phrases

    /// An option value as written in `.kblint.yml` (strings quoted, so an empty one shows).
    static func literal(_ value: OptionValue) -> String {
        if case .string(let text) = value { return "\"\(text)\"" }
        return value.description
    }

    /// "any", "iOS 15.4 and later", "below iOS 16.1", "iOS 15.0 up to (not including) 15.4".
    static func targets(_ rule: RuleMetadata) -> String {
        switch (rule.minimumTarget, rule.targetBelow) {
        case (nil, nil): "any"
        case (let minimum?, nil): "iOS \(minimum) and later"
        case (nil, let below?): "below iOS \(below)"
        case (let minimum?, let below?): "iOS \(minimum) up to (not including) \(below)"
        }
    }

    /// A note for examples that need options, a deployment target or more files.
    private static func note(for example: RuleExample) -> String? {
        var parts: [String] = []
        if let target = example.deploymentTarget { parts.append("deployment target iOS \(target)") }
        if !example.options.isEmpty {
            parts.append("options: " + example.options.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", "))
        }
        if !example.files.isEmpty { parts.append("with other files of the project") }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }
}

extension RuleMetadata {
    var hasAutomaticFix: Bool { fixAvailability != .none }

    /// The flag `kblint rules` shows for the fix.
    var fixFlag: String? {
        switch fixAvailability {
        case .none: nil
        case .safe: "fix"
        case .unsafe: "unsafe fix"
        }
    }
}

extension String {
    fileprivate func padding(toLength length: Int) -> String {
        count >= length ? self + " " : self + String(repeating: " ", count: length - count)
    }

    fileprivate func trimmingTrailingNewlines() -> String {
        var result = self
        while result.hasSuffix("\n") { result.removeLast() }
        return result
    }
}
