import Lexer
import Rules

/// libFuzzer entry for the whole per-file pipeline the driver runs: lexing, the marker search
/// and the declaration scan (which must find every type the analysis finds), pass-1 facts,
/// the project merge, and `FileChecker` with every rule, suppression comments and the rounds
/// of safe and unsafe fixes (whose result must lex again), given the model pass 1 built as
/// the driver does (which must check as a model built again does).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAnalysis(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let file = SourceFile(path: "Fuzz.swift", bytes: Array(UnsafeBufferPointer(start: data, count: size)))
    let (project, model) = checkFacts(file)
    FuzzChecks.require(checkers[0].check(file, project: project, model: model) == checkers[0].check(file, project: project),
                       "checking with the kept model differs from checking with a new one")
    for checker in checkers {
        let fixed = checker.fix(file, project: project, includingUnsafe: true, model: model)
        checkRanges(fixed.initial, in: file.bytes.count)
        checkRanges(fixed.diagnostics, in: fixed.bytes.count)
        FuzzChecks.checkTokens(Lexer.tokenize(SourceFile(path: file.path, bytes: fixed.bytes)))
    }
    return 0
}

/// Every rule with its default options, under an unknown target and two known ones.
private let checkers = [nil, OSVersion(parsing: "12.0"), OSVersion(parsing: "17.0")].map { target in
    FileChecker(rules: RuleRegistry.all.map { ConfiguredRule($0) }, deploymentTarget: target)
}

private let allMarkers: [StaticString] = RuleRegistry.all.flatMap { $0.requiredMarkers } + [Suppression.marker]
    + FactScope.projectWideMarkers
private let markerSet = MarkerSet(allMarkers)

/// The lexer's contract, the one-pass marker search and declaration scan against their
/// references, and layered facts against merged ones; returns the file's project and model.
private func checkFacts(_ file: SourceFile) -> (ProjectFacts, FileModel) {
    let source = Lexer.tokenize(file)
    let model = FileModel(source)
    FuzzChecks.checkTokens(source)
    // The driver's one-pass marker search must agree with searching marker by marker.
    let present = markerSet.present(in: file.bytes)
    for marker in allMarkers {
        FuzzChecks.require(markerSet.mask(of: [marker]).intersects(present) == KeyboardVocabulary.mayContain([marker], in: file.bytes),
                           "the marker set disagrees on `\(marker)`")
    }
    let scan = markerSet.scan(file.bytes, collectingDeclarations: true)
    FuzzChecks.require(scan.markers == present, "collecting declarations changed the markers found")
    let facts = collectFacts(model)
    // The driver analyses a file only scanned when a rule may look up a type it declares:
    // the scan must find every type the analysis finds.
    if let declared = scan.declaredTypeNames.map(Set.init), let declaring = scan.declarationNames.map(Set.init) {
        for type in facts.types {
            let hash = FactScope.hash(ofTypeName: type.name)
            FuzzChecks.require(declared.contains(hash), "the declaration scan missed `\(type.name)`")
            // A lookup of what declarations say skips files that only extend the name.
            FuzzChecks.require(!(type.isDeclared || type.name.contains(".")) || declaring.contains(hash),
                               "the declaration scan missed the declaration of `\(type.name)`")
        }
    }
    let project = ProjectFacts(merging: [facts])
    // A checked file's facts layered on a project (here an empty one) answer as if merged,
    // and taking them out again leaves nothing.
    let layered = FileAnalysis(model, project: .empty).project
    for type in facts.types {
        FuzzChecks.require(layered.types[type.name]?.paths == project.types[type.name]?.paths
            && layered.types[type.name]?.inheritance == project.types[type.name]?.inheritance
            && layered.types[type.name]?.superclass == project.types[type.name]?.superclass
            && layered.usesKeyboardLayoutGuide(type.name) == project.usesKeyboardLayoutGuide(type.name),
            "layered facts of `\(type.name)` differ from merged ones")
        FuzzChecks.require(project.excluding(file.path).types[type.name] == nil, "`\(type.name)` left after excluding its file")
    }
    FuzzChecks.require(layered.keyboardAccessors == project.keyboardAccessors
        && layered.keyboardFrameProperties == project.keyboardFrameProperties
        && layered.keyboardHeightAccessors == project.keyboardHeightAccessors,
        "layered project facts differ from merged ones")
    return (project, model)
}

/// Each diagnostic and edit points inside a file of `size` bytes, and has a location.
private func checkRanges(_ diagnostics: [Diagnostic], in size: Int) {
    for diagnostic in diagnostics {
        FuzzChecks.require(diagnostic.range.lowerBound >= 0 && diagnostic.range.upperBound <= size,
                           "\(diagnostic.ruleID): range \(diagnostic.range) outside the file (\(size) bytes)")
        for edit in diagnostic.fix?.edits ?? [] {
            FuzzChecks.require(edit.range.lowerBound >= 0 && edit.range.upperBound <= size,
                               "\(diagnostic.ruleID): edit \(edit.range) outside the file (\(size) bytes)")
        }
    }
}
