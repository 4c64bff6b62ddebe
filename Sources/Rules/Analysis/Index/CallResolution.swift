import Lexer

/// A function declaration of the file: an index into `Outline.functions` that says so.
typealias FunctionID = OutlineID<FunctionDeclaration>

/// A method by name hash and the qualified name of its type: what a selector or a call on
/// `self` can mean.
struct MethodKey: Hashable, Sendable {
    let name: UInt64
    let typeName: String?
}

extension Outline {
    subscript(function: FunctionID) -> FunctionDeclaration { functions[function.rawValue] }

    /// Every function declaration of the file, in source order.
    var functionIDs: LazyMapCollection<Range<Int>, FunctionID> { functions.indices.lazy.map(FunctionID.init) }
}

/// The calls chained after a call at its own level (`.receive(on:)`, `.sink { … }`,
/// `.store(in:)` after `publisher(for:)`), properties in between stepped over.
struct MemberChain {
    /// Indices into `FileIndex.calls`, in order.
    var calls: [Int] = []
    /// The last token of the chain.
    var end: Int
}

extension FileIndex {
    /// How many calls `chain(after:)` follows.
    static let chainLength = 64

    /// The member chain that continues after `call`.
    func chain(after call: CallSite) -> MemberChain {
        chain(from: call.end)
    }

    /// Tokens looked at, going back from a publisher, for the merger call around it.
    static let maximumMergerArgumentLength = 512
    /// Calls that merge publishers given as arguments into one.
    static let publisherMergers: [StaticString] = ["Merge", "Merge3", "Merge4", "merge", "zip", "combineLatest",
                                                   "CombineLatest", "amb"]

    /// The chain a publisher's elements go through: after `call`, or after the merger it is
    /// an argument of (`Publishers.Merge(a, b).sink { … }`), continued through locals that
    /// hold it (`let frames = publisher(for:)….map { … }` … `frames.sink { … }`).
    func publisherChain(after call: CallSite) -> MemberChain {
        var chain = chain(from: mergerEnd(around: call) ?? call.end)
        var hops = 0
        while hops < Limits.valueHops, let use = localUse(ofChainEndingAt: chain.end) {
            hops += 1
            let next = self.chain(from: use)
            chain.calls += next.calls
            chain.end = next.end
        }
        return chain
    }

    /// The end of the merger call (`Publishers.Merge(…)`, `merge`, `zip`, `combineLatest`)
    /// whose arguments hold `call`'s chain.
    func mergerEnd(around call: CallSite) -> Int? {
        var cursor = chainStart(endingAt: call.callee) - 1
        var steps = 0
        while cursor > 0, steps < Self.maximumMergerArgumentLength {
            steps += 1
            let kind = source.kind(cursor)
            if kind == .rightParen || kind == .rightSquare || kind == .rightBrace, let open = source.partnerIndex(cursor) {
                cursor = open - 1
                continue
            }
            if kind == .leftParen {
                guard let merger = self.call(at: cursor - 1), merger.openParen == cursor,
                      source.wordIndex(merger.callee, in: Self.publisherMergers) != nil else { return nil }
                return merger.end
            }
            if kind == .leftBrace || kind == .leftSquare || kind == .semicolon { return nil }
            cursor -= 1
        }
        return nil
    }

    /// When the chain ending at `end` is the whole value of a local binding, the first later
    /// use of that local that continues it with a member (`frames.sink`): that use's token.
    func localUse(ofChainEndingAt end: Int) -> Int? {
        guard let binding = bindings.first(where: { $0.value?.upperBound == end + 1 }),
              let scope = outline.executableScope(at: binding.nameToken) else { return nil }
        var index = end + 1
        let close = outline[scope].close
        while index < close {
            if source.kind(index) == .identifier, source.nameHash(index) == binding.nameHash,
               source.kind(index + 1) == .period, source.kind(index - 1) != .period {
                return index
            }
            index += 1
        }
        return nil
    }

    /// The member chain that continues after token `end`.
    func chain(from end: Int) -> MemberChain {
        var chain = MemberChain(end: end)
        while chain.calls.count < Self.chainLength, source.kind(chain.end + 1) == .period {
            let name = chain.end + 2
            guard let next = callAtCallee[name] else {
                guard source.kind(name) == .identifier else { break }
                chain.end = name
                continue
            }
            chain.calls.append(next)
            chain.end = calls[next].end
        }
        return chain
    }

    // MARK: Calls to functions of the file

    /// The functions of this file that `call` can mean: the same base name, and parameters
    /// that take its arguments (see `parameterPositions(of:for:)`). A call on `self` or
    /// without receiver prefers the functions of the caller's type (its declaration and
    /// extensions in the file, by qualified name) and falls back to the others; a call on
    /// another receiver can mean any of them (an extension method of `UIScrollView`, a
    /// helper type's method). In declaration order.
    func functions(calledBy call: CallSite) -> [FunctionID] {
        let name = source.nameHash(call.callee)
        let named = outline.functions(named: name)
        guard !named.isEmpty else { return [] }
        func taking(_ candidates: Outline.FunctionsOfName) -> [FunctionID] {
            candidates.compactMap { id in
                let function = outline[id]
                guard function.kind == .function, function.scope != nil,
                      parameterPositions(of: call, for: function) != nil else { return nil }
                return id
            }
        }
        if call.isOnSelf(source), let type = outline.enclosingType(at: call.callee) {
            let found = taking(methods(named: name, ofTypeNamedAs: type))
            if !found.isEmpty { return found }
        }
        return taking(named)
    }

    /// The one function of this file that `call` means, when `functions(calledBy:)` finds
    /// exactly one; with `onSelfOnly`, calls on another receiver mean none.
    func function(calledBy call: CallSite, onSelfOnly: Bool = false) -> FunctionID? {
        if onSelfOnly, !call.isOnSelf(source) { return nil }
        let found = functions(calledBy: call)
        return found.count == 1 ? found[0] : nil
    }

    /// For each argument of `call` (those in parentheses, then the trailing closures), the
    /// index of the parameter of `function` that takes it; nil when the function cannot take
    /// these arguments. Labels must match in order; parameters with a default may be left
    /// out; a variadic parameter takes the unlabelled arguments after its own; the first
    /// trailing closure takes the next parameter that has no default or is of function
    /// type, each further trailing closure the parameter of its label.
    func parameterPositions(of call: CallSite, for function: FunctionDeclaration) -> [Int]? {
        parameterPositions(
            arguments: call.arguments.count, trailingClosures: call.trailingClosures.count, for: function,
            isUnlabelled: { call.arguments[$0].label == nil },
            matches: { argument, parameter in
                let label = argument.isTrailing ? call.trailingClosures[argument.index].label : call.arguments[argument.index].label
                guard let label else { return parameter.label == "_" }
                return parameter.label == source.text(at: label)
            })
    }

    /// `parameterPositions(of:for:)` for a call known by its argument labels only (a call in
    /// another file, `CallShape`).
    func parameterPositions(of shape: CallShape, for function: FunctionDeclaration) -> [Int]? {
        parameterPositions(
            arguments: shape.labels.count, trailingClosures: shape.trailingLabels.count, for: function,
            isUnlabelled: { shape.labels[$0] == nil },
            matches: { argument, parameter in
                (argument.isTrailing ? shape.trailingLabels[argument.index] : shape.labels[argument.index]) ?? "_" == parameter.label
            })
    }

    /// An argument of a call: in the parentheses, or a trailing closure.
    struct ArgumentReference {
        let index: Int
        let isTrailing: Bool
    }

    /// The resolver behind both forms: `arguments` in parentheses then `trailingClosures`,
    /// `isUnlabelled(i)` for the parenthesised ones, `matches` whether an argument's label
    /// is a parameter's.
    private func parameterPositions(
        arguments: Int, trailingClosures: Int, for function: FunctionDeclaration,
        isUnlabelled: (Int) -> Bool, matches: (ArgumentReference, Parameter) -> Bool
    ) -> [Int]? {
        let parameters = function.parameters
        var positions: [Int] = []
        positions.reserveCapacity(arguments + trailingClosures)
        var next = 0
        var variadic: Int?
        for argument in 0..<arguments {
            if let open = variadic, isUnlabelled(argument) {
                positions.append(open)
                continue
            }
            variadic = nil
            while next < parameters.count, !matches(ArgumentReference(index: argument, isTrailing: false), parameters[next]) {
                guard parameters[next].hasDefault || parameters[next].isVariadic else { return nil }
                next += 1
            }
            guard next < parameters.count else { return nil }
            positions.append(next)
            if parameters[next].isVariadic { variadic = next }
            next += 1
        }
        for position in 0..<trailingClosures {
            if position == 0 {
                while next < parameters.count, parameters[next].hasDefault || parameters[next].isVariadic,
                      !isFunctionType(parameters[next].type) {
                    next += 1
                }
            } else {
                while next < parameters.count, !matches(ArgumentReference(index: position, isTrailing: true), parameters[next]) {
                    guard parameters[next].hasDefault || parameters[next].isVariadic else { return nil }
                    next += 1
                }
            }
            guard next < parameters.count else { return nil }
            positions.append(next)
            next += 1
        }
        for parameter in parameters[min(next, parameters.count)...]
        where !parameter.hasDefault && !parameter.isVariadic {
            return nil
        }
        return positions
    }

    /// Whether a parameter's type annotation is a function type (`() -> Void`,
    /// `@escaping (Bool) -> Void`, `((Bool) -> Void)?`).
    private func isFunctionType(_ type: Range<Int>) -> Bool {
        var type = type
        // `((Bool) -> Void)?`: look inside the optional's parentheses.
        if source.kind(type.lowerBound) == .leftParen, source.kind(type.upperBound - 1) == .postfixQuestionMark,
           source.partnerIndex(type.lowerBound) == type.upperBound - 2 {
            type = (type.lowerBound + 1)..<(type.upperBound - 2)
        }
        return source.firstTopLevel(in: type) { source.kind($0) == .arrow } != nil
    }
}

extension FileIndex {
    // MARK: Methods passed by name

    /// The methods of the caller's type that an argument names without calling them
    /// (`animations: updateLayout`, `execute: self.relayout`): Swift hands the method over as
    /// the closure, so its body runs where a closure literal's would. A name that a local, a
    /// parameter of the enclosing function or a property of the type declares is a value, not
    /// a method.
    static func functions(passedAs argument: Argument, _ source: TokenizedSource, _ outline: Outline,
                          _ constants: ConstantResolver, _ functionsByTypeName: NameChains) -> [FunctionID] {
        guard argument.closure == nil else { return [] }
        let value = argument.value
        let name: Int
        if value.count == 1 {
            name = value.lowerBound
        } else if value.count == 3, source.isWord(value.lowerBound, "self"), source.kind(value.lowerBound + 1) == .period {
            name = value.lowerBound + 2
        } else {
            return []
        }
        // Asked for every argument of a file: the cheap tests go first, the binding lookup last
        // (mostly no method of the type is named like the argument).
        guard source.kind(name) == .identifier, let type = outline.enclosingType(at: name) else { return [] }
        let hash = source.nameHash(name)
        if outline.firstPropertyByOwnerAndName[Outline.OwnedName(owner: type, name: hash)] != nil { return [] }
        let typeNameHash = NameHash.of(outline[type].simpleName)
        let own = functionsByTypeName[typeMethodKey(name: hash, typeNameHash: typeNameHash)]
        guard !own.isEmpty else { return [] }
        if value.count == 1, constants.binding(referencedBy: name) != nil || enclosingParameter(named: name, source, outline) != nil {
            return []
        }
        return Array(own.lazy.map(FunctionID.init).filter { outline[$0].kind == .function && outline[$0].scope != nil })
    }

    /// The name token of the parameter of the function around `name` that is named like it.
    static func enclosingParameter(named name: Int, _ source: TokenizedSource, _ outline: Outline) -> Int? {
        guard let scope = outline.executableScope(at: name),
              let function = outline.function(ofScope: outline.functionBody(ofScope: scope)) else { return nil }
        let hash = source.nameHash(name)
        return outline[function].parameters.first { source.nameHash($0.nameToken) == hash }?.nameToken
    }
}
