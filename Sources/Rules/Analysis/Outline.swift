import Lexer

/// The structure of one file, built in one forward pass over the code view with an explicit
/// scope stack (never recursion on input depth): types, functions, properties, closures,
/// control-flow blocks, `#if` and availability regions, and the innermost scope of every token.
/// Immutable and shared: every analysis of the file holds the one instance, so that passing
/// it on retains one object rather than each of its tables.
final class Outline: Sendable {
    let types: [TypeDeclaration]
    let functions: [FunctionDeclaration]
    let properties: [PropertyDeclaration]
    let closures: [Closure]
    let scopes: [Scope]
    let conditionalRegions: [ConditionalCompilationRegion]
    let availabilityRegions: [AvailabilityRegion]
    /// For each code token, the innermost scope containing it (-1 at file level). Braces
    /// belong to the scope they delimit.
    let scopeOfToken: [Int32]
    /// For each scope: the innermost type declaration around it and the innermost
    /// executable scope (itself included), -1 when none; precomputed so that the queries
    /// below cost O(1) whatever the nesting depth.
    let typeOfScope: [Int32]
    let executableOfScope: [Int32]
    /// For each scope: the body of the function it lies in (itself included), else its
    /// outermost enclosing scope; and the method (a function declared in a type) whose body
    /// holds it, -1 when none.
    let functionBodyOfScope: [Int32]
    let methodOfScope: [Int32]
    /// Function indices by name hash, and by owner type and name hash (`OwnedName.key`).
    let functionsByName: NameChains
    let functionsByOwnerAndName: NameChains
    /// The first property of each name declared directly in a type (or at file level), by
    /// `OwnedName.key`.
    let firstPropertyByOwnerAndName: NameHashTable<PropertyID>
    /// Per property: the next property of the same owner and name (`#if` branches declare
    /// one twice), -1 for none.
    let nextPropertyOfSameOwnerAndName: [Int]

    /// The tables as the builder fills them (see the properties of the same names).
    struct Tables {
        var types: [TypeDeclaration] = []
        var functions: [FunctionDeclaration] = []
        var properties: [PropertyDeclaration] = []
        var closures: [Closure] = []
        var scopes: [Scope] = []
        var conditionalRegions: [ConditionalCompilationRegion] = []
        var availabilityRegions: [AvailabilityRegion] = []
        var scopeOfToken: [Int32] = []
        var typeOfScope: [Int32] = []
        var executableOfScope: [Int32] = []
        var functionBodyOfScope: [Int32] = []
        var methodOfScope: [Int32] = []
        var functionsByName = NameChains()
        var functionsByOwnerAndName = NameChains()
        var firstPropertyByOwnerAndName = NameHashTable<PropertyID>()
        var nextPropertyOfSameOwnerAndName: [Int] = []
    }

    /// The outline holding `tables`.
    init(_ tables: Tables) {
        types = tables.types
        functions = tables.functions
        properties = tables.properties
        closures = tables.closures
        scopes = tables.scopes
        conditionalRegions = tables.conditionalRegions
        availabilityRegions = tables.availabilityRegions
        scopeOfToken = tables.scopeOfToken
        typeOfScope = tables.typeOfScope
        executableOfScope = tables.executableOfScope
        functionBodyOfScope = tables.functionBodyOfScope
        methodOfScope = tables.methodOfScope
        functionsByName = tables.functionsByName
        functionsByOwnerAndName = tables.functionsByOwnerAndName
        firstPropertyByOwnerAndName = tables.firstPropertyByOwnerAndName
        nextPropertyOfSameOwnerAndName = tables.nextPropertyOfSameOwnerAndName
    }

    /// The innermost scope containing code token `index`.
    func scope(at index: Int) -> ScopeID? {
        guard index >= 0, index < scopeOfToken.count else { return nil }
        let value = Int(scopeOfToken[index])
        return value >= 0 ? ScopeID(value) : nil
    }

    /// The innermost function, closure or accessor body containing `index`.
    func executableScope(at index: Int) -> ScopeID? {
        scope(at: index).flatMap(executableScope(ofScope:))
    }

    /// The innermost function, closure or accessor body around `scope` (itself included).
    func executableScope(ofScope scope: ScopeID) -> ScopeID? {
        ScopeID(tableEntry: executableOfScope[scope.rawValue])
    }

    /// The innermost type declaration containing `index`.
    func enclosingType(at index: Int) -> TypeID? {
        scope(at: index).flatMap(type(ofScope:))
    }

    /// The innermost type declaration around `scope` (the type itself when `scope` is its body).
    func type(ofScope scope: ScopeID) -> TypeID? {
        let value = Int(typeOfScope[scope.rawValue])
        return value >= 0 ? TypeID(value) : nil
    }

    /// Whether scope `inner` is `outer` or lies inside it (braces nest properly, so ranges
    /// decide).
    func scope(_ inner: ScopeID, isWithin outer: ScopeID) -> Bool {
        let a = self[inner], b = self[outer]
        return b.open <= a.open && a.close <= b.close
    }

    /// The body of the function that scope `scope` lies in (itself when it is one), else its
    /// outermost enclosing scope: closures inside a function see its parameters.
    func functionBody(ofScope scope: ScopeID) -> ScopeID { ScopeID(Int(functionBodyOfScope[scope.rawValue])) }

    /// The function whose body is `scope`, if any.
    func function(ofScope scope: ScopeID) -> FunctionID? {
        if case .function(let function) = self[scope].kind { return function }
        return nil
    }

    /// `scope` and the scopes around it, innermost first, ending before `end` (nil: at file
    /// level): the one walk outwards through a file's structure. Never more than
    /// `Limits.enclosingScopes` scopes.
    func enclosingScopes(from scope: ScopeID?, before end: ScopeID? = nil) -> EnclosingScopes {
        EnclosingScopes(scopes: scopes, executableOfScope: nil, upcoming: scope, end: end)
    }

    /// The scopes around code token `index` inside its innermost function, closure or
    /// accessor body, innermost first: the control-flow blocks whose conditions decide
    /// whether it runs (all scopes around it when it is in no such body).
    func scopesInsideExecutableBody(around index: Int) -> EnclosingScopes {
        enclosingScopes(from: scope(at: index), before: executableScope(at: index))
    }

    /// `scope` (when it is a function, closure or accessor body) and the executable bodies
    /// around it, innermost first, skipping control-flow blocks and types: a closure, then
    /// the function it is written in. Never more than `Limits.enclosingScopes` bodies.
    func enclosingExecutableScopes(from scope: ScopeID?) -> EnclosingScopes {
        EnclosingScopes(scopes: scopes, executableOfScope: executableOfScope,
                        upcoming: scope.flatMap(executableScope(ofScope:)), end: nil)
    }

    /// The kind, braces and parent of `scope`.
    subscript(scope: ScopeID) -> Scope { scopes[scope.rawValue] }

    /// The declaration of `type`.
    subscript(type: TypeID) -> TypeDeclaration { types[type.rawValue] }

    /// The declaration of `property`.
    subscript(property: PropertyID) -> PropertyDeclaration { properties[property.rawValue] }

    /// The description of `closure`, with the call it is an argument of.
    subscript(closure: ClosureID) -> Closure { closures[closure.rawValue] }

    /// The type declaration whose body holds the declaration of `type`, if any.
    func outerType(of type: TypeID) -> TypeID? {
        guard let scope = self[type].scope, let parent = self[scope].parent else { return nil }
        return enclosingType(at: self[parent].open)
    }

    /// `type` and the type declarations whose bodies hold it, innermost first: the walk
    /// outwards through nested types. Never more than `Limits.enclosingScopes` types.
    func enclosingTypes(from type: TypeID?) -> some Sequence<TypeID> {
        sequence(state: type) { current in
            defer { current = current.flatMap(self.outerType(of:)) }
            return current
        }.prefix(Limits.enclosingScopes)
    }

    /// Every type declaration of the file, in source order.
    var typeIDs: LazyMapCollection<Range<Int>, TypeID> { types.indices.lazy.map(TypeID.init) }

    /// Every property declaration of the file, in source order.
    var propertyIDs: LazyMapCollection<Range<Int>, PropertyID> { properties.indices.lazy.map(PropertyID.init) }

    /// The version that code token `index` can assume because of `#available`/`@available`.
    func availableVersion(at index: Int) -> OSVersion? {
        var best: OSVersion?
        for region in availabilityRegions where region.tokens.contains(index) {
            if best == nil || region.version > best! { best = region.version }
        }
        return best
    }

    struct OwnedName: Hashable, Sendable {
        let owner: TypeID?
        let name: UInt64

        /// The pair as one key of a `NameHashTable`: the name hash moved by an odd multiple
        /// of the owner's position (0 at file level). Names of one owner never share a key;
        /// names of different owners share one only as seldom as two names share a hash.
        var key: UInt64 {
            name &+ UInt64(truncatingIfNeeded: (owner?.rawValue ?? -1) + 1) &* 0x9E37_79B9_7F4A_7C15
        }
    }

    /// The functions of one name, in declaration order.
    typealias FunctionsOfName = LazyMapCollection<NameChains.Chain, FunctionID>

    /// Functions named like `name` (byte hash).
    func functions(named hash: UInt64) -> FunctionsOfName {
        functionsByName[hash].lazy.map(FunctionID.init)
    }

    /// Functions named like `name` declared directly in type `owner` (nil: at file level or
    /// local), without searching every function of that name.
    func functions(named hash: UInt64, in owner: TypeID?) -> FunctionsOfName {
        functionsByOwnerAndName[OwnedName(owner: owner, name: hash).key].lazy.map(FunctionID.init)
    }

    /// The first property named like `hash` declared directly in type `owner`: a lookup, not
    /// a search of every property (per assignment, that was quadratic in nested types).
    public func property(named hash: UInt64, in owner: TypeID?) -> PropertyDeclaration? {
        firstPropertyByOwnerAndName[OwnedName(owner: owner, name: hash)].map { self[$0] }
    }

    /// Every property named like `hash` declared directly in type `owner`, in source order.
    func properties(named hash: UInt64, in owner: TypeID?) -> some Sequence<PropertyID> {
        let chain = nextPropertyOfSameOwnerAndName
        return sequence(state: firstPropertyByOwnerAndName[OwnedName(owner: owner, name: hash)]) { upcoming in
            guard let current = upcoming else { return nil }
            let next = chain[current.rawValue]
            upcoming = next >= 0 ? PropertyID(next) : nil
            return current
        }
    }
}

/// The scopes of a walk outwards (see `Outline.enclosingScopes(from:before:)`): each step
/// goes to the parent scope, or with `executableOfScope` to the executable body around the
/// parent. Bounded by `Limits.enclosingScopes`, so that no input makes a walk long.
struct EnclosingScopes: Sequence, IteratorProtocol {
    private let scopes: [Scope]
    private let executableOfScope: [Int32]?
    private var upcoming: ScopeID?
    private let end: ScopeID?
    private var remaining = Limits.enclosingScopes

    fileprivate init(scopes: [Scope], executableOfScope: [Int32]?, upcoming: ScopeID?, end: ScopeID?) {
        self.scopes = scopes
        self.executableOfScope = executableOfScope
        self.upcoming = upcoming
        self.end = end
    }

    mutating func next() -> ScopeID? {
        guard let scope = upcoming, scope != end, remaining > 0 else { return nil }
        remaining -= 1
        let parent = scopes[scope.rawValue].parent
        if let executableOfScope {
            upcoming = parent.flatMap { ScopeID(tableEntry: executableOfScope[$0.rawValue]) }
        } else {
            upcoming = parent
        }
        return scope
    }
}

private extension ScopeID {
    /// The scope an entry of a per-scope table names; nil for -1 (none).
    init?(tableEntry: Int32) {
        guard tableEntry >= 0 else { return nil }
        self.init(Int(tableEntry))
    }
}

extension Outline {
    /// Builds the outline of `source`. Linear in the number of tokens apart from header
    /// scans, which are bounded.
    convenience init(_ source: TokenizedSource) {
        self.init(Tables(source))
    }
}

extension Outline.Tables {
    /// The tables of the outline of `source` (see `Outline.init(_:)`).
    init(_ source: TokenizedSource) {
        var builder = OutlineBuilder(source: source)
        builder.run()
        self = builder.outline
    }
}

private struct OutlineBuilder {
    let source: TokenizedSource
    var outline = Outline.Tables()
    /// Brace token → index in `declaredKinds` of what declared it: a token table, as every
    /// brace of the file asks it.
    var declaredBraces = TokenTable(tokenCount: 0)
    var declaredKinds: [Scope.Kind] = []
    /// Open scopes, innermost last.
    var stack: [Int] = []
    /// Control keywords waiting for their body: keyword index and bracket depth.
    var pendingControls: [(keyword: Int, depth: Int)] = []
    /// `#available` versions waiting for the body of their `if`/`guard`.
    var pendingAvailability: [Int: OSVersion] = [:]
    var depth = 0
    var lastProperty: (property: PropertyID, depth: Int)?
    /// The control keyword (`if`, `guard`, …) whose body the last classified brace opens.
    var controlOfLastBlock: Int?
    var conditionalStack: [(token: Int, condition: Range<Int>)] = []
    /// Tokens before this one have their scope in `outline.scopeOfToken` (`fillScopes`).
    var scopesFilled = 0

    init(source: TokenizedSource) {
        self.source = source
    }

    var code: [Token] { source.code }

    mutating func run() {
        let count = code.count
        outline.scopeOfToken = [Int32](repeating: -1, count: count)
        declaredBraces = TokenTable(tokenCount: count)
        // Every `{` opens one scope: the per-scope tables are allocated once.
        let braceCount = code.withUnsafeBufferPointer { tokens in
            tokens.reduce(0) { $1.kind == .leftBrace ? $0 + 1 : $0 }
        }
        outline.scopes.reserveCapacity(braceCount)
        outline.typeOfScope.reserveCapacity(braceCount)
        outline.executableOfScope.reserveCapacity(braceCount)
        outline.functionBodyOfScope.reserveCapacity(braceCount)
        outline.methodOfScope.reserveCapacity(braceCount)
        let code = self.code
        var index = 0
        while index < count {
            switch code[index].kind {
            case .leftBrace:
                fillScopes(upTo: index)
                openBrace(index)
                scopesFilled = index + 1
            case .rightBrace:
                fillScopes(upTo: index)
                closeBrace(index)
                // A `}` with a partner has its scope from `openBrace`; one without lies in
                // the scope still open.
                if outline.scopeOfToken[index] == -1, let top = stack.last {
                    outline.scopeOfToken[index] = Int32(top)
                }
                scopesFilled = index + 1
            case .leftParen, .leftSquare, .stringInterpolationStart:
                if source.partnerIndex(index) != nil { depth += 1 }
            case .rightParen, .rightSquare, .stringInterpolationEnd:
                if source.partnerIndex(index) != nil {
                    depth -= 1
                    dropPendingControls(deeperThan: depth)
                }
            case .keyword:
                keyword(index)
            case .identifier:
                if source.isWord(index, "actor"), source.kind(index + 1) == .identifier,
                   !source.startsLine(index + 1) {
                    parseType(index, kind: .actor)
                }
            case .poundKeyword:
                poundKeyword(index)
            default:
                break
            }
            index += 1
        }
        fillScopes(upTo: count)
        // Declarations are read in place: copying each would retain all its arrays.
        let functions = outline.functions
        outline.functionsByName = NameChains(chaining: functions.count) { functions[$0].nameHash }
        outline.functionsByOwnerAndName = NameChains(chaining: functions.count) {
            Outline.OwnedName(owner: functions[$0].owner, name: functions[$0].nameHash).key
        }
        outline.firstPropertyByOwnerAndName = NameHashTable(minimumCapacity: outline.properties.count)
        outline.nextPropertyOfSameOwnerAndName = [Int](repeating: -1, count: outline.properties.count)
        for index in outline.properties.indices.reversed() {
            let name = Outline.OwnedName(owner: outline.properties[index].owner, name: outline.properties[index].nameHash).key
            if let later = outline.firstPropertyByOwnerAndName[name] {
                outline.nextPropertyOfSameOwnerAndName[index] = later.rawValue
            }
            outline.firstPropertyByOwnerAndName.setValue(PropertyID(index), for: name)
        }
        for open in conditionalStack {
            outline.conditionalRegions.append(ConditionalCompilationRegion(
                ifToken: open.token, endifToken: count, condition: open.condition))
        }
    }

    // MARK: Braces

    /// Gives the tokens from `scopesFilled` up to `end` (exclusive) the innermost open scope.
    /// Only braces open and close scopes, so the tokens between two braces share theirs:
    /// they are filled when the next brace is reached, not one by one. Neither brace nor
    /// anything `openBrace` sets lies in between.
    mutating func fillScopes(upTo end: Int) {
        if let top = stack.last, scopesFilled < end {
            let scope = Int32(top)
            for index in scopesFilled..<end { outline.scopeOfToken[index] = scope }
        }
        scopesFilled = max(scopesFilled, end)
    }

    mutating func openBrace(_ index: Int) {
        let close = source.partnerIndex(index) ?? code.count
        let kind = classifyBrace(index)
        let scopeIndex = outline.scopes.count
        outline.scopes.append(Scope(kind: kind, open: index, close: close, parent: stack.last.map(ScopeID.init)))
        let parentType = stack.last.map { outline.typeOfScope[$0] } ?? -1
        let parentExecutable = stack.last.map { outline.executableOfScope[$0] } ?? -1
        if case .type(let type) = kind { outline.typeOfScope.append(Int32(type.rawValue)) } else { outline.typeOfScope.append(parentType) }
        outline.executableOfScope.append(outline.scopes[scopeIndex].isExecutableBody ? Int32(scopeIndex) : parentExecutable)
        if case .function(let function) = kind {
            outline.functionBodyOfScope.append(Int32(scopeIndex))
            outline.methodOfScope.append(outline.functions[function.rawValue].owner == nil
                ? stack.last.map { outline.methodOfScope[$0] } ?? -1 : Int32(function.rawValue))
        } else {
            outline.functionBodyOfScope.append(stack.last.map { outline.functionBodyOfScope[$0] } ?? Int32(scopeIndex))
            outline.methodOfScope.append(stack.last.map { outline.methodOfScope[$0] } ?? -1)
        }
        outline.scopeOfToken[index] = Int32(scopeIndex)
        if close < code.count { outline.scopeOfToken[close] = Int32(scopeIndex) }
        switch kind {
        case .type(let type):
            outline.types[type.rawValue].scope = ScopeID(scopeIndex)
            outline.types[type.rawValue].extent = outline.types[type.rawValue].extent.lowerBound..<(close + 1)
        case .function(let function):
            outline.functions[function.rawValue].scope = ScopeID(scopeIndex)
        case .property(let property):
            outline.properties[property.rawValue].bodyScope = ScopeID(scopeIndex)
        case .accessor(let property, let accessor):
            outline.properties[property.rawValue].accessors.append((accessor, ScopeID(scopeIndex)))
        case .closure:
            let closure = ClosureID(outline.closures.count)
            outline.scopes[scopeIndex] = Scope(
                kind: .closure(closure), open: index, close: close, parent: stack.last.map(ScopeID.init))
            outline.closures.append(describeClosure(scope: ScopeID(scopeIndex), open: index, close: close))
        case .block(let keyword):
            let control = controlOfLastBlock ?? keyword
            if !pendingAvailability.isEmpty, let version = pendingAvailability.removeValue(forKey: control) {
                if source.isWord(control, "guard") {
                    let enclosingEnd = stack.last.map { outline.scopes[$0].close } ?? code.count
                    if close < enclosingEnd {
                        outline.availabilityRegions.append(
                            AvailabilityRegion(tokens: (close + 1)..<enclosingEnd, version: version))
                    }
                } else {
                    outline.availabilityRegions.append(
                        AvailabilityRegion(tokens: index..<(close + 1), version: version))
                }
            }
        }
        stack.append(scopeIndex)
        depth += 1
    }

    mutating func closeBrace(_ index: Int) {
        guard let open = source.partnerIndex(index) else { return }
        if let position = stack.lastIndex(where: { outline.scopes[$0].open == open }) {
            repeat { stack.removeLast() } while stack.count > position
            depth -= 1
        }
        dropPendingControls(deeperThan: depth)
    }

    /// Drops the controls waiting for their body that were read deeper than `depth`; most
    /// closing brackets leave none, and then the list is not rewritten.
    mutating func dropPendingControls(deeperThan depth: Int) {
        guard pendingControls.contains(where: { $0.depth > depth }) else { return }
        pendingControls.removeAll { $0.depth > depth }
    }

    /// Records that the declaration `kind` opens its body at `brace` (a `{` of the file).
    mutating func declare(_ brace: Int, as kind: Scope.Kind) {
        declaredBraces[brace] = declaredKinds.count
        declaredKinds.append(kind)
    }

    mutating func classifyBrace(_ index: Int) -> Scope.Kind {
        controlOfLastBlock = nil
        if let declared = declaredBraces[index] {
            declaredBraces[index] = nil
            return declaredKinds[declared]
        }
        if let pending = pendingControls.last, pending.depth == depth {
            pendingControls.removeLast()
            controlOfLastBlock = pending.keyword
            if source.isWord(index - 1, "else") { return .block(keyword: index - 1) }
            return .block(keyword: pending.keyword)
        }
        let previous = index - 1
        if source.kind(previous) == .keyword,
           source.wordIndex(previous, in: ["else", "do", "defer", "repeat"]) != nil {
            return .block(keyword: previous)
        }
        // `var x = 0 { didSet { … } }`
        if source.wordIndex(index + 1, in: ["didSet", "willSet"]) != nil,
           let last = lastProperty, last.depth == depth {
            return .property(last.property)
        }
        // Accessors inside a property body: `get {`, `set(value) {`, `didSet {`.
        if let top = stack.last, case .property(let property) = outline.scopes[top].kind {
            var nameIndex = previous
            if source.kind(previous) == .rightParen, let open = source.partnerIndex(previous) {
                nameIndex = open - 1
            }
            if let accessor = source.wordIndex(
                nameIndex, in: ["get", "set", "didSet", "willSet", "_modify", "_read"]) {
                let kinds: [AccessorKind] = [.get, .set, .didSet, .willSet, .other, .other]
                return .accessor(property, kinds[accessor])
            }
        }
        // A closure: `openBrace` gives it its id when it describes it.
        return .closure(ClosureID(-1))
    }

    func describeClosure(scope: ScopeID, open: Int, close: Int) -> Closure {
        var closure = Closure(
            scope: scope, captureList: nil, parameters: [], inToken: nil, call: nil,
            argumentLabel: nil, isTrailing: false)
        var cursor = open + 1
        if source.kind(cursor) == .leftSquare, let end = source.partnerIndex(cursor), end < close {
            closure.captureList = cursor..<(end + 1)
            cursor = end + 1
        }
        // Look for `in` within a short, signature-shaped prefix.
        let signatureStart = cursor
        var steps = 0
        var names: [Int] = []
        while cursor < close, steps < Limits.declarationTokens {
            steps += 1
            let kind = source.kind(cursor)
            if kind == .keyword, source.isWord(cursor, "in") {
                closure.inToken = cursor
                closure.parameters = names
                return closure
            }
            switch kind {
            case .leftParen:
                guard let end = source.partnerIndex(cursor), end < close else { return closure }
                if cursor == signatureStart { names.append(contentsOf: parenthesizedNames(cursor, end)) }
                cursor = end + 1
            case .leftAngle, .leftSquare:
                guard let end = source.partnerIndex(cursor), end < close else { return closure }
                cursor = end + 1
            case .identifier:
                // `{ a, b in`: names at the start or after a comma (types follow `:` or `->`).
                if cursor == signatureStart || source.kind(cursor - 1) == .comma { names.append(cursor) }
                cursor += 1
            case .keyword:
                guard source.wordIndex(cursor, in: ["throws", "async", "rethrows", "_", "Any", "Self"]) != nil
                else { return closure }
                if source.isWord(cursor, "_") { names.append(cursor) }
                cursor += 1
            case .comma, .arrow, .period, .postfixQuestionMark, .exclamationMark, .colon, .atSign:
                cursor += 1
            default:
                return closure
            }
        }
        return closure
    }

    /// Parameter names of `(a, b)` or `(a: Int, b: Int)` in a closure signature.
    func parenthesizedNames(_ open: Int, _ close: Int) -> [Int] {
        var names: [Int] = []
        var cursor = open + 1
        var expectingName = true
        while cursor < close {
            if let end = source.partnerIndex(cursor), source.isOpeningBracket(cursor) {
                cursor = end + 1
                continue
            }
            if expectingName, source.kind(cursor) == .identifier || source.isWord(cursor, "_") {
                // `label name: Type` → the second name is the parameter.
                if source.kind(cursor + 1) == .identifier { cursor += 1 }
                names.append(cursor)
                expectingName = false
            } else if source.kind(cursor) == .comma {
                expectingName = true
            }
            cursor += 1
        }
        return names
    }

    // MARK: Keywords

    /// The keywords that open a statement with a body or a declaration, in the order
    /// `keyword(_:)` dispatches on.
    static let outlinedKeywords = WordList([
        "if", "guard", "while", "for", "switch", "catch",
        "class", "struct", "enum", "extension", "protocol",
        "func", "init", "deinit", "subscript", "var", "let",
    ])

    mutating func keyword(_ index: Int) {
        guard let which = source.wordIndex(index, in: Self.outlinedKeywords) else { return }
        // `import protocol Module.Name` (or `class`, `func`, `var`…) imports one declaration.
        guard !source.isWord(index - 1, "import") else { return }
        switch which {
        case 0...5:
            // `repeat { } while x` has no body of its own.
            if which == 2, source.kind(index - 1) == .rightBrace,
               let open = source.partnerIndex(index - 1),
               case let scope = Int(outline.scopeOfToken[open]), scope >= 0,
               case .block(let keyword) = outline.scopes[scope].kind,
               source.isWord(keyword, "repeat") {
                return
            }
            pendingControls.append((index, depth))
        case 6:
            if source.kind(index + 1) == .identifier { parseType(index, kind: .class) }
        case 7: parseType(index, kind: .struct)
        case 8: parseType(index, kind: .enum)
        case 9: parseType(index, kind: .extension)
        case 10: parseType(index, kind: .protocol)
        case 11: parseFunction(index, kind: .function)
        case 12:
            if source.kind(index - 1) != .period { parseFunction(index, kind: .initializer) }
        case 13: parseFunction(index, kind: .deinitializer)
        case 14: parseFunction(index, kind: .subscript)
        default:
            parseProperty(index)
        }
    }

    mutating func poundKeyword(_ index: Int) {
        if source.token(code[index], is: "#if") {
            conditionalStack.append((index, conditionRange(after: index)))
        } else if source.token(code[index], is: "#endif"), let open = conditionalStack.popLast() {
            outline.conditionalRegions.append(ConditionalCompilationRegion(
                ifToken: open.token, endifToken: index, condition: open.condition))
        } else if source.token(code[index], is: "#available"),
                  let version = AvailabilityParser.version(source, openParen: index + 1),
                  let pending = pendingControls.last,
                  source.wordIndex(pending.keyword, in: ["if", "guard", "while"]) != nil {
            pendingAvailability[pending.keyword] = version
        }
    }

    func conditionRange(after index: Int) -> Range<Int> {
        var end = index + 1
        while end < code.count, !code[end].isAtStartOfLine { end += 1 }
        return (index + 1)..<end
    }

    // MARK: Declarations

    /// The first token of the declaration that `keyword` belongs to (modifiers, attributes),
    /// the modifiers found, and the version of an `@available(iOS x, *)` attribute.
    func modifiers(before keyword: Int) -> (start: Int, names: [String], available: OSVersion?) {
        var names: [String] = []
        var available: OSVersion?
        var cursor = keyword - 1
        var start = keyword
        var steps = 0
        while cursor >= 0, steps < Limits.declarationTokens {
            steps += 1
            let kind = source.kind(cursor)
            if kind == .rightParen, let open = source.partnerIndex(cursor) {
                // `@available(...)`, `@objc(name)`, `private(set)`
                let name = open - 1
                if source.kind(name - 1) == .atSign {
                    let attribute = source.text(at: name)
                    if attribute == "available", let version = AvailabilityParser.version(source, openParen: open) {
                        available = max(available ?? version, version)
                    }
                    names.append(attribute)
                    start = name - 1
                    cursor = name - 2
                    continue
                }
                if let position = ModifierWords.position(source, name) {
                    names.append(ModifierWords.names[position])
                    start = name
                    cursor = name - 1
                    continue
                }
                break
            }
            if kind == .identifier || kind == .keyword {
                if source.kind(cursor - 1) == .atSign {
                    names.append(source.text(at: cursor))
                    start = cursor - 1
                    cursor -= 2
                    continue
                }
                if let position = ModifierWords.position(source, cursor) {
                    names.append(ModifierWords.names[position])
                    start = cursor
                    cursor -= 1
                    continue
                }
            }
            break
        }
        return (start, names, available)
    }

    mutating func parseType(_ keyword: Int, kind: TypeDeclaration.Kind) {
        var cursor = keyword + 1
        guard source.kind(cursor) == .identifier || source.kind(cursor) == .keyword else { return }
        var nameParts = [source.text(at: cursor)]
        let nameToken = cursor
        cursor += 1
        while source.kind(cursor) == .period, source.kind(cursor + 1) == .identifier {
            nameParts.append(source.text(at: cursor + 1))
            cursor += 2
        }
        if source.kind(cursor) == .leftAngle, let end = source.partnerIndex(cursor) { cursor = end + 1 }
        var inheritance: [String] = []
        if source.kind(cursor) == .colon {
            cursor += 1
            var current = ""
            var steps = 0
            while cursor < code.count, steps < Limits.declarationTokens {
                steps += 1
                let tokenKind = source.kind(cursor)
                if tokenKind == .leftBrace || source.isWord(cursor, "where") { break }
                if tokenKind == .rightBrace || tokenKind == .semicolon { break }
                if tokenKind == .comma {
                    if !current.isEmpty { inheritance.append(current) }
                    current = ""
                } else if tokenKind == .leftAngle || tokenKind == .leftParen, let end = source.partnerIndex(cursor) {
                    cursor = end
                } else if tokenKind == .identifier || tokenKind == .keyword {
                    current += source.text(at: cursor)
                } else if tokenKind == .period {
                    current += "."
                }
                cursor += 1
            }
            if !current.isEmpty { inheritance.append(current) }
        }
        let brace = findBody(from: cursor)
        let (start, _, available) = modifiers(before: keyword)
        let type = TypeID(outline.types.count)
        let end = brace.flatMap { source.partnerIndex($0) } ?? cursor
        let name = nameParts.joined(separator: ".")
        let parentType = stack.last.map { Int(outline.typeOfScope[$0]) } ?? -1
        outline.types.append(TypeDeclaration(
            kind: kind, name: name, simpleName: nameParts.last ?? "",
            qualifiedName: kind == .extension || parentType < 0 ? name : outline.types[parentType].qualifiedName + "." + name,
            nameToken: nameToken, inheritance: inheritance, scope: nil, extent: start..<(end + 1)))
        if let brace { declare(brace, as: .type(type)) }
        if let available { recordAvailability(start, end, available) }
    }

    /// The `{` that opens a declaration's body, scanning from `cursor` and skipping bracket
    /// groups; nil when the declaration ends first (a new line starting another declaration,
    /// `}` or `;`).
    func findBody(from start: Int) -> Int? {
        var cursor = start
        var steps = 0
        while cursor < code.count, steps < Limits.declarationTokens {
            steps += 1
            let kind = source.kind(cursor)
            switch kind {
            case .leftBrace: return cursor
            case .rightBrace, .semicolon: return nil
            case .leftParen, .leftSquare, .leftAngle:
                guard let end = source.partnerIndex(cursor) else { return nil }
                cursor = end + 1
                continue
            case .keyword, .atSign, .poundKeyword:
                if cursor > start, source.startsLine(cursor),
                   source.wordIndex(cursor, in: ["where", "throws", "rethrows", "async", "some", "any", "Self"]) == nil {
                    return nil
                }
            case .identifier:
                if cursor > start, source.startsLine(cursor),
                   source.wordIndex(cursor, in: ["async", "where"]) == nil,
                   ![.arrow, .colon, .comma, .period, .binaryOperator].contains(source.kind(cursor - 1)) {
                    return nil
                }
            default: break
            }
            cursor += 1
        }
        return nil
    }

    mutating func parseFunction(_ keyword: Int, kind: FunctionDeclaration.Kind) {
        var cursor = keyword + 1
        var name: String
        var nameToken = keyword
        switch kind {
        case .function:
            guard cursor < code.count else { return }
            name = source.text(at: cursor)
            if name.hasPrefix("`"), name.hasSuffix("`"), name.count >= 2 { name = String(name.dropFirst().dropLast()) }
            nameToken = cursor
            cursor += 1
        case .initializer:
            name = "init"
            if source.kind(cursor) == .postfixQuestionMark || source.kind(cursor) == .exclamationMark
                || source.kind(cursor) == .postfixOperator {
                cursor += 1
            }
        case .deinitializer: name = "deinit"
        case .subscript: name = "subscript"
        }
        if source.kind(cursor) == .leftAngle, let end = source.partnerIndex(cursor) { cursor = end + 1 }
        var parameters: [Parameter] = []
        if kind != .deinitializer {
            guard source.kind(cursor) == .leftParen, let close = source.partnerIndex(cursor) else { return }
            parameters = parseParameters(cursor, close)
            cursor = close + 1
        }
        let brace = findBody(from: cursor)
        var returnType: Range<Int>?
        if source.kind(cursor) == .arrow || (source.isWord(cursor, "throws") || source.isWord(cursor, "async")) {
            var arrow = cursor
            while arrow < (brace ?? cursor + 4), source.kind(arrow) != .arrow { arrow += 1 }
            if source.kind(arrow) == .arrow {
                var end = arrow + 1
                while end < (brace ?? min(arrow + 40, code.count)), !source.isWord(end, "where") {
                    if source.startsLine(end), end > arrow + 1 { break }
                    end += 1
                }
                returnType = (arrow + 1)..<end
            }
        }
        let (start, modifierNames, available) = modifiers(before: keyword)
        let owner = directOwner()
        let function = FunctionID(outline.functions.count)
        outline.functions.append(FunctionDeclaration(
            kind: kind, name: name, nameHash: source.nameHash(nameToken), nameToken: nameToken,
            parameters: parameters, returnType: returnType, modifiers: modifierNames, scope: nil, owner: owner))
        if let brace { declare(brace, as: .function(function)) }
        if let available {
            let end = brace.flatMap { source.partnerIndex($0) } ?? cursor
            recordAvailability(start, end, available)
        }
    }

    func parseParameters(_ open: Int, _ close: Int) -> [Parameter] {
        var parameters: [Parameter] = []
        var cursor = open + 1
        while cursor < close {
            // One parameter: names up to `:`, then the type up to `=`, `,` or `)`. Only the
            // last two names matter (label and name).
            var lastName: Int?, nameBefore: Int?
            while cursor < close, source.kind(cursor) != .colon, source.kind(cursor) != .comma {
                if source.kind(cursor) == .identifier || source.kind(cursor) == .keyword {
                    nameBefore = lastName
                    lastName = cursor
                }
                if source.isOpeningBracket(cursor), let end = source.partnerIndex(cursor) { cursor = end }
                cursor += 1
            }
            var typeStart = cursor, typeEnd = cursor
            var hasDefault = false
            if source.kind(cursor) == .colon {
                cursor += 1
                typeStart = cursor
                typeEnd = source.firstTopLevel(in: cursor..<close) {
                    source.kind($0) == .comma || source.kind($0) == .equal
                } ?? close
                hasDefault = source.kind(typeEnd) == .equal
                cursor = source.firstTopLevel(in: typeEnd..<close) { source.kind($0) == .comma } ?? close
            }
            if let last = lastName {
                let name = source.text(at: last)
                let isVariadic = typeEnd > typeStart && source.wordIndexOperator(typeEnd - 1, in: ["..."])
                parameters.append(Parameter(
                    label: nameBefore.map { source.text(at: $0) } ?? name, name: name, nameToken: last, type: typeStart..<typeEnd,
                    hasDefault: hasDefault, isVariadic: isVariadic))
            }
            cursor += 1
        }
        return parameters
    }

    /// The type whose body directly contains the current position.
    func directOwner() -> TypeID? {
        guard let top = stack.last, case .type(let type) = outline.scopes[top].kind else { return nil }
        return type
    }

    mutating func parseProperty(_ keyword: Int) {
        // Only declarations at type or file level are properties; the rest are local
        // bindings, which the matching layer records.
        guard stack.isEmpty || directOwner() != nil else { return }
        if source.kind(keyword - 1) == .keyword,
           source.wordIndex(keyword - 1, in: ["case", "if", "guard", "while", "for"]) != nil {
            return
        }
        var cursor = keyword + 1
        guard source.kind(cursor) == .identifier || source.kind(cursor) == .keyword else { return }
        let nameToken = cursor
        cursor += 1
        var typeRange = cursor..<cursor
        if source.kind(cursor) == .colon {
            cursor += 1
            let typeStart = cursor
            var steps = 0
            while cursor < code.count, steps < Limits.declarationTokens {
                steps += 1
                let kind = source.kind(cursor)
                if kind == .equal || kind == .leftBrace || kind == .rightBrace || kind == .semicolon { break }
                if cursor > typeStart, source.startsLine(cursor),
                   ![.period, .arrow, .binaryOperator].contains(kind) { break }
                if source.isOpeningBracket(cursor), kind != .leftBrace, let end = source.partnerIndex(cursor) {
                    cursor = end
                }
                cursor += 1
            }
            typeRange = typeStart..<cursor
        }
        var initializer: Range<Int>?
        var brace: Int?
        if source.kind(cursor) == .equal {
            let end = ExpressionBounds.end(source, from: cursor + 1)
            initializer = (cursor + 1)..<end
        } else if source.kind(cursor) == .leftBrace {
            brace = cursor
        }
        let (start, modifierNames, available) = modifiers(before: keyword)
        let isObserved = brace.map { source.wordIndex($0 + 1, in: ["didSet", "willSet"]) != nil } ?? false
        let kind: PropertyDeclaration.Kind =
            modifierNames.contains("lazy") ? .lazy : (brace != nil && !isObserved ? .computed : .stored)
        let property = PropertyID(outline.properties.count)
        outline.properties.append(PropertyDeclaration(
            kind: kind, isConstant: source.isWord(keyword, "let"),
            isStatic: modifierNames.contains("static") || modifierNames.contains("class"),
            name: source.text(at: nameToken), nameHash: source.nameHash(nameToken), nameToken: nameToken,
            type: typeRange, initializer: initializer, modifiers: modifierNames, owner: directOwner(),
            bodyScope: nil, accessors: []))
        lastProperty = (property, depth)
        if let brace { declare(brace, as: .property(property)) }
        if let available {
            let end = brace.flatMap { source.partnerIndex($0) } ?? (initializer?.upperBound ?? cursor)
            recordAvailability(start, end, available)
        }
    }

    mutating func recordAvailability(_ start: Int, _ end: Int, _ version: OSVersion) {
        outline.availabilityRegions.append(
            AvailabilityRegion(tokens: start..<max(start, min(end + 1, code.count)), version: version))
    }
}

/// Declaration modifiers (contextual keywords included).
enum ModifierWords {
    static let words = WordList([
        "private", "fileprivate", "internal", "public", "open", "static", "class", "final",
        "override", "mutating", "nonmutating", "lazy", "weak", "unowned", "dynamic", "required",
        "convenience", "optional", "nonisolated", "indirect", "package", "prefix", "postfix",
        "infix", "distributed",
    ])

    /// The words as strings, in the order of `words`: a declaration's modifiers are read
    /// from here rather than built from the file's bytes (each is short enough to be held
    /// inline, so a copy allocates nothing).
    static let names: [String] = words.words.map { "\($0)" }

    /// The position in `words` of the spelling of name token `index`, if any.
    static func position(_ source: TokenizedSource, _ index: Int) -> Int? {
        source.wordIndex(index, in: words)
    }
}

/// Reads the iOS version of `#available(iOS 15.4, *)` and `@available(iOS 15, *)`.
enum AvailabilityParser {
    static func version(_ source: TokenizedSource, openParen: Int) -> OSVersion? {
        guard source.kind(openParen) == .leftParen, let close = source.partnerIndex(openParen) else { return nil }
        var cursor = openParen + 1
        while cursor < close {
            if source.isWord(cursor, "iOS") || source.isWord(cursor, "iOSApplicationExtension") {
                var text = ""
                var next = cursor + 1
                while next < close, source.kind(next) != .comma, text.count < 16 {
                    text += source.text(at: next)
                    next += 1
                }
                return OSVersion(parsing: text)
            }
            cursor += 1
        }
        return nil
    }
}
