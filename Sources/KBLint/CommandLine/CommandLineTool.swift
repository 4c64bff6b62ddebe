import Lexer
import Rules

/// The exit codes users and CI scripts rely on (documented in README).
enum ExitCode: Int32 {
    /// No violation at error severity (nor at warning severity under `--strict`).
    case success = 0
    /// Violations.
    case violations = 1
    /// A usage, configuration or I/O error (the files that could be read are still linted
    /// and reported first).
    case failure = 2
}

/// The whole command line, runnable in-process: everything the process gives a program
/// (arguments, environment, current directory, standard streams) comes in as values, so
/// tests can run any command with injected rules and captured output. `main.swift` passes
/// the real ones.
struct CommandLineTool: Sendable {
    var rules: [any Rule.Type]
    var environment: [String: String]
    var currentDirectory: String
    var readStandardInput: @Sendable () throws(FileError) -> [UInt8]
    var standardOutput: any OutputSink
    var standardError: any OutputSink
    /// How the process was started (`argv[0]`); `install-hook` writes it into the hook.
    var executablePath: String? = nil
    /// Whether the process exits as soon as `run` returns (the `kblint` executable): memory a
    /// lint no longer needs is then left to the exit rather than freed object by object.
    var exitsAfterRun = false

    /// Every command, in the order `--help` lists them. The first is the default.
    static let commands: [CommandSpec] = [
        LintCommand.spec, RulesCommand.spec, ExplainCommand.spec, InitCommand.spec,
        TokensCommand.spec, VersionCommand.spec, BaselineCommand.spec,
        HookCommand.installSpec, HookCommand.uninstallSpec, ServerCommand.spec,
    ]

    func run(arguments: [String]) -> Int32 {
        var arguments = arguments
        if arguments.first == "--version" || arguments.first == "-V" {
            arguments[0] = VersionCommand.spec.name
        }
        if arguments.first == "--help" || arguments.first == "-h" || arguments.first == "help" {
            if arguments.count > 1, let command = Self.commands.first(where: { $0.name == arguments[1] }) {
                standardOutput.write(command.helpText)
            } else {
                standardOutput.write(Self.generalHelp)
            }
            return ExitCode.success.rawValue
        }
        let spec: CommandSpec
        if let first = arguments.first, let command = Self.commands.first(where: { $0.name == first }) {
            spec = command
            arguments.removeFirst()
        } else {
            if let first = arguments.first, let mistake = unknownCommand(first) {
                return fail(mistake)
            }
            spec = LintCommand.spec
        }
        do {
            let parsed = try parseArguments(arguments, for: spec)
            if parsed.wantsHelp {
                standardOutput.write(spec.helpText)
                return ExitCode.success.rawValue
            }
            return try execute(spec.name, parsed).rawValue
        } catch {
            return fail(error.message)
        }
    }

    private func execute(_ command: String, _ arguments: ParsedArguments) throws(UsageError) -> ExitCode {
        switch command {
        case RulesCommand.spec.name: return try RulesCommand(tool: self).run(arguments)
        case ExplainCommand.spec.name: return try ExplainCommand(tool: self).run(arguments)
        case InitCommand.spec.name: return InitCommand(tool: self).run(arguments)
        case TokensCommand.spec.name: return TokensCommand(tool: self).run(arguments)
        case BaselineCommand.spec.name: return try BaselineCommand(tool: self).run(arguments)
        case HookCommand.installSpec.name: return HookCommand(tool: self).install(arguments)
        case HookCommand.uninstallSpec.name: return HookCommand(tool: self).uninstall()
        case ServerCommand.spec.name: return try ServerCommand(tool: self).run(arguments)
        case VersionCommand.spec.name:
            standardOutput.write("\(ProjectInfo.version)\n")
            return .success
        default: return try LintCommand(tool: self).run(arguments)
        }
    }

    /// A first argument that looks like a mistyped command rather than a path: it does not
    /// exist, has no path-like shape, and is close to a command name.
    private func unknownCommand(_ word: String) -> String? {
        guard !word.hasPrefix("-"), !word.contains("/"), !word.contains("."),
              (try? FileSystem.status(of: LexicalPath.absolute(word, relativeTo: currentDirectory))) == nil,
              let suggestion = Spelling.didYouMean(word, among: Self.commands.map(\.name))
        else { return nil }
        return "unknown command '\(word)'; \(suggestion) See 'kblint --help'."
    }

    /// Prints `kblint: error: message` on standard error; exit code 2.
    func fail(_ message: String) -> Int32 {
        reportError(message)
        return ExitCode.failure.rawValue
    }

    /// Configuration errors already read `file:line:column: error: …`, the form editors and
    /// Xcode jump to; they are printed as they are. Everything else gets the tool's prefix.
    func reportError(_ message: String) {
        if message.contains(": error: ") {
            standardError.write("\(message)\n")
        } else if message.hasPrefix("error: ") {
            standardError.write("kblint: \(message)\n")
        } else {
            standardError.write("kblint: error: \(message)\n")
        }
    }

    /// Rule metadata of the catalogue and of the engine, for documentation and validation.
    var allMetadata: [RuleMetadata] { rules.map { $0.metadata } + EngineDiagnostics.all }

    var knownRuleIDs: [String] { allMetadata.map(\.id) }

    static var generalHelp: String {
        var text = """
            kblint \(ProjectInfo.version): finds keyboard-handling bugs in UIKit code.

            USAGE: kblint [lint] [PATH…] [options]
                   kblint <command> [options]

            COMMANDS:

            """
        let width = (commands.map(\.name.count).max() ?? 0) + 2
        for command in commands {
            text += "  \(command.name)\(String(repeating: " ", count: width - command.name.count))\(command.summary)\n"
        }
        text += "\n'kblint <command> --help' describes a command's options; 'kblint --version' prints the version.\n"
        return text
    }
}

extension UsageError {
    static func invalidValue(_ option: String, _ value: String, _ expected: String, among candidates: [String] = []) -> UsageError {
        let hint = Spelling.didYouMean(value, among: candidates).map { "; " + $0 } ?? ""
        return UsageError(message: "invalid value '\(value)' for \(option): expected \(expected)\(hint)")
    }
}

// MARK: - Small commands

struct VersionCommand {
    static let spec = CommandSpec(
        name: "version", summary: "Print kblint's version.", positionalUsage: "",
        positionalCount: 0...0, options: [])
}

struct RulesCommand {
    static let spec = CommandSpec(
        name: "rules", summary: "List the rules; '--format markdown' is Rules.md.",
        positionalUsage: "", positionalCount: 0...0,
        options: [.value("--format", "text|markdown|json", "Output format (default: text).")])

    let tool: CommandLineTool

    func run(_ arguments: ParsedArguments) throws(UsageError) -> ExitCode {
        let name = arguments.value("--format") ?? RuleDocumentation.Format.text.rawValue
        let formats = RuleDocumentation.Format.allCases.map(\.rawValue)
        guard let format = RuleDocumentation.Format(rawValue: name) else {
            throw .invalidValue("--format", name, formats.joined(separator: ", "), among: formats)
        }
        tool.standardOutput.write(RuleDocumentation.render(tool.allMetadata, format: format))
        return .success
    }
}

struct ExplainCommand {
    static let spec = CommandSpec(
        name: "explain", summary: "Show one rule's documentation with its examples.",
        positionalUsage: "RULE", positionalCount: 1...1, options: [])

    let tool: CommandLineTool

    func run(_ arguments: ParsedArguments) throws(UsageError) -> ExitCode {
        let id = arguments.positionals[0]
        guard let rule = tool.allMetadata.first(where: { $0.id == id }) else {
            let hint = Spelling.didYouMean(id, among: tool.knownRuleIDs).map { "; " + $0 } ?? ""
            throw UsageError(message: "unknown rule '\(id)'\(hint) See 'kblint rules'.")
        }
        tool.standardOutput.write(RuleDocumentation.explain(rule))
        return .success
    }
}

struct TokensCommand {
    static let spec = CommandSpec(
        name: "tokens", summary: "Print the tokens of a Swift file (for debugging rules).",
        positionalUsage: "FILE", positionalCount: 1...1,
        options: [.flag("--comments", "Include comment tokens.")])

    let tool: CommandLineTool

    func run(_ arguments: ParsedArguments) -> ExitCode {
        let path = arguments.positionals[0]
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readFile(LexicalPath.absolute(path, relativeTo: tool.currentDirectory))
        } catch {
            tool.reportError(FileError(path: path, reason: error.reason).description)
            return .failure
        }
        let source = Lexer.tokenize(SourceFile(path: path, bytes: bytes))
        tool.standardOutput.write(dumpTokens(source, includeComments: arguments.has("--comments")))
        return .success
    }
}

struct InitCommand {
    static let spec = CommandSpec(
        name: "init", summary: "Write a commented .kblint.yml in the current folder (never overwrites).",
        positionalUsage: "", positionalCount: 0...0, options: [])

    let tool: CommandLineTool

    func run(_ arguments: ParsedArguments) -> ExitCode {
        do {
            let resolver = try ConfigurationResolver(
                explicitConfigPath: nil, knownRules: tool.rules.map { $0.metadata },
                currentDirectory: tool.currentDirectory)
            let detected = resolver.detectedDeploymentTarget(inDirectory: tool.currentDirectory)
            let swiftLint = (try? FileSystem.readFile(LexicalPath.appending(SwiftLintPaths.fileName, to: tool.currentDirectory)))
                .map { SwiftLintPaths(parsing: String(decoding: $0, as: UTF8.self)) }
            let text = ConfigurationTemplate.render(
                deploymentTarget: detected, rules: tool.rules.map { $0.metadata },
                directory: tool.currentDirectory, swiftLint: swiftLint)
            let path = try ConfigurationTemplate.write(text, inDirectory: tool.currentDirectory)
            let target = detected.map { "deployment target \($0)" } ?? "no deployment target found"
            let taken = swiftLint.map { _ in "; included and excluded taken from \(SwiftLintPaths.fileName)" } ?? ""
            tool.standardOutput.write("Wrote \(LexicalPath.display(path, relativeTo: tool.currentDirectory)) (\(target)\(taken)).\n")
            return .success
        } catch {
            tool.reportError(error.description)
            return .failure
        }
    }
}
