import Rules

/// Answers "which configuration applies to this file?" for every linted file.
///
/// Without `--config`, the `.kblint.yml` files in the file's folder and every folder above
/// it up to the file-system root apply, merged outermost first (see
/// `Configuration.merging(_:)`); the nearest one has the last word. With `--config FILE`,
/// that file alone applies, whatever the linted file's location. When no file sets
/// `deployment_target`, it is detected from the nearest `Package.swift`, Xcode project or
/// `Podfile` at or above the linted file's folder. The command line's rule flags are
/// applied last.
///
/// Results are cached per folder, so thousands of files in a few folders cost a few reads.
/// Safe to call from several threads at once: lookups are serialized by a lock, and a
/// broken configuration file is reported for every file beneath it (read only once).
final class ConfigurationResolver: @unchecked Sendable {
    let knownRules: [RuleMetadata]
    let overrides: RuleOverrides
    /// Absolute; relative paths given to the resolver are taken from here.
    let currentDirectory: String
    private let knownReporters: [String]
    private let fileSystem: any ConfigurationFileSystem
    private let explicitFile: ConfigurationFile?

    private let lock = PThreadLock()
    private var layeredByDirectory: [String: Result<Configuration, ConfigurationError>] = [:]
    private var resolvedByDirectory: [String: Result<Configuration, ConfigurationError>] = [:]
    private var detectedByDirectory: [String: DetectedDeploymentTarget?] = [:]

    /// - Parameters:
    ///   - explicitConfigPath: `--config FILE`; read at once, so a missing or broken file
    ///     is reported before any linting.
    ///   - knownRules: rules whose ids and options configuration files may name; the
    ///     engine rules (`Configuration.engineRules`) are always known.
    ///   - knownReporters: names `reporter:` may take; empty accepts any name.
    ///   - overrides: `--enable`/`--disable`/`--only`, validated here.
    ///   - currentDirectory: defaults to the process's current directory.
    init(
        explicitConfigPath: String?, knownRules: [RuleMetadata], knownReporters: [String] = [],
        overrides: RuleOverrides = RuleOverrides(), currentDirectory: String? = nil,
        fileSystem: any ConfigurationFileSystem = DiskFileSystem()
    ) throws(ConfigurationError) {
        let workingDirectory = LexicalPath.absolute(
            currentDirectory ?? FileSystem.currentDirectory(), relativeTo: "/")
        self.knownRules = knownRules
        self.knownReporters = knownReporters
        self.overrides = overrides
        self.currentDirectory = workingDirectory
        self.fileSystem = fileSystem
        try overrides.validate(knownRuleIDs: knownRules.map(\.id) + Configuration.engineRules.map(\.id))
        if let explicitConfigPath {
            let path = LexicalPath.absolute(explicitConfigPath, relativeTo: workingDirectory)
            guard let bytes = fileSystem.contentsOfFile(atPath: path) else {
                throw ConfigurationError(path: explicitConfigPath, location: nil, message: "cannot read the configuration file")
            }
            explicitFile = try ConfigurationFile.parse(
                bytes, path: path, displayPath: explicitConfigPath,
                knownRules: knownRules, knownReporters: knownReporters)
        } else {
            explicitFile = nil
        }
    }

    /// The configuration for the file at `path` (absolute, or relative to `currentDirectory`).
    func configuration(forFileAt path: String) throws(ConfigurationError) -> Configuration {
        let absolute = LexicalPath.absolute(path, relativeTo: currentDirectory)
        return try configuration(forDirectory: LexicalPath.parent(of: absolute) ?? "/")
    }

    /// The configuration for files directly in `directory`.
    func configuration(forDirectory directory: String) throws(ConfigurationError) -> Configuration {
        let directory = LexicalPath.absolute(directory, relativeTo: currentDirectory)
        lock.lock()
        defer { lock.unlock() }
        if let cached = resolvedByDirectory[directory] { return try cached.get() }
        let result: Result<Configuration, ConfigurationError>
        do {
            var configuration = try layeredConfiguration(forDirectory: directory)
            if configuration.deploymentTarget == nil {
                configuration.deploymentTarget = detectedDeploymentTarget(forDirectory: directory)
            }
            configuration.apply(overrides)
            result = .success(configuration)
        } catch {
            result = .failure(error)
        }
        resolvedByDirectory[directory] = result
        return try result.get()
    }

    /// The deployment target declared by the nearest project file at or above `directory`,
    /// ignoring configuration files: what `kblint init` offers to write down.
    func detectedDeploymentTarget(inDirectory directory: String) -> DetectedDeploymentTarget? {
        let directory = LexicalPath.absolute(directory, relativeTo: currentDirectory)
        lock.lock()
        defer { lock.unlock() }
        return detectedDeploymentTarget(forDirectory: directory)
    }

    // MARK: Cached walks (called with the lock held)

    /// The configuration files for `directory` merged, before detection and overrides.
    private func layeredConfiguration(forDirectory directory: String) throws(ConfigurationError) -> Configuration {
        if let explicitFile { return Configuration().merging(explicitFile) }
        var unresolved: [String] = []
        var inherited = Configuration()
        var current: String? = directory
        while let folder = current {
            if let cached = layeredByDirectory[folder] {
                inherited = try cached.get()
                break
            }
            unresolved.append(folder)
            current = LexicalPath.parent(of: folder)
        }
        var failure: ConfigurationError?
        for folder in unresolved.reversed() {
            if let failure {
                layeredByDirectory[folder] = .failure(failure)
                continue
            }
            do {
                if let file = try configurationFile(inDirectory: folder) { inherited = inherited.merging(file) }
                layeredByDirectory[folder] = .success(inherited)
            } catch {
                failure = error
                layeredByDirectory[folder] = .failure(error)
            }
        }
        if let failure { throw failure }
        return inherited
    }

    private func configurationFile(inDirectory directory: String) throws(ConfigurationError) -> ConfigurationFile? {
        let path = LexicalPath.appending(Configuration.fileName, to: directory)
        guard fileSystem.isFile(atPath: path) else { return nil }
        let displayPath = LexicalPath.display(path, relativeTo: currentDirectory)
        guard let bytes = fileSystem.contentsOfFile(atPath: path) else {
            throw ConfigurationError(path: displayPath, location: nil, message: "cannot read the configuration file")
        }
        return try ConfigurationFile.parse(
            bytes, path: path, displayPath: displayPath, knownRules: knownRules, knownReporters: knownReporters)
    }

    private func detectedDeploymentTarget(forDirectory directory: String) -> DetectedDeploymentTarget? {
        var unresolved: [String] = []
        var inherited: DetectedDeploymentTarget?
        var current: String? = directory
        while let folder = current {
            if let cached = detectedByDirectory[folder] {
                inherited = cached
                break
            }
            unresolved.append(folder)
            current = LexicalPath.parent(of: folder)
        }
        for folder in unresolved.reversed() {
            if let own = DeploymentTargetDetector.detect(inDirectory: folder, fileSystem: fileSystem) { inherited = own }
            detectedByDirectory[folder] = .some(inherited)
        }
        return inherited
    }
}
