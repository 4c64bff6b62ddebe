import Lexer

/// A notification name as far as the code shows it: one of the keyboard notifications, or
/// the hash of the name's last member (`didBecomeActiveNotification`). Enough to match a
/// removal with the registration it undoes, in this file or another.
enum NotificationKey: Sendable, Hashable {
    case keyboard(KeyboardEvent)
    case named(UInt64)

    var keyboardEvent: KeyboardEvent? {
        if case .keyboard(let event) = self { return event }
        return nil
    }
}

/// Where the value a registration returns ends up (a block observer's token, an
/// `ObservationToken`, a Combine `AnyCancellable`, a `Task`). Finer than
/// `ObserverRegistration.ResultUse`: it names the property that keeps the value, so that
/// removals and cancellations of that property can be matched with it.
enum TokenStore: Sendable, Hashable {
    /// A statement of its own, or `_ = …`: nobody can remove or cancel it.
    case discarded
    /// Assigned to a property of the enclosing type or added to a collection property.
    /// `property` is the property's name token at the store, `site` the code that stores it.
    case storedInProperty(property: Int, site: Range<Int>)
    /// Bound to a local name that nothing stores further (`name` is the local's token).
    case storedInLocal(name: Int)
    /// Returned, passed as an argument, or part of a larger expression: someone else owns it.
    case passedOn
}

/// The view controller and object lifecycle methods that observer rules reason about.
enum LifecyclePhase: Sendable, Hashable, CaseIterable {
    /// `init`, `viewDidLoad`, `loadView`, `awakeFromNib`: runs once.
    case setup
    case willAppear, didAppear, willDisappear, didDisappear
    case teardown

    /// One bit per phase, for sets of phases worked out in bulk.
    private var bit: UInt8 {
        switch self {
        case .setup: 1
        case .willAppear: 2
        case .didAppear: 4
        case .willDisappear: 8
        case .didDisappear: 16
        case .teardown: 32
        }
    }

    /// `phases` as a bit mask (`phases(in:)` reads it back).
    static func mask(of phases: Set<LifecyclePhase>) -> UInt8 {
        phases.reduce(0) { $0 | $1.bit }
    }

    /// The phases of bit mask `mask` (`mask(of:)`).
    /// `mask` holds only the phases' bits (`bit`), so it indexes `setsByMask`.
    static func phases(in mask: UInt8) -> Set<LifecyclePhase> {
        setsByMask[Int(mask)]
    }

    /// The set of each mask of the phases, built once: sets of phases are made for every
    /// method a lifecycle call reaches.
    private static let setsByMask: [Set<LifecyclePhase>] = (0..<(1 << allCases.count)).map { mask in
        Set(allCases.filter { mask & Int($0.bit) != 0 })
    }

    static func of(_ name: String, kind: FunctionDeclaration.Kind) -> LifecyclePhase? {
        switch kind {
        case .initializer: return .setup
        case .deinitializer: return .teardown
        case .subscript: return nil
        case .function: break
        }
        return methodPhases.first { $0.name == name }?.phase
    }

    /// The methods that have a phase by their name alone.
    private static let methodPhases: [(name: String, phase: LifecyclePhase)] = [
        ("viewDidLoad", .setup), ("loadView", .setup), ("awakeFromNib", .setup), ("viewWillAppear", .willAppear),
        ("viewDidAppear", .didAppear), ("viewWillDisappear", .willDisappear), ("viewDidDisappear", .didDisappear),
    ]

    /// The name hashes of the methods `of(_:kind:)` gives a phase by name.
    static let methodNameHashes: [UInt64] = methodPhases.map { NameHash.of($0.name) }

    var isAppear: Bool { self == .willAppear || self == .didAppear }
    var isDisappear: Bool { self == .willDisappear || self == .didDisappear }
}

/// A registration of `FileAnalysis.registrations` with what the observer rules need on top:
/// the names it observes (keyboard or not), its handler closure, its observer argument,
/// where its token is kept, and the method and type it lives in.
struct RegisteredObserver: Sendable {
    /// Index into `FileAnalysis.registrations`.
    let registration: Int
    let kind: ObserverRegistration.Kind
    /// Index into `FileAnalysis.calls`.
    let call: Int
    /// The `addObserver`/`publisher`/`notifications`/`notification` name token.
    let callee: Int
    /// The notification name (`name:`, `forName:`, `for:`, `named:`) argument.
    let name: Range<Int>?
    /// The names it registers for; empty when the code does not show them.
    let keys: [NotificationKey]
    /// The `object:` (or `of:`) argument.
    let object: Range<Int>?
    /// The selector form's observer argument (`self`).
    let observer: Range<Int>?
    /// The handler closure of the block and typed forms, when it is a closure literal.
    let closure: ClosureID?
    /// Registered on a `NotificationCenter()` made by the code itself (a test double), not
    /// on a shared center.
    let onLocalCenter: Bool
    /// The method of a type that contains the registration (through closures), if any.
    let method: FunctionID?
    /// The type whose body contains the registration.
    let type: TypeID?
    /// Where the returned token is kept; `.passedOn` for forms that return nothing to keep.
    let store: TokenStore

    var events: [KeyboardEvent] { keys.compactMap(\.keyboardEvent) }
    var isKeyboard: Bool { keys.contains { $0.keyboardEvent != nil } }
}

/// `removeObserver(…)`: a call, or a reference passed on (`tokens.forEach(center.removeObserver)`).
struct ObserverRemoval: Sendable {
    let callee: Int
    /// Index into `FileAnalysis.calls`; nil for a reference.
    let call: Int?
    /// The first argument (`self`, a token).
    let target: Range<Int>?
    let removesSelf: Bool
    /// The names it removes: nil without a `name:` argument (every name), empty when the
    /// code does not show them.
    let keys: [NotificationKey]?
    let method: FunctionID?
    let type: TypeID?
    /// Name hashes taking part in the removal: the token's name and the properties and
    /// locals it comes from (`if let t = token`, `tokens.forEach(center.removeObserver)`).
    var names: Set<UInt64> = []
}

/// An unstructured `Task { … }` (or `Task.detached`) around `for await … in
/// notifications(named:)` of a keyboard notification.
struct NotificationTask: Sendable {
    /// The `Task` token (of `Task.detached` too).
    let task: Int
    /// The `notifications` registration's index in `ObserverAnalysis.registered`.
    let registration: Int
    /// What happens to the task handle.
    let result: TokenStore
}

/// `.sink`/`.assign` ending a Combine chain on a keyboard `publisher(for:)`.
struct KeyboardSubscription: Sendable {
    /// The `sink`/`assign` name token.
    let subscriber: Int
    let call: Int
    /// The `publisher` name token of the keyboard publisher.
    let publisher: Int
    /// What happens to the `AnyCancellable` (`.store(in: &set)` counts as stored).
    let result: TokenStore
    let method: FunctionID?
    let type: TypeID?
}

/// The keyboard handlers grouped the ways `handlers(of:)` finds a registration's own, in
/// handler order: looked up per registration instead of filtering every handler for each.
struct HandlerLookup: Sendable {
    var byScope: [ScopeID: [Int]] = [:]
    /// Registered methods (handlers of no caller), by name and by name in a type.
    var byMethodName: [UInt64: [Int]] = [:]
    var byMethod: [MethodKey: [Int]] = [:]
    var byRegistration: [Int: [Int]] = [:]

    init(_ handlers: [KeyboardHandler], _ outline: Outline) {
        for (index, handler) in handlers.enumerated() {
            byScope[handler.scope, default: []].append(index)
            if let registration = handler.registration { byRegistration[registration, default: []].append(index) }
            guard case .function(let function) = outline[handler.scope].kind, handler.caller == nil else { continue }
            let declaration = outline[function]
            byMethodName[declaration.nameHash, default: []].append(index)
            let typeName = declaration.owner.map { outline[$0].qualifiedName }
            byMethod[MethodKey(name: declaration.nameHash, typeName: typeName), default: []].append(index)
        }
    }
}

/// Registrations, removals and keyboard subscriptions of one file, with the questions the
/// observer rules ask about them (lifecycle phase of a method, what a type removes or
/// cancels). Built once per file.
struct ObserverAnalysis: Sendable {
    let registered: [RegisteredObserver]
    let removals: [ObserverRemoval]
    let subscriptions: [KeyboardSubscription]
    let tasks: [NotificationTask]
    /// Per type name: name hashes of properties and locals that take part in a removal
    /// (`removeObserver(token)`, `tokens.forEach(center.removeObserver)`,
    /// `if let t = token { center.removeObserver(t) }`).
    let removedNames: [String: Set<UInt64>]
    /// Per type name: name hashes of values that are cancelled or emptied (`task?.cancel()`,
    /// `cancellables.removeAll()`, `bag = []`), with the method that does it.
    let cancelledNames: [String: [UInt64: [FunctionID?]]]
    /// The methods of the types that register, remove or cancel observers here, by the types'
    /// qualified names (types without methods are left out).
    let methodsOfObservingTypes: [String: [FunctionID]]
    /// Which methods run in which lifecycle phases, from this file's code.
    let lifecycle: LifecycleGraph
    /// Method → the lifecycle phases it runs in, directly or as a helper called from
    /// lifecycle methods of its type, here or (`seedingPhases`) in other files.
    private(set) var phasesOfMethod: [FunctionID: Set<LifecyclePhase>]

    init(registered: [RegisteredObserver], removals: [ObserverRemoval], subscriptions: [KeyboardSubscription],
         tasks: [NotificationTask], removedNames: [String: Set<UInt64>], cancelledNames: [String: [UInt64: [FunctionID?]]],
         lifecycle: LifecycleGraph, methodsOfObservingTypes: [String: [FunctionID]]) {
        self.registered = registered
        self.removals = removals
        self.subscriptions = subscriptions
        self.tasks = tasks
        self.removedNames = removedNames
        self.cancelledNames = cancelledNames
        self.lifecycle = lifecycle
        self.methodsOfObservingTypes = methodsOfObservingTypes
        phasesOfMethod = lifecycle.phases
    }

    /// The lifecycle phases method `function` runs in (empty: not known to run in any).
    func phases(ofMethod function: FunctionID?) -> Set<LifecyclePhase> {
        guard let function else { return [] }
        return phasesOfMethod[function] ?? []
    }

    /// The same analysis where methods also run in the phases the project's code in other
    /// files calls them from (`ObserverTypeFacts.lifecycleCalls`): a `viewWillAppear` in one
    /// file calling a helper an extension declares in another.
    ///
    /// Rules ask for the phases of methods that register, remove or cancel observers, and
    /// phases spread only between methods of one type name, so only the types holding such
    /// methods here are looked up: every lookup makes the driver analyse the files declaring
    /// or extending that name (an `extension String` here would otherwise bring in every
    /// file extending `String`).
    func seedingPhases(from project: ProjectFacts, _ outline: Outline) -> ObserverAnalysis {
        var seeds: [FunctionID: Set<LifecyclePhase>] = [:]
        for (typeName, methods) in methodsOfObservingTypes {
            let calls = project.observerFacts(of: typeName).lifecycleCalls
            guard !calls.isEmpty else { continue }
            for id in methods {
                if let phases = calls[outline[id].nameHash] { seeds[id] = phases }
            }
        }
        guard !seeds.isEmpty else { return self }
        var seeded = self
        seeded.phasesOfMethod = lifecycle.propagated(seeds: seeds)
        return seeded
    }

    /// The qualified names of the types whose observer facts `seedingPhases` looks up, in
    /// no particular order, each once: they follow from the file alone.
    var typesSeededFromProject: [String] { Array(methodsOfObservingTypes.keys) }

    /// `methodsOfObservingTypes` of a file's registrations, removals and cancellations.
    static func methodsOfObservingTypes(
        registered: [RegisteredObserver], removals: [ObserverRemoval], cancelledNames: [String: [UInt64: [FunctionID?]]],
        _ outline: Outline
    ) -> [String: [FunctionID]] {
        var observing = Set(cancelledNames.keys)
        func insert(type: TypeID?, method: FunctionID?) {
            if let type { observing.insert(outline[type].qualifiedName) }
            if let owner = method.flatMap({ outline[$0].owner }) { observing.insert(outline[owner].qualifiedName) }
        }
        for registration in registered { insert(type: registration.type, method: registration.method) }
        for removal in removals { insert(type: removal.type, method: removal.method) }
        guard !observing.isEmpty else { return [:] }
        // Each type declaration's name is looked up once, not once per method.
        let isObserving = outline.types.map { observing.contains($0.qualifiedName) }
        var methods: [String: [FunctionID]] = [:]
        for (id, function) in zip(outline.functionIDs, outline.functions) where function.kind == .function {
            guard let owner = function.owner, isObserving[owner.rawValue] else { continue }
            methods[outline[owner].qualifiedName, default: []].append(id)
        }
        return methods
    }
}

extension FileAnalysis {
    /// The qualified name of type declaration `type` (nil for nil).
    func typeName(ofType type: TypeID?) -> String? {
        type.map { outline[$0].qualifiedName }
    }

    /// The method (a function declared directly in a type) whose body contains `index`,
    /// looking through closures and local functions.
    func method(containing index: Int) -> FunctionID? { outline.method(containing: index) }

    /// Whether code token `index` lies in a static or class member (no instance `self`).
    func isInStaticContext(_ index: Int) -> Bool {
        if let method = method(containing: index) {
            let modifiers = outline[method].modifiers
            return modifiers.contains("static") || modifiers.contains("class")
        }
        for scope in outline.enclosingScopes(from: outline.scope(at: index)) {
            switch outline[scope].kind {
            case .property(let property), .accessor(let property, _):
                return outline[property].isStatic
            case .type:
                // A property initializer at type level.
                return outline.properties.contains { property in
                    property.isStatic && property.initializer.map { $0.contains(index) } ?? false
                }
            default:
                continue
            }
        }
        return true
    }

    /// Handlers whose registration is `registration`: its closure, the selector's method,
    /// the closures of a publisher chain; the functions they reach are linked through
    /// `rootHandler(of:)`.
    func handlers(of registration: RegisteredObserver) -> [Int] {
        switch registration.kind {
        case .block, .typedMessage:
            guard let closure = registration.closure else { return [] }
            return handlerLookup.byScope[outline[closure].scope] ?? []
        case .selector:
            guard let name = selectorName(registration) else { return [] }
            let method = MethodKey(name: source.nameHash(name), typeName: typeName(ofType: registration.type))
            return (method.typeName == nil ? handlerLookup.byMethodName[method.name] : handlerLookup.byMethod[method]) ?? []
        case .publisher, .rxNotification, .asyncSequence:
            return handlerLookup.byRegistration[registration.callee] ?? []
        case .wrapper:
            return []
        }
    }

    /// The method name inside `#selector(…)` of a selector registration.
    func selectorName(_ registration: RegisteredObserver) -> Int? {
        guard registration.kind == .selector, let argument = calls[registration.call].argument("selector", source) else {
            return nil
        }
        return source.selectedMethodName(in: argument.value)
    }

    /// For each root handler (index into `handlers`), the first token of layout work in it
    /// or in the functions it reaches: a layout sink written (content offsets are scrolling,
    /// not layout) or `layoutIfNeeded()`/`setNeedsLayout()` called.
    func layoutWorkByRootHandler() -> [Int: Int] {
        var found: [Int: Int] = [:]
        func record(_ token: Int) {
            guard let handler = handlerIndex(at: token) else { return }
            let root = rootHandler(of: handler)
            if let existing = found[root], existing <= token { return }
            found[root] = token
        }
        // The sink's member is a token of the assignment's target: a target with no token in
        // a handler is not classified.
        for assignment in assignments where assignment.lhs.contains(where: { handlerIndex(at: $0) != nil }) {
            guard let sink = layoutSink(of: assignment), sink.kind != .contentOffset else { continue }
            record(sink.member)
        }
        for index in calls.indices where source.wordIndex(calls[index].callee, in: ["layoutIfNeeded", "setNeedsLayout"]) != nil {
            record(calls[index].callee)
        }
        return found
    }
}

/// Builds `ObserverAnalysis` from the calls, assignments and bindings of a file.
struct ObserverAnalysisBuilder: FileIndexReader {
    let fileIndex: FileIndex
    var callAtCallee: TokenTable { fileIndex.callAtCallee }
    var assignmentAtOperator: TokenTable
    var callAtOpenParen: TokenTable
    /// Which of `FileChecker.catalogueMarkers` the file's bytes hold, if known.
    let catalogueMarkers: MarkerSet.Mask?

    private static let removalMarkers = CatalogueMarkerCheck(["removeObserver"])

    init(_ fileIndex: FileIndex, catalogueMarkers: MarkerSet.Mask? = nil) {
        self.fileIndex = fileIndex
        self.catalogueMarkers = catalogueMarkers
        let tokenCount = fileIndex.source.code.count
        assignmentAtOperator = TokenTable(tokenCount: tokenCount)
        callAtOpenParen = TokenTable(tokenCount: tokenCount)
        for index in fileIndex.assignments.indices { assignmentAtOperator[fileIndex.assignments[index].op] = index }
        for index in fileIndex.calls.indices {
            if let open = fileIndex.calls[index].openParen { callAtOpenParen[open] = index }
        }
    }

    func build() -> ObserverAnalysis {
        var registered: [RegisteredObserver] = []
        var removals: [ObserverRemoval] = []
        var subscriptions: [KeyboardSubscription] = []
        var subscribers = Set<Int>()
        for index in registrations.indices {
            if let observer = registeredObserver(index) { registered.append(observer) }
        }
        let calls = self.calls
        // Most files remove no observer: their bytes tell without a look at each call and token.
        let mayRemove = Self.removalMarkers.mayBeIn(source.file.bytes, present: catalogueMarkers)
        // Calls are picked by their callee before a call is copied out of `calls`.
        for index in mayRemove ? calls.indices : 0..<0 where source.isWord(calls[index].callee, "removeObserver") {
            let call = calls[index]
            guard !hasLabel(call, "forKeyPath"), !isOtherObserverList(call) else { continue }
            removals.append(removal(call, index))
        }
        for registration in registrations where registration.kind == .publisher {
            // Merged publishers share their subscriber: one subscription.
            if let subscription = subscription(calls[registration.call], registration.call),
               subscribers.insert(subscription.subscriber).inserted {
                subscriptions.append(subscription)
            }
        }
        // `tokens.forEach(center.removeObserver)`: a reference, not a call.
        for index in mayRemove ? source.code.indices : 0..<0
        where source.isWord(index, "removeObserver") && callAtCallee[index] == nil {
            guard source.kind(index - 1) == .period || source.kind(index + 1) == .comma
                    || source.kind(index + 1) == .rightParen else { continue }
            removals.append(ObserverRemoval(
                callee: index, call: nil, target: nil, removesSelf: false, keys: [],
                method: method(containing: index), type: outline.enclosingType(at: index)))
        }
        var removedNames: [String: Set<UInt64>] = [:]
        for index in removals.indices {
            removals[index].names = namesTakingPart(in: removals[index].callee)
            guard let typeName = typeName(removals[index].type) else { continue }
            removedNames[typeName, default: []].formUnion(removals[index].names)
        }
        var cancelledNames: [String: [UInt64: [FunctionID?]]] = [:]
        for index in calls.indices {
            let callee = calls[index].callee
            let isCancel = source.isWord(callee, "cancel") && calls[index].arguments.isEmpty
            let isEmptying = source.wordIndex(callee, in: ["removeAll", "removeValue", "remove"]) != nil
            guard isCancel || isEmptying else { continue }
            let call = calls[index]
            guard call.receiver != nil,
                  let typeName = typeName(outline.enclosingType(at: call.callee)) else { continue }
            let method = method(containing: call.callee)
            for hash in namesTakingPart(in: call.callee) {
                cancelledNames[typeName, default: [:]][hash, default: []].append(method)
            }
        }
        // `bag = []`, `bag = Set()`, `task = nil` release what they held.
        for assignment in assignments where !assignment.isCompound {
            // The right-hand side first: few assignments release anything.
            let rhs = assignment.rhs
            let releases = (rhs.count == 1 && source.isWord(rhs.lowerBound, "nil"))
                || (rhs.count == 2 && source.kind(rhs.lowerBound) == .leftSquare)
                || (rhs.count == 3 && source.kind(rhs.lowerBound + 1) == .leftParen)
            guard releases else { continue }
            let names = ExpressionBounds.chainNames(source, assignment.lhs)
            guard let last = names.last, names.count == 1 || (names.count == 2 && source.isWord(names[0], "self")),
                  let typeName = typeName(outline.enclosingType(at: assignment.op)) else { continue }
            cancelledNames[typeName, default: [:]][source.nameHash(last), default: []]
                .append(method(containing: assignment.op))
        }
        let observingMethods = ObserverAnalysis.methodsOfObservingTypes(
            registered: registered, removals: removals, cancelledNames: cancelledNames, outline)
        var lifecycle = LifecycleGraph(ownPhasesIn: outline)
        // Phases start at lifecycle methods and, seeded from other files, at the methods of
        // the types observing here: without either, no method has a phase for calls to carry.
        if !lifecycle.ownPhases.isEmpty || !observingMethods.isEmpty { lifecycle = lifecycleGraph(lifecycle) }
        return ObserverAnalysis(
            registered: registered, removals: removals, subscriptions: subscriptions, tasks: notificationTasks(registered),
            removedNames: removedNames, cancelledNames: cancelledNames, lifecycle: lifecycle,
            methodsOfObservingTypes: observingMethods)
    }

    /// Tasks whose closure holds a keyboard `notifications(named:)` loop.
    func notificationTasks(_ registered: [RegisteredObserver]) -> [NotificationTask] {
        var tasks: [NotificationTask] = []
        for (index, registration) in registered.enumerated()
        where registration.kind == .asyncSequence && registration.isKeyboard {
            for scope in outline.enclosingScopes(from: outline.scope(at: registration.callee)) {
                if case .function = outline[scope].kind { break }
                if case .closure(let closure) = outline[scope].kind, let call = outline[closure].call {
                    let site = calls[call]
                    let isTask = (site.receiver == nil && source.isWord(site.callee, "Task"))
                        || (source.isWord(site.callee, "detached") && site.receiver.map { source.isWord($0.upperBound - 1, "Task") } == true)
                    if isTask {
                        let task = site.receiver.map { $0.upperBound - 1 } ?? site.callee
                        tasks.append(NotificationTask(task: task, registration: index,
                                                      result: resultUse(start: site.start, end: site.end)))
                        break
                    }
                }
            }
        }
        return tasks
    }

    // MARK: Registrations

    func hasLabel(_ call: CallSite, _ label: StaticString) -> Bool {
        call.argument(label, source) != nil
    }

    /// The details of registration `index`. Block and typed observers need a handler
    /// (`using:` or a trailing closure) to count; KVO `addObserver(_:forKeyPath:…)` never does.
    func registeredObserver(_ index: Int) -> RegisteredObserver? {
        let registration = registrations[index]
        let call = calls[registration.call]
        var name: Range<Int>?
        var observer: Range<Int>?
        var closure: ClosureID?
        switch registration.kind {
        case .block:
            guard hasLabel(call, "using") || !call.trailingClosures.isEmpty else { return nil }
            name = call.argument("forName", source)?.value
            closure = registration.closures.first?.closure
        case .selector:
            guard let selectorName = call.argument("name", source) else { return nil }
            name = selectorName.value
            observer = call.arguments.first.flatMap { $0.label == nil ? $0.value : nil }
        case .typedMessage:
            guard let message = call.argument("for", source), let handler = registration.closures.first?.closure
            else { return nil }
            name = message.value
            closure = handler
        case .publisher:
            guard call.receiver != nil, let first = call.arguments.first,
                  source.kind(first.value.lowerBound) != .backslash else { return nil }
            name = first.value
        case .asyncSequence:
            name = call.argument("named", source)?.value
        case .rxNotification:
            guard let first = call.arguments.first, first.label == nil else { return nil }
            name = first.value
        case .wrapper:
            return nil
        }
        var keys = registration.events.map(NotificationKey.keyboard)
        if keys.isEmpty, let name { keys = directKeys(name, typedMessage: registration.kind == .typedMessage) }
        let store: TokenStore = (registration.kind == .block || registration.kind == .typedMessage)
            ? resultUse(start: call.start, end: call.end) : .passedOn
        return RegisteredObserver(
            registration: index, kind: registration.kind, call: registration.call, callee: call.callee, name: name,
            keys: keys, object: registration.object, observer: observer, closure: closure,
            onLocalCenter: isLocalCenter(call), method: method(containing: call.callee),
            type: outline.enclosingType(at: call.callee), store: store)
    }

    func removal(_ call: CallSite, _ index: Int) -> ObserverRemoval {
        let target = call.arguments.first?.value
        let removesSelf = target.map { $0.count == 1 && source.isWord($0.lowerBound, "self") } ?? false
        let keys = call.argument("name", source).map { name -> [NotificationKey] in
            let events = RegistrationRecogniser.registeredEvents(call, messages: false, source, outline, calls)
            return events.isEmpty ? directKeys(name.value, typedMessage: false) : events.map(NotificationKey.keyboard)
        }
        return ObserverRemoval(
            callee: call.callee, call: index, target: target, removesSelf: removesSelf, keys: keys,
            method: method(containing: call.callee), type: outline.enclosingType(at: call.callee))
    }

    /// The `sink`/`assign` that ends the operator chain after keyboard publisher `call`
    /// (`publisher(for:)…​.receive(on:).sink { … }.store(in: &bag)`).
    func subscription(_ call: CallSite, _ index: Int) -> KeyboardSubscription? {
        guard source.isWord(call.callee, "publisher"), let open = call.openParen, let close = call.closeParen,
              ((open + 1)..<close).contains(where: { KeyboardVocabulary.notification(source, at: $0) != nil })
        else { return nil }
        let chain = fileIndex.publisherChain(after: call)
        var subscriber: Int?
        var result: TokenStore?
        for next in chain.calls {
            let nextCall = calls[next]
            if subscriber == nil, source.wordIndex(nextCall.callee, in: ["sink", "assign"]) != nil {
                // `assign(to: &$published)` ties the subscription to the publisher: no cancellable.
                if let target = nextCall.argument("to", source), source.kind(target.value.lowerBound) == .prefixAmpersand {
                    return nil
                }
                subscriber = next
            } else if subscriber != nil, source.isWord(nextCall.callee, "store"), let target = nextCall.argument("in", source) {
                var start = target.value.lowerBound
                if source.kind(start) == .prefixAmpersand { start += 1 }
                if let last = ExpressionBounds.chainNames(source, start..<target.value.upperBound).last {
                    result = .storedInProperty(property: last, site: nextCall.callee..<(nextCall.callee + 1))
                } else {
                    result = .passedOn
                }
            }
        }
        guard let subscriber else { return nil }
        let start = fileIndex.chainStart(endingAt: call.callee)
        let subscriberCall = calls[subscriber]
        return KeyboardSubscription(
            subscriber: subscriberCall.callee, call: subscriber, publisher: call.callee,
            result: result ?? resultUse(start: start, end: chain.end),
            method: method(containing: call.callee), type: outline.enclosingType(at: call.callee))
    }

    // MARK: Names

    /// Names spelled in a name argument: a keyboard notification, or the last member of
    /// another name. A bare `$0` or loop variable shows no name (keyboard names through loops
    /// come from `KeyboardHandlerFinder.registeredEvents`).
    func directKeys(_ range: Range<Int>, typedMessage: Bool) -> [NotificationKey] {
        var keys: [NotificationKey] = []
        for index in range {
            let event = typedMessage ? KeyboardVocabulary.message(source, at: index)
                                     : KeyboardVocabulary.notification(source, at: index)
            if let event, !keys.contains(.keyboard(event)) { keys.append(.keyboard(event)) }
        }
        guard keys.isEmpty, !range.isEmpty else { return keys }
        if range.count == 1, source.kind(range.lowerBound) == .identifier, isLoopVariable(range.lowerBound) {
            return []
        }
        if source.kind(range.upperBound - 1) == .rightParen {
            // `Notification.Name("Refresh")`: the spelling stands for the name.
            var hasher = NameHashAccumulator()
            for index in range { hasher.add(source.nameHash(index)) }
            return [.named(hasher.value)]
        }
        guard let last = ExpressionBounds.chainNames(source, range).last else { return [] }
        return [.named(source.nameHash(last))]
    }

    /// `$0`, a closure parameter or a `for` variable: a name the argument does not spell.
    func isLoopVariable(_ index: Int) -> Bool {
        if source.text(at: index).hasPrefix("$") { return true }
        let hash = source.nameHash(index)
        for scope in outline.enclosingScopes(from: outline.scope(at: index)) {
            switch outline[scope].kind {
            case .closure(let closure):
                if outline[closure].parameters.contains(where: { source.nameHash($0) == hash }) { return true }
            case .block(let keyword):
                if source.isWord(keyword, "for"), source.nameHash(keyword + 1) == hash { return true }
            case .function, .type:
                return false
            default:
                break
            }
        }
        return false
    }

    // MARK: Results

    /// What the code does with the value of the expression `start...end`.
    func resultUse(start: Int, end: Int) -> TokenStore {
        let before = start - 1
        switch source.kind(before) {
        case .equal:
            if source.isWord(before - 1, "_"), startsStatement(before - 1) { return .discarded }
            if let assignment = assignmentAtOperator[before].map({ assignments[$0] }) {
                if let property = propertyName(assignment.lhs) {
                    return .storedInProperty(property: property, site: assignment.lhs)
                }
                return .passedOn
            }
            if let binding = bindings.first(where: { $0.value?.lowerBound == start }) {
                // `let _ = …` drops the value like `_ = …`.
                if source.isWord(binding.nameToken, "_") { return .discarded }
                return localUse(binding.nameToken)
            }
            if let property = outline.properties.first(where: { $0.initializer?.lowerBound == start }) {
                return .storedInProperty(property: property.nameToken, site: property.nameToken..<(property.nameToken + 1))
            }
            return .passedOn
        case .leftParen:
            if let call = callAtOpenParen[before].map({ calls[$0] }), let site = collectionStore(call) { return site }
            return .passedOn
        case .leftSquare:
            // `tokens += [center.addObserver(…)]`
            if source.wordIndexOperator(before - 1, in: ["+="]),
               let assignment = assignmentAtOperator[before - 1].map({ assignments[$0] }),
               let property = propertyName(assignment.lhs) {
                return .storedInProperty(property: property, site: assignment.lhs)
            }
            return .passedOn
        default:
            if startsStatement(start), endsStatement(end) {
                return isImplicitReturn(start: start, end: end) ? .passedOn : .discarded
            }
            return .passedOn
        }
    }

    /// The only expression of a body whose value is returned without `return`: a function
    /// with a result type, a getter, a closure called right away or mapped
    /// (`names.map { center.addObserver(forName: $0, …) }`).
    func isImplicitReturn(start: Int, end: Int) -> Bool {
        guard let scope = outline.scope(at: start), outline[scope].close == end + 1 else { return false }
        let body = outline[scope]
        switch body.kind {
        case .function(let function):
            return body.open == start - 1 && outline[function].returnType != nil
        case .property, .accessor(_, .get):
            return body.open == start - 1
        case .closure(let closure):
            let description = outline[closure]
            guard body.open == start - 1 || description.inToken == start - 1
                    || description.captureList?.upperBound == start else { return false }
            guard let call = description.call else {
                // `{ … }()`: the closure is called where it stands.
                return source.kind(body.close + 1) == .leftParen
            }
            return source.wordIndex(calls[call].callee, in: ["map", "compactMap", "flatMap", "reduce"]) != nil
        default:
            return false
        }
    }

    /// A local that holds a token: stored further (`self.token = local`, `tokens.append(local)`),
    /// passed on, or left in the local.
    func localUse(_ name: Int) -> TokenStore {
        guard let scope = outline.executableScope(at: name) else { return .passedOn }
        let body = outline[scope].body
        var used = false
        for index in (name + 1)..<body.upperBound where source.kind(index) == .identifier && source.nameHash(index) == source.nameHash(name)
            && source.kind(index - 1) != .period {
            used = true
            let before = index - 1
            if source.kind(before) == .equal, ExpressionBounds.end(source, from: index) == index + 1,
               let assignment = assignmentAtOperator[before].map({ assignments[$0] }),
               let property = propertyName(assignment.lhs) {
                return .storedInProperty(property: property, site: assignment.lhs)
            }
            if source.kind(before) == .leftParen, let call = callAtOpenParen[before].map({ calls[$0] }),
               let site = collectionStore(call) {
                return site
            }
        }
        return used ? .passedOn : .storedInLocal(name: name)
    }

    /// `property.append(x)`, `self.property.insert(x)`: the store into a collection property.
    func collectionStore(_ call: CallSite) -> TokenStore? {
        guard source.wordIndex(call.callee, in: ["append", "insert", "update", "formUnion", "add"]) != nil,
              let receiver = call.receiver, let property = propertyName(receiver) else { return nil }
        return .storedInProperty(property: property, site: call.start..<(call.callee + 1))
    }

    /// The property named by `self.name` or a bare `name` that is not a local or parameter.
    func propertyName(_ range: Range<Int>) -> Int? {
        var names = ExpressionBounds.chainNames(source, range)
        if names.count == 2, source.isWord(names[0], "self") { names.removeFirst() }
        guard names.count == 1, source.kind(names[0]) == .identifier else { return nil }
        let name = names[0]
        if range.count > 1, !source.isWord(range.lowerBound, "self") { return nil }
        if source.isWord(range.lowerBound, "self") { return name }
        // A bare name: not a local binding or a parameter.
        if fileIndex.declaration(referencedBy: name) != nil { return nil }
        return outline.enclosingType(at: name) == nil ? nil : name
    }

    func startsStatement(_ index: Int) -> Bool {
        let before = index - 1
        if before < 0 { return true }
        switch source.kind(before) {
        case .leftBrace, .rightBrace, .semicolon: return true
        case .colon: return ExpressionBounds.isCaseLabel(endingAt: before, source)
        case .keyword:
            if source.isWord(before, "in") {
                return outline.closures.contains { $0.inToken == before }
            }
            if source.isWord(before, "else") || source.isWord(before, "defer") { return false }
        default: break
        }
        return source.startsLine(index) && !ExpressionBounds.continuesLine(source, index)
    }

    func endsStatement(_ end: Int) -> Bool {
        let next = end + 1
        if next >= source.code.count { return true }
        switch source.kind(next) {
        case .rightBrace, .semicolon: return true
        default: return source.startsLine(next) && !ExpressionBounds.continuesLine(source, next)
        }
    }

    /// Whether `call` (`x.removeObserver(…)`) is another object's observer list
    /// (`progressReporter?.removeObserver(self)`): no name of its receiver says center
    /// (`NotificationCenter.default`, `center`, `notificationCenter`, `nc`).
    func isOtherObserverList(_ call: CallSite) -> Bool {
        guard let receiver = call.receiver else { return false }
        return !ExpressionBounds.chainNames(source, receiver).contains {
            source.word($0, contains: "enter") || source.isWord($0, "nc")
        }
    }

    /// Whether the registration's center is a `NotificationCenter()` the code made itself.
    func isLocalCenter(_ call: CallSite) -> Bool {
        guard let receiver = call.receiver else { return false }
        let names = ExpressionBounds.chainNames(source, receiver)
        if names.count == 1, source.isWord(names[0], "NotificationCenter"),
           source.kind(names[0] + 1) == .leftParen, source.kind(names[0] + 2) == .rightParen {
            return true
        }
        var candidates = names
        if candidates.count == 2, source.isWord(candidates[0], "self") { candidates.removeFirst() }
        guard candidates.count == 1 else { return false }
        let hash = source.nameHash(candidates[0])
        func isConstruction(_ value: Range<Int>?) -> Bool {
            guard let value, value.count == 3 else { return false }
            return source.isWord(value.lowerBound, "NotificationCenter") && source.kind(value.lowerBound + 1) == .leftParen
        }
        if bindings.contains(where: { $0.nameHash == hash && isConstruction($0.value) }) { return true }
        return outline.properties.contains { $0.nameHash == hash && isConstruction($0.initializer) }
    }

    // MARK: Removal and cancellation neighbourhoods

    /// Names that take part in the removal or cancellation at `trigger`: the statement's
    /// names, the receivers and headers of the closures and loops around it (up to its
    /// method), and the values of locals among them.
    func namesTakingPart(in trigger: Int) -> Set<UInt64> {
        var names = Set<UInt64>()
        func add(_ range: Range<Int>) {
            for index in range where index >= 0 && index < source.code.count && source.kind(index) == .identifier {
                names.insert(source.nameHash(index))
            }
        }
        var start = ExpressionBounds.statementStart(source, containing: trigger)
        let end = callAtCallee[trigger].map { calls[$0].closeParen ?? calls[$0].end } ?? trigger
        add(start..<(end + 1))
        // An argument of a call (`tokens.forEach(center.removeObserver)`): the call's receiver.
        for _ in 0..<Limits.valueHops {
            guard source.kind(start - 1) == .leftParen, let call = callAtOpenParen[start - 1] else { break }
            add(calls[call].start..<start)
            start = ExpressionBounds.statementStart(source, containing: calls[call].start)
            add(start..<calls[call].start)
        }
        for scope in outline.enclosingScopes(from: outline.scope(at: trigger)) {
            switch outline[scope].kind {
            case .closure(let closure):
                if let call = outline[closure].call {
                    add(calls[call].start..<(calls[call].openParen.map { $0 + 1 } ?? calls[call].callee + 1))
                    add(ExpressionBounds.statementStart(source, containing: calls[call].start)..<calls[call].start)
                }
            case .block(let keyword):
                add(keyword..<outline[scope].open)
            default:
                break
            }
            if case .function = outline[scope].kind { break }
        }
        // Locals among them bring in their values (`if let t = token`, `let all = tokens`).
        if let scope = outline.executableScope(at: trigger) {
            var function = scope
            for enclosing in outline.enclosingExecutableScopes(from: scope) {
                function = enclosing
                guard case .closure = outline[enclosing].kind else { break }
            }
            let body = outline[function].body
            for _ in 0..<Limits.valueHops {
                for binding in bindings where body.contains(binding.nameToken) && names.contains(binding.nameHash) {
                    if let value = binding.value { add(value) }
                }
            }
        }
        // `var token: NSObjectProtocol? { didSet { center.removeObserver(oldValue) } }`: every
        // new value, `nil` included, removes the token the property held.
        if names.contains(Self.oldValueHash), let scope = outline.scope(at: trigger) {
            for property in outline.properties {
                for accessor in property.accessors where accessor.kind == .didSet && outline.scope(scope, isWithin: accessor.scope) {
                    names.insert(property.nameHash)
                }
            }
        }
        return names
    }

    static let oldValueHash = NameHash.of("oldValue")

    // MARK: Lifecycle

    func method(containing index: Int) -> FunctionID? { outline.method(containing: index) }

    func typeName(_ type: TypeID?) -> String? { type.map { outline[$0].qualifiedName } }

    /// `ownPhases` (`LifecycleGraph(ownPhasesIn:)`) with the calls on `self` between methods
    /// of one type that carry a phase on to helpers.
    func lifecycleGraph(_ ownPhases: LifecycleGraph) -> LifecycleGraph {
        var graph = ownPhases
        // Calls from methods to methods of the same type name, on self or unqualified; those
        // that mean no method of the type here may mean one its code in another file declares.
        // Read in place: most calls are not on `self` or name no function of the file.
        let calls = self.calls
        var leaving: [(caller: FunctionID, owner: TypeID, name: UInt64)] = []
        for index in calls.indices where fileIndex.isCallOnSelf(index) {
            let callee = calls[index].callee
            guard let caller = method(containing: callee), let callerOwner = outline[caller].owner else { continue }
            let name = source.nameHash(callee)
            var resolved = false
            if !outline.functions(named: name).isEmpty {
                for target in fileIndex.functions(calledBy: calls[index]) {
                    // The same declaration needs no comparison of names.
                    guard let owner = outline[target].owner,
                          owner == callerOwner || outline[owner].qualifiedName == outline[callerOwner].qualifiedName
                    else { continue }
                    resolved = true
                    if target != caller { graph.callers[target, default: []].append(caller) }
                }
            }
            if !resolved, LifecycleGraph.mayNameMethod(source, callee) { leaving.append((caller, callerOwner, name)) }
        }
        graph.phases = graph.propagated(seeds: [:])
        // Most calls on `self` come from methods without a phase, which carry none on.
        for call in leaving where !(graph.phases[call.caller]?.isEmpty ?? true) {
            graph.callsLeavingFile.append((call.caller, outline[call.owner].qualifiedName, call.name))
        }
        return graph
    }
}

/// The lifecycle phases methods run in: their own (`viewWillAppear`), or those of the
/// methods of the same type that call them (`Limits.lifecycleHelperLevels` levels), with the
/// calls that reach methods of the type declared in other files.
struct LifecycleGraph: Sendable {
    /// Method → the phase its own name gives it.
    var ownPhases: [FunctionID: Set<LifecyclePhase>] = [:]
    /// Method → the methods of its type in this file that call it.
    var callers: [FunctionID: [FunctionID]] = [:]
    /// Calls on `self` from a method of a type with a phase (`phases`) to a name no method of
    /// that type in this file has: the type's code in another file (an extension) may declare it.
    var callsLeavingFile: [(caller: FunctionID, typeName: String, name: UInt64)] = []
    /// Method → the phases it runs in, from this file alone.
    var phases: [FunctionID: Set<LifecyclePhase>] = [:]

    /// The methods of the file that run in a lifecycle phase by their own name, without the
    /// calls that carry phases on.
    init(ownPhasesIn outline: Outline) {
        // Read in place, and a method's name only when its hash is a lifecycle method's:
        // every method of every file is asked.
        let functions = outline.functions
        for index in functions.indices where functions[index].owner != nil {
            let kind = functions[index].kind
            guard kind != .function || LifecyclePhase.methodNameHashes.contains(functions[index].nameHash),
                  let phase = LifecyclePhase.of(functions[index].name, kind: kind) else { continue }
            ownPhases[FunctionID(index)] = [phase]
        }
        phases = ownPhases
    }

    /// `ownPhases` and `seeds` (phases from calls in other files), carried along `callers`.
    /// The levels are worked out on bit masks indexed by method (`LifecyclePhase.mask`): every
    /// file with lifecycle methods asks, and a dictionary of sets hashed each method of each
    /// level again. Only the methods whose phases a call added are written back.
    func propagated(seeds: [FunctionID: Set<LifecyclePhase>]) -> [FunctionID: Set<LifecyclePhase>] {
        var phases = ownPhases
        for (method, seeded) in seeds { phases[method, default: []].formUnion(seeded) }
        guard !callers.isEmpty else { return phases }
        var methodCount = 0
        for (target, list) in callers {
            methodCount = max(methodCount, target.rawValue + 1)
            for caller in list { methodCount = max(methodCount, caller.rawValue + 1) }
        }
        var masks = [UInt8](repeating: 0, count: methodCount)
        for (method, set) in phases where method.rawValue < methodCount { masks[method.rawValue] = LifecyclePhase.mask(of: set) }
        let initial = masks
        // Each level reads the phases of the level before: updating in place would carry a
        // phase further or not depending on the order of `callers`, which varies by process.
        for _ in 0..<Limits.lifecycleHelperLevels {
            let previous = masks
            var changed = false
            for (target, list) in callers {
                var union = previous[target.rawValue]
                for caller in list { union |= previous[caller.rawValue] }
                if union != masks[target.rawValue] {
                    masks[target.rawValue] = union
                    changed = true
                }
            }
            if !changed { break }
        }
        for target in callers.keys where masks[target.rawValue] != initial[target.rawValue] {
            phases[target] = LifecyclePhase.phases(in: masks[target.rawValue])
        }
        return phases
    }

    /// Per type name: the method names this file calls from methods with a lifecycle phase
    /// without declaring them, with the phases the calls run in (pass-1 facts).
    var phasesOfCallsLeavingFile: [String: [UInt64: Set<LifecyclePhase>]] {
        var found: [String: [UInt64: Set<LifecyclePhase>]] = [:]
        for call in callsLeavingFile {
            guard let callerPhases = phases[call.caller], !callerPhases.isEmpty else { continue }
            found[call.typeName, default: [:]][call.name, default: []].formUnion(callerPhases)
        }
        return found
    }

    /// A method name rather than a type's initializer (`UIView(…)`): it does not start with
    /// an ASCII capital. Read off the byte, as pass 1 asks it of every call on `self`.
    static func mayNameMethod(_ source: TokenizedSource, _ callee: Int) -> Bool {
        guard source.kind(callee) == .identifier else { return false }
        let first = source.file.bytes[Int(source.code[callee].start)]
        return !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first)
    }
}

extension Outline {
    /// The method (a function declared directly in a type) whose body contains `index`,
    /// looking through closures and local functions.
    func method(containing index: Int) -> FunctionID? {
        guard let scope = scope(at: index) else { return nil }
        let method = Int(methodOfScope[scope.rawValue])
        return method >= 0 ? FunctionID(method) : nil
    }
}

/// Order-dependent combination of name hashes (for spellings such as `Name("x")`).
/// FNV-1a's step over whole hashes instead of bytes.
struct NameHashAccumulator {
    var value: UInt64 = FNV1a.offsetBasis
    mutating func add(_ hash: UInt64) { value = (value ^ hash) &* FNV1a.prime }
}
