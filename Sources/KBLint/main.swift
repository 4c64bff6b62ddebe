#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Rules

// The process's world handed to the in-process tool; everything else lives in
// CommandLineTool so that tests can run it with their own.
var tool = CommandLineTool(
    rules: RuleRegistry.all,
    environment: FileSystem.environment(),
    currentDirectory: FileSystem.currentDirectory(),
    readStandardInput: { () throws(FileError) in try FileSystem.readAll(descriptor: 0, name: "<stdin>") },
    standardOutput: FileDescriptorSink(descriptor: 1),
    standardError: FileDescriptorSink(descriptor: 2),
    executablePath: CommandLine.arguments.first)
tool.exitsAfterRun = true
exit(tool.run(arguments: Array(CommandLine.arguments.dropFirst())))
