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
        let firstPass = parallelMap(count: inputs.count, jobs: jobs) { index -> FirstPassResult in
            defer { progress1?.fileFinished() }
            guard let bytes = try? read(inputs[index]) else { return FirstPassResult(facts: nil, needsSecondPass: true, bytes: 0) }
            let source = SourceFile(path: inputs[index].target.path, bytes: bytes)
            return FirstPassResult(
                facts: collectFacts(Lexer.tokenize(source)),
                needsSecondPass: needsSecondPass(source, plan: inputs[index].plan), bytes: bytes.count)
        }
        progress1?.finish()
        let project = ProjectFacts(merging: firstPass.compactMap(\.facts))
        let middle = clock.now

        let targetsByPath = Dictionary(inputs.map { ($0.target.path, $0.target) }, uniquingKeysWith: { first, _ in first })
        let progress2 = progressSink.flatMap { ProgressIndicator(sink: $0, total: inputs.count, phase: "kblint: linting", started: start) }
        let outcomes = parallelMap(count: inputs.count, jobs: jobs) { index -> FileOutcome in
            defer { progress2?.fileFinished() }
            guard firstPass[index].needsSecondPass else {
                // Pass 1 saw that nothing can be reported or fixed here: not read again.
                var outcome = FileOutcome()
                outcome.bytes = firstPass[index].bytes
                outcome.linted = true
                return outcome
            }
            return lint(inputs[index], project: project, targetsByPath: targetsByPath)
        }
        progress2?.finish()
        return Outcome(files: outcomes, pass1: middle - start, pass2: clock.now - middle)
    }

    /// What pass 1 keeps of a file: its facts, and whether pass 2 must look at it again.
    private struct FirstPassResult: Sendable {
        let facts: FileFacts?
        let needsSecondPass: Bool
        let bytes: Int
    }

    /// Whether pass 2 can report anything on `file`: a rule's byte pre-check passes, it has
    /// suppression comments (which may be superfluous), or it is not valid UTF-8. Most files
    /// of a project fail all three, and pass 2 then skips reading them again.
    private func needsSecondPass(_ file: SourceFile, plan: FilePlan) -> Bool {
        let selections = plan.rules.filter { applies($0.rule.metadata, to: plan.deploymentTarget) }
        return !candidates(selections, for: file).isEmpty || Suppression.mayContainDirectives(file)
            || EngineDiagnostics.invalidUTF8Diagnostic(in: file) != nil
    }

    private func read(_ input: LintInput) throws(FileError) -> [UInt8] {
        if let preloaded = input.preloaded { return preloaded }
        return try FileSystem.readFile(input.target.absolutePath)
    }

    /// Pass 2 for one file: rules, suppression, fixes.
    private func lint(_ input: LintInput, project: ProjectFacts, targetsByPath: [String: LintTarget]) -> FileOutcome {
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
        let selections = plan.rules.filter { applies($0.rule.metadata, to: plan.deploymentTarget) }

        var current = SourceFile(path: input.target.path, bytes: original)
        let initial = check(current, selections: selections, plan: plan, project: project)
        var project = project
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
        return outcome
    }

    /// Rules, then suppression comments, then `invalid_utf8`.
    private func check(
        _ file: SourceFile, selections: [RuleSelection], plan: FilePlan, project: ProjectFacts
    ) -> [Diagnostic] {
        let candidates = candidates(selections, for: file)
        var diagnostics: [Diagnostic] = []
        if !candidates.isEmpty || Suppression.mayContainDirectives(file) {
            let source = Lexer.tokenize(file)
            if !candidates.isEmpty {
                // One analysis per file, shared by every rule.
                let context = RuleContext(
                    analysis: FileAnalysis(source, project: project),
                    deploymentTarget: plan.deploymentTarget, options: [:])
                for selection in candidates {
                    diagnostics += selection.rule.init().check(context.withOptions(selection.options))
                }
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
    private func candidates(_ selections: [RuleSelection], for file: SourceFile) -> [RuleSelection] {
        // Most rules share their markers: scan the file once per distinct marker list. The
        // lists are compared by address, so that this per-file step allocates nothing.
        var verdicts: [(markers: [StaticString], verdict: Bool)] = []
        return selections.filter { selection in
            let markers = selection.rule.requiredMarkers
            if let known = verdicts.first(where: { Self.sameMarkers($0.markers, markers) }) { return known.verdict }
            let verdict = selection.rule.mayTrigger(on: file.bytes)
            verdicts.append((markers, verdict))
            return verdict
        }
    }

    private static func sameMarkers(_ left: [StaticString], _ right: [StaticString]) -> Bool {
        left.count == right.count && zip(left, right).allSatisfy {
            $0.utf8Start == $1.utf8Start && $0.utf8CodeUnitCount == $1.utf8CodeUnitCount
        }
    }

    /// Whether a rule can apply anywhere in a file built for `target`. `#available` and
    /// `@available` only raise the effective target, so a configured target at or above a
    /// rule's `targetBelow` rules it out everywhere; a target below its `minimumTarget` does
    /// not (code under `if #available(iOS 26, *)` has 26), so those rules decide per position.
    /// An unknown target admits every rule.
    func applies(_ metadata: RuleMetadata, to target: OSVersion?) -> Bool {
        guard let target, let below = metadata.targetBelow else { return true }
        return target < below
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
