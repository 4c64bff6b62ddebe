import Lexer
import Rules

/// One enabled rule for one file: the configured severity (nil: the rule's own) and its
/// options with defaults filled in.
struct RuleSelection: Sendable {
    let rule: any Rule.Type
    let severity: Severity?
    let options: [String: OptionValue]
}

/// What applies to one file, from the configuration that governs its folder. Shared by
/// reference: every input of a folder holds its plan, and inputs are copied often.
final class FilePlan: Sendable {
    let rules: [RuleSelection]
    let deploymentTarget: OSVersion?
    /// Where the target came from, for `--timing`.
    let deploymentTargetDescription: String
    /// The configured severity of each rule and engine diagnostic by id (nil: the rule's own).
    /// Engine diagnostics are always on; only their severity can change.
    let severities: [String: Severity?]
    /// The pipeline for files under this plan: the rules that can apply to files built for
    /// `deploymentTarget`, worked out once per plan, not once per file.
    let checker: FileChecker
    /// Whether a rule of the plan applies to some deployment targets only.
    let hasTargetDependentRules: Bool

    init(
        rules: [RuleSelection], deploymentTarget: OSVersion?, deploymentTargetDescription: String = "unknown",
        engineSeverities: [String: Severity] = [:]
    ) {
        self.rules = rules
        self.deploymentTarget = deploymentTarget
        self.deploymentTargetDescription = deploymentTargetDescription
        var severities = Dictionary(rules.map { ($0.rule.metadata.id, $0.severity) }, uniquingKeysWith: { first, _ in first })
        for (id, severity) in engineSeverities { severities[id] = severity }
        self.severities = severities
        checker = FileChecker(rules: rules.map { ConfiguredRule($0.rule, options: $0.options) }, deploymentTarget: deploymentTarget)
        hasTargetDependentRules = rules.contains { $0.rule.metadata.dependsOnDeploymentTarget }
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

/// A file read for its facts only: another file of the project of the linted files, with its
/// bytes when they do not come from disk (an editor's unsaved buffer).
struct FactSource: Sendable {
    let target: LintTarget
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
    /// The fixes applied, by rule id (none when the write failed).
    var fixedByRule: [String: Int] = [:]
    var fixesApplied: Int { fixedByRule.values.reduce(0, +) }
    /// Findings left whose fix is unsafe (applied only with `--unsafe-fixes`).
    var unsafeFixesLeft = 0
    var bytes = 0
    var linted = false
    /// The file read (nil for standard input and the index).
    var identity: FileIdentity?
    /// The type names the rules looked up while checking the file (`--fix` and `--diff`
    /// analyse every file first, so they leave it empty).
    var lookups = TypeNameLookups()
}

/// The files of a run, handed to pass 1 as they are found (`LintDriver.run(discovering:)`):
/// first the reported inputs, in order, then the fact sources. Used on the thread that
/// produces the inputs only.
final class InputFeed {
    private let items: ProducedItems<LintInput>
    /// The reported inputs added so far, in order.
    private(set) var reported: [LintInput] = []
    /// When the reported inputs ended (the first fact source came, or discovery returned):
    /// no reported input may follow.
    private var reportedEnd: ContinuousClock.Instant?

    fileprivate init(_ items: ProducedItems<LintInput>) {
        self.items = items
    }

    func report(_ input: LintInput) {
        precondition(reportedEnd == nil, "a reported input after a fact source")
        reported.append(input)
        items.add(input)
    }

    /// A file read for its facts only: another file of the project of the reported inputs.
    func addFactSource(_ source: FactSource) {
        _ = endReported()
        items.add(LintInput(target: source.target, plan: LintDriver.factsOnlyPlan, preloaded: source.preloaded))
    }

    /// When the last reported input came (now, unless a fact source came already).
    fileprivate func endReported() -> ContinuousClock.Instant {
        let end = reportedEnd ?? ContinuousClock.now
        reportedEnd = end
        return end
    }
}

/// The two passes of a run over many files, in parallel, with output that does not depend on
/// the number of jobs. Pass 1 keeps the facts of the files it analyses, and the models of
/// files pass 2 checks up to `retainedModelBytes`, and holds the files it is to analyse up
/// to `heldBytesForAnalysis` until it analyses them, so memory does not grow with the size of
/// the project beyond that, the facts, one file per job and the findings.
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
    /// Called between the passes: tests and the fuzz target edit files there, as an editor
    /// or another run may.
    var betweenPasses: (@Sendable () -> Void)?

    /// Whether the process exits right after the run (the `kblint` executable): the models
    /// and facts pass 1 kept, tens of megabytes of small objects, are then left to the exit
    /// instead of being freed one by one (`ProcessExit.keep`).
    var keepsResultsUntilExit = false

    /// How many bytes of source the pass-1 models kept for pass 2 may span together. A
    /// model takes about 10 bytes of memory per byte of source; a checked file whose model is
    /// not kept is lexed and indexed again in pass 2. 8 MB holds every checked file of 14
    /// public apps together (8 of their 71 MB), in about 85 MB.
    var retainedModelBytes = 8 << 20

    /// How many bytes of the files pass 1 is to analyse it may hold between reading them and
    /// analysing them (largest first, once all are read); a file beyond that is read again.
    var heldBytesForAnalysis = 32 << 20

    /// The plan of files read for their facts only: no rule runs on them. An input is such a
    /// file exactly when its plan is this one (pass 1 tells them from the reported inputs so).
    fileprivate static let factsOnlyPlan = FilePlan(rules: [], deploymentTarget: nil)

    struct Outcome: Sendable {
        /// The reported inputs, in the order they were found.
        var inputs: [LintInput]
        /// The outcome of each of `inputs`.
        var files: [FileOutcome]
        /// From the moment the last reported input was found to the end of pass 1: listing
        /// the other files of the project counts here, discovery does not.
        var pass1: Duration
        var pass2: Duration
        var work = Work()
    }

    /// How many analyses and checks a run made (`--timing`). A file analysed or checked twice
    /// counts twice.
    struct Work: Sendable, Equatable {
        /// Files analysed in pass 1 for their facts, with those the lookups of the checked
        /// files' analyses need.
        var analysed = 0
        /// Files checked in pass 2.
        var checked = 0
        /// Files analysed after pass 2 for the types the rules looked up.
        var analysedForLookups = 0
        /// Files checked again once those files were analysed.
        var checkedAgain = 0
    }

    /// Lints `reported` with the facts of those files and of `factSources`, files of the same
    /// project that are read for their facts only (never reported, checked or fixed).
    /// `Outcome.files` lists the outcomes of `reported`, in order.
    func run(_ reported: [LintInput], factSources: [FactSource] = []) -> Outcome {
        run { feed in
            for input in reported { feed.report(input) }
            for source in factSources { feed.addFactSource(source) }
        }
    }

    /// Lints the inputs `discover` reports with the facts of those and of the fact sources it
    /// adds after them, reading and scanning each file as soon as it is added: pass 1 works
    /// while discovery walks the tree. `discover` runs on the calling thread; the outcome
    /// depends only on the inputs and their order, never on when they came.
    func run(discovering discover: (InputFeed) -> Void) -> Outcome {
        let clock = ContinuousClock()
        let start = clock.now
        let progress1 = progressSink.flatMap { ProgressIndicator(sink: $0, total: nil, phase: "kblint: collecting facts", started: start) }
        // Every file is read and scanned first; the files to analyse then go largest first, so
        // that no job is left with a large file at the end of the pass.
        let heldBytes = ByteBudget(heldBytesForAnalysis)
        var reported: [LintInput] = []
        var reportedEnd = start
        let (inputs, scannedFiles) = parallelMap(producing: { items in
            let feed = InputFeed(items)
            discover(feed)
            reportedEnd = feed.endReported()
            reported = feed.reported
            progress1?.setTotal(items.count)
        }, jobs: jobs) { _, input -> ScannedFile in
            let scanned = scan(input, isReported: input.plan !== Self.factsOnlyPlan, holdingBytesWithin: heldBytes)
            if !scanned.needsAnalysis { progress1?.fileFinished() }
            return scanned
        }
        // The scans' results are moved out, not copied: this runs on one thread, once per file.
        var scanned = scannedFiles
        var firstPass: [FirstPassResult] = []
        firstPass.reserveCapacity(scanned.count)
        var heldBytesByInput: [[UInt8]?] = []
        heldBytesByInput.reserveCapacity(scanned.count)
        var needingAnalysis: [Int] = []
        for index in scanned.indices {
            var result = FirstPassResult(needsSecondPass: false, bytes: 0)
            swap(&result, &scanned[index].result)
            firstPass.append(result)
            heldBytesByInput.append(scanned[index].heldBytes.take())
            if scanned[index].needsAnalysis { needingAnalysis.append(index) }
        }
        scanned = []
        let toAnalyse = needingAnalysis.sorted { firstPass[$0].bytes > firstPass[$1].bytes }
        let pending = TakeOnceSlots(consume heldBytesByInput)
        let modelBudget = ByteBudget(retainedModelBytes)
        // Which inputs name a file an earlier one names too, and the names the scans read off
        // the files left unanalysed, follow from the scans alone: worked out beside the analyses.
        let (analyses, (duplicates, scannedNames)) = parallelMap(count: toAnalyse.count, jobs: jobs, alongside: { [firstPass, inputs] in
            let duplicates = Self.laterPaths(toTheSameFile: inputs, firstPass.map(\.identity))
            return (duplicates, ScannedNameIndex(firstPass, excluding: duplicates))
        }) { [firstPass] position -> FileAnalysed in
            defer { progress1?.fileFinished() }
            let index = toAnalyse[position]
            // A file gone since it was read adds no facts; pass 2 reports it.
            let held = pending.take(at: index)
            guard let bytes = held ?? (try? read(inputs[index])) else { return FileAnalysed() }
            // The scan's markers hold for the bytes it scanned, not for bytes read again.
            let model = FileModel(
                Lexer.tokenize(SourceFile(path: inputs[index].target.path, bytes: bytes)),
                catalogueMarkers: held == nil ? nil : firstPass[index].markers)
            let checked = firstPass[index].needsSecondPass
            let kept = checked && modelBudget.reserve(bytes.count)
            return FileAnalysed(
                facts: collectFacts(model), model: kept ? model : nil, typesLookedUp: checked ? model.typesItsAnalysisLooksUp : [])
        }
        var typesLookedUpByAnalyses: [String] = []
        for (index, analysis) in zip(toAnalyse, analyses) {
            firstPass[index].analysed = analysis.facts.map(AnalysedFacts.init)
            firstPass[index].model = analysis.model
            typesLookedUpByAnalyses += analysis.typesLookedUp
        }
        progress1?.finish()
        for index in duplicates { firstPass[index] = FirstPassResult(needsSecondPass: false, bytes: 0) }
        let checked = reported.indices.filter { firstPass[$0].needsSecondPass }
        // The analyses of the checked files look up some of their types, which their checks
        // then read: the files those lookups need are analysed now rather than after the
        // checks that make them. The declarations of the checked types' superclasses are not
        // foreseen: few checks walk up a lineage (those that do are completed after pass 2),
        // and foreseeing every one analysed about twice the files the checks went on to need.
        var work = Work(analysed: firstPass.count { $0.analysed != nil }, checked: checked.count)
        var foreseenLookups = TypeNameLookups()
        for name in typesLookedUpByAnalyses { foreseenLookups.insertFacts(ofTypeName: name) }
        // The facts gathered so far are merged beside those analyses, which add a few files
        // to merge after them.
        let factsSoFar = firstPass.compactMap { $0.analysed?.facts }
        let foreseen = analyseFiles(
            answering: foreseenLookups, &firstPass, inputs, scannedNames: scannedNames,
            alongside: { ProjectFacts(merging: factsSoFar) })
        work.analysed += foreseen.analysed
        var project = foreseen.side
        project.update(toMerge: firstPass.compactMap { $0.analysed?.facts })
        betweenPasses?()
        let middle = clock.now

        // Made on the first finding that points into another file: most runs have none.
        let inputsByPath = MadeOnFirstUse { [inputs] in
            Dictionary(inputs.map { ($0.target.path, $0) }, uniquingKeysWith: { first, _ in first })
        }
        // Another input's bytes as this run reads them: from the index with --staged.
        let relatedFile: RelatedFileLookup = { [self] path in
            guard let other = inputsByPath.value[path], let bytes = try? read(other) else { return nil }
            return (SourceFile(path: other.target.path, bytes: bytes), other.target.path)
        }
        func check(_ indices: [Int], in project: ProjectFacts, progress: ProgressIndicator?) -> [FileOutcome] {
            // Largest files first, so that no job is left with a large one at the end.
            let order = indices.indices.sorted { firstPass[indices[$0]].bytes > firstPass[indices[$1]].bytes }
            let outcomes = parallelMap(count: indices.count, jobs: jobs) { [firstPass] position -> FileOutcome in
                defer { progress?.fileFinished() }
                let index = indices[order[position]]
                return lint(inputs[index], project: project, relatedFile: relatedFile,
                            readInPass1: (firstPass[index].identity, firstPass[index].digest), model: firstPass[index].model)
            }
            var inOrder = outcomes
            for (position, outcome) in zip(order, outcomes) { inOrder[position] = outcome }
            return inOrder
        }
        let progress2 = progressSink.flatMap { ProgressIndicator(sink: $0, total: checked.count, phase: "kblint: linting", started: start) }
        var outcomes = reported.indices.map { index -> FileOutcome in
            // Pass 1 saw that nothing can be reported or fixed here: not read again.
            var outcome = FileOutcome()
            outcome.bytes = firstPass[index].bytes
            outcome.linted = !duplicates.contains(index)
            outcome.identity = firstPass[index].identity
            return outcome
        }
        for (index, outcome) in zip(checked, check(checked, in: project, progress: progress2)) { outcomes[index] = outcome }
        progress2?.finish()
        // The files declaring the types rules looked up are analysed, and the files whose
        // lookups they answer checked again, until every lookup met complete facts. Each
        // round analyses a file pass 1 only scanned, so there are fewer rounds than files.
        for _ in inputs.indices {
            var lookedUp = TypeNameLookups()
            for index in checked { lookedUp.formUnion(outcomes[index].lookups) }
            let (completed, analysed, _) = analyseFiles(
                answering: lookedUp, &firstPass, inputs, scannedNames: scannedNames, alongside: {})
            work.analysedForLookups += analysed
            guard !completed.isEmpty else { break }
            project.update(toMerge: firstPass.compactMap { $0.analysed?.facts })
            let again = checked.filter { !outcomes[$0].lookups.all.isDisjoint(with: completed) }
            work.checkedAgain += again.count
            for (index, outcome) in zip(again, check(again, in: project, progress: nil)) { outcomes[index] = outcome }
        }
        if keepsResultsUntilExit {
            ProcessExit.keep((firstPass, project))
        } else {
            releaseInParallel(&firstPass, jobs: jobs)
        }
        return Outcome(
            inputs: reported, files: outcomes, pass1: middle - reportedEnd,
            pass2: clock.now - middle, work: work)
    }

    /// What pass 1 keeps of a file: its facts, or the type names it may declare when it was
    /// not analysed, and whether pass 2 must look at it again.
    private struct FirstPassResult: Sendable {
        /// The file's facts: nil for the files pass 1 only scanned, which are nearly all. Held
        /// by reference: `FileFacts` is hundreds of bytes, and every pass over the run's
        /// results (one per file found) would copy them.
        var analysed: AnalysedFacts?
        var scannedNames: ScannedTypeNames?
        let needsSecondPass: Bool
        let bytes: Int
        /// The file read (nil for standard input and the index).
        var identity: FileIdentity?
        /// The hash of the bytes read, when fixing: pass 2 re-derives the file's facts when
        /// the file no longer holds them.
        var digest: UInt64?
        /// Which of `FileChecker.catalogueMarkers` the bytes read hold (nil when not read).
        var markers: MarkerSet.Mask?
        /// The file's model, kept for pass 2 (which builds it again when the file changed).
        var model: FileModel?
    }

    /// A file's facts behind one reference (see `FirstPassResult.analysed`).
    private final class AnalysedFacts: Sendable {
        let facts: FileFacts

        init(_ facts: FileFacts) {
            self.facts = facts
        }
    }

    /// The inputs that name a file an earlier input names too (a symlink, a folder given
    /// twice through a symlink, a hard link): each file is checked and fixed once, under the
    /// path that reaches it without symlinks when there is one, else the first.
    static func laterPaths(toTheSameFile inputs: [LintInput], _ identities: [FileIdentity?]) -> Set<Int> {
        // Nearly every file is reached once: only identities met twice get a group.
        var firstIndex: [FileIdentity: Int] = [:]
        firstIndex.reserveCapacity(identities.count)
        var groups: [FileIdentity: [Int]] = [:]
        for (index, identity) in identities.enumerated() {
            guard let identity else { continue }
            if let first = firstIndex[identity] {
                groups[identity, default: [first]].append(index)
            } else {
                firstIndex[identity] = index
            }
        }
        // Whether a folder is its own resolved path, once per folder: resolving every file's
        // whole path (a `readlink` per component) made a tree of hard-linked copies slow.
        var folderIsResolved: [String: Bool] = [:]
        func isReachedWithoutSymlinks(_ path: String) -> Bool {
            let name = LexicalPath.lastComponent(of: path)
            guard let folder = LexicalPath.parent(of: path), !name.isEmpty, name != ".", name != ".." else {
                return FileSystem.resolvedPath(path) == path
            }
            if folderIsResolved[folder] == nil { folderIsResolved[folder] = FileSystem.resolvedPath(folder) == folder }
            return folderIsResolved[folder]! && FileSystem.existsAndIsNoSymbolicLink(path)
        }
        var duplicates: Set<Int> = []
        for group in groups.values {
            let kept = group.first { isReachedWithoutSymlinks(inputs[$0].target.absolutePath) } ?? group[0]
            duplicates.formUnion(group.filter { $0 != kept })
        }
        return duplicates
    }

    /// Pass 1 for one file, before any analysis: whether it must be analysed, because it may
    /// hold project-wide facts or pass 2 checks it (see `FactScope`), with its bytes while
    /// `held` has room for them, else the types it declares, as its scan read them. A file
    /// read for its facts only (`isReported` false) is never checked.
    private func scan(_ input: LintInput, isReported: Bool, holdingBytesWithin held: ByteBudget) -> ScannedFile {
        // Pass 2 reports what went wrong.
        guard let (bytes, identity) = try? readWithIdentity(input) else {
            return ScannedFile(result: FirstPassResult(needsSecondPass: isReported, bytes: 0))
        }
        let digest = fixMode == .report ? nil : Self.digest(bytes)
        // Fixes edit files: every fact must be there before the first edit.
        let selective = !analysesEveryFile && fixMode == .report
        var scan = FileChecker.catalogueMarkers.scan(bytes, collectingDeclarations: selective)
        let needsSecondPass = isReported && input.plan.checker.mayReport(on: bytes, scan: scan)
        var result = FirstPassResult(needsSecondPass: needsSecondPass, bytes: bytes.count, identity: identity, digest: digest)
        result.markers = scan.markers
        // The names are taken out of the scan, so that sorting them does not copy them.
        if selective, !needsSecondPass, !FileChecker.mayHoldProjectWideFacts(scan.markers),
           let named = scan.declaredTypeNames.take(), let declaring = scan.declarationNames.take() {
            result.scannedNames = ScannedTypeNames(named: Self.distinct(named), declaring: Self.distinct(declaring))
            return ScannedFile(result: result)
        }
        return ScannedFile(result: result, needsAnalysis: true, heldBytes: held.reserve(bytes.count) ? bytes : nil)
    }

    /// What analysing a file in pass 1 gave: its facts, its model when kept for pass 2, and
    /// when pass 2 checks it the types its analysis will look up then
    /// (`FileModel.typesItsAnalysisLooksUp`).
    private struct FileAnalysed: Sendable {
        var facts: FileFacts?
        var model: FileModel?
        var typesLookedUp: [String] = []
    }

    /// What reading and scanning a file gave: what pass 1 keeps of it so far, whether it is
    /// to be analysed, and then its bytes unless they are to be read again.
    private struct ScannedFile: Sendable {
        var result: FirstPassResult
        var needsAnalysis = false
        var heldBytes: [UInt8]?
    }

    /// `names` sorted, each once: a file declares a handful of types, which sort faster than a
    /// set is built for them.
    private static func distinct(_ names: consuming [UInt64]) -> [UInt64] {
        names.sort()
        var kept = 0
        for index in names.indices where kept == 0 || names[kept - 1] != names[index] {
            names[kept] = names[index]
            kept += 1
        }
        names.removeLast(names.count - kept)
        return names
    }

    /// The type names the declaration scan read off a file that pass 1 did not analyse.
    private struct ScannedTypeNames: Sendable {
        /// `MarkerSet.Scan.declaredTypeNames`, each once.
        let named: [UInt64]
        /// `MarkerSet.Scan.declarationNames`, each once.
        let declaring: [UInt64]
    }

    /// The names pass 1's scans read off the files it did not analyse, by name
    /// (`ScannedTypeNames`), as they were before any lookup round: a file analysed since is
    /// still listed (`analyseFiles` tells them apart).
    private struct ScannedNameIndex: Sendable {
        let naming: NameOccurrences
        let declaring: NameOccurrences

        /// Leaves out the files at `excluded` (inputs naming a file an earlier one names).
        init(_ firstPass: [FirstPassResult], excluding excluded: Set<Int>) {
            let scanned = firstPass.indices.compactMap { index in
                excluded.contains(index) ? nil : firstPass[index].scannedNames.map { (index, $0) }
            }
            naming = NameOccurrences(scanned.map { ($0.0, $0.1.named) })
            declaring = NameOccurrences(scanned.map { ($0.0, $0.1.declaring) })
        }
    }

    /// Analyses the files that pass 1 only scanned and that `lookups` need (see
    /// `TypeNameLookups`), then those the declarations of the looked-up types' superclasses
    /// need, up to `ProjectFacts.maximumSuperclassDepth` levels (a check that reads a type
    /// walks up its lineage next). Only the lineages of looked-up types are followed: the
    /// other types of an analysed file are rarely looked up, and their superclasses would be
    /// more files to analyse.
    /// Returns the hashes of the type names whose facts changed (every type the analysed files
    /// declare or extend), how many files it analysed, and what `side` gave, run beside the
    /// first level's analyses (before returning when there are none).
    private func analyseFiles<Side: Sendable>(
        answering lookups: TypeNameLookups, _ firstPass: inout [FirstPassResult], _ inputs: [LintInput],
        scannedNames index: ScannedNameIndex, alongside side: @Sendable () -> Side
    ) -> (completed: Set<UInt64>, analysed: Int, side: Side) {
        // Every level picks among the files only scanned when the call began, then skips
        // those an earlier level analysed.
        let scannedAtStart = firstPass.map { $0.scannedNames != nil }
        // What the analysed files declare and extend: a declaration lookup of a name that
        // only nested types have needs one file extending the name (`TypeTable.declaration(of:)`).
        var declaredAtTopLevel: Set<UInt64> = [], declaredNested: Set<UInt64> = [], extended: Set<UInt64> = []
        for file in firstPass.indices where firstPass[file].scannedNames == nil {
            // Read in place: copying each type's facts out cost more than the loop's work.
            guard let types = firstPass[file].analysed?.facts.types else { continue }
            for position in types.indices {
                let name = types[position].name
                let hash = FactScope.hash(ofTypeName: name)
                if TypeTable.isQualified(name) {
                    declaredNested.insert(hash)
                } else if types[position].isDeclared {
                    declaredAtTopLevel.insert(hash)
                } else {
                    extended.insert(hash)
                }
            }
        }
        /// The files that may declare `name` first. Once they are analysed, for a name only
        /// nested types have, a file that may extend it: one that does settles that `name`
        /// means the extended type, and more of them would add nothing a declaration says.
        func filesNeeded(forDeclarationOf name: UInt64) -> [Int] {
            let declaring = index.declaring.files(holding: name).filter { scannedAtStart[$0] }
            if !declaring.isEmpty { return declaring }
            guard declaredNested.contains(name), !declaredAtTopLevel.contains(name), !extended.contains(name),
                  let extending = index.naming.files(holding: name).first(where: { scannedAtStart[$0] }) else { return [] }
            return [extending]
        }
        /// The files that may name every component of a qualified name.
        func filesNaming(every components: [UInt64]) -> [Int] {
            let lists = components.map { Set(index.naming.files(holding: $0).filter { scannedAtStart[$0] }) }
            guard let shortest = lists.min(by: { $0.count < $1.count }) else { return [] }
            return shortest.filter { file in lists.allSatisfy { $0.contains(file) } }
        }
        var round = Set(lookups.facts.flatMap { index.naming.files(holding: $0).filter { scannedAtStart[$0] } }
            + lookups.qualifiedFacts.flatMap(filesNaming(every:)) + lookups.declarations.flatMap(filesNeeded))
        // The looked-up types and the superclasses followed from them (last components).
        var lineages = lookups.declarations.union(lookups.facts).union(lookups.qualifiedFacts.compactMap(\.last))
        var completed: Set<UInt64> = []
        var analysed = 0
        var level = 0
        var sideResult: Side?
        while !round.isEmpty, level <= ProjectFacts.maximumSuperclassDepth {
            level += 1
            // Largest first, so that no job is left with a large file at the end.
            let files = round.sorted { firstPass[$0].bytes > firstPass[$1].bytes }
            analysed += files.count
            let analyse = { @Sendable (position: Int) -> FileFacts? in
                let input = inputs[files[position]]
                guard let bytes = try? read(input) else { return nil }
                return collectFacts(Lexer.tokenize(SourceFile(path: input.target.path, bytes: bytes)))
            }
            let facts: [FileFacts?]
            if sideResult == nil {
                (facts, sideResult) = parallelMap(count: files.count, jobs: jobs, alongside: side, analyse)
            } else {
                facts = parallelMap(count: files.count, jobs: jobs, analyse)
            }
            for (index, fileFacts) in zip(files, facts) {
                // The scan's names too: a file gone since pass 1 adds no facts, but the
                // lookups of names it declared may change.
                completed.formUnion(firstPass[index].scannedNames?.named ?? [])
                firstPass[index].scannedNames = nil
                firstPass[index].analysed = fileFacts.map(AnalysedFacts.init)
            }
            // Only once every file of this level counts as analysed: a superclass declared
            // in a file of the same level is not analysed again in the next.
            round = []
            for types in facts.lazy.compactMap({ $0?.types }) {
                for position in types.indices {
                    let name = FactScope.hash(ofTypeName: types[position].name)
                    completed.insert(name)
                    guard lineages.contains(name), let superclass = types[position].superclass else { continue }
                    let superclassName = FactScope.hash(ofTypeName: superclass)
                    lineages.insert(superclassName)
                    for file in filesNeeded(forDeclarationOf: superclassName)
                    where firstPass[file].scannedNames != nil {
                        round.insert(file)
                    }
                }
            }
        }
        return (completed, analysed, sideResult ?? side())
    }

    private func read(_ input: LintInput) throws(FileError) -> [UInt8] {
        try readWithIdentity(input).bytes
    }

    private func readWithIdentity(_ input: LintInput) throws(FileError) -> (bytes: [UInt8], identity: FileIdentity?) {
        if let preloaded = input.preloaded { return (preloaded, nil) }
        let file = try FileSystem.readFileAndIdentity(input.target.absolutePath)
        return (file.bytes, file.identity)
    }

    /// Enough to tell whether a file changed between the passes of one run.
    static func digest(_ bytes: [UInt8]) -> UInt64 {
        var hash = FNV1a()
        for byte in bytes { hash.add(byte) }
        return hash.value
    }

    /// The file a related location in another file points into, by its path in the facts, with
    /// its display path; nil when it cannot be read.
    typealias RelatedFileLookup = @Sendable (String) -> (file: SourceFile, path: String)?

    /// Pass 2 for one file: the plan's `FileChecker` (rules, suppression, fixes), then what
    /// the fix mode does with the result. The language server calls it too, with the
    /// project's facts it keeps and the open documents' texts. `readInPass1` is what pass 1
    /// saw of the file: its identity, and when fixing the hash of its bytes (the file's facts
    /// are derived again when they changed since). `model` is the file's model pass 1 kept,
    /// if any (`FileChecker.check` uses it only for the bytes it was built from).
    func lint(
        _ input: LintInput, project: ProjectFacts, relatedFile lookUp: RelatedFileLookup,
        readInPass1 firstPass: (identity: FileIdentity?, digest: UInt64?) = (nil, nil), model: FileModel? = nil
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
        outcome.identity = firstPass.identity
        let plan = input.plan
        let checker = plan.checker.suppressing(knownRuleIDs: knownRuleIDs, closeMatches: closeMatches)

        var project = project
        // The kept model's file when it was built from these bytes: its line table is made.
        let file = FileChecker.model(model, ifBuiltFrom: input.target.path, bytes: original)?.file
            ?? SourceFile(path: input.target.path, bytes: original)
        // The file changed since pass 1 (an editor, another run's fixes): fixes must be
        // computed from facts of the bytes they edit, or they would add what is there already.
        if let digest = firstPass.digest, digest != Self.digest(original) {
            project = project.replacing(collectFacts(Lexer.tokenize(file)))
        }
        var current = file
        var diagnostics: [Diagnostic]
        if fixMode == .report {
            let checked = checker.checkReportingLookups(file, project: project, model: model)
            diagnostics = checked.diagnostics
            outcome.lookups = checked.lookups
        } else {
            let fixed = checker.fix(file, project: project, includingUnsafe: fixMode.includesUnsafe, model: model)
            diagnostics = fixed.diagnostics
            outcome.fixedByRule = fixed.fixedByRule
            outcome.unsafeFixesLeft = fixed.diagnostics.filter { $0.fix?.applicability == .unsafe }.count
            current = SourceFile(path: input.target.path, bytes: fixed.bytes)
            if fixed.bytes != original {
                switch fixMode {
                case .report: break
                case .diff:
                    outcome.diff = UnifiedDiff.render(path: input.target.path, old: original, new: fixed.bytes)
                    // Nothing is written: report against the file as it is.
                    current = file
                    diagnostics = fixed.initial
                case .printSource:
                    outcome.fixedSource = fixed.bytes
                case .write:
                    do {
                        try write(fixed.bytes, over: input.target, expecting: original)
                    } catch {
                        outcome.errors.append(error)
                        outcome.fixedByRule = [:]
                        current = file
                        diagnostics = fixed.initial
                    }
                }
            } else if case .printSource = fixMode {
                outcome.fixedSource = original
            }
        }

        let lines = LineTexts(current)
        // Each other file a related location points into is read once for all findings, as
        // this run reads it (from the index with --staged).
        var relatedFiles: [String: (file: SourceFile, path: String)?] = [:]
        func relatedFile(_ path: String) -> (file: SourceFile, path: String)? {
            if let known = relatedFiles[path] { return known }
            let resolved = lookUp(path)
            relatedFiles[path] = resolved
            return resolved
        }
        // The anchors of every finding, then of the findings each one covers, in order.
        let anchored = diagnostics.map(\.range.lowerBound) + diagnostics.flatMap { $0.covered.map(\.range.lowerBound) }
        var anchors = (diagnostics.isEmpty ? []
            : FileChecker.model(model, ifBuiltFrom: current).map { FindingAnchor.anchors(of: anchored, in: $0) }
            ?? FindingAnchor.anchors(of: anchored, in: Lexer.tokenize(current)))[...]
        outcome.findings = diagnostics.map { diagnostic in
            var finding = Finding(
                diagnostic: diagnostic, severity: plan.severities[diagnostic.ruleID] ?? nil, lines: lines,
                path: input.target.path, absolutePath: input.target.absolutePath, relatedFile: relatedFile)
            finding.anchor = anchors.popFirst()
            return finding
        }
        for index in outcome.findings.indices {
            for covered in outcome.findings[index].covered.indices {
                outcome.findings[index].covered[covered].anchor = anchors.popFirst()
            }
        }
        return outcome
    }

    /// Writes the fixed file unless it changed on disk since it was read.
    func write(_ bytes: [UInt8], over target: LintTarget, expecting original: [UInt8]) throws(FileError) {
        try FileReplacement.replace(target.absolutePath, shownAs: target.path, expecting: original, with: bytes)
    }
}

/// A value made by the first job that asks for it; the others wait for it.
final class MadeOnFirstUse<Value: Sendable>: @unchecked Sendable {
    private let lock = PThreadLock()
    private var made: Value?
    private let make: @Sendable () -> Value

    init(_ make: @escaping @Sendable () -> Value) { self.make = make }

    var value: Value {
        lock.withLock {
            if let made { return made }
            let value = make()
            made = value
            return value
        }
    }
}

/// Bytes that jobs reserve from a fixed allowance, first come first served.
final class ByteBudget: @unchecked Sendable {
    private let lock = PThreadLock()
    private var left: Int

    init(_ allowance: Int) { left = allowance }

    /// Takes `count` bytes when that many are left.
    func reserve(_ count: Int) -> Bool {
        lock.withLock {
            guard count <= left else { return false }
            left -= count
            return true
        }
    }
}
