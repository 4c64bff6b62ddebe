#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Lexer

/// A rule as configured for the files it checks: its options with defaults filled in.
public struct ConfiguredRule: Sendable {
    public let rule: any Rule.Type
    public let options: [String: OptionValue]

    /// `options` override the rule's defaults.
    public init(_ rule: any Rule.Type, options: [String: OptionValue] = [:]) {
        self.rule = rule
        var filled: [String: OptionValue] = [:]
        for option in rule.metadata.options { filled[option.name] = option.defaultValue }
        filled.merge(options) { _, configured in configured }
        self.options = filled
    }
}

/// The one per-file pipeline: byte pre-check (each rule's `requiredMarkers`) → lex → analysis
/// → rules → suppression comments → `invalid_utf8`, and the rounds of fixes on top. The
/// command line, the rule examples test and the fuzz targets all check files through it, so
/// what a test sees is what a user gets.
public struct FileChecker: Sendable {
    /// The rules that can apply to files built for `deploymentTarget`, in the order given.
    public let rules: [ConfiguredRule]
    public let deploymentTarget: OSVersion?
    /// Every rule that was enabled, applicable or not: a disable comment naming one of them is
    /// not superfluous (it may matter under another target).
    public let activeRuleIDs: Set<String>
    /// Every id a suppression comment may name.
    public private(set) var knownRuleIDs: Set<String>
    /// Did-you-mean matches of a word among candidates, for suppression comments.
    public private(set) var closeMatches: @Sendable (String, [String]) -> [String]
    /// The union of `rules`' markers; nil when a rule is outside the catalogue (tests add
    /// some), whose markers are then searched on their own.
    public let markers: MarkerSet.Mask?
    /// Each of `rules`' markers (`markers(of:)`), looked up once rather than for every file.
    private let ruleMarkers: [MarkerSet.Mask?]

    public init(
        rules: [ConfiguredRule], deploymentTarget: OSVersion?,
        knownRuleIDs: Set<String> = Self.catalogueRuleIDs,
        closeMatches: @escaping @Sendable (String, [String]) -> [String] = { _, _ in [] }
    ) {
        self.rules = rules.filter { $0.rule.metadata.applies(toFilesBuiltFor: deploymentTarget) }
        self.deploymentTarget = deploymentTarget
        activeRuleIDs = Set(rules.map { $0.rule.metadata.id })
        self.knownRuleIDs = knownRuleIDs
        self.closeMatches = closeMatches
        ruleMarkers = self.rules.map { Self.markers(of: $0.rule) }
        var union = MarkerSet.Mask(bits: 0)
        var complete = true
        for mask in ruleMarkers {
            if let mask { union.bits |= mask.bits } else { complete = false }
        }
        markers = complete ? union : nil
    }

    /// The same checker with other ids and spelling suggestions for suppression comments.
    public func suppressing(
        knownRuleIDs: Set<String>, closeMatches: @escaping @Sendable (String, [String]) -> [String]
    ) -> FileChecker {
        var checker = self
        checker.knownRuleIDs = knownRuleIDs
        checker.closeMatches = closeMatches
        return checker
    }

    /// Every catalogue rule id and engine diagnostic id.
    public static let catalogueRuleIDs = Set(RuleRegistry.all.map { $0.metadata.id }).union(EngineDiagnostics.unsuppressibleIDs)

    /// Every marker of the catalogue's rules, suppression comments and project-wide facts:
    /// each file is searched for all of them in one pass.
    public static let catalogueMarkers = MarkerSet(
        RuleRegistry.all.flatMap { $0.requiredMarkers } + [Suppression.marker, Suppression.swiftLintMarker]
            + FactScope.projectWideMarkers
            + FactScope.projectWideMarkerGroups.flatMap { $0 })
    private static let ruleMasks = Dictionary(uniqueKeysWithValues: RuleRegistry.all.map {
        (ObjectIdentifier($0), catalogueMarkers.mask(of: $0.requiredMarkers))
    })
    public static let directiveMask = catalogueMarkers.mask(of: [Suppression.marker])
    private static let projectWideMask = catalogueMarkers.mask(of: FactScope.projectWideMarkers)
    private static let projectWideGroupMasks = FactScope.projectWideMarkerGroups.map(catalogueMarkers.mask(of:))

    /// Whether a file whose `catalogueMarkers` are `present` may hold facts beyond those
    /// about its own types (see `FactScope`).
    public static func mayHoldProjectWideFacts(_ present: MarkerSet.Mask) -> Bool {
        present.intersects(projectWideMask) || projectWideGroupMasks.allSatisfy(present.intersects)
    }

    /// The markers of a catalogue rule; nil for a rule outside it.
    public static func markers(of rule: any Rule.Type) -> MarkerSet.Mask? { ruleMasks[ObjectIdentifier(rule)] }

    /// Whether `check` can report anything on `bytes`, which `scan` (by `catalogueMarkers`)
    /// read: a rule's pre-check passes, there are suppression comments (which may be
    /// superfluous), or the bytes are not valid UTF-8 (only bytes beyond ASCII are validated).
    public func mayReport(on bytes: [UInt8], scan: MarkerSet.Scan) -> Bool {
        let present = scan.markers
        let mayTrigger = markers?.intersects(present) ?? !candidates(for: bytes, present: present).isEmpty
        return mayTrigger || present.intersects(Self.directiveMask)
            || (!scan.isASCII && UTF8Validation.firstInvalidOffset(bytes) != nil)
    }

    /// The rules whose byte pre-check passes on `bytes`.
    func candidates(for bytes: [UInt8], present: MarkerSet.Mask) -> [ConfiguredRule] {
        zip(rules, ruleMarkers).compactMap { configured, mask in
            mask?.intersects(present) ?? configured.rule.mayTrigger(on: bytes) ? configured : nil
        }
    }

    /// What a check found, and the names of the types its rules looked up in the project.
    public struct CheckOutcome: Sendable {
        public var diagnostics: [Diagnostic]
        public var lookups: TypeNameLookups
    }

    /// `check`, returning the type names its rules looked up with the diagnostics.
    public func checkReportingLookups(_ file: SourceFile, project: ProjectFacts, model: FileModel? = nil) -> CheckOutcome {
        let lookups = TypeLookups()
        let diagnostics = check(file, project: project.recordingTypeLookups(into: lookups), model: model)
        var names = TypeNameLookups()
        for name in lookups.names { names.insertFacts(ofTypeName: name) }
        for name in lookups.declarationNames { names.insertDeclaration(ofTypeName: name) }
        return CheckOutcome(diagnostics: diagnostics, lookups: names)
    }

    /// Rules, one finding per defect (`FindingMerging`), then suppression comments, then
    /// `invalid_utf8`. `project` holds the facts of
    /// the other files; the file's own are layered on top of them when it lacks them.
    /// `model`, when given, is the file's model from an earlier pass: it is used when it was
    /// built from exactly `file`'s bytes, and built again otherwise.
    public func check(_ file: SourceFile, project: ProjectFacts, model: FileModel? = nil) -> [Diagnostic] {
        let model = Self.model(model, ifBuiltFrom: file)
        let present = model?.catalogueMarkers ?? Self.catalogueMarkers.present(in: file.bytes)
        let candidates = candidates(for: file.bytes, present: present)
        var diagnostics: [Diagnostic] = []
        if !candidates.isEmpty || present.intersects(Self.directiveMask) {
            let source = model?.source ?? Lexer.tokenize(file)
            if !candidates.isEmpty {
                // One analysis per file, shared by every rule.
                let analysis = FileAnalysis(model ?? FileModel(source, catalogueMarkers: present), project: project)
                for configured in candidates {
                    let context = RuleContext(analysis: analysis, deploymentTarget: deploymentTarget, options: configured.options)
                    diagnostics += configured.rule.init().check(context)
                }
                diagnostics = FindingMerging.merge(diagnostics, in: file)
            }
            diagnostics = Suppression.filter(
                diagnostics, in: source, activeRuleIDs: activeRuleIDs,
                knownRuleIDs: knownRuleIDs, markers: present, closeMatches: closeMatches)
        }
        if let invalid = EngineDiagnostics.invalidUTF8Diagnostic(in: file) {
            diagnostics.append(invalid)
        }
        return diagnostics
    }

    /// `model` when it was built from exactly `file` (its path and bytes), else nil. The bytes
    /// are compared with `memcmp`: element by element, comparing a large file's bytes cost
    /// more than building its model saved.
    public static func model(_ model: FileModel?, ifBuiltFrom file: SourceFile) -> FileModel? {
        self.model(model, ifBuiltFrom: file.path, bytes: file.bytes)
    }

    /// `model` when it was built from the file at `path` holding exactly `bytes`, else nil.
    public static func model(_ model: FileModel?, ifBuiltFrom path: String, bytes: [UInt8]) -> FileModel? {
        guard let model, model.file.path == path, model.file.bytes.count == bytes.count else { return nil }
        let equal = model.file.bytes.withUnsafeBufferPointer { built in
            bytes.withUnsafeBufferPointer { given in
                built.baseAddress == given.baseAddress || memcmp(built.baseAddress!, given.baseAddress!, built.count) == 0
            }
        }
        return equal ? model : nil
    }

    /// Fix rounds per file: a fix may enable another; a fix that keeps re-firing stops here.
    public static let maximumFixRounds = 8

    /// What `fix` did to a file.
    public struct FixOutcome: Sendable {
        /// The file's findings before any fix.
        public var initial: [Diagnostic]
        /// The fixed bytes (the original ones when nothing applied).
        public var bytes: [UInt8]
        /// The findings that remain in `bytes`.
        public var diagnostics: [Diagnostic]
        /// The fixes applied, by rule id.
        public var fixedByRule: [String: Int] = [:]
        public var fixesApplied: Int { fixedByRule.values.reduce(0, +) }
    }

    /// Checks the file, applies the compatible fixes its findings carry (safe ones, and
    /// unsafe ones when asked), and checks again, up to `maximumFixRounds` times. Each round
    /// lexes and analyses the file once; the project sees the file as it is after the round.
    public func fix(_ file: SourceFile, project: ProjectFacts, includingUnsafe: Bool, model: FileModel? = nil) -> FixOutcome {
        let first = check(file, project: project, model: model)
        var outcome = FixOutcome(initial: first, bytes: file.bytes, diagnostics: first)
        // The other files' facts; each round's analysis layers the file's current facts on top.
        var others: ProjectFacts?
        for _ in 0..<Self.maximumFixRounds {
            let fixable = outcome.diagnostics.filter {
                $0.fix.map { FixApplication.isApplicable($0, includingUnsafe: includingUnsafe) } ?? false
            }
            let chosen = FixApplication.compatibleFixIndices(fixable.map { $0.fix! }, fileSize: outcome.bytes.count)
            guard !chosen.isEmpty else { break }
            let fixed = FixApplication.apply(chosen.flatMap { fixable[$0].fix!.edits }, to: outcome.bytes)
            // A fix that changes nothing would be offered forever.
            guard fixed != outcome.bytes else { break }
            for index in chosen { outcome.fixedByRule[fixable[index].ruleID, default: 0] += 1 }
            outcome.bytes = fixed
            if others == nil { others = project.excluding(file.path) }
            outcome.diagnostics = check(SourceFile(path: file.path, bytes: fixed), project: others!)
        }
        return outcome
    }
}
