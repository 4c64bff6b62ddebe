import Lexer

/// The project's name tables a keyboard value flow reads (`ProjectFacts`' accessors, height
/// accessors, wrapper frame properties, results and arguments of other files). Given the
/// file, the flow is a function of what these tables answer where the evaluator asks them
/// (`KeyboardValueEvaluator.tablesAsked(at:)`), and of nothing else outside the file.
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

    /// The tables of a `KeyboardProjectTables`, as the questions an evaluator asks them.
    struct Tables: OptionSet, Sendable {
        let rawValue: UInt8
        static let accessors = Tables(rawValue: 1 << 0)
        static let heightAccessors = Tables(rawValue: 1 << 1)
        static let frameProperties = Tables(rawValue: 1 << 2)
        static let results = Tables(rawValue: 1 << 3)
    }

    /// Whether the two give the same answer to every question `evaluator`'s flow of its file
    /// asks and heeds: the arguments passed to each of its functions, and each table about
    /// each name where the flow reads that table (`KeyboardValueEvaluator.tablesAsked(at:)`).
    /// Tables that differ only on names the file never spells, or spells only where the flow
    /// does not read them (`state` in a project's frame properties, read by a file outside
    /// keyboard handlers), build the same flow. The names the tables answer differently about
    /// are found first (few: the project's keyboard helpers), and only when there are some is
    /// the file searched for a place that asks about one of them.
    func agree(with other: KeyboardProjectTables, askedBy evaluator: KeyboardValueEvaluator) -> Bool {
        for function in evaluator.outline.functions where arguments[function.nameHash] != other.arguments[function.nameHash] {
            return false
        }
        var differing = NameHashTable<Tables>()
        Self.collectDifferences(accessors, other.accessors, ==, in: .accessors, into: &differing)
        Self.collectDifferences(heightAccessors, other.heightAccessors, { _, _ in true }, in: .heightAccessors, into: &differing)
        Self.collectDifferences(frameProperties, other.frameProperties, ==, in: .frameProperties, into: &differing)
        Self.collectDifferences(results, other.results, ==, in: .results, into: &differing)
        return differing.isEmpty || !evaluator.asksAbout(differing)
    }

    /// Adds `table` to the entry in `differing` of each key that `first` and `second` do not
    /// both hold with equal values.
    private static func collectDifferences<Value>(
        _ first: NameHashTable<Value>, _ second: NameHashTable<Value>, _ equal: (Value, Value) -> Bool,
        in table: Tables, into differing: inout NameHashTable<Tables>
    ) {
        for (key, value) in zip(first.keys, first.values) {
            if let other = second[key], equal(value, other) { continue }
            differing.modify(key, default: []) { $0.insert(table) }
        }
        for key in second.keys where !first.contains(key) { differing.modify(key, default: []) { $0.insert(table) } }
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
    /// with on every question the file's flow asks (`KeyboardProjectTables.agree`).
    func rebound(to tables: KeyboardProjectTables) -> KeyboardEvaluation {
        var copy = self
        copy.evaluator.rebind(to: tables)
        copy.tables = tables
        return copy
    }
}

/// The latest keyboard evaluation built for one `FileModel`. Pass 2 checks a file with the
/// project's tables, pass 1 built its flow with the file's own: when the tables agree on what
/// the file's flow asks (most files read no accessor or helper of another file), the flow of
/// pass 1 is the flow of pass 2 and is not built again. Shared by every analysis of the model,
/// possibly on several threads: a lock guards it.
final class KeyboardEvaluationMemo: @unchecked Sendable {
    private let lock = PThreadLock()
    private var latest: KeyboardEvaluation?

    /// The evaluation of `model`'s file with `tables`: the latest one when its tables agree
    /// with `tables` on what its flow asks, else a new one, which becomes the latest.
    func evaluation(of model: FileModel, with tables: KeyboardProjectTables) -> KeyboardEvaluation {
        let known = lock.withLock { latest }
        if let known, known.tables.agree(with: tables, askedBy: known.evaluator) {
            return known.rebound(to: tables)
        }
        let built = KeyboardEvaluation(model, tables: tables, earlier: known?.evaluator)
        lock.withLock { latest = built }
        return built
    }
}
