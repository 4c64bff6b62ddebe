import Lexer
import Rules

/// libFuzzer entry for the whole per-file analysis the driver runs: lexing, the marker search
/// and the declaration scan (which must find every type the analysis finds), pass-1 facts,
/// the project merge, the outline and every rule with its default options, suppression
/// comments, and applying the safe and unsafe fixes (whose result must lex again).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAnalysis(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let diagnostics = analyze(SourceFile(path: "Fuzz.swift", bytes: bytes))
    var edits: [Edit] = []
    var taken: [Range<Int>] = []
    for fix in diagnostics.compactMap(\.fix) {
        let ranges = fix.edits.map(\.range)
        guard !ranges.contains(where: { range in taken.contains { $0.overlaps(range) || $0.lowerBound == range.lowerBound } })
        else { continue }
        taken += ranges
        edits += fix.edits
    }
    if !edits.isEmpty {
        var fixed: [UInt8] = []
        var cursor = 0
        for edit in edits.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            guard edit.range.lowerBound >= cursor else { continue }
            fixed += bytes[cursor..<edit.range.lowerBound]
            fixed += Array(edit.replacement.utf8)
            cursor = edit.range.upperBound
        }
        fixed += bytes[cursor...]
        _ = analyze(SourceFile(path: "Fuzz.swift", bytes: fixed))
    }
    return 0
}

private let allRuleIDs = Set(RuleRegistry.all.map { $0.metadata.id })
private let allMarkers: [StaticString] = RuleRegistry.all.flatMap { $0.requiredMarkers } + [Suppression.marker]
    + FactScope.projectWideMarkers
private let markerSet = MarkerSet(allMarkers)

/// Every rule on `file`, as the driver runs them; checks that each diagnostic and edit
/// points inside the file.
private func analyze(_ file: SourceFile) -> [Diagnostic] {
    let source = Lexer.tokenize(file)
    FuzzChecks.checkTokens(source)
    // The driver's one-pass marker search must agree with searching marker by marker.
    let present = markerSet.present(in: file.bytes)
    for marker in allMarkers {
        FuzzChecks.require(markerSet.mask(of: [marker]).intersects(present) == KeyboardVocabulary.mayContain([marker], in: file.bytes),
                           "the marker set disagrees on `\(marker)`")
    }
    let scan = markerSet.scan(file.bytes, collectingDeclarations: true)
    FuzzChecks.require(scan.markers == present, "collecting declarations changed the markers found")
    let facts = collectFacts(source)
    // The driver analyses a file only scanned when a rule looks up a type it declares: the
    // scan must find every type the analysis finds.
    if let declared = scan.declaredTypeNames.map(Set.init) {
        for type in facts.types {
            FuzzChecks.require(declared.contains(FactScope.hash(ofTypeName: type.name)), "the declaration scan missed `\(type.name)`")
        }
    }
    let project = ProjectFacts(merging: [facts])
    // A checked file's facts layered on a project (here an empty one) answer as if merged.
    let layered = FileAnalysis(source, project: .empty).project
    for type in facts.types {
        FuzzChecks.require(layered.types[type.name]?.paths == project.types[type.name]?.paths
            && layered.types[type.name]?.inheritance == project.types[type.name]?.inheritance
            && layered.types[type.name]?.superclass == project.types[type.name]?.superclass
            && layered.usesKeyboardLayoutGuide(type.name) == project.usesKeyboardLayoutGuide(type.name),
            "layered facts of `\(type.name)` differ from merged ones")
    }
    FuzzChecks.require(layered.keyboardAccessors == project.keyboardAccessors
        && layered.keyboardFrameProperties == project.keyboardFrameProperties
        && layered.keyboardHeightAccessors == project.keyboardHeightAccessors,
        "layered project facts differ from merged ones")
    let analysis = FileAnalysis(source, project: project)
    var diagnostics: [Diagnostic] = []
    for rule in RuleRegistry.all {
        var options: [String: OptionValue] = [:]
        for option in rule.metadata.options { options[option.name] = option.defaultValue }
        for target: OSVersion? in [nil, OSVersion(parsing: "12.0"), OSVersion(parsing: "17.0")] {
            let context = RuleContext(analysis: analysis, deploymentTarget: target, options: options)
            diagnostics += rule.init().check(context)
        }
    }
    diagnostics = Suppression.filter(
        diagnostics, in: source, activeRuleIDs: allRuleIDs, knownRuleIDs: allRuleIDs)
    if let invalid = EngineDiagnostics.invalidUTF8Diagnostic(in: file) { diagnostics.append(invalid) }
    let size = file.bytes.count
    for diagnostic in diagnostics {
        FuzzChecks.require(diagnostic.range.lowerBound >= 0 && diagnostic.range.upperBound <= size,
                           "\(diagnostic.ruleID): range \(diagnostic.range) outside the file (\(size) bytes)")
        _ = file.location(of: diagnostic.range.lowerBound)
        for edit in diagnostic.fix?.edits ?? [] {
            FuzzChecks.require(edit.range.lowerBound >= 0 && edit.range.upperBound <= size,
                               "\(diagnostic.ruleID): edit \(edit.range) outside the file (\(size) bytes)")
        }
    }
    return diagnostics
}
