import Lexer

/// An `override var inputAccessoryView` (or `inputAccessoryViewController`) of a type in the
/// file, with what its getter hands to UIKit.
struct AccessoryOverride: Sendable {
    let property: PropertyID
    let nameToken: Int
    let isViewController: Bool
    /// The type declaration (or extension) that holds it.
    let type: TypeID
    /// The scope that computes the value (implicit getter or `get`); nil without a body.
    let getter: ScopeID?
    /// Whether the override also has a `set` (a read-write slot filled from outside).
    let isSettable: Bool
    /// The expressions the getter returns.
    let returned: [Range<Int>]
}

/// Where a view that becomes an input accessory comes from, after following local names and
/// helper functions of the file.
struct AccessorySource: Sendable {
    enum Kind: Sendable, Hashable {
        /// `nil`: no accessory.
        case nothing
        /// A stored, lazy or computed property of the type.
        case property(PropertyID)
        /// A new instance: `UIToolbar(…)`, `Bar.init(…)` (index in `calls`); what `{ … }()`
        /// returns is followed.
        case construction(Int)
        /// A plain name that is neither a local nor a property of the type in this file: a
        /// superclass's property declared elsewhere, a parameter or a global.
        case undeclaredName
        /// Anything else (another object's member, an unknown call).
        case unresolved
    }
    let kind: Kind
    /// The token naming it where it is finally resolved (the property name, the type name of
    /// the construction, or the first token of the expression).
    let token: Int
    /// Local names (binding name tokens, or parameter name tokens of the file's functions) the
    /// value passed through, nearest to the use first.
    let locals: [Int]
    /// Same-file helper functions whose result it is.
    let helpers: [FunctionID]
}

extension FileAnalysis {
    // MARK: Overrides

    /// Every `override var inputAccessoryView`/`inputAccessoryViewController` in the file.
    var accessoryOverrides: [AccessoryOverride] {
        var found: [AccessoryOverride] = []
        for (id, property) in zip(outline.propertyIDs, outline.properties) where property.modifiers.contains("override") {
            let isView = property.name == "inputAccessoryView"
            guard isView || property.name == "inputAccessoryViewController", let type = property.owner else { continue }
            let getter = getterScope(of: id)
            found.append(AccessoryOverride(
                property: id, nameToken: property.nameToken, isViewController: !isView, type: type,
                getter: getter, isSettable: property.accessors.contains { $0.kind == .set },
                returned: getter.map { returnedExpressions(of: $0) } ?? []))
        }
        return found
    }

    /// The scope computing a property's value: its `get` accessor, or the body of a computed
    /// property without accessors. Nil for stored properties.
    func getterScope(of property: PropertyID) -> ScopeID? {
        let declaration = outline[property]
        if let get = declaration.accessors.first(where: { $0.kind == .get }) { return get.scope }
        guard declaration.kind == .computed, declaration.accessors.isEmpty else { return nil }
        return declaration.bodyScope
    }

    /// The expressions a function, getter or closure body returns: each `return x` of the
    /// body itself (not of nested closures or functions), else the body as one expression
    /// when it is a single expression (implicit return).
    func returnedExpressions(of scope: ScopeID) -> [Range<Int>] {
        let body = outline[scope].body
        var found: [Range<Int>] = []
        for index in body where source.kind(index) == .keyword && source.isWord(index, "return") {
            guard outline.executableScope(at: index) == scope else { continue }
            let end = ExpressionBounds.end(source, from: index + 1, stopAtComma: false)
            if end > index + 1, !source.startsLine(index + 1) || ExpressionBounds.continuesLine(source, index + 1) {
                found.append((index + 1)..<end)
            }
        }
        if !found.isEmpty || body.isEmpty { return found }
        if ExpressionBounds.end(source, from: body.lowerBound, stopAtComma: false) >= body.upperBound {
            return [body]
        }
        return []
    }

    // MARK: Assignments

    private static let accessoryPropertyMarker = CatalogueMarkerCheck(["inputAccessoryView"])

    /// `x.inputAccessoryView = …` and `inputAccessoryView = …` (text fields, text views, search
    /// bars, and types that redeclare the property as read-write).
    var accessoryAssignments: [Assignment] {
        // Both names start with `inputAccessoryView`: a file without those bytes assigns neither.
        guard Self.accessoryPropertyMarker.mayBeIn(source.file.bytes, present: model.catalogueMarkers) else { return [] }
        return assignments.filter { assignment in
            guard !assignment.isCompound, let last = chainNames(assignment.lhs).last else { return false }
            return source.isWord(last, "inputAccessoryView") || source.isWord(last, "inputAccessoryViewController")
        }
    }

    // MARK: Sources

    /// Where the view of `expression` comes from: locals are followed to their value, and
    /// same-file helper functions and computed properties to what they return (a few levels,
    /// bounded). A helper or a conditional may give several sources.
    func accessorySources(of expression: Range<Int>) -> [AccessorySource] {
        var results: [AccessorySource] = []
        var work: [(range: Range<Int>, locals: [Int], helpers: [FunctionID])] = [(expression, [], [])]
        var visitedGetters = Set<ScopeID>()
        var visitedParameters = Set<Int>()
        var steps = 0
        while let item = work.popLast(), steps < Limits.workItems {
            steps += 1
            let range = strippedExpression(item.range)
            guard !range.isEmpty else { continue }
            let first = range.lowerBound
            func add(_ kind: AccessorySource.Kind, _ token: Int) {
                results.append(AccessorySource(kind: kind, token: token, locals: item.locals, helpers: item.helpers))
            }
            if range.count == 1, source.isWord(first, "nil") {
                add(.nothing, first)
                continue
            }
            // `isHidden ? nil : bar`: either branch may be the view.
            if let question = topLevelToken(in: range, .infixQuestionMark),
               let colon = topLevelToken(in: (question + 1)..<range.upperBound, .colon) {
                work.append(((question + 1)..<colon, item.locals, item.helpers))
                work.append(((colon + 1)..<range.upperBound, item.locals, item.helpers))
                continue
            }
            // `cached ?? makeBar()`: either side may be the view.
            if let coalescing = topLevelOperator(in: range, "??") {
                work.append((range.lowerBound..<coalescing, item.locals, item.helpers))
                work.append(((coalescing + 1)..<range.upperBound, item.locals, item.helpers))
                continue
            }
            // A plain name: a local or a property of the type.
            if let name = singleName(range) {
                if let binding = binding(referencedBy: name), let value = binding.value, !binding.isShorthand {
                    work.append((value, item.locals + [binding.nameToken], item.helpers))
                } else if let property = property(named: name) {
                    // A computed property (not an override) runs its getter on each read:
                    // what it returns is the source.
                    let declaration = outline[property]
                    if declaration.kind == .computed, !declaration.modifiers.contains("override"),
                       let getter = getterScope(of: property), visitedGetters.insert(getter).inserted {
                        for returned in returnedExpressions(of: getter) {
                            work.append((returned, item.locals, item.helpers))
                        }
                    } else {
                        add(.property(property), declaration.nameToken)
                    }
                } else if let parameter = parameter(referencedBy: name) {
                    // A parameter: the views the file's calls of its function pass to it.
                    let arguments = visitedParameters.insert(parameter).inserted ? arguments(passedTo: parameter, usedAt: name) : []
                    if arguments.isEmpty {
                        results.append(AccessorySource(kind: .undeclaredName, token: first, locals: item.locals + [parameter],
                                                       helpers: item.helpers))
                    }
                    for argument in arguments { work.append((argument, item.locals + [parameter], item.helpers)) }
                } else if let payloads = payloadArguments(boundAt: name) {
                    // An enum payload bound by a pattern: the views the file wraps in that case.
                    if payloads.isEmpty { add(.undeclaredName, first) }
                    for payload in payloads { work.append((payload, item.locals, item.helpers)) }
                } else {
                    add(.undeclaredName, first)
                }
                continue
            }
            // `{ … }()`: a new view from an immediately called closure.
            if let closure = initializingClosure(range),
               source.partnerIndex(outline[closure].close + 1) == range.upperBound - 1 {
                for returned in returnedExpressions(of: closure) {
                    work.append((returned, item.locals, item.helpers))
                }
                continue
            }
            if let call = wholeCall(range) {
                let site = calls[call]
                if let typeToken = constructedTypeToken(site) {
                    add(.construction(call), typeToken)
                } else if let function = sameFileFunction(for: site), !item.helpers.contains(function),
                          let scope = outline[function].scope {
                    for returned in returnedExpressions(of: scope) {
                        work.append((returned, item.locals, item.helpers + [function]))
                    }
                } else {
                    add(.unresolved, first)
                }
                continue
            }
            add(.unresolved, first)
        }
        return results
    }

    /// The name token of the parameter of the enclosing function that the bare name at `name`
    /// refers to, when no local binding of that name is visible there.
    func parameter(referencedBy name: Int) -> Int? {
        guard source.kind(name - 1) != .period, binding(referencedBy: name) == nil else { return nil }
        return FileIndex.enclosingParameter(named: name, source, outline)
    }

    /// The arguments that the file's calls pass to `parameter` of the function whose body holds
    /// `use`.
    func arguments(passedTo parameter: Int, usedAt use: Int) -> [Range<Int>] {
        guard let scope = outline.executableScope(at: use).map({ outline.functionBody(ofScope: $0) }),
              let function = outline.function(ofScope: scope),
              let position = outline[function].parameters.firstIndex(where: { $0.nameToken == parameter })
        else { return [] }
        let declaration = outline[function]
        var found: [Range<Int>] = []
        for index in fileIndex.callsByName[declaration.nameHash] ?? [] {
            let call = calls[index]
            guard fileIndex.function(calledBy: call) == function,
                  let positions = fileIndex.parameterPositions(of: call, for: declaration) else { continue }
            for (index, argument) in call.arguments.enumerated() where positions[index] == position {
                found.append(argument.value)
            }
        }
        return found
    }

    /// When the bare name at `name` was bound by an enum case pattern earlier in its function
    /// (`case .toolbar(let bar):`, `case let .custom(bar, _):`, `if case .toolbar(let bar) = …`):
    /// the arguments at that payload position of the file's constructions of that case
    /// (`.toolbar(UIToolbar())`, `Accessory.toolbar(bar)`). Nil when no pattern binds it.
    func payloadArguments(boundAt name: Int) -> [Range<Int>]? {
        guard source.kind(name - 1) != .period, let scope = outline.executableScope(at: name) else { return nil }
        // The function around the name (patterns bind in its body), else the getter or closure itself.
        let function = outline.functionBody(ofScope: scope)
        let body = outline[outline.function(ofScope: function) != nil ? function : scope].body
        let nearest = fileIndex.caseBindings[source.nameHash(name)]?
            .filter { $0.name < name && body.contains($0.name) }.max { $0.name < $1.name }
        guard let binding = nearest else { return nil }
        let pattern = calls[binding.call]
        var found: [Range<Int>] = []
        for index in fileIndex.callsByName[source.nameHash(pattern.callee)] ?? [] {
            let call = calls[index]
            guard call.callee != pattern.callee, source.kind(call.callee - 1) == .period,
                  binding.position < call.arguments.count,
                  FileIndex.casePatternKeyword(of: call, source) == nil else { continue }
            found.append(call.arguments[binding.position].value)
        }
        return found
    }

    /// The type name token of a construction call: `Bar(…)`, `Bar.init(…)`, `Module.Bar(…)`.
    /// Upper-case callees are types by Swift convention.
    func constructedTypeToken(_ call: CallSite) -> Int? {
        var name = call.callee
        if source.isWord(name, "init"), let receiver = call.receiver { name = receiver.upperBound - 1 }
        guard source.kind(name) == .identifier, call.openParen != nil || !call.trailingClosures.isEmpty,
              name < source.code.count else { return nil }
        let first = source.file.bytes[Int(source.code[name].start)]
        guard first >= 0x41 && first <= 0x5A else { return nil }
        return name
    }

    /// The simple type name a property holds a view of: the type it constructs in its
    /// initializer (directly or as the single result of an initializing closure), else its
    /// annotation's type name.
    func viewTypeName(ofProperty id: PropertyID) -> String? {
        let property = outline[id]
        // One token that is no name (`0`, `nil`, `true`) constructs nothing: no call spans
        // it, and only a name is followed further.
        if let initializer = property.initializer,
           initializer.count != 1 || source.kind(initializer.lowerBound) == .identifier {
            for found in accessorySources(of: initializer) {
                if case .construction = found.kind { return source.text(at: found.token) }
            }
        }
        return annotatedTypeName(property.type)
    }

    /// The first type name of an annotation (`ChatBar` in `ChatBar!`, `UIView?`).
    func annotatedTypeName(_ type: Range<Int>) -> String? {
        for index in type where source.kind(index) == .identifier {
            if source.kind(index + 1) == .period, source.kind(index + 2) == .identifier { continue }
            return source.text(at: index)
        }
        return nil
    }

    /// The scope of the closure in `{ … }()`, the shape of a configured lazy property.
    func initializingClosure(_ initializer: Range<Int>) -> ScopeID? {
        let first = initializer.lowerBound
        guard source.kind(first) == .leftBrace, let close = source.partnerIndex(first),
              source.kind(close + 1) == .leftParen, let scope = outline.scope(at: first),
              outline[scope].open == first else { return nil }
        return scope
    }

    // MARK: Names

    /// The expression without `self.`, postfix `!`/`?`, surrounding parentheses and a trailing
    /// `as Type`/`as? Type`/`as! Type`.
    func strippedExpression(_ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound, upper = range.upperBound
        var steps = 0
        while lower < upper, steps < Limits.expressionNesting {
            steps += 1
            if let asToken = source.firstTopLevel(in: lower..<upper, where: {
                source.isWord($0, "as") && source.kind($0) == .keyword
            }) {
                upper = asToken
                continue
            }
            if source.kind(lower) == .leftParen, source.partnerIndex(lower) == upper - 1 {
                lower += 1
                upper -= 1
                continue
            }
            if source.kind(upper - 1) == .exclamationMark || source.kind(upper - 1) == .postfixQuestionMark {
                upper -= 1
                continue
            }
            if source.isWord(lower, "self"), source.kind(lower + 1) == .period, upper - lower > 2 {
                lower += 2
                continue
            }
            break
        }
        return lower..<upper
    }

    /// The operator token `text` at the top level of `range`.
    func topLevelOperator(in range: Range<Int>, _ text: StaticString) -> Int? {
        source.firstTopLevel(in: range) { source.isToken($0, .binaryOperator, text) }
    }

    /// The first token of `kind` at the top level of `range`.
    func topLevelToken(in range: Range<Int>, _ kind: TokenKind) -> Int? {
        source.firstTopLevel(in: range) { source.kind($0) == kind }
    }

    /// The name token when `range` is exactly one identifier.
    func singleName(_ range: Range<Int>) -> Int? {
        guard range.count == 1, source.kind(range.lowerBound) == .identifier else { return nil }
        return range.lowerBound
    }

    /// The call that spans exactly `range` (receiver included), if any.
    func wholeCall(_ range: Range<Int>) -> Int? {
        for index in calls(in: range).indices.reversed() {
            let call = calls[index]
            if call.start == range.lowerBound, call.end == range.upperBound - 1 { return index }
        }
        return nil
    }

    /// The property named like `name` of the type that encloses `name` (any declaration or
    /// extension of that type in this file; an outer type's when the inner has none).
    func property(named name: Int) -> PropertyID? {
        let hash = source.nameHash(name)
        for current in outline.enclosingTypes(from: outline.enclosingType(at: name)) {
            let simpleName = outline[current].simpleName
            if let found = outline.propertyIDs.first(where: {
                let property = outline[$0]
                guard property.nameHash == hash, let owner = property.owner else { return false }
                return outline[owner].simpleName == simpleName
            }) {
                return found
            }
        }
        return nil
    }

    /// The function of this file that `call` on `self` (or without receiver) means, when it
    /// means exactly one (see `FileIndex.functions(calledBy:)`).
    func sameFileFunction(for call: CallSite) -> FunctionID? {
        fileIndex.function(calledBy: call, onSelfOnly: true)
    }

    /// The member-chain names of `range` with a leading `self` dropped.
    func namesWithoutSelf(_ range: Range<Int>) -> [Int] {
        var names = chainNames(range)
        if let first = names.first, source.isWord(first, "self") { names.removeFirst() }
        return names
    }
}

extension FileAnalysis {
    // MARK: Subviews

    /// `addSubview(x)` calls of the file whose argument is the view `found` stands for: the
    /// same local binding, or the same property of the same type (written `x` or `self.x`,
    /// not shadowed by a local).
    func addSubviewCalls(of found: AccessorySource) -> [Int] {
        addSubviewCalls(of: found, among: addSubviewCallIndices)
    }

    /// Indices in `calls` of every `addSubview(_:)` call; rules that ask about many views
    /// compute it once.
    var addSubviewCallIndices: [Int] {
        calls.indices.filter { source.isWord(calls[$0].callee, "addSubview") }
    }

    /// `addSubviewCalls(of:)` among the given `addSubview` call indices.
    func addSubviewCalls(of found: AccessorySource, among candidates: [Int]) -> [Int] {
        let target: UInt64
        if let local = found.locals.first {
            target = source.nameHash(local)
        } else if case .property(let property) = found.kind {
            target = outline[property].nameHash
        } else {
            return []
        }
        var result: [Int] = []
        for index in candidates {
            let call = calls[index]
            guard call.arguments.count == 1, let name = singleName(strippedExpression(call.arguments[0].value)),
                  source.nameHash(name) == target else { continue }
            let binding = binding(referencedBy: name)
            if let local = found.locals.first {
                if binding.map({ $0.nameToken == local }) ?? (parameter(referencedBy: name) == local) {
                    result.append(index)
                }
                continue
            }
            guard binding == nil, case .property(let property) = found.kind,
                  self.property(named: name) == property else { continue }
            result.append(index)
        }
        return result
    }

    // MARK: Edits

    /// The spaces and tabs that begin the line of code token `index`.
    func indentation(ofLineAt index: Int) -> String {
        guard index >= 0, index < source.code.count else { return "" }
        let bytes = source.file.bytes
        var start = Int(source.code[index].start)
        while start > 0, bytes[start - 1] != 0x0A, bytes[start - 1] != 0x0D { start -= 1 }
        var end = start
        while end < bytes.count, bytes[end] == 0x20 || bytes[end] == 0x09 { end += 1 }
        return source.file.text(start..<end)
    }
}
