import Foundation
import PackagePlugin

/// Lints a target's Swift files as part of `swift build` and Xcode builds. kblint prints its
/// findings in the compiler's `path:line:column: warning: message` form, which SwiftPM and
/// Xcode show as the build's own diagnostics; error-severity findings fail the build.
///
/// It is a build command rather than a prebuild command because the tool is built from
/// source here; it reruns only when a source file, the package folder (where `.kblint.yml`
/// lives) or kblint itself changed.
@main
struct KBLintBuildToolPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let module = target as? SourceModuleTarget else { return [] }
        let sources = module.sourceFiles(withSuffix: "swift").map(\.url)
        return try KBLintBuildCommand.make(
            targetName: target.name, sources: sources, kblint: context.tool(named: "KBLint").url,
            workDirectory: context.pluginWorkDirectoryURL,
            configurationFolders: [context.package.directoryURL])
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
            targetName: target.displayName, sources: sources, kblint: context.tool(named: "KBLint").url,
            workDirectory: context.pluginWorkDirectoryURL,
            configurationFolders: [context.xcodeProject.directoryURL])
    }
}
#endif

/// The one command per target. Its declared output is a Swift file holding only a comment,
/// written after kblint succeeds: SwiftPM and Xcode run a build command only for outputs the
/// target consumes, a generated Swift source is consumed on every platform, and an empty one
/// changes nothing in the module (a text output would be bundled as a resource). A failed
/// lint writes no stamp, so the next build lints again.
enum KBLintBuildCommand {
    static let script = #"stamp="$1"; shift; "$@" || exit; printf '%s\n' '// Written by the kblint build plugin after linting this target.' > "$stamp""#

    static func make(
        targetName: String, sources: [URL], kblint: URL, workDirectory: URL, configurationFolders: [URL]
    ) -> [Command] {
        guard !sources.isEmpty else { return [] }
        let stamp = workDirectory.appendingPathComponent("KBLintBuildStamp.swift")
        return [.buildCommand(
            displayName: "kblint \(targetName)",
            executable: URL(fileURLWithPath: "/bin/sh"),
            // `--force-exclude`: the target's files are named one by one, and `excluded` must
            // still keep generated and vendored code out of the build's diagnostics.
            arguments: ["-c", script, "kblint-build-plugin", stamp.path, kblint.path, "--reporter", "xcode", "--force-exclude", "--"]
                + sources.map(\.path),
            // The folder that holds `.kblint.yml` rather than the file: every input must exist,
            // and the commands are not recomputed when one appears or disappears. Adding,
            // removing or atomically saving the file changes the folder, which reruns the lint.
            inputFiles: sources + configurationFolders + [kblint],
            outputFiles: [stamp]
        )]
    }
}
