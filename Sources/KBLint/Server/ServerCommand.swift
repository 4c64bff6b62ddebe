#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `kblint server`: the language server on standard input and output. It takes the lint
/// command's configuration options, which apply to every document as they would on the
/// command line.
struct ServerCommand {
    static let spec = CommandSpec(
        name: "server",
        summary: "Run the language server (LSP over standard input and output) for editors.",
        positionalUsage: "", positionalCount: 0...0,
        options: LintCommand.spec.options.filter {
            ["--config", "--jobs", "--deployment-target", "--enable", "--disable", "--only"].contains($0.name)
        } + [
            .value("--debounce", "MS", "Milliseconds a document must stay unchanged before it is checked (default 100)."),
        ])

    let tool: CommandLineTool

    func run(_ arguments: ParsedArguments) throws(UsageError) -> ExitCode {
        var settings = LanguageServer.Settings()
        if let text = arguments.value("--debounce") {
            guard let milliseconds = Int(text), (0...60_000).contains(milliseconds) else {
                throw .invalidValue("--debounce", text, "milliseconds from 0 to 60000")
            }
            settings.debounce = .milliseconds(milliseconds)
        }
        var options = try LintOptions(arguments)
        // A document the configuration excludes is not linted, as files found in folders are not.
        options.forceExclude = true
        // Workspaces have their own folders: --config is the one named from where the server starts.
        options.configPath = options.configPath.map { LexicalPath.absolute($0, relativeTo: tool.currentDirectory) }
        // An unknown rule id on the command line is a usage error; a broken configuration file
        // becomes a diagnostic on that file while the server runs.
        do {
            try options.overrides.validate(knownRuleIDs: tool.knownRuleIDs)
        } catch {
            tool.reportError(error.description)
            return .failure
        }
        let server = LanguageServer(
            tool: tool, options: options, settings: settings, input: 0,
            output: tool.standardOutput, log: tool.standardError)
        return server.run() == 0 ? .success : .violations
    }
}
