import Foundation
import PackagePlugin

/// `swift package kblint [--target NAME]… [-- kblint arguments]`: lints the package folder,
/// or the named targets' Swift files, with the kblint of the release's artifact bundle.
/// Either way `.kblint.yml`'s `excluded` applies (`--force-exclude` for named files).
@main
struct KBLintCommandPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let targetNames = extractor.extractOption(named: "target")
        var forwarded = extractor.remainingArguments
        if let separator = forwarded.firstIndex(of: "--") { forwarded.remove(at: separator) }

        var paths = [context.package.directoryURL.path]
        if !targetNames.isEmpty {
            paths = ["--force-exclude", "--"]
            for target in try context.package.targets(named: targetNames) {
                guard let module = target as? SourceModuleTarget else {
                    Diagnostics.warning("target '\(target.name)' has no Swift sources; skipped")
                    continue
                }
                paths += module.sourceFiles(withSuffix: "swift").map(\.url.path)
            }
        }

        let process = Process()
        process.executableURL = try context.tool(named: "kblint").url
        process.arguments = forwarded + paths
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw KBLintFailure(status: process.terminationStatus)
        }
    }
}

/// kblint's non-zero exit (findings at the failing severity, or a usage error), passed on so
/// that `swift package kblint` fails in scripts and CI too.
struct KBLintFailure: Error, CustomStringConvertible {
    let status: Int32
    var description: String { "kblint exited with status \(status)" }
}
