import Lexer

/// The index of one file: its outline (scopes and declarations), every call with its
/// arguments, every assignment and local binding, the member chains, and the notification
/// registrations. Built once per file before any keyboard vocabulary is applied; everything
/// the analysis asks about code (what a name is bound to, which function a call means, where
/// a chain starts, what registers for a notification) has its one answer here.
///
/// Positions are code-token indices (`TokenizedSource.code`). The records are in token order:
/// calls by callee, assignments by operator, bindings by name token.
final class FileIndex: Sendable {
    let source: TokenizedSource
    let outline: Outline
    let chainStarts: ChainStarts
    let calls: [CallSite]
    let assignments: [Assignment]
    let bindings: [LocalBinding]
    /// Callee token → index in `calls`.
    let callAtCallee: TokenTable
    /// Indices in `calls` by the callee's name hash, in call order.
    let callsByName: NameGroups
    /// Binding indices by name hash, in token order.
    let bindingsByName: NameGroups
    /// Names bound by enum case patterns (`case .toolbar(let bar)`, `case let .custom(bar, _)`)
    /// by name hash: looked up rather than searched for from every use of a name.
    let caseBindings: NameHashTable<[CaseBinding]>
    /// Methods by base name and the qualified name of the type whose declaration or
    /// extension declares them (`typeMethodKey`): what a call on `self` can mean, looked up
    /// rather than searched.
    let functionsByTypeName: NameChains
    /// Per type declaration: the hash of its qualified name, the type half of the keys of
    /// `functionsByTypeName` (hashed once, not per call resolved).
    let qualifiedNameHashOfType: [UInt64]
    /// Notification registrations of the file (any notification and project wrappers), in
    /// call order.
    let registrations: [ObserverRegistration]
    /// What constants of the file stand for (notification names and keys held in them).
    let constants: ConstantResolver
    /// Per call (index in `calls`) that passes methods of the caller's type by name where a
    /// closure goes (`animations: updateLayout`): those methods (see `functions(passedAs:)`).
    let methodsPassedByName: [Int: [FunctionID]]
    /// Whether the file's bytes hold `KeyboardVocabulary.keyboardMarkers`: without them no
    /// keyboard handler, value or name is looked for.
    let mentionsKeyboard: Bool

    init(_ source: TokenizedSource) {
        self.source = source
        mentionsKeyboard = KeyboardVocabulary.mayContain(KeyboardVocabulary.keyboardMarkers, in: source.file.bytes)
        var tables = Outline.Tables(source)
        let chainStarts = ChainStarts(source)
        var matching = MatchingBuilder(source: source, outline: Outline(tables), chainStarts: chainStarts)
        matching.run()
        let callSites = matching.callSites()
        // The calls link their closures: the outline is built again around the linked
        // closures, sharing every other table with the one the matching read.
        for link in matching.closureCalls {
            tables.closures[link.closure.rawValue].call = link.call
            tables.closures[link.closure.rawValue].argumentLabel = link.label
            tables.closures[link.closure.rawValue].isTrailing = link.trailing
        }
        let outline = Outline(tables)
        self.outline = outline
        self.chainStarts = chainStarts
        calls = callSites
        assignments = matching.assignments
        bindings = matching.bindings
        var callAtCallee = TokenTable(tokenCount: source.code.count)
        for index in callSites.indices { callAtCallee[callSites[index].callee] = index }
        self.callAtCallee = callAtCallee
        callsByName = NameGroups(grouping: callSites.count) { source.nameHash(callSites[$0].callee) }
        var caseBindings = NameHashTable<[CaseBinding]>()
        // A case pattern's callee follows a `.` (see `casePatternKeyword`): other calls are
        // passed over without copying them.
        for index in callSites.indices
        where source.kind(callSites[index].callee - 1) == .period
            && Self.casePatternKeyword(callee: callSites[index].callee, receiver: callSites[index].receiver, source) != nil {
            for (position, argument) in callSites[index].arguments.enumerated() {
                let value = argument.value
                guard value.count == 1 || (value.count == 2 && source.wordIndex(value.lowerBound, in: ["let", "var"]) != nil),
                      let name = value.last, source.kind(name) == .identifier else { continue }
                caseBindings.modify(source.nameHash(name), default: []) {
                    $0.append(CaseBinding(name: name, call: index, position: position))
                }
            }
        }
        self.caseBindings = caseBindings
        let qualifiedNameHashOfType = outline.types.indices.map { NameHash.of(outline.types[$0].qualifiedName) }
        self.qualifiedNameHashOfType = qualifiedNameHashOfType
        let functionsByTypeName = NameChains(chaining: outline.functions.count) { index in
            outline.functions[index].owner.map {
                Self.typeMethodKey(name: outline.functions[index].nameHash, typeNameHash: qualifiedNameHashOfType[$0.rawValue])
            }
        }
        self.functionsByTypeName = functionsByTypeName
        let bindingsByName = NameGroups(grouping: matching.bindings.count) { matching.bindings[$0].nameHash }
        self.bindingsByName = bindingsByName
        let constants = ConstantResolver(source: source, outline: outline, bindings: matching.bindings,
                                         bindingsByName: bindingsByName)
        self.constants = constants
        registrations = RegistrationRecogniser(source: source, outline: outline, calls: callSites,
                                               constants: constants).registrations()
        var methodsPassedByName: [Int: [FunctionID]] = [:]
        for index in callSites.indices {
            var passed: [FunctionID] = []
            for argument in callSites[index].arguments where argument.closure == nil {
                let functions = Self.functions(passedAs: argument, source, outline, constants, functionsByTypeName)
                if !functions.isEmpty { passed += functions }
            }
            if !passed.isEmpty { methodsPassedByName[index] = passed }
        }
        self.methodsPassedByName = methodsPassedByName
    }

    /// The key of `functionsByTypeName` for the methods named like `name` of the type whose
    /// name hashes to `typeNameHash`: the name hash moved by an odd multiple of the type
    /// name's. Two methods share a key only as seldom as two names share a hash.
    static func typeMethodKey(name: UInt64, typeNameHash: UInt64) -> UInt64 {
        name &+ typeNameHash &* 0x9E37_79B9_7F4A_7C15
    }

    /// The methods named like `name` (hash) declared by the type whose qualified name is that
    /// of `type` (its declaration and extensions in this file).
    func methods(named name: UInt64, ofTypeNamedAs type: TypeID) -> Outline.FunctionsOfName {
        let key = Self.typeMethodKey(name: name, typeNameHash: qualifiedNameHashOfType[type.rawValue])
        return functionsByTypeName[key].lazy.map(FunctionID.init)
    }

    /// The `case` keyword of a call that is an enum case pattern (`case .x(…)`, `case let .x(…)`,
    /// `case Kind.x(…)`), if it is one.
    static func casePatternKeyword(of call: CallSite, _ source: TokenizedSource) -> Int? {
        casePatternKeyword(callee: call.callee, receiver: call.receiver, source)
    }

    /// `casePatternKeyword(of:_:)` from the two fields it reads, for the loop over every call
    /// of a file that reads them in place rather than copy each call.
    static func casePatternKeyword(callee: Int, receiver: Range<Int>?, _ source: TokenizedSource) -> Int? {
        guard source.kind(callee - 1) == .period else { return nil }
        var before = (receiver?.lowerBound ?? callee) - 1
        if receiver == nil { before -= 1 }
        if source.wordIndex(before, in: ["let", "var"]) != nil { before -= 1 }
        return source.isWord(before, "case") ? before : nil
    }

    /// Whether call `index` is made on `self` (`CallSite.isOnSelf`), read in place.
    func isCallOnSelf(_ index: Int) -> Bool {
        CallSite.isOnSelf(receiver: calls[index].receiver, callee: calls[index].callee, source)
    }

    /// The call whose callee is code token `index`.
    func call(at index: Int) -> CallSite? {
        callAtCallee[index].map { calls[$0] }
    }

    /// Indices in `calls` of the calls whose callee lies in `range`.
    func callIndices(in range: Range<Int>) -> Range<Int> {
        let low = firstIndex(in: calls, atOrAfter: range.lowerBound) { $0.callee }
        var end = low
        while end < calls.count, calls[end].callee < range.upperBound { end += 1 }
        return low..<end
    }

    /// The first token of the member chain that ends at `end` (see `ChainStarts`).
    func chainStart(endingAt end: Int) -> Int {
        chainStarts.chainStart(endingAt: end)
    }
}

/// Record indices by code token (a call by its callee, an assignment by its operator): a
/// table over the file's tokens, since these are asked about most names of a file and a
/// dictionary would hash each time. Tokens outside the file map to nothing.
struct TokenTable: Sendable {
    /// Per code token: the record index, -1 for none.
    private var slots: [Int32]

    init(tokenCount: Int) {
        slots = [Int32](repeating: -1, count: tokenCount)
    }

    /// Setting requires `token` to be a code token of the file.
    subscript(token: Int) -> Int? {
        get {
            guard token >= 0, token < slots.count else { return nil }
            let slot = slots[token]
            return slot >= 0 ? Int(slot) : nil
        }
        set { slots[token] = newValue.map { Int32($0) } ?? -1 }
    }
}

/// What reads a file through its index: the analysis and the builders of its keyboard
/// vocabulary (handlers, values, observers) see the index's records under the same names.
protocol FileIndexReader {
    var fileIndex: FileIndex { get }
}

extension FileIndexReader {
    var source: TokenizedSource { fileIndex.source }
    var outline: Outline { fileIndex.outline }
    /// In token order of their callee.
    var calls: [CallSite] { fileIndex.calls }
    var assignments: [Assignment] { fileIndex.assignments }
    var bindings: [LocalBinding] { fileIndex.bindings }
    /// Notification registrations of the file (any notification, project wrappers
    /// included), in call order.
    var registrations: [ObserverRegistration] { fileIndex.registrations }

    /// The first token of the member chain that ends at `end` (`FileIndex.chainStart(endingAt:)`).
    func chainStart(endingAt end: Int) -> Int { fileIndex.chainStart(endingAt: end) }
}

/// A name an enum case pattern binds: its token, the pattern's call (index in
/// `FileIndex.calls`) and the payload position it binds.
struct CaseBinding: Sendable {
    let name: Int
    let call: Int
    let position: Int
}
