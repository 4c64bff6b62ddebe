import Foundation
@testable import KBLint
@testable import Rules

/// What one in-process run of the command line produced.
struct ToolRun {
    let status: Int32
    let standardOutput: String
    let standardError: String
}

/// Runs `kblint arguments…` in-process in `directory` with the test rules (or `rules`).
func runTool(
    _ arguments: [String], in directory: String, standardInput: [UInt8] = [],
    environment: [String: String] = [:], rules: [any Rule.Type] = testRules,
    terminal: Bool = false
) -> ToolRun {
    let output = CapturedOutput(isTerminal: terminal)
    let error = CapturedOutput(isTerminal: terminal)
    let tool = CommandLineTool(
        rules: rules, environment: environment, currentDirectory: directory,
        readStandardInput: { () throws(FileError) in standardInput },
        standardOutput: output, standardError: error)
    let status = tool.run(arguments: arguments)
    return ToolRun(status: status, standardOutput: output.text, standardError: error.text)
}
