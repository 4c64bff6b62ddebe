/// One option a command accepts. Flags take no value; valued options take the next argument
/// (or the part after `=`) and may be repeated when `isRepeatable`.
struct OptionSpec: Sendable {
    enum Kind: Sendable, Equatable {
        case flag
        case value(placeholder: String)
    }

    let name: String
    let kind: Kind
    let isRepeatable: Bool
    let help: String

    static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, kind: .flag, isRepeatable: false, help: help)
    }

    static func value(
        _ name: String, _ placeholder: String, repeatable: Bool = false, _ help: String
    ) -> OptionSpec {
        OptionSpec(name: name, kind: .value(placeholder: placeholder), isRepeatable: repeatable, help: help)
    }
}

/// A command's grammar: its options and what its positional arguments are.
struct CommandSpec: Sendable {
    let name: String
    let summary: String
    /// Shown after the name in the usage line, e.g. `[PATH…]`.
    let positionalUsage: String
    /// How many positional arguments are allowed.
    let positionalCount: ClosedRange<Int>
    let options: [OptionSpec]

    func option(named name: String) -> OptionSpec? {
        options.first { $0.name == name } ?? (name == "-h" || name == "--help" ? Self.help : nil)
    }

    static let help = OptionSpec.flag("--help", "Show this help.")

    /// `--help` text: usage line, summary and one line per option.
    var helpText: String {
        var lines = ["USAGE: kblint \(name)\(positionalUsage.isEmpty ? "" : " " + positionalUsage)\(options.isEmpty ? "" : " [options]")", "", summary]
        let all = options + [Self.help]
        let labels = all.map { option -> String in
            switch option.kind {
            case .flag: option.name
            case .value(let placeholder): "\(option.name) \(placeholder)"
            }
        }
        let width = (labels.map(\.count).max() ?? 0) + 2
        lines.append("")
        lines.append("OPTIONS:")
        for (label, option) in zip(labels, all) {
            let padding = String(repeating: " ", count: width - label.count)
            let repeatable = option.isRepeatable ? " (repeatable)" : ""
            lines.append("  \(label)\(padding)\(option.help)\(repeatable)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// What the parser found: flags given, values per option (in order) and positionals.
struct ParsedArguments: Sendable, Equatable {
    var flags: Set<String> = []
    var values: [String: [String]] = [:]
    var positionals: [String] = []
    /// Every valued option in command-line order, for options whose meaning depends on
    /// their neighbours (`--output` belongs to the `--reporter` before it).
    var sequence: [OptionValuePair] = []

    func has(_ flag: String) -> Bool { flags.contains(flag) }
    func value(_ option: String) -> String? { values[option]?.last }
    func all(_ option: String) -> [String] { values[option] ?? [] }
    var wantsHelp: Bool { flags.contains(CommandSpec.help.name) }
}

struct OptionValuePair: Sendable, Equatable {
    let name: String
    let value: String
}

/// A command line that does not fit the grammar; printed as is, exit code 2.
struct UsageError: Error, Equatable, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// Parses `arguments` against `spec`: `--name value`, `--name=value`, flags, `--` to end
/// options, `-h`. Unknown options get a did-you-mean from the spec's option names.
func parseArguments(_ arguments: [String], for spec: CommandSpec) throws(UsageError) -> ParsedArguments {
    var parsed = ParsedArguments()
    var index = 0
    var optionsEnded = false
    while index < arguments.count {
        let argument = arguments[index]
        index += 1
        if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
            parsed.positionals.append(argument)
            continue
        }
        if argument == "--" {
            optionsEnded = true
            continue
        }
        var name = argument
        var inlineValue: String?
        if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
            name = String(argument[..<equals])
            inlineValue = String(argument[argument.index(after: equals)...])
        }
        guard let option = spec.option(named: name) else {
            let candidates = (spec.options + [CommandSpec.help]).map(\.name)
            throw UsageError(message: "unknown option '\(name)' for 'kblint \(spec.name)'"
                + (Spelling.didYouMean(name, among: candidates).map { "; " + $0 } ?? ".")
                + " See 'kblint \(spec.name) --help'.")
        }
        switch option.kind {
        case .flag:
            if inlineValue != nil {
                throw UsageError(message: "option '\(option.name)' takes no value")
            }
            parsed.flags.insert(option.name)
        case .value(let placeholder):
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                throw UsageError(message: "option '\(option.name)' needs a value (\(option.name) \(placeholder))")
            }
            if !option.isRepeatable, parsed.values[option.name] != nil {
                throw UsageError(message: "option '\(option.name)' was given more than once")
            }
            parsed.values[option.name, default: []].append(value)
            parsed.sequence.append(OptionValuePair(name: option.name, value: value))
        }
    }
    if !parsed.wantsHelp, !spec.positionalCount.contains(parsed.positionals.count) {
        let expected = spec.positionalUsage.isEmpty ? "no arguments" : spec.positionalUsage
        throw UsageError(message: "'kblint \(spec.name)' takes \(expected), got \(parsed.positionals.count). See 'kblint \(spec.name) --help'.")
    }
    return parsed
}
