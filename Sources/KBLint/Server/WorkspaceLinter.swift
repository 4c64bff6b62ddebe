import Lexer
import Rules

/// One workspace folder as `kblint` run in it sees it: its configuration (nested
/// `.kblint.yml` included), its files, and the facts of every one of them, kept in memory
/// so that a document is checked against the whole project in milliseconds. Open
/// documents' facts come from their editor text, the other files' from disk.
///
/// Documents are planned and linted as `kblint --use-stdin --stdin-path FILE
/// --force-exclude` run in the folder plans them, through the lint command's own steps, so
/// the server and the command line give the same findings. Used from one thread (the
/// server's loop).
final class WorkspaceLinter {
    /// Absolute path of the folder: the current directory of the equivalent command line.
    let root: String
    private let tool: CommandLineTool
    private let options: LintOptions
    /// Whether the folder's files are searched for project facts (false for the folder of a
    /// document opened outside every workspace folder: only the document's own facts count).
    private let discoversFiles: Bool
    private let log: (String) -> Void

    private var resolver: ConfigurationResolver?
    /// The workspace's own configuration error (its root `.kblint.yml`), if any.
    private(set) var rootConfigurationError: ConfigurationError?
    /// Facts by display path: every discovered file's, open documents' from their text.
    private var facts: [String: FileFacts] = [:]
    /// `String(reflecting:)` of each open document's facts: `FileFacts` has no equality, and
    /// equal descriptions mean equal facts (unequal ones may rarely describe equal facts,
    /// which only costs a needless re-check of the other open documents).
    private var factDescriptions: [String: String] = [:]
    /// The merged facts of every file but one, per open document: the document's own facts
    /// join while it is checked. An entry stays valid until another file's facts change.
    private var projectsWithout: [String: ProjectFacts] = [:]
    private var loaded = false

    init(root: String, tool: CommandLineTool, options: LintOptions, discoversFiles: Bool, log: @escaping (String) -> Void) {
        self.root = root
        var tool = tool
        tool.currentDirectory = root
        self.tool = tool
        self.options = options
        self.discoversFiles = discoversFiles
        self.log = log
    }

    /// Whether `path` (absolute) lies in this folder.
    func contains(_ path: String) -> Bool {
        path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    /// The path of a file as findings and facts name it (relative to the folder).
    func displayPath(_ absolute: String) -> String { LexicalPath.display(absolute, relativeTo: root) }

    func absolutePath(_ display: String) -> String { LexicalPath.absolute(display, relativeTo: root) }

    /// Reads the configuration and the facts of every file, once; again after `reload`.
    func loadIfNeeded() {
        guard !loaded else { return }
        loaded = true
        let clock = ContinuousClock()
        let started = clock.now
        rootConfigurationError = nil
        do {
            resolver = try ConfigurationResolver(
                explicitConfigPath: options.configPath, knownRules: tool.rules.map { $0.metadata },
                knownReporters: ReporterKind.allCases.map(\.rawValue), overrides: options.overrides,
                currentDirectory: root, fileSystem: DiskFileSystem())
        } catch {
            rootConfigurationError = error
            resolver = nil
        }
        guard discoversFiles, let resolver else { return }
        let configuration: Configuration
        do {
            configuration = try resolver.configuration(forDirectory: root)
        } catch {
            rootConfigurationError = error
            return
        }
        var projectOptions = options
        projectOptions.paths = []
        let found = LintCommand(tool: tool).lintInputs(projectOptions, resolver: resolver, root: configuration, lastListing: LastListing())
        let known = facts
        let collected = parallelMap(count: found.inputs.count, jobs: options.jobs) { index -> FileFacts? in
            let target = found.inputs[index].target
            if let facts = known[target.path] { return facts }
            guard let bytes = try? FileSystem.readFile(target.absolutePath) else { return nil }
            return collectFacts(Lexer.tokenize(SourceFile(path: target.path, bytes: bytes)))
        }
        var loadedFacts: [String: FileFacts] = [:]
        for file in collected.compactMap({ $0 }) { loadedFacts[file.path] = file }
        // Open documents keep the facts of their text.
        for path in factDescriptions.keys { loadedFacts[path] = known[path] }
        facts = loadedFacts
        factsChanged(at: nil)
        log("kblint: \(root): facts of \(found.inputs.count) files in \(TimingReport.milliseconds(clock.now - started))")
        for error in found.errors { log("kblint: \(error)") }
    }

    /// Forgets the configuration and the file list so that the next use reads them again:
    /// after a `.kblint.yml` or project file changed. Known files' facts are kept.
    func reload() {
        loaded = false
        factsChanged(at: nil)
    }

    /// A file on disk changed, appeared or went away: its facts are read again (unless it is
    /// open: its editor text is what counts). Returns whether facts changed.
    func fileChangedOnDisk(_ absolute: String) -> Bool {
        let path = displayPath(absolute)
        guard factDescriptions[path] == nil, discoversFiles else { return false }
        if let bytes = try? FileSystem.readFile(absolute) {
            // Files the configuration excludes are not part of the project.
            guard facts[path] != nil || isLinted(absolute) else { return false }
            facts[path] = collectFacts(Lexer.tokenize(SourceFile(path: path, bytes: bytes)))
        } else {
            guard facts.removeValue(forKey: path) != nil else { return false }
        }
        factsChanged(at: path)
        return true
    }

    private func isLinted(_ absolute: String) -> Bool {
        guard let configuration = try? resolver?.configuration(forFileAt: absolute) else { return false }
        return configuration.shouldLint(absolute)
    }

    /// What checking a document gave.
    enum Outcome {
        case findings([Finding])
        /// The configuration that applies to the document is broken; the document is not linted.
        case configurationError(ConfigurationError)
        /// The configuration excludes the document.
        case excluded
    }

    /// The findings for a document's text, with the project's facts and the open documents'
    /// texts (for related places in them).
    func lint(_ document: TextDocument, openDocuments: [String: SourceFile]) -> Outcome {
        check(document, openDocuments: openDocuments, fixMode: .report).outcome
    }

    /// The document's text with every safe fix applied (as `kblint --fix --use-stdin`), or
    /// nil when the configuration excludes it or is broken.
    func fixingAll(_ document: TextDocument, openDocuments: [String: SourceFile]) -> [UInt8]? {
        check(document, openDocuments: openDocuments, fixMode: .printSource(includingUnsafe: false)).fixed
    }

    private func check(
        _ document: TextDocument, openDocuments: [String: SourceFile], fixMode: FixMode
    ) -> (outcome: Outcome, fixed: [UInt8]?) {
        loadIfNeeded()
        guard let resolver else { return (.configurationError(rootConfigurationError!), nil) }
        let absolute = absolutePath(document.file.path)
        do {
            _ = try resolver.configuration(forFileAt: absolute)
        } catch {
            return (.configurationError(error), nil)
        }
        var documentOptions = options
        documentOptions.useStdin = true
        documentOptions.stdinPath = absolute
        documentOptions.forceExclude = true
        documentOptions.paths = []
        var documentTool = tool
        let bytes = document.bytes
        documentTool.readStandardInput = { bytes }
        let rootConfiguration = (try? resolver.configuration(forDirectory: root)) ?? Configuration()
        let found = LintCommand(tool: documentTool).lintInputs(
            documentOptions, resolver: resolver, root: rootConfiguration, lastListing: LastListing())
        guard let input = found.inputs.first else { return (.excluded, nil) }

        let driver = LintDriver(
            jobs: 1, fixMode: fixMode, knownRuleIDs: Set(tool.knownRuleIDs),
            closeMatches: { word, candidates in Spelling.closestMatches(to: word, among: candidates) },
            progressSink: nil)
        let root = self.root
        let outcome = driver.lint(input, project: project(without: input.target.path)) { path in
            if let open = openDocuments[path] { return (open, path) }
            guard let bytes = try? FileSystem.readFile(LexicalPath.absolute(path, relativeTo: root)) else { return nil }
            return (SourceFile(path: path, bytes: bytes), path)
        }
        if let error = outcome.errors.first { log("kblint: \(error)") }
        return (.findings(outcome.findings), outcome.fixedSource)
    }

    /// Records the facts of an open document's current text. Returns whether they differ from
    /// what the project held, so that the other open documents are checked again.
    func updateFacts(of document: TextDocument) -> Bool {
        let path = document.file.path
        let updated = collectFacts(Lexer.tokenize(document.file))
        let description = String(reflecting: updated)
        guard factDescriptions[path] != description else { return false }
        factDescriptions[path] = description
        facts[path] = updated
        factsChanged(at: path)
        return true
    }

    /// A document closed: its facts go back to what the file on disk says.
    func documentClosed(_ document: TextDocument) {
        let path = document.file.path
        guard factDescriptions.removeValue(forKey: path) != nil else { return }
        let absolute = absolutePath(path)
        if discoversFiles, facts[path] != nil || isLinted(absolute), let bytes = try? FileSystem.readFile(absolute) {
            facts[path] = collectFacts(Lexer.tokenize(SourceFile(path: path, bytes: bytes)))
        } else {
            facts[path] = nil
        }
        factsChanged(at: nil)
    }

    /// Every file's facts but `path`'s, merged in path order as a run over the folder merges them.
    private func project(without path: String) -> ProjectFacts {
        if let cached = projectsWithout[path] { return cached }
        let others = facts.filter { $0.key != path }.sorted { $0.key < $1.key }
        let project = ProjectFacts(merging: others.map(\.value))
        projectsWithout[path] = project
        return project
    }

    /// The facts of `path` changed (nil: of any number of files).
    private func factsChanged(at path: String?) {
        projectsWithout = projectsWithout.filter { $0.key == path }
    }

    /// The configuration errors that stop documents in `directories` (absolute) from being linted.
    func configurationErrors(forDirectories directories: [String]) -> [ConfigurationError] {
        loadIfNeeded()
        if let rootConfigurationError { return [rootConfigurationError] }
        guard let resolver else { return [] }
        var errors: [ConfigurationError] = []
        for directory in directories {
            do {
                _ = try resolver.configuration(forDirectory: directory)
            } catch where !errors.contains(error) {
                errors.append(error)
            } catch {}
        }
        return errors
    }
}
