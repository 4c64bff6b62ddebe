import Foundation
import PackagePlugin

/// Lints a target's Swift files as part of `swift build` and Xcode builds, with the kblint of
/// the release's artifact bundle. kblint prints its findings in the compiler's
/// `path:line:column: warning: message` form, which SwiftPM and Xcode show as the build's own
/// diagnostics; error-severity findings fail the build. `--force-exclude` applies the
/// `excluded` of the `.kblint.yml` files above the sources, as a kblint run on the package
/// folder would.
@main
struct KBLintBuildToolPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let module = target as? SourceModuleTarget else { return [] }
        return try KBLintBuildCommand.make(
            targetName: target.name, sources: module.sourceFiles(withSuffix: "swift").map(\.url),
            kblint: context.tool(named: "kblint").url, workDirectory: context.pluginWorkDirectoryURL,
            configurationFolder: context.package.directoryURL)
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension KBLintBuildToolPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        let sources = target.inputFiles
            .filter { $0.type == .source && $0.url.pathExtension == "swift" }
            .map(\.url)
        return try KBLintBuildCommand.make(
            targetName: target.displayName, sources: sources, kblint: context.tool(named: "kblint").url,
            workDirectory: context.pluginWorkDirectoryURL, configurationFolder: context.xcodeProject.directoryURL)
    }
}
#endif

/// The one command per target. Its declared output is a Swift file holding only a comment,
/// written after kblint succeeds: SwiftPM and Xcode run a build command only for outputs the
/// target consumes, and a generated Swift source is consumed on every platform without
/// changing the module. A failed lint writes no stamp, so the next build lints again.
enum KBLintBuildCommand {
    static let script = #"stamp="$1"; shift; "$@" || exit; printf '%s\n' '// Written by the kblint build plugin after linting this target.' > "$stamp""#

    static func make(
        targetName: String, sources: [URL], kblint: URL, workDirectory: URL, configurationFolder: URL
    ) -> [Command] {
        guard !sources.isEmpty else { return [] }
        let stamp = workDirectory.appendingPathComponent("KBLintBuildStamp.swift")
        return [.buildCommand(
            displayName: "kblint \(targetName)",
            executable: URL(fileURLWithPath: "/bin/sh"),
            arguments: ["-c", script, "kblint-build-plugin", stamp.path, kblint.path,
                        "--reporter", "xcode", "--force-exclude", "--"] + sources.map(\.path),
            // The folder holding `.kblint.yml` rather than the file, which need not exist:
            // adding, removing or atomically saving the file changes the folder.
            inputFiles: sources + [configurationFolder, kblint],
            outputFiles: [stamp]
        )]
    }
}
