import Rules

/// What a run says about the files whose iOS deployment target stayed unknown: rules that
/// depend on the target stay silent there, which users must hear about rather than guess.
struct UnknownDeploymentTarget {
    /// The linted files with an unknown target that some enabled rule needs it for.
    let files: [LintInput]
    /// Project files above the first of them that could have named it.
    let projectFiles: [String]
    let currentDirectory: String

    init(inputs: [LintInput], currentDirectory: String) {
        files = inputs.filter { $0.plan.deploymentTarget == nil && $0.plan.hasTargetDependentRules }
        self.currentDirectory = currentDirectory
        projectFiles = files.first.map { first in
            DeploymentTargetDetector.projectFiles(
                startingAt: LexicalPath.parent(of: first.target.absolutePath) ?? "/", fileSystem: DiskFileSystem())
        } ?? []
    }

    /// One line for the end of the normal output; nil when every file's target is known.
    var summaryNotice: String? {
        guard !files.isEmpty else { return nil }
        let count = files.count == 1 ? "1 file" : "\(files.count) files"
        return "kblint: the iOS deployment target is unknown for \(count)\(whereLooked), so rules that depend on it stay silent there; "
            + "set deployment_target in .kblint.yml (or IPHONEOS_DEPLOYMENT_TARGET in the project's build settings)"
    }

    /// For `--timing`: where kblint looked.
    var timingDescription: String {
        projectFiles.isEmpty
            ? "unknown (no deployment_target, Package.swift, Xcode project, .xcconfig, project.yml, Project.swift or Podfile found)"
            : "unknown" + whereLooked
    }

    /// " (no iOS version found in App.xcodeproj, Podfile)" (nearest first), or nothing.
    private var whereLooked: String {
        guard !projectFiles.isEmpty else { return "" }
        let shown = projectFiles.prefix(3).map { LexicalPath.display($0, relativeTo: currentDirectory) }
        return " (no iOS version found in \(shown.joined(separator: ", "))\(projectFiles.count > 3 ? ", …" : ""))"
    }
}
