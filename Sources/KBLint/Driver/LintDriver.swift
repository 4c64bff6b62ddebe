import Lexer
import Rules

/// One enabled rule for one file: the configured severity (nil: the rule's own) and its
/// options with defaults filled in.
struct RuleSelection: Sendable {
    let rule: any Rule.Type
    let severity: Severity?
    let options: [String: OptionValue]
}

/// What applies to one file, from the configuration that governs its folder.
struct FilePlan: Sendable {
    let rules: [RuleSelection]
    let deploymentTarget: OSVersion?
    /// Where the target came from, for `--timing`.
    var deploymentTargetDescription = "unknown"
    /// Configured severities of engine diagnostics (always on; only their severity can change).
    var engineSeverities: [String: Severity] = [:]
    /// The rules that can apply to a file built for `deploymentTarget`.
    let applicableRules: [RuleSelection]
    /// The markers of those rules (nil when a rule is outside the catalogue): worked out once
    /// per plan, not once per file.
    let applicableMarkers: MarkerSet.Mask?

    init(
        rules: [RuleSelection], deploymentTarget: OSVersion?, deploymentTargetDescription: String = "unknown",
        engineSeverities: [String: Severity] = [:]
    ) {
        self.rules = rules
        self.deploymentTarget = deploymentTarget
        self.deploymentTargetDescription = deploymentTargetDescription
        self.engineSeverities = engineSeverities
        applicableRules = rules.filter { Self.applies($0.rule.metadata, to: deploymentTarget) }
        var markers = MarkerSet.Mask(bits: 0)
        for selection in applicableRules {
            guard let mask = LintDriver.markers(of: selection.rule) else {
                applicableMarkers = nil
                return
            }
            markers.bits |= mask.bits
        }
        applicableMarkers = markers
    }

    /// Whether a rule can apply anywhere in a file built for `target`. `#available` and
    /// `@available` only raise the effective target, so a configured target at or above a
    /// rule's `targetBelow` rules it out everywhere; a target below its `minimumTarget` does
    /// not (code under `if #available(iOS 26, *)` has 26), so those rules decide per position.
    /// An unknown target admits every rule.
    static func applies(_ metadata: RuleMetadata, to target: OSVersion?) -> Bool {
        guard let target, let below = metadata.targetBelow else { return true }
        return target < below
    }
}

/// What `--fix` / `--diff` do with the fixes rules attach.
enum FixMode: Sendable, Equatable {
    case report
    /// Write fixed files (atomically) and report what remains.
    case write(includingUnsafe: Bool)
    /// Print the fixes as a unified diff; write nothing.
    case diff(includingUnsafe: Bool)
    /// Standard input: print the fixed source on standard output.
    case printSource(includingUnsafe: Bool)

    var includesUnsafe: Bool {
        switch self {
        case .report: false
        case .write(let unsafe), .diff(let unsafe), .printSource(let unsafe): unsafe
        }
    }
}

/// A file to lint with what applies to it, and its bytes when they come from standard input.
struct LintInput: Sendable {
    let target: LintTarget
    let plan: FilePlan
    var preloaded: [UInt8]? = nil
}

/// What linting one file produced.
struct FileOutcome: Sendable {
    var findings: [Finding] = []
    var errors: [FileError] = []
    /// `--diff` output for this file.
    var diff: [UInt8] = []
    /// The fixed source (`--fix` with standard input).
    var fixedSource: [UInt8]?
    var fixesApplied = 0
    /// Types looked up whose files pass 1 did not analyse (name hashes).
    var unanalysedTypeLookups: Set<UInt64> = []
    var bytes = 0
    var linted = false
}

/// The two passes of a run over many files, in parallel, with output that does not depend on
/// the number of jobs. Nothing from pass 1 but the facts is kept, so memory does not grow
/// with the size of the project beyond one file per job plus the findings.
struct LintDriver: Sendable {
    let jobs: Int
    let fixMode: FixMode
    /// Every id a suppression comment may name.
    let knownRuleIDs: Set<String>
    /// Did-you-mean matches of a word among candidates, for suppression comments.
    let closeMatches: @Sendable (String, [String]) -> [String]
    /// Shown on a terminal for long runs.
    let progressSink: (any OutputSink)?
    /// Analyse every file in pass 1 instead of those `FactScope` selects: the reference the
    /// selection is tested against.
    var analysesEveryFile = false

    /// Fix rounds per file: a fix may enable another; a fix that keeps re-firing stops here.
    static let maximumFixRounds = 8

    struct Outcome: Sendable {
        var files: [FileOutcome]
        var pass1: Duration
        var pass2: Duration
    }

    func run(_ inputs: [LintInput]) -> Outcome {
        let clock = ContinuousClock()
        let start = clock.now
        let progress1 = progressSink.flatMap { ProgressIndicator(sink: $0, total: inputs.count, phase: "kblint: collecting facts", started: start) }
        var firstPass = parallelMap(count: inputs.count, jobs: jobs) { index -> FirstPassResult in
            defer { progress1?.fileFinished() }
            return firstPassResult(inputs[index])
        }
        progress1?.finish()
        var project = projectFacts(firstPass)
        let middle = clock.now

        let targetsByPath = Dictionary(inputs.map { ($0.target.path, $0.target) }, uniquingKeysWith: { first, _ in first })
        let progress2 = progressSink.flatMap { ProgressIndicator(sink: $0, total: inputs.count, phase: "kblint: linting", started: start) }
        var outcomes = parallelMap(count: inputs.count, jobs: jobs) { [firstPass, project] index -> FileOutcome in
            defer { progress2?.fileFinished() }
            guard firstPass[index].needsSecondPass else {
                // Pass 1 saw that nothing can be reported or fixed here: not read again.
                var outcome = FileOutcome()
                outcome.bytes = firstPass[index].bytes
                outcome.linted = true
                return outcome
            }
            return lint(inputs[index], declaring: firstPass[index].declaredTypeNames, project: project, targetsByPath: targetsByPath)
        }
        progress2?.finish()
        // Rules looked up types declared in files pass 1 only scanned: analyse those files and
        // check again the files that looked them up, until every lookup met complete facts.
        while true {
            let lookedUp = outcomes.reduce(into: Set<UInt64>()) { $0.formUnion($1.unanalysedTypeLookups) }
            guard !lookedUp.isEmpty else { break }
            let round = firstPass.indices.filter { firstPass[$0].declaredTypeNames?.contains(where: lookedUp.contains) ?? false }
            let analysed = parallelMap(count: round.count, jobs: jobs) { position -> FileFacts? in
                let input = inputs[round[position]]
                guard let bytes = try? read(input) else { return nil }
                return collectFacts(Lexer.tokenize(SourceFile(path: input.target.path, bytes: bytes)))
            }
            for (index, facts) in zip(round, analysed) {
                firstPass[index].declaredTypeNames = nil
                // A file gone since pass 1 adds no facts (pass 2 reports it if it checks it).
                firstPass[index].facts = facts
            }
            project = projectFacts(firstPass)
            let again = outcomes.indices.filter { !outcomes[$0].unanalysedTypeLookups.isEmpty }
            let checked = parallelMap(count: again.count, jobs: jobs) { [project, firstPass] position in
                lint(inputs[again[position]], declaring: firstPass[again[position]].declaredTypeNames,
                     project: project, targetsByPath: targetsByPath)
            }
            for (index, outcome) in zip(again, checked) { outcomes[index] = outcome }
        }
        return Outcome(files: outcomes, pass1: middle - start, pass2: clock.now - middle)
    }

    /// What pass 1 keeps of a file: its facts, or the type names it may declare when it was
    /// not analysed, and whether pass 2 must look at it again.
    private struct FirstPassResult: Sendable {
        var facts: FileFacts?
        var declaredTypeNames: [UInt64]?
        let needsSecondPass: Bool
        let bytes: Int
    }

    /// Pass 1 for one file: analysed when it may hold project-wide facts (see `FactScope`),
    /// else only scanned for the types it declares. Pass 2 analyses the files it checks
    /// anyway, with their own facts.
    private func firstPassResult(_ input: LintInput) -> FirstPassResult {
        // Pass 2 reports what went wrong.
        guard let bytes = try? read(input) else { return FirstPassResult(needsSecondPass: true, bytes: 0) }
        // Fixes edit files: every fact must be there before the first edit.
        let selective = !analysesEveryFile && fixMode == .report
        let scan = Self.markers.scan(bytes, collectingDeclarations: selective)
        let markers = scan.markers
        let needsSecondPass = needsSecondPass(bytes, markers: markers, plan: input.plan)
        if selective, !markers.intersects(Self.projectWideMask), let declared = scan.declaredTypeNames {
            return FirstPassResult(declaredTypeNames: Array(Set(declared)), needsSecondPass: needsSecondPass, bytes: bytes.count)
        }
        let facts = collectFacts(Lexer.tokenize(SourceFile(path: input.target.path, bytes: bytes)))
        return FirstPassResult(facts: facts, needsSecondPass: needsSecondPass, bytes: bytes.count)
    }

    private func projectFacts(_ firstPass: [FirstPassResult]) -> ProjectFacts {
        var unanalysed: [UInt64: Int] = [:]
        for result in firstPass {
            for name in result.declaredTypeNames ?? [] { unanalysed[name, default: 0] += 1 }
        }
        return ProjectFacts(merging: firstPass.compactMap(\.facts), unanalysedFiles: unanalysed)
    }

    /// Whether pass 2 can report anything on a file: a rule's byte pre-check passes, it has
    /// suppression comments (which may be superfluous), or it is not valid UTF-8. Most files
    /// of a project fail all three, and pass 2 then skips reading them again.
    private func needsSecondPass(_ bytes: [UInt8], markers: MarkerSet.Mask, plan: FilePlan) -> Bool {
        let mayTrigger = plan.applicableMarkers?.intersects(markers)
            ?? !candidates(plan.applicableRules, for: bytes, markers: markers).isEmpty
        return mayTrigger || markers.intersects(Self.directiveMask) || EngineDiagnostics.firstInvalidUTF8Offset(bytes) != nil
    }

    /// Every marker of the catalogue's rules, suppression comments and project-wide facts:
    /// each file is searched for all of them at once.
    private static let markers = MarkerSet(
        RuleRegistry.all.flatMap { $0.requiredMarkers } + [Suppression.marker] + FactScope.projectWideMarkers)
    private static let ruleMasks = Dictionary(uniqueKeysWithValues: RuleRegistry.all.map {
        (ObjectIdentifier($0), markers.mask(of: $0.requiredMarkers))
    })
    /// The markers of a catalogue rule; nil for a rule outside it (tests add some).
    static func markers(of rule: any Rule.Type) -> MarkerSet.Mask? { ruleMasks[ObjectIdentifier(rule)] }
    private static let directiveMask = markers.mask(of: [Suppression.marker])
    private static let projectWideMask = markers.mask(of: FactScope.projectWideMarkers)

    private func read(_ input: LintInput) throws(FileError) -> [UInt8] {
        if let preloaded = input.preloaded { return preloaded }
        return try FileSystem.readFile(input.target.absolutePath)
    }

    /// Pass 2 for one file: rules, suppression, fixes.
    /// `declaring`: the type names the file declares when pass 1 did not analyse it.
    private func lint(
        _ input: LintInput, declaring: [UInt64]?, project: ProjectFacts, targetsByPath: [String: LintTarget]
    ) -> FileOutcome {
        var outcome = FileOutcome()
        let original: [UInt8]
        do {
            original = try read(input)
        } catch {
            outcome.errors.append(FileError(path: input.target.path, reason: error.reason))
            return outcome
        }
        outcome.bytes = original.count
        outcome.linted = true
        let plan = input.plan
        let selections = plan.applicableRules

        let lookups = TypeLookups(checkedFileDeclares: Set(declaring ?? []))
        var project = project.noting(lookups: lookups)
        var current = SourceFile(path: input.target.path, bytes: original)
        let initial = check(current, selections: selections, plan: plan, project: project)
        var diagnostics = initial
        if fixMode != .report {
            for _ in 0..<Self.maximumFixRounds {
                let fixes = FixApplication.compatibleFixes(
                    diagnostics.compactMap(\.fix).filter { FixApplication.isApplicable($0, includingUnsafe: fixMode.includesUnsafe) },
                    fileSize: current.bytes.count)
                guard !fixes.isEmpty else { break }
                let fixed = FixApplication.apply(fixes.flatMap(\.edits), to: current.bytes)
                // A fix that changes nothing would be offered forever.
                guard fixed != current.bytes else { break }
                outcome.fixesApplied += fixes.count
                current = SourceFile(path: input.target.path, bytes: fixed)
                project = project.replacing(collectFacts(Lexer.tokenize(current)))
                diagnostics = check(current, selections: selections, plan: plan, project: project)
            }
            if current.bytes != original {
                switch fixMode {
                case .report: break
                case .diff:
                    outcome.diff = UnifiedDiff.render(path: input.target.path, old: original, new: current.bytes)
                    // Nothing is written: report against the file as it is.
                    current = SourceFile(path: input.target.path, bytes: original)
                    diagnostics = initial
                case .printSource:
                    outcome.fixedSource = current.bytes
                case .write:
                    do {
                        try write(current.bytes, over: input.target, expecting: original)
                    } catch {
                        outcome.errors.append(error)
                        outcome.fixesApplied = 0
                        current = SourceFile(path: input.target.path, bytes: original)
                        diagnostics = initial
                    }
                }
            } else if case .printSource = fixMode {
                outcome.fixedSource = original
            }
        }

        var severities = Dictionary(selections.map { ($0.rule.metadata.id, $0.severity) }, uniquingKeysWith: { first, _ in first })
        for (id, severity) in plan.engineSeverities { severities[id] = severity }
        let lines = LineTexts(current)
        outcome.findings = diagnostics.map { diagnostic in
            Finding(
                diagnostic: diagnostic, severity: severities[diagnostic.ruleID] ?? nil, lines: lines,
                path: input.target.path, absolutePath: input.target.absolutePath,
                relatedFile: { path in
                    guard let target = targetsByPath[path],
                          let bytes = try? FileSystem.readFile(target.absolutePath) else { return nil }
                    return (SourceFile(path: target.path, bytes: bytes), target.path)
                })
        }
        outcome.unanalysedTypeLookups = lookups.unanalysedNames
        return outcome
    }

    /// Rules, one finding per defect, then suppression comments, then `invalid_utf8`.
    private func check(
        _ file: SourceFile, selections: [RuleSelection], plan: FilePlan, project: ProjectFacts
    ) -> [Diagnostic] {
        let markers = Self.markers.present(in: file.bytes)
        let candidates = candidates(selections, for: file.bytes, markers: markers)
        var diagnostics: [Diagnostic] = []
        if !candidates.isEmpty || markers.intersects(Self.directiveMask) {
            let source = Lexer.tokenize(file)
            if !candidates.isEmpty {
                // One analysis per file, shared by every rule.
                let context = RuleContext(
                    analysis: FileAnalysis(source, project: project),
                    deploymentTarget: plan.deploymentTarget, options: [:])
                for selection in candidates {
                    diagnostics += selection.rule.init().check(context.withOptions(selection.options))
                }
                diagnostics = FindingMerging.merge(diagnostics, in: file)
            }
            diagnostics = Suppression.filter(
                diagnostics, in: source,
                activeRuleIDs: Set(selections.map { $0.rule.metadata.id }),
                knownRuleIDs: knownRuleIDs, closeMatches: closeMatches)
        }
        if let invalid = EngineDiagnostics.invalidUTF8Diagnostic(in: file) {
            diagnostics.append(invalid)
        }
        return diagnostics
    }

    /// The selected rules whose byte pre-check passes on `file`.
    private func candidates(_ selections: [RuleSelection], for bytes: [UInt8], markers: MarkerSet.Mask) -> [RuleSelection] {
        selections.filter { selection in
            Self.markers(of: selection.rule)?.intersects(markers) ?? selection.rule.mayTrigger(on: bytes)
        }
    }

    /// Writes the fixed file unless it changed on disk since it was read.
    func write(_ bytes: [UInt8], over target: LintTarget, expecting original: [UInt8]) throws(FileError) {
        let status = try FileSystem.status(of: target.absolutePath)
        let onDisk = try FileSystem.readFile(target.absolutePath)
        guard onDisk == original else {
            throw FileError(path: target.path, reason: "changed while kblint was fixing it; not written (run again)")
        }
        try FileSystem.replaceAtomically(target.absolutePath, with: bytes, permissions: status.permissions)
    }
}
