import Foundation
import PackagePlugin

/// `swift package kblint [--target NAME]… [-- kblint arguments]`: lints the package (or the
/// named targets' Swift files) with the kblint built from this package, so a project can pin
/// the linter's version in Package.resolved instead of each machine installing one.
/// Without `--target`, kblint lints the package folder, honouring `.kblint.yml`'s
/// `included` and `excluded`; with `--target`, the targets' files are named one by one and
/// passed with `--force-exclude`, so `excluded` applies to them too. In Xcode, the same
/// command lints an Xcode project's targets (File → Packages → kblint, or the project's
/// context menu).
@main
struct KBLintCommandPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let targetNames = extractor.extractOption(named: "target")
        var paths: [String] = []
        if targetNames.isEmpty {
            paths = [context.package.directoryURL.path]
        } else {
            for target in try context.package.targets(named: targetNames) {
                guard let module = target as? SourceModuleTarget else {
                    Diagnostics.warning("target '\(target.name)' has no Swift sources; skipped")
                    continue
                }
                paths += module.sourceFiles(withSuffix: "swift").map(\.url.path)
            }
        }
        try KBLintInvocation.run(
            kblint: context.tool(named: "KBLint").url, folder: context.package.directoryURL,
            paths: paths, namesFiles: !targetNames.isEmpty, extractor: extractor)
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension KBLintCommandPlugin: XcodeCommandPlugin {
    /// Xcode passes `--target NAME` for the targets chosen in its dialog; without one, the
    /// project folder is linted.
    func performCommand(context: XcodePluginContext, arguments: [String]) throws {
        var extractor = ArgumentExtractor(arguments)
        let targetNames = extractor.extractOption(named: "target")
        var paths: [String] = []
        if targetNames.isEmpty {
            paths = [context.xcodeProject.directoryURL.path]
        } else {
            for target in context.xcodeProject.targets where targetNames.contains(target.displayName) {
                paths += target.inputFiles
                    .filter { $0.type == .source && $0.url.pathExtension == "swift" }
                    .map(\.url.path)
            }
        }
        try KBLintInvocation.run(
            kblint: context.tool(named: "KBLint").url, folder: context.xcodeProject.directoryURL,
            paths: paths, namesFiles: !targetNames.isEmpty, extractor: extractor)
    }
}
#endif

/// Runs kblint in `folder` on `paths` with the arguments after `--`.
enum KBLintInvocation {
    /// - Parameter namesFiles: the paths are a target's files rather than the project folder:
    ///   `--force-exclude` makes `excluded` apply to them.
    static func run(kblint: URL, folder: URL, paths: [String], namesFiles: Bool, extractor: ArgumentExtractor) throws {
        var forwarded = extractor.remainingArguments
        if let separator = forwarded.firstIndex(of: "--") { forwarded.remove(at: separator) }
        if namesFiles, !forwarded.contains("--force-exclude") { forwarded.append("--force-exclude") }
        let process = Process()
        process.executableURL = kblint
        process.arguments = forwarded + paths
        process.currentDirectoryURL = folder
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
