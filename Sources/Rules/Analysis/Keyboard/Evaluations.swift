import Lexer

/// The project's name tables a keyboard value flow reads (`ProjectFacts`' accessors, height
/// accessors, wrapper frame properties, results and arguments of other files). Given the
/// file, the flow is a function of what these tables answer for the names the evaluator asks
/// them about, and of nothing else outside the file.
struct KeyboardProjectTables: Sendable {
    let accessors: NameHashTable<KeyboardUserInfoKey>
    let heightAccessors: NameHashTable<Void>
    let frameProperties: NameHashTable<KeyboardUserInfoKey>
    /// What methods and computed properties of other files give (`FileFacts.keyboardResults`).
    let results: NameHashTable<KeyboardValue.Traits>
    /// What calls in other files pass to functions of this name (`FileFacts.keyboardArguments`).
    let arguments: NameHashTable<[KeyboardArgumentFact]>

    init(_ project: ProjectFacts) {
        accessors = project.accessorHashes
        heightAccessors = project.heightAccessorHashes
        frameProperties = project.framePropertyHashes
        results = project.resultTraitHashes
        arguments = project.keyboardArguments
    }

    /// Whether the two give the same answer to every question a file's evaluator asks: the
    /// accessor, height accessor, frame property and result of each name of the file (a
    /// result only for names the file declares no function or computed property of, which
    /// the evaluator looks up before the result), and the arguments passed to each of its
    /// functions. A name the file never spells cannot be asked about, so tables that differ
    /// only elsewhere in the project build the same flow. The names the tables answer
    /// differently about are found first (few: the project's keyboard helpers), and only
    /// when there are some is the file searched for one of them.
    func agree(with other: KeyboardProjectTables, on names: KeyboardEvaluationNames) -> Bool {
        for function in names.functions.keys where arguments[function] != other.arguments[function] { return false }
        var differing = NameHashTable<Void>()
        Self.collectDifferences(accessors, other.accessors, ==, into: &differing)
        Self.collectDifferences(heightAccessors, other.heightAccessors, { _, _ in true }, into: &differing)
        Self.collectDifferences(frameProperties, other.frameProperties, ==, into: &differing)
        var differingResults = NameHashTable<Void>()
        Self.collectDifferences(results, other.results, ==, into: &differingResults)
        for name in differingResults.keys where !names.declaredResults.contains(name) { differing.insert(name) }
        return differing.isEmpty || !names.spellsAny(of: differing)
    }

    /// Adds to `differing` the keys that `first` and `second` do not both hold with equal
    /// values.
    private static func collectDifferences<Value>(
        _ first: NameHashTable<Value>, _ second: NameHashTable<Value>, _ equal: (Value, Value) -> Bool,
        into differing: inout NameHashTable<Void>
    ) {
        for (key, value) in zip(first.keys, first.values) {
            if let other = second[key], equal(value, other) { continue }
            differing.insert(key)
        }
        for key in second.keys where !first.contains(key) { differing.insert(key) }
    }
}

/// The names of a file its keyboard value evaluator can look up in `KeyboardProjectTables`.
struct KeyboardEvaluationNames: Sendable {
    /// The file, whose identifiers are every name the evaluator asks the tables about.
    let source: TokenizedSource
    /// The file's functions.
    let functions: NameHashTable<Void>
    /// Names of the file's functions and of its computed properties with a result: the
    /// evaluator never asks the project's results about them.
    let declaredResults: NameHashTable<Void>

    /// `results`: the file's (an evaluator of it holds them).
    init(_ fileIndex: FileIndex, _ results: ResultExpressions) {
        var functions = NameHashTable<Void>()
        for function in fileIndex.outline.functions { functions.insert(function.nameHash) }
        var declaredResults = functions
        for name in results.computedNames.keys { declaredResults.insert(name) }
        source = fileIndex.source
        self.functions = functions
        self.declaredResults = declaredResults
    }

    /// Whether an identifier of the file is one of `names`.
    func spellsAny(of names: NameHashTable<Void>) -> Bool {
        let code = source.code
        for index in code.indices where code[index].kind == .identifier && names.contains(source.nameHash(index)) {
            return true
        }
        return false
    }
}

/// A built keyboard value flow and the facts read off it, for one set of project tables.
struct KeyboardEvaluation: Sendable {
    private(set) var tables: KeyboardProjectTables
    private(set) var evaluator: KeyboardValueEvaluator
    /// `FactCollector.frameProperties` and `heightAccessors` with this flow.
    let frameProperties: [String: KeyboardUserInfoKey]
    let heightAccessors: Set<String>
    /// `KeyboardValueEvaluator.resultFacts` and `argumentFacts`.
    let results: [String: KeyboardValue.Traits]
    let arguments: [KeyboardArgumentFact]

    /// Builds the flow of `model`'s file with `tables`; `earlier`, an evaluator of the same
    /// model, gives what it read off the file alone.
    init(_ model: FileModel, tables: KeyboardProjectTables, earlier: KeyboardValueEvaluator? = nil) {
        var evaluator = earlier.map { KeyboardValueEvaluator(ofTheFileOf: $0, project: tables) }
            ?? KeyboardValueEvaluator(
                fileIndex: model.fileIndex, handlerAtToken: model.handlerAtToken, project: tables, constants: model.constants)
        evaluator.build(chainLinks: model.chainLinks, relayLinks: model.relayLinks)
        self.init(evaluator, tables: tables, model: model)
    }

    private init(_ evaluator: KeyboardValueEvaluator, tables: KeyboardProjectTables, model: FileModel) {
        let source = model.source, outline = model.fileIndex.outline
        self.tables = tables
        self.evaluator = evaluator
        frameProperties = FactCollector.frameProperties(source, outline, model.fileIndex.assignments, evaluator)
        heightAccessors = FactCollector.heightAccessors(source, outline, model.facts.keyboardAccessors, evaluator)
        results = evaluator.resultFacts()
        arguments = evaluator.argumentFacts()
    }

    /// The same evaluation as seen through `tables`, which agree with those it was built
    /// with on every name the file's evaluator asks about.
    func rebound(to tables: KeyboardProjectTables) -> KeyboardEvaluation {
        var copy = self
        copy.evaluator.rebind(to: tables)
        copy.tables = tables
        return copy
    }
}

/// The latest keyboard evaluation built for one `FileModel`. Pass 2 checks a file with the
/// project's tables, pass 1 built its flow with the file's own: when the tables agree on the
/// file's names (most files name no accessor or helper of another file), the flow of pass 1
/// is the flow of pass 2 and is not built again. Shared by every analysis of the model,
/// possibly on several threads: a lock guards it.
final class KeyboardEvaluationMemo: @unchecked Sendable {
    private let lock = PThreadLock()
    private var latest: KeyboardEvaluation?
    /// Built when first needed: the first evaluation of a model has nothing to compare with.
    private var names: KeyboardEvaluationNames?

    /// The evaluation of `model`'s file with `tables`: the latest one when its tables agree
    /// with `tables` on the file's names, else a new one, which becomes the latest.
    func evaluation(of model: FileModel, with tables: KeyboardProjectTables) -> KeyboardEvaluation {
        let known = lock.withLock { () -> (evaluation: KeyboardEvaluation, names: KeyboardEvaluationNames)? in
            guard let latest = self.latest else { return nil }
            let names = self.names ?? KeyboardEvaluationNames(model.fileIndex, latest.evaluator.results)
            self.names = names
            return (latest, names)
        }
        if let known, known.evaluation.tables.agree(with: tables, on: known.names) {
            return known.evaluation.rebound(to: tables)
        }
        let built = KeyboardEvaluation(model, tables: tables, earlier: known?.evaluation.evaluator)
        lock.withLock { latest = built }
        return built
    }
}
