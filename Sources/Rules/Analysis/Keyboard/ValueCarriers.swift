import Lexer

/// The places besides names that carry keyboard values from one function to another: what
/// functions return, what computed properties give, what handlers store on `self`, and the
/// bottom edge of insets passed to a helper. Each is the union of what the flow's previous
/// pass put there; the flow runs a bounded number of passes, so a value crosses at most
/// that many of these hops.
struct KeyboardValueCarriers: Sendable {
    /// Per function: what its results carry.
    var returned: [FunctionID: KeyboardValue] = [:]
    /// Per computed property: what its getter gives.
    var computed: [PropertyID: KeyboardValue] = [:]
    /// Per stored property: what keyboard handlers of its type write into it.
    var stored: [Outline.OwnedName: KeyboardValue] = [:]
    /// Per parameter name token: what the `bottom:` of `UIEdgeInsets(…)` arguments passed
    /// to it carries.
    var insetBottoms: [Int: KeyboardValue] = [:]

    /// Merges `value` into `table[key]`; whether that changed it.
    static func merge<Key: Hashable>(_ value: KeyboardValue, into table: inout [Key: KeyboardValue], at key: Key) -> Bool {
        guard var merged = table[key] else {
            table[key] = value
            return true
        }
        let before = merged
        merged.merge(value)
        table[key] = merged
        return merged != before
    }
}

/// The result expressions of a file's functions and computed properties, found once.
struct ResultExpressions: Sendable {
    /// Per function: the expressions it returns.
    let functions: [FunctionID: [Range<Int>]]
    /// Per computed property: the expressions its getter returns.
    let properties: [PropertyID: [Range<Int>]]
    /// Computed properties by owner type and name.
    let computedByName: [Outline.OwnedName: PropertyID]
    /// Names of the file's computed properties with a result, whatever their owner.
    let computedNames: NameHashTable<Void>
    /// Stored property names by owner type.
    let storedNames: Set<Outline.OwnedName>
    /// The names of `computedByName` and `storedNames`, whatever their owner: a name not
    /// among them is no member with a value, without looking its owner up.
    let memberNames: NameHashTable<Void>

    init(_ source: TokenizedSource, _ outline: Outline) {
        var returns: [ScopeID: [Range<Int>]] = [:]
        for index in source.code.indices where source.kind(index) == .keyword && source.isWord(index, "return") {
            guard let scope = outline.executableScope(at: index) else { continue }
            let end = ExpressionBounds.end(source, from: index + 1, stopAtComma: false)
            guard end > index + 1, !source.startsLine(index + 1) || source.kind(index + 1) != .keyword else { continue }
            returns[scope, default: []].append((index + 1)..<end)
        }
        /// A body without `return` whose only content is an expression returns it.
        func results(ofBody scope: ScopeID) -> [Range<Int>] {
            if let found = returns[scope] { return found }
            let body = outline[scope].body
            guard !body.isEmpty, ExpressionBounds.end(source, from: body.lowerBound, stopAtComma: false) >= body.upperBound
            else { return [] }
            return [body]
        }
        var functions: [FunctionID: [Range<Int>]] = [:]
        for (id, function) in zip(outline.functionIDs, outline.functions) where function.returnType != nil {
            guard let scope = function.scope else { continue }
            let found = results(ofBody: scope)
            if !found.isEmpty { functions[id] = found }
        }
        var properties: [PropertyID: [Range<Int>]] = [:]
        var computedByName: [Outline.OwnedName: PropertyID] = [:]
        var storedNames = Set<Outline.OwnedName>(minimumCapacity: outline.properties.count)
        for (id, property) in zip(outline.propertyIDs, outline.properties) {
            let name = Outline.OwnedName(owner: property.owner, name: property.nameHash)
            guard property.kind == .computed, let body = property.bodyScope else {
                if property.owner != nil, !property.isStatic { storedNames.insert(name) }
                continue
            }
            let getter = property.accessors.first { $0.kind == .get }?.scope
            if getter == nil, !property.accessors.isEmpty { continue }
            let found = results(ofBody: getter ?? body)
            guard !found.isEmpty else { continue }
            properties[id] = found
            computedByName[name] = id
        }
        self.functions = functions
        self.properties = properties
        self.computedByName = computedByName
        var computedNames = NameHashTable<Void>()
        for name in computedByName.keys { computedNames.insert(name.name) }
        self.computedNames = computedNames
        var memberNames = computedNames
        for name in storedNames { memberNames.insert(name.name) }
        self.memberNames = memberNames
        self.storedNames = storedNames
    }
}

extension KeyboardValueEvaluator {
    /// What the name at `index` carries as a member of the enclosing type (bare or after
    /// `self.`): a computed property's result, or what keyboard handlers stored in a stored
    /// property, read from a keyboard handler or a computed property. `hash`: the name's.
    func memberValue(_ index: Int, hash: UInt64) -> KeyboardValue? {
        // Nothing is read off an empty carrier: no name to resolve.
        guard !carriers.computed.isEmpty || !carriers.stored.isEmpty else { return nil }
        guard results.memberNames.contains(hash), let type = outline.enclosingType(at: index) else { return nil }
        let name = Outline.OwnedName(owner: type, name: hash)
        if let property = results.computedByName[name] {
            // Not the property's own getter reading itself.
            guard let body = outline[property].bodyScope,
                  !outline[body].extent.contains(index) else { return nil }
            return carriers.computed[property]
        }
        guard results.storedNames.contains(name), let stored = carriers.stored[name] else { return nil }
        guard isInHandler(index) || isInComputedProperty(index) else { return nil }
        return stored
    }

    /// What the computed property named at `index` gives when its base is a local holding a
    /// value of a type of this file (`let keyboard = KeyboardInfo(…)` … `keyboard.height`).
    /// `hash`: the name's.
    func computedValue(ofMemberAt index: Int, hash: UInt64) -> KeyboardValue? {
        let base = index - 2
        guard !carriers.computed.isEmpty, results.computedNames.contains(hash),
              source.kind(base) == .identifier, source.kind(base - 1) != .period,
              let value = constants.binding(referencedBy: base)?.value, source.kind(value.lowerBound) == .identifier,
              source.kind(value.lowerBound + 1) == .leftParen,
              let types = constants.typesBySimpleName[source.text(at: value.lowerBound)] else { return nil }
        for type in types {
            if let property = results.computedByName[Outline.OwnedName(owner: type, name: hash)] {
                return carriers.computed[property]
            }
        }
        return nil
    }

    func isInComputedProperty(_ index: Int) -> Bool {
        guard let scope = outline.executableScope(at: index) else { return false }
        switch outline[scope].kind {
        case .property, .accessor(_, .get): return true
        default: return false
        }
    }

    /// What the call whose callee is `index` returns, when it means one function of the file.
    func returnedValue(ofCallAt index: Int) -> KeyboardValue? {
        guard !carriers.returned.isEmpty, let call = fileIndex.call(at: index),
              let function = fileIndex.function(calledBy: call) else { return nil }
        return carriers.returned[function]
    }

    /// What a method or computed property of another file named at `index` gives, when this
    /// file declares nothing of that name: its traits, read at `index` (the geometry was read
    /// in the other file, which reports it there). `hash`: the name's.
    func projectResult(at index: Int, hash: UInt64) -> KeyboardValue? {
        guard !projectResults.isEmpty, let traits = projectResults[hash],
              source.kind(index - 1) == .period || fileIndex.callAtCallee[index] != nil,
              outline.functions(named: hash).isEmpty, !results.computedNames.contains(hash)
        else { return nil }
        var value = KeyboardValue(traits: traits.subtracting([.screenSpace, .frameBegin]), origin: index)
        value.geometry = index
        return value
    }

    /// The results of this file's functions and computed properties that carry keyboard
    /// geometry, by name, for other files (`FileFacts.keyboardResults`).
    func resultFacts() -> [String: KeyboardValue.Traits] {
        var found: [String: KeyboardValue.Traits] = [:]
        for (function, value) in carriers.returned where value.isFrame && value.geometry != nil {
            found[outline[function].name, default: []].formUnion(value.traits)
        }
        for (property, value) in carriers.computed where value.isFrame && value.geometry != nil {
            found[outline[property].name, default: []].formUnion(value.traits)
        }
        return found
    }

    /// Recomputes what functions return and computed properties give from the pass just
    /// made; whether anything changed.
    mutating func collectResults() -> Bool {
        var changed = false
        for (function, expressions) in results.functions {
            for expression in expressions {
                guard let value = value(of: expression), value.isKeyboard else { continue }
                changed = KeyboardValueCarriers.merge(value, into: &carriers.returned, at: function) || changed
            }
        }
        for (property, expressions) in results.properties {
            for expression in expressions {
                guard let value = value(of: expression), value.isKeyboard else { continue }
                changed = KeyboardValueCarriers.merge(value, into: &carriers.computed, at: property) || changed
            }
        }
        return changed
    }

    /// `UIEdgeInsets(…)`, `UIEdgeInsets.init(…)` or `.init(…)` when `range` is exactly such a call.
    static func edgeInsetsCall(_ source: TokenizedSource, _ range: Range<Int>, _ callAtCallee: TokenTable,
                               _ calls: [CallSite]) -> CallSite? {
        var start = range.lowerBound
        if source.kind(start) == .period { start += 1 }
        if source.isWord(start, "UIEdgeInsets"), source.isWord(start + 2, "init") { start += 2 }
        guard source.isWord(start, "UIEdgeInsets") || source.isWord(start, "init"),
              let call = callAtCallee[start].map({ calls[$0] }), call.end + 1 == range.upperBound else { return nil }
        return call
    }
}

extension FileAnalysis {
    /// The keyboard value the bottom edge of insets written by `assignment` carries: the
    /// `bottom:` of a `UIEdgeInsets(…)` (directly or through a constant), the last
    /// `copy.bottom = …` of a copy written back, or the `bottom:` of the insets a caller
    /// passed to this parameter.
    func insetsBottomValue(of assignment: Assignment) -> KeyboardValue? {
        if let call = edgeInsetsCall(assignment.rhs) {
            return argument(call, "bottom").flatMap { keyboardValue(of: $0.value) }
        }
        if let copy = localCopyWriteBack(of: assignment) {
            return lastWrite(of: copy, member: "bottom").flatMap { keyboardValue(of: $0) }
        }
        guard assignment.rhs.count == 1, let evaluator,
              let entry = evaluator.entry(named: assignment.rhs.lowerBound) else { return nil }
        return evaluator.carriers.insetBottoms[entry.token]
    }
}

extension FileAnalysis {
    /// Declared types of results that can hold keyboard geometry (optional or not).
    static let geometryResultTypes: [StaticString] = [
        "CGFloat", "CGRect", "CGPoint", "CGSize", "UIEdgeInsets", "NSDirectionalEdgeInsets", "Double", "Float", "Int",
    ]

    /// The expressions the file's functions and computed properties of a geometry type
    /// (`geometryResultTypes`) return, with their names.
    var geometryResultExpressions: [(name: String, range: Range<Int>)] {
        guard let results = evaluator?.results else { return [] }
        func isGeometry(_ type: Range<Int>?) -> Bool {
            type.map { !$0.isEmpty && source.wordIndex($0.lowerBound, in: Self.geometryResultTypes) != nil } ?? false
        }
        var found: [(name: String, range: Range<Int>)] = []
        for (function, expressions) in results.functions where isGeometry(outline[function].returnType) {
            found += expressions.map { (outline[function].name, $0) }
        }
        for (property, expressions) in results.properties where isGeometry(outline[property].type) {
            found += expressions.map { (outline[property].name, $0) }
        }
        return found
    }
}
