import Rules

/// `kblint [lint] [PATH…]`: configuration, discovery, the two passes, fixing, reports and the
/// exit code.
struct LintCommand {
    static let spec = CommandSpec(
        name: "lint",
        summary: "Lint Swift files (the default command). Without paths: the configuration's 'included', else '.'.",
        positionalUsage: "[PATH…]", positionalCount: 0...Int.max,
        options: [
            .value("--config", "FILE", "Use this configuration file alone (no .kblint.yml lookup)."),
            .value("--reporter", "NAME", repeatable: true,
                   "Output format: \(ReporterKind.allCases.map(\.rawValue).joined(separator: ", "))."),
            .value("--output", "FILE", repeatable: true, "Write the preceding --reporter's output to FILE."),
            .flag("--strict", "Fail (exit 1) on warnings too."),
            .flag("--quiet", "Print no summary line."),
            .flag("--fix", "Apply safe fixes, then report what remains."),
            .flag("--unsafe-fixes", "With --fix or --diff: apply unsafe fixes too."),
            .flag("--diff", "Print the fixes as a unified diff; change nothing."),
            .value("--jobs", "N", "Files linted in parallel (default: all processors)."),
            .flag("--no-color", "No colors in terminal output (also: NO_COLOR)."),
            .flag("--timing", "Print per-phase times, throughput and the deployment target on stderr."),
            .value("--deployment-target", "X.Y", "iOS deployment target, overriding configuration and detection."),
            .value("--enable", "RULE", repeatable: true, "Enable a rule (opt-in rules too)."),
            .value("--disable", "RULE", repeatable: true, "Disable a rule."),
            .value("--only", "RULE", repeatable: true, "Run only these rules."),
            .flag("--use-stdin", "Lint standard input (editor integration); with --fix, print the fixed source."),
            .value("--stdin-path", "PATH", "The path standard input stands for (configuration, reports)."),
            .value("--file-list", "FILE", "Lint the paths listed in FILE, one per line."),
            .flag("--force-exclude", "Apply 'excluded' to explicitly named files too."),
        ] + workflowOptions)

    let tool: CommandLineTool

    func run(_ arguments: ParsedArguments) throws(UsageError) -> ExitCode {
        run(try LintOptions(arguments))
    }

    func run(_ options: LintOptions) -> ExitCode {
        let clock = ContinuousClock()
        let started = clock.now
        let cwd = tool.currentDirectory

        let lastListing = LastListing()
        // `--staged` reads configuration, baseline and project files as the index has them.
        var index: IndexFileSystem?
        if options.staged {
            do {
                index = try IndexFileSystem(repository: GitRepository(containing: cwd, environment: tool.environment))
            } catch {
                tool.reportError(error.description)
                return .failure
            }
        }
        let resolver: ConfigurationResolver
        let root: Configuration
        do {
            resolver = try ConfigurationResolver(
                explicitConfigPath: options.configPath, knownRules: tool.rules.map { $0.metadata },
                knownReporters: ReporterKind.allCases.map(\.rawValue),
                overrides: options.overrides, currentDirectory: cwd,
                fileSystem: index ?? DiskFileSystem(lastListing: lastListing))
            root = try resolver.configuration(forDirectory: cwd)
        } catch {
            tool.reportError(error.description)
            return .failure
        }

        let selection: InputSelection
        do {
            selection = try selectInputs(options, resolver: resolver, root: root)
        } catch {
            // Nothing was selected (git failed): no report would mean anything.
            tool.reportError(error.message)
            return .failure
        }

        // Lint, with the facts of the rest of the project unless the paths searched cover it.
        // Pass 1 reads the files while discovery finds them.
        var driver = LintDriver(
            jobs: options.jobs, fixMode: options.fixMode,
            knownRuleIDs: Set(tool.knownRuleIDs),
            closeMatches: { word, candidates in Spelling.closestMatches(to: word, among: candidates) },
            progressSink: tool.standardError.isTerminal ? tool.standardError : nil)
        driver.keepsResultsUntilExit = tool.exitsAfterRun
        var found = DiscoveredInputs(plans: [], errors: [])
        var discovered = started
        let outcome = ProjectLint(driver: driver, resolver: resolver, lastListing: lastListing).lint { feed in
            found = discoverInputs(selection, options, resolver: resolver, lastListing: lastListing, report: feed.report)
            discovered = clock.now
            let projectRoot = ProjectRoot.find(
                containing: feed.reported.map(\.target.absolutePath), fileSystem: DiskFileSystem(lastListing: lastListing))
            return projectRoot.flatMap { ProjectRoot.isCovered($0, by: found.searched) ? nil : $0 }
        }
        let inputs = outcome.inputs
        // Every input and its outcome, freed one by one, would take the kblint executable
        // milliseconds it spends better exiting.
        if tool.exitsAfterRun { ProcessExit.keep(outcome) }
        var errors = found.errors
        let linted = clock.now

        for file in outcome.files { errors += file.errors.map(\.description) }
        let baselineStep = applyBaseline(
            to: outcome.files.flatMap(\.findings),
            lintedFiles: inputs.indices.filter { outcome.files[$0].linted }.map { inputs[$0].target.absolutePath },
            options: options, configured: root.baseline, index: index)
        errors += baselineStep.errors
        let findings = baselineStep.findings
        let strict = options.strict || root.strict
        // Per distinct plan, not per file: files share plans, and a file's plan lists every rule.
        let enabledRules = Set(found.plans.flatMap { $0.rules.map { $0.rule.metadata.id } })
        // https://no-color.org: a non-empty NO_COLOR turns colors off.
        let colorAllowed = !options.noColor && (tool.environment["NO_COLOR"] ?? "").isEmpty
        let pathRoot = ReportPathRoot.find(currentDirectory: cwd, environment: tool.environment)
        let report = LintReport(
            findings: findings.map { $0.shown(relativeTo: pathRoot, currentDirectory: cwd) },
            rules: tool.rules.map { $0.metadata }.filter { enabledRules.contains($0.id) } + EngineDiagnostics.all,
            filesLinted: outcome.files.reduce(0) { $1.linted ? $0 + 1 : $0 }, toolVersion: ProjectInfo.version,
            settings: ReportSettings(
                useColor: colorAllowed && tool.standardOutput.isTerminal,
                pathRoot: pathRoot))

        // Output.
        switch options.fixMode {
        case .diff:
            let byPath = zip(inputs, outcome.files).sorted { $0.0.target.path < $1.0.target.path }
            for (_, file) in byPath {
                tool.standardOutput.write(report.settings.useColor ? UnifiedDiff.colored(file.diff) : file.diff)
            }
        case .printSource:
            for file in outcome.files { tool.standardOutput.write(file.fixedSource ?? []) }
        case .report, .write:
            // Recording a baseline, or pruning one, reports the file written: one line. Nothing
            // was linted because of an error (a broken configuration): no report saying there
            // are no problems.
            if !options.pruneBaseline, options.writeBaseline == nil, errors.isEmpty || report.filesLinted > 0 {
                errors += writeReports(report, options: options, configuredReporter: root.reporter,
                                       isInput: { identity in outcome.files.contains { $0.identity == identity } })
            }
        }
        for note in baselineStep.notes { tool.standardError.write(note + "\n") }
        if case .write = options.fixMode, !options.quiet {
            tool.standardError.write(Self.fixSummary(outcome.files))
        }
        // Worked out only when it is said: it lists the folders above the first such file.
        lazy var unknownTarget = UnknownDeploymentTarget(inputs: inputs, currentDirectory: cwd)
        if !options.quiet, options.writeBaseline == nil, !options.pruneBaseline, let notice = unknownTarget.summaryNotice {
            tool.standardError.write(notice + "\n")
        }
        let finished = clock.now
        if options.timing {
            let bytes = outcome.files.reduce(0) { $0 + $1.bytes }
            var targets: [String: Int] = [:]
            let description = { (plan: FilePlan) in
                plan.deploymentTarget == nil ? unknownTarget.timingDescription : plan.deploymentTargetDescription
            }
            for input in inputs { targets[description(input.plan), default: 0] += 1 }
            if targets.isEmpty { targets[description(plan(root, options))] = 0 }
            tool.standardError.write(TimingReport(
                discovery: discovered - started, pass1: outcome.pass1, pass2: outcome.pass2,
                output: finished - linted, work: outcome.work, files: inputs.count, bytes: bytes, jobs: options.jobs,
                deploymentTargets: targets.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { ($0.key, $0.value) }
            ).text)
        }
        for error in errors { tool.reportError(error) }

        if !errors.isEmpty { return .failure }
        if case .diff = options.fixMode {
            return outcome.files.contains { !$0.diff.isEmpty } ? .violations : .success
        }
        if options.pruneBaseline || options.writeBaseline != nil { return .success }
        let failing = baselineStep.failed
            || findings.contains { $0.severity == .error || (strict && $0.severity == .warning) }
        return failing ? .violations : .success
    }

    /// The files to lint with their plans, the distinct plans among them, the errors met
    /// finding them (missing paths, unreadable file lists, broken nested configurations, each
    /// reported once), the paths searched, and the error that leaves nothing to lint (git
    /// cannot select files, standard input cannot be read), reported before any output. The
    /// language server asks it for a document's plan (as `--use-stdin`).
    func lintInputs(
        _ options: LintOptions, resolver: ConfigurationResolver, root: Configuration, lastListing: LastListing
    ) -> (inputs: [LintInput], plans: [FilePlan], errors: [String], searched: [String], fatalError: String?) {
        let selection: InputSelection
        do {
            selection = try selectInputs(options, resolver: resolver, root: root)
        } catch {
            return ([], [], [], [], error.message)
        }
        var inputs: [LintInput] = []
        let found = discoverInputs(selection, options, resolver: resolver, lastListing: lastListing) { inputs.append($0) }
        return (inputs, found.plans, found.errors, found.searched, nil)
    }

    /// What a run lints, chosen before any folder is walked, with the errors met choosing it
    /// (an unreadable file list).
    struct InputSelection {
        enum Files {
            case standardInput(LintTarget, bytes: [UInt8])
            /// The staged files with their bytes in the index (`--staged`).
            case staged([(target: LintTarget, bytes: [UInt8])])
            /// The paths to search; `selectedByGit`: git chose them (`--since`), not the user.
            case paths([String], selectedByGit: Bool)
        }

        let files: Files
        var errors: [String] = []
    }

    /// Why nothing can be linted: git cannot select files, standard input cannot be read.
    struct SelectionFailure: Error {
        let message: String
    }

    /// Reads standard input, asks git, reads the file list: everything a run needs before it
    /// walks folders.
    func selectInputs(
        _ options: LintOptions, resolver: ConfigurationResolver, root: Configuration
    ) throws(SelectionFailure) -> InputSelection {
        let cwd = tool.currentDirectory
        if options.useStdin {
            let bytes: [UInt8]
            do {
                bytes = try tool.readStandardInput()
            } catch {
                throw SelectionFailure(message: "standard input: \(error.reason)")
            }
            let absolute = LexicalPath.absolute(options.stdinPath ?? "<stdin>", relativeTo: cwd)
            let target = LintTarget(path: LexicalPath.display(absolute, relativeTo: cwd), absolutePath: absolute)
            return InputSelection(files: .standardInput(target, bytes: bytes))
        }
        let selection: GitSelection?
        do {
            selection = try gitSelection(options) { absolute in
                !((try? resolver.configuration(forFileAt: absolute).shouldLint(absolute)) ?? true)
            }
        } catch {
            throw SelectionFailure(message: error.description)
        }
        switch selection {
        case .staged(let files):
            return InputSelection(files: .staged(files))
        case .changed(let files):
            // git chose the files, perhaps none: no file list, no default paths.
            return InputSelection(files: .paths(files, selectedByGit: true))
        case nil:
            var paths = options.paths
            var errors: [String] = []
            if let fileList = options.fileList {
                do {
                    paths += try readFileList(fileList)
                } catch {
                    errors.append(error.description)
                }
            } else if paths.isEmpty {
                paths = root.included.isEmpty ? ["."] : root.included.map(\.searchRoot)
            }
            return InputSelection(files: .paths(paths, selectedByGit: false), errors: errors)
        }
    }

    /// What `discoverInputs` found besides the inputs.
    struct DiscoveredInputs {
        /// The distinct plans of the inputs.
        var plans: [FilePlan]
        /// The selection's errors, then discovery's, then each broken configuration's once.
        var errors: [String]
        /// The paths searched (absolute).
        var searched: [String] = []
    }

    /// Reports each file `selection` names or holds with its plan, in order, as discovery
    /// finds it (pass 1 reads it meanwhile). Files whose configuration is broken are left
    /// out; the error says why.
    func discoverInputs(
        _ selection: InputSelection, _ options: LintOptions, resolver: ConfigurationResolver, lastListing: LastListing,
        report: (LintInput) -> Void
    ) -> DiscoveredInputs {
        let cwd = tool.currentDirectory
        var configurationErrors: [String] = []
        var seenConfigurationErrors: Set<String> = []
        // Files under the same configuration share one plan (its rule list and options are
        // copy-on-write storage): a plan per file made memory grow with the number of files.
        var planBySource: [PlanSource: FilePlan] = [:]
        // Discovery lists a folder's files together, and most folders of a project share their
        // configuration: most files share the previous one's plan, and most folders the
        // previous folder's.
        var previous: (path: String, plan: FilePlan)?
        var previousSource: (source: PlanSource, plan: FilePlan)?
        func planFor(_ target: LintTarget) -> FilePlan? {
            if let previous, LexicalPath.areInSameFolder(previous.path, target.absolutePath) { return previous.plan }
            do {
                let configuration = try resolver.configuration(forDirectory: LexicalPath.parent(of: target.absolutePath) ?? "/")
                let source = PlanSource(files: configuration.files, deploymentTarget: configuration.deploymentTarget)
                let shared: FilePlan
                if let previousSource, previousSource.source == source {
                    shared = previousSource.plan
                } else {
                    shared = planBySource[source] ?? plan(configuration, options)
                    planBySource[source] = shared
                    previousSource = (source, shared)
                }
                previous = (target.absolutePath, shared)
                return shared
            } catch {
                if seenConfigurationErrors.insert(error.description).inserted { configurationErrors.append(error.description) }
                return nil
            }
        }
        switch selection.files {
        case .standardInput(let target, let bytes):
            let excluded = options.forceExclude
                && !((try? resolver.configuration(forFileAt: target.absolutePath).shouldLint(target.absolutePath)) ?? true)
            if !excluded, let plan = planFor(target) {
                report(LintInput(target: target, plan: plan, preloaded: bytes))
            }
            return DiscoveredInputs(plans: Array(planBySource.values), errors: selection.errors + configurationErrors)
        case .staged(let files):
            for file in files {
                if let plan = planFor(file.target) {
                    report(LintInput(target: file.target, plan: plan, preloaded: file.bytes))
                }
            }
            return DiscoveredInputs(plans: Array(planBySource.values), errors: selection.errors + configurationErrors)
        case .paths(let paths, let selectedByGit):
            var discovery = FileDiscovery(currentDirectory: cwd)
            discovery.lastListing = lastListing
            // Files git selected were not named by the user: 'excluded' applies to them.
            discovery.forceExclude = options.forceExclude || selectedByGit
            discovery.exclusion = ProjectLint.exclusion(resolver)
            let discoveryErrors = discovery.discover(paths) { target in
                if let plan = planFor(target) { report(LintInput(target: target, plan: plan)) }
            }
            return DiscoveredInputs(
                plans: Array(planBySource.values), errors: selection.errors + discoveryErrors.map(\.description) + configurationErrors,
                searched: paths.map { LexicalPath.absolute($0, relativeTo: cwd) })
        }
    }

    /// What a plan follows from: the configuration files that apply and the deployment target
    /// (the command line is the same for every file).
    private struct PlanSource: Hashable {
        let files: [String]
        let deploymentTarget: DetectedDeploymentTarget?
    }

    /// The rules that run on a file and the deployment target they see.
    private func plan(_ configuration: Configuration, _ options: LintOptions) -> FilePlan {
        let rules = tool.rules.filter { configuration.isEnabled($0.metadata) }.map { rule in
            RuleSelection(
                rule: rule, severity: configuration.severity(for: rule.metadata),
                options: configuration.options(for: rule.metadata))
        }
        let engineSeverities = Dictionary(uniqueKeysWithValues: EngineDiagnostics.all.map {
            ($0.id, configuration.severity(forRuleID: $0.id, defaultSeverity: $0.defaultSeverity))
        })
        if let target = options.deploymentTarget {
            return FilePlan(
                rules: rules, deploymentTarget: target,
                deploymentTargetDescription: "iOS \(target) (--deployment-target)",
                engineSeverities: engineSeverities)
        }
        return FilePlan(
            rules: rules, deploymentTarget: configuration.deploymentTarget?.version,
            deploymentTargetDescription: configuration.deploymentTarget?.description ?? "unknown",
            engineSeverities: engineSeverities)
    }

    /// Paths listed one per line (blank lines and `#` comments skipped).
    private func readFileList(_ path: String) throws(FileError) -> [String] {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readStream(LexicalPath.absolute(path, relativeTo: tool.currentDirectory))
        } catch {
            throw FileError(path: path, reason: error.reason)
        }
        return String(decoding: bytes, as: UTF8.self)
            .split(whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .map { line in String(line.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed()) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    /// Renders every requested reporter to its destination; returns write errors.
    /// `isInput`: whether a file is one of those linted, which `--output` never overwrites
    /// (asked only of an existing file the report would replace).
    private func writeReports(
        _ report: LintReport, options: LintOptions, configuredReporter: String?, isInput: (FileIdentity) -> Bool
    ) -> [String] {
        var requests = options.reports
        let defaultKind = configuredReporter.flatMap(ReporterKind.init(rawValue:))
            ?? ReporterKind.defaultKind(
                githubActions: tool.environment["GITHUB_ACTIONS"] == "true",
                outputIsTerminal: tool.standardOutput.isTerminal)
        if requests.isEmpty {
            requests = [ReportRequest(kind: defaultKind, output: nil)]
        } else if requests[0].kind == nil {
            // `--output FILE` alone: a file is never a terminal.
            let kind = configuredReporter.flatMap(ReporterKind.init(rawValue:))
                ?? ReporterKind.defaultKind(
                    githubActions: tool.environment["GITHUB_ACTIONS"] == "true", outputIsTerminal: false)
            requests[0] = ReportRequest(kind: kind, output: requests[0].output)
        }
        var errors: [String] = []
        var summaryShown = false
        for request in requests {
            let kind = request.kind ?? defaultKind
            var shown = report
            if request.output != nil { shown.settings.useColor = false }
            shown.settings.showsSummaryLine = !options.quiet
            let text = kind.reporter.render(shown)
            if let output = request.output {
                do {
                    try ReportDestination.write(
                        Array(text.utf8), to: LexicalPath.absolute(output, relativeTo: tool.currentDirectory), sparing: isInput)
                } catch {
                    errors.append(FileError(path: output, reason: error.reason).description)
                }
            } else {
                tool.standardOutput.write(text)
                summaryShown = summaryShown || kind == .pretty || kind == .summary
            }
        }
        if !options.quiet, !summaryShown {
            tool.standardError.write(SummaryReporter.summaryLine(report) + "\n")
        }
        return errors
    }

    /// What `--fix` did: `Fixed 4 findings (keyboard_frame_begin_key 3, …) in 2 files.`, rules
    /// by count then id, and a line for the findings whose fixes are unsafe.
    static func fixSummary(_ files: [FileOutcome]) -> String {
        var byRule: [String: Int] = [:]
        for file in files { byRule.merge(file.fixedByRule, uniquingKeysWith: +) }
        let fixed = byRule.values.reduce(0, +)
        let fixedFiles = files.filter { $0.fixesApplied > 0 }.count
        let rules = byRule.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.key) \($0.value)" }
        var text = "Fixed \(fixed) \(fixed == 1 ? "finding" : "findings")"
        if !rules.isEmpty { text += " (\(rules.joined(separator: ", ")))" }
        text += " in \(fixedFiles) \(fixedFiles == 1 ? "file" : "files").\n"
        let unsafe = files.reduce(0) { $0 + $1.unsafeFixesLeft }
        if unsafe > 0 {
            text += "\(unsafe) more \(unsafe == 1 ? "finding has an unsafe fix" : "findings have unsafe fixes") (apply with --fix --unsafe-fixes after review).\n"
        }
        return text
    }
}

/// One `--reporter` and the `--output` that follows it (nil: standard output). A nil kind
/// is an `--output` given before any `--reporter`: it is for the default reporter.
struct ReportRequest: Sendable, Equatable {
    let kind: ReporterKind?
    let output: String?
}

/// The lint command's options, validated.
struct LintOptions: Sendable {
    var paths: [String]
    var configPath: String?
    var reports: [ReportRequest] = []
    var strict: Bool
    var quiet: Bool
    var fixMode: FixMode
    var jobs: Int
    var noColor: Bool
    var timing: Bool
    var deploymentTarget: OSVersion?
    var overrides: RuleOverrides
    var useStdin: Bool
    var stdinPath: String?
    var fileList: String?
    var forceExclude: Bool
    var baseline: String?
    var writeBaseline: String?
    var strictBaseline: Bool
    var staged: Bool
    var since: String?
    /// `kblint baseline prune`: rewrite the baseline without its fixed entries; no report.
    var pruneBaseline = false

    init(_ arguments: ParsedArguments) throws(UsageError) {
        paths = arguments.positionals
        configPath = arguments.value("--config")
        strict = arguments.has("--strict")
        quiet = arguments.has("--quiet")
        noColor = arguments.has("--no-color")
        timing = arguments.has("--timing")
        useStdin = arguments.has("--use-stdin")
        stdinPath = arguments.value("--stdin-path")
        fileList = arguments.value("--file-list")
        forceExclude = arguments.has("--force-exclude")
        baseline = arguments.value("--baseline")
        writeBaseline = arguments.value("--write-baseline")
        strictBaseline = arguments.has("--strict-baseline")
        staged = arguments.has("--staged")
        since = arguments.value("--since")
        overrides = RuleOverrides(
            enabled: arguments.all("--enable"), disabled: arguments.all("--disable"),
            only: arguments.values["--only"])

        let names = ReporterKind.allCases.map(\.rawValue)
        for pair in arguments.sequence {
            switch pair.name {
            case "--reporter":
                guard let kind = ReporterKind(rawValue: pair.value) else {
                    throw .invalidValue("--reporter", pair.value, names.joined(separator: ", "), among: names)
                }
                reports.append(ReportRequest(kind: kind, output: nil))
            case "--output":
                if let last = reports.last, last.output == nil {
                    reports[reports.count - 1] = ReportRequest(kind: last.kind, output: pair.value)
                } else if reports.isEmpty {
                    reports.append(ReportRequest(kind: nil, output: pair.value))
                } else {
                    throw UsageError(message: "'--output \(pair.value)' follows a --reporter that already has an --output; give each --output after its --reporter")
                }
            default: continue
            }
        }

        if let jobsText = arguments.value("--jobs") {
            guard let value = Int(jobsText), value >= 1 else {
                throw .invalidValue("--jobs", jobsText, "a whole number of at least 1")
            }
            jobs = value
        } else {
            jobs = activeProcessorCount()
        }
        if let targetText = arguments.value("--deployment-target") {
            guard let target = OSVersion(parsing: targetText) else {
                throw .invalidValue("--deployment-target", targetText, "an iOS version such as 15.4")
            }
            deploymentTarget = target
        }

        let fix = arguments.has("--fix"), diff = arguments.has("--diff"), unsafe = arguments.has("--unsafe-fixes")
        if fix && diff { throw UsageError(message: "--fix and --diff exclude each other: --diff shows what --fix would write") }
        if unsafe && !fix && !diff { throw UsageError(message: "--unsafe-fixes needs --fix or --diff") }
        if useStdin {
            if !paths.isEmpty || fileList != nil {
                throw UsageError(message: "--use-stdin lints standard input; give no paths or --file-list with it")
            }
            fixMode = fix ? .printSource(includingUnsafe: unsafe) : diff ? .diff(includingUnsafe: unsafe) : .report
        } else {
            if stdinPath != nil { throw UsageError(message: "--stdin-path needs --use-stdin") }
            fixMode = fix ? .write(includingUnsafe: unsafe) : diff ? .diff(includingUnsafe: unsafe) : .report
        }
        try validateWorkflowOptions(fix: fix, diff: diff)
    }
}

/// `--timing`: where the time went, how fast, and which deployment target the rules saw.
struct TimingReport {
    /// Until the last file to report was found (pass 1 reads and scans files meanwhile).
    let discovery: Duration
    /// From then to the end of pass 1, so that the phases add up to the run.
    let pass1: Duration
    let pass2: Duration
    let output: Duration
    let work: LintDriver.Work
    let files: Int
    let bytes: Int
    let jobs: Int
    /// Each deployment target the rules saw (with where it came from) and its file count,
    /// most common first.
    let deploymentTargets: [(description: String, files: Int)]
    static let listedTargets = 5

    var text: String {
        let total = discovery + pass1 + pass2 + output
        let megabytes = Double(bytes) / 1_000_000
        let seconds = Self.seconds(total)
        let throughput = seconds > 0 ? megabytes / seconds : 0
        var lines = [
            "timing: discovery \(Self.milliseconds(discovery)), pass 1 (facts) \(Self.milliseconds(pass1)), "
                + "pass 2 (rules) \(Self.milliseconds(pass2)), output \(Self.milliseconds(output)); "
                + "total \(Self.milliseconds(total))",
            "timing: \(files) files, \(Self.decimal(megabytes, 2)) MB, \(Self.decimal(throughput, 1)) MB/s, \(jobs) jobs",
            "timing: \(work.analysed) analysed for facts, \(work.checked) checked, then \(work.analysedForLookups) analysed "
                + "for the types rules looked up and \(work.checkedAgain) checked again",
        ]
        for target in deploymentTargets.prefix(Self.listedTargets) {
            lines.append("deployment target: \(target.description)"
                + (deploymentTargets.count > 1 ? " for \(target.files) \(target.files == 1 ? "file" : "files")" : ""))
        }
        if deploymentTargets.count > Self.listedTargets {
            let others = deploymentTargets.dropFirst(Self.listedTargets)
            lines.append("deployment target: \(others.count) more (\(others.reduce(0) { $0 + $1.files }) files)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    static func milliseconds(_ duration: Duration) -> String {
        decimal(seconds(duration) * 1000, 1) + " ms"
    }

    /// Fixed-point text without Foundation's formatters.
    static func decimal(_ value: Double, _ places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = Int((value * scale).rounded())
        let whole = scaled / Int(scale)
        let fraction = String(abs(scaled) % Int(scale))
        return places == 0 ? String(whole) : "\(whole).\(String(repeating: "0", count: places - fraction.count))\(fraction)"
    }
}

