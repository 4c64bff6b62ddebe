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
    /// `--config FILE` read and layered: the same for every folder.
    private let explicitLayers: Layers?

    private let lock = PThreadLock()
    private var layersByDirectory: [String: Result<Layers, ConfigurationError>] = [:]
    private var detectedByDirectory: [String: Detection] = [:]
    /// The folder asked for last and its configuration: discovery asks for each folder's
    /// configuration twice in a row (what it excludes, then the plan of its files), and looking a long
    /// path up in the tables above costs more than comparing it.
    private var lastAnswer: (directory: String, configuration: Configuration)?

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
            let found: [UInt8]?
            do {
                found = try fileSystem.configurationBytes(atPath: path)
            } catch {
                throw ConfigurationError(path: explicitConfigPath, location: nil, message: error.reason)
            }
            guard let bytes = found else {
                throw ConfigurationError(path: explicitConfigPath, location: nil, message: "cannot read the configuration file")
            }
            let explicitFile = try ConfigurationFile.parse(
                bytes, path: path, displayPath: explicitConfigPath,
                knownRules: knownRules, knownReporters: knownReporters)
            explicitLayers = Layers(Configuration().merging(explicitFile), overrides: overrides)
        } else {
            explicitLayers = nil
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
        if let lastAnswer, lastAnswer.directory == directory { return lastAnswer.configuration }
        var configuration = try layers(forDirectory: directory).overridden
        if configuration.deploymentTarget == nil {
            configuration.deploymentTarget = detectedDeploymentTarget(forDirectory: directory)
        }
        lastAnswer = (directory, configuration)
        return configuration
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

    /// A folder's configuration files merged (what nested files merge onto), and the same
    /// with the command line's overrides applied. Folders without a file of their own share
    /// their parent's (a reference, not a copy), so the overrides are applied once per
    /// configuration file, not per folder.
    private final class Layers: Sendable {
        let merged: Configuration
        let overridden: Configuration

        init(_ merged: Configuration, overrides: RuleOverrides) {
            self.merged = merged
            var overridden = merged
            overridden.apply(overrides)
            self.overridden = overridden
        }
    }

    /// The configuration files for `directory` merged, before detection.
    private func layers(forDirectory directory: String) throws(ConfigurationError) -> Layers {
        if let explicitLayers { return explicitLayers }
        var unresolved: [String] = []
        var inherited: Layers?
        var current: String? = directory
        while let folder = current {
            if let cached = layersByDirectory[folder] {
                inherited = try cached.get()
                break
            }
            unresolved.append(folder)
            current = LexicalPath.parent(of: folder)
        }
        var layers = inherited ?? Layers(Configuration(), overrides: overrides)
        var failure: ConfigurationError?
        for folder in unresolved.reversed() {
            if let failure {
                layersByDirectory[folder] = .failure(failure)
                continue
            }
            do {
                if let file = try configurationFile(inDirectory: folder) {
                    layers = Layers(layers.merged.merging(file), overrides: overrides)
                }
                layersByDirectory[folder] = .success(layers)
            } catch {
                failure = error
                layersByDirectory[folder] = .failure(error)
            }
        }
        if let failure { throw failure }
        return layers
    }

    private func configurationFile(inDirectory directory: String) throws(ConfigurationError) -> ConfigurationFile? {
        let path = LexicalPath.appending(Configuration.fileName, to: directory)
        let displayPath = LexicalPath.display(path, relativeTo: currentDirectory)
        let found: [UInt8]?
        do {
            found = try fileSystem.configurationBytes(atPath: path)
        } catch {
            throw ConfigurationError(path: displayPath, location: nil, message: error.reason)
        }
        guard let bytes = found else { return nil }
        return try ConfigurationFile.parse(
            bytes, path: path, displayPath: displayPath, knownRules: knownRules, knownReporters: knownReporters)
    }

    /// A folder's detected deployment target, shared by reference like `Layers`: folders
    /// without a project file of their own share their parent's.
    private final class Detection: Sendable {
        let target: DetectedDeploymentTarget?

        init(_ target: DetectedDeploymentTarget?) {
            self.target = target
        }
    }

    private func detectedDeploymentTarget(forDirectory directory: String) -> DetectedDeploymentTarget? {
        var unresolved: [String] = []
        var inherited: Detection?
        var current: String? = directory
        while let folder = current {
            if let cached = detectedByDirectory[folder] {
                inherited = cached
                break
            }
            unresolved.append(folder)
            current = LexicalPath.parent(of: folder)
        }
        var detection = inherited ?? Detection(nil)
        for folder in unresolved.reversed() {
            if let own = DeploymentTargetDetector.detect(inDirectory: folder, fileSystem: fileSystem) {
                detection = Detection(own)
            }
            detectedByDirectory[folder] = detection
        }
        return detection.target
    }
}
