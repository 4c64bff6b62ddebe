import Rules

/// The `.kblint.yml` that `kblint init` writes: every key, commented, with the project's
/// detected deployment target and the catalogue's opt-in rules and options, so a new user
/// learns the format from the file itself.
enum ConfigurationTemplate {
    /// - Parameters:
    ///   - deploymentTarget: what detection found (`ConfigurationResolver.detectedDeploymentTarget(inDirectory:)`).
    ///   - rules: the catalogue, for the lists of opt-in rules and rule options.
    ///   - directory: the folder the file is for, to show the target's source relative to it.
    ///   - swiftLint: `included` and `excluded` of a `.swiftlint.yml` in the same folder, taken
    ///     over so that both linters see the same files.
    static func render(
        deploymentTarget: DetectedDeploymentTarget?, rules: [RuleMetadata], directory: String,
        swiftLint: SwiftLintPaths? = nil
    ) -> String {
        var lines: [String] = [
            "# kblint configuration. Every key is optional.",
            "# Paths and globs are relative to this file's folder. A .kblint.yml in a subfolder",
            "# applies on top of this one for the files below it.",
            "",
            "# Lint only these folders or globs (default: everything kblint is pointed at).",
        ]
        if let included = swiftLint?.included, !included.isEmpty {
            lines += ["# Taken from .swiftlint.yml.", "included:"] + included.map { "  - \(yamlQuoted($0))" }
        } else {
            lines += ["# included:", "#   - Sources"]
        }
        lines += [
            "",
            "# Never lint these, nor anything under them. Globs: *, ** (any folders), ?, [abc].",
            "# Quote globs that start with '*'.",
        ]
        let defaults = [".build", "Pods", "Carthage", "DerivedData"]
        let fromSwiftLint = (swiftLint?.excluded ?? []).filter { !defaults.contains($0) }
        if !fromSwiftLint.isEmpty { lines.append("# The last \(fromSwiftLint.count == 1 ? "entry is" : "\(fromSwiftLint.count) entries are") taken from .swiftlint.yml.") }
        lines += ["excluded:"] + (defaults + fromSwiftLint).map { "  - \(yamlQuoted($0))" } + [""]
        if let deploymentTarget {
            let source = LexicalPath.display(deploymentTarget.source, relativeTo: directory)
            lines += [
                "# iOS deployment target. Detected: iOS \(deploymentTarget.version) from \(source).",
                "# kblint keeps reading it from there; uncomment to pin it here instead.",
                "# deployment_target: \"\(deploymentTarget.version)\"",
            ]
        } else {
            lines += [
                "# iOS deployment target. None was found in Package.swift, an .xcodeproj or a Podfile;",
                "# rules that depend on it stay silent until it is set.",
                "# deployment_target: \"15.0\"",
            ]
        }
        lines += ["", "# Opt-in rules run only when listed here."]
        let optInRules = rules.filter(\.isOptIn)
        if optInRules.isEmpty {
            lines += ["# opt_in_rules: []"]
        } else {
            lines += ["# opt_in_rules:"] + optInRules.map { "#   - \($0.id)  # \($0.summary)" }
        }
        lines += [
            "",
            "# Rules that should not run.",
            "# disabled_rules:",
            "#   - rule_id",
            "",
            "# Run exactly these rules (opt-in ones included) and no others.",
            "# only_rules:",
            "#   - rule_id",
            "",
            "# Per-rule severity (error, warning, info, or off) and options.",
            "# rules:",
            "#   superfluous_disable_command:",
            "#     severity: warning",
        ]
        for rule in rules where !rule.options.isEmpty {
            lines.append("#   \(rule.id):")
            lines.append("#     severity: \(rule.defaultSeverity.rawValue)")
            for option in rule.options {
                lines.append("#     \(option.name): \(yamlLiteral(option.defaultValue))  # \(option.summary)")
            }
        }
        lines += [
            "",
            "# Output format when --reporter is not given.",
            "# reporter: pretty",
            "",
            "# Treat warnings as errors for the exit status.",
            "# strict: false",
            "",
            "# Findings recorded in this baseline file are not reported again.",
            "# baseline: kblint-baseline.json",
            "",
        ]
        return lines.joined(separator: "\n")
    }

    /// A path or glob as a YAML list item: quoted when plain text would not read back as it is.
    static func yamlQuoted(_ text: String) -> String {
        let plain = text.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || $0.properties.numericType != nil || "._/-+ ".unicodeScalars.contains($0) }
            && !text.hasPrefix(" ") && !text.hasSuffix(" ") && !text.hasPrefix("-")
        guard !plain else { return text }
        var quoted = "\""
        for character in text {
            if character == "\\" || character == "\"" { quoted.append("\\") }
            quoted.append(character)
        }
        return quoted + "\""
    }

    /// Writes `contents` as `.kblint.yml` in `directory` and returns its path; fails rather
    /// than replace a file that is already there.
    static func write(_ contents: String, inDirectory directory: String) throws(ConfigurationError) -> String {
        let path = LexicalPath.appending(Configuration.fileName, to: directory)
        do {
            try FileSystem.createFile(path, Array(contents.utf8))
        } catch {
            let message = error.reason == FileSystem.alreadyExists
                ? "already exists; kblint init never overwrites it" : "cannot be written: \(error.reason)"
            throw ConfigurationError(path: path, location: nil, message: message)
        }
        return path
    }

    /// An option value as YAML that reads back as the same type.
    static func yamlLiteral(_ value: OptionValue) -> String {
        switch value {
        case .bool(let value): return String(value)
        case .int(let value): return String(value)
        case .double(let value):
            let text = String(value)
            return text.contains(".") || text.contains("e") ? text : text + ".0"
        case .string(let value):
            var escaped = ""
            for scalar in value.unicodeScalars {
                switch scalar {
                case "\"": escaped += "\\\""
                case "\\": escaped += "\\\\"
                case "\n": escaped += "\\n"
                case "\t": escaped += "\\t"
                default:
                    if scalar.value < 0x20 || scalar.value == 0x7F {
                        let hex = String(scalar.value, radix: 16)
                        escaped += "\\x" + String(repeating: "0", count: 2 - hex.count) + hex
                    } else {
                        escaped.unicodeScalars.append(scalar)
                    }
                }
            }
            return "\"\(escaped)\""
        }
    }
}

/// The `included` and `excluded` lists of a SwiftLint configuration. SwiftLint files often
/// use YAML beyond kblint's subset elsewhere, so only these two top-level keys are read, line
/// by line: a block list (`- Pods`), a flow list (`[Pods, Carthage]`) or a single value.
struct SwiftLintPaths: Equatable {
    var included: [String] = []
    var excluded: [String] = []

    static let fileName = ".swiftlint.yml"

    init(included: [String] = [], excluded: [String] = []) {
        self.included = included
        self.excluded = excluded
    }

    init(parsing text: String) {
        var current: WritableKeyPath<SwiftLintPaths, [String]>?
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let line = Self.withoutComment(rawLine)
            let content = line.drop { $0 == " " || $0 == "\t" }
            if content.isEmpty { continue }
            if content.count == line.count {
                // A top-level key.
                current = nil
                for (key, path) in [("included:", \SwiftLintPaths.included), ("excluded:", \SwiftLintPaths.excluded)] where content.hasPrefix(key) {
                    current = path
                    let value = content.dropFirst(key.count).drop { $0 == " " || $0 == "\t" }
                    if value.hasPrefix("[") {
                        self[keyPath: path] += value.dropFirst().prefix { $0 != "]" }.split(separator: ",").map(Self.unquoted).filter { !$0.isEmpty }
                        current = nil
                    } else if !value.isEmpty {
                        self[keyPath: path].append(Self.unquoted(value))
                        current = nil
                    }
                }
            } else if let current, content.hasPrefix("-") {
                let item = Self.unquoted(content.dropFirst())
                if !item.isEmpty { self[keyPath: current].append(item) }
            }
        }
    }

    /// The line without a `#` comment (one that starts the line or follows a space).
    private static func withoutComment(_ line: Substring) -> Substring {
        var previous: Character = " "
        var quote: Character?
        for index in line.indices {
            let character = line[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "#", previous == " " || previous == "\t" {
                return line[..<index]
            }
            previous = character
        }
        return line
    }

    private static func unquoted(_ text: Substring) -> String {
        var value = text.drop { $0 == " " || $0 == "\t" }
        while value.last == " " || value.last == "\t" { value = value.dropLast() }
        if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
            value = value.dropFirst().dropLast()
        }
        return String(value)
    }
}
