import Lexer

/// Code that runs because a keyboard notification fired (catalogue: "keyboard handler").
struct KeyboardHandler: Sendable {
    enum Form: Sendable, Hashable {
        /// A method named in `#selector(…)` of `addObserver(_:selector:name:object:)`.
        case selector
        /// The closure of `addObserver(forName:object:queue:using:)`.
        case blockObserver
        /// A closure of a Combine chain on `publisher(for:)`.
        case combine
        /// A closure of an RxSwift chain on `rx.notification(…)`.
        case rxSwift
        /// The body of `for await … in notifications(named:)`.
        case asyncSequence
        /// The closure of an iOS 26 `addObserver(of:for:using:)` with a keyboard message.
        case typedMessage
        /// A method named `keyboardWill…`/`keyboardDid…` (or with such a label).
        case helperCallback
        /// A closure registered through a project wrapper with `.willShow`, `.didHide`, ….
        case wrapperEvent
        /// A function taking a `Notification` that reads a keyboard userInfo key.
        case notificationReader
        /// A function of the same file called from another handler, or a property observer
        /// a handler triggers.
        case reached
    }

    let form: Form
    /// The notifications it handles, when known.
    var events: [KeyboardEvent]
    /// The scope of its body (function, closure, accessor or `for` body).
    let scope: ScopeID
    /// The registration call's name token (`addObserver`, `publisher`, `notifications`,
    /// `notification`), when the handler was found through one.
    let registration: Int?
    /// A Combine/Rx operator before the handler that moves it out of the notification's
    /// delivery (`receive(on:)`, `delay`, `debounce`, `throttle`): its name token.
    let deferredBy: Int?
    /// The parameter that holds the notification or message, when there is one.
    let notificationParameter: Int?
    /// For `.reached`: the handler that calls it; also set on a `.notificationReader` that a
    /// registered handler calls, so that it belongs to that registration.
    var caller: Int?
    /// Tokens from here to the end of the body are unreachable (after an unconditional
    /// `return` at the top level of the body); the scope's `close` when all is reachable.
    var reachableEnd: Int
}

/// How a handler can read the notification it handles, for fixes that need its duration or
/// curve.
enum HandlerNotification: Sendable, Equatable {
    /// A `Notification` (or `NSNotification`) in the named parameter: read its `userInfo`.
    case notification(String)
    /// An iOS 26 keyboard message in the named parameter: read its properties.
    case message(String)
}

extension FileAnalysis {
    /// The parameter through which `handler` holds its notification, when the code shows it:
    /// the closure parameter of an observer or publisher, a typed message, or a parameter
    /// declared `Notification`. Nil for `_`, wrappers and helpers taking something else.
    func notificationAccess(of handler: KeyboardHandler) -> HandlerNotification? {
        guard let parameter = handler.notificationParameter, source.kind(parameter) == .identifier else { return nil }
        let name = source.text(at: parameter)
        switch handler.form {
        case .typedMessage:
            return .message(name)
        case .blockObserver, .combine, .rxSwift, .asyncSequence:
            return .notification(name)
        case .selector, .notificationReader, .helperCallback, .reached:
            let declared = source.kind(parameter + 1) == .colon
                && (source.isWord(parameter + 2, "Notification") || source.isWord(parameter + 2, "NSNotification"))
            return declared ? .notification(name) : nil
        case .wrapperEvent:
            return nil
        }
    }
}

/// Finds every keyboard handler of a file, following calls within the file.
struct KeyboardHandlerFinder: FileIndexReader {
    let fileIndex: FileIndex
    var constants: ConstantResolver { fileIndex.constants }
    var handlers: [KeyboardHandler] = []
    var handlerOfScope: [ScopeID: Int] = [:]
    /// Closures of a publisher chain whose result the next closure receives as its
    /// parameter (`.compactMap { … }.sink { frame in … }`): (producer, consumer).
    var chainLinks: [(producer: ClosureID, consumer: ClosureID)] = []
    /// The `didSet`/`willSet` bodies of properties, by owner type and property name.
    let propertyObservers: [Outline.OwnedName: [ScopeID]]
    /// Per call: whether it is on `self` or unqualified. Per assignment: the name hash of the
    /// property it writes whole (`x = …`, `self.x = …`). Read once, not once per handler
    /// whose body holds them (handlers nest).
    let callsOnSelf: [Bool]
    let assignedProperties: [UInt64?]
    /// Indices in `calls` of the file's notification registrations: a method they take by
    /// name handles another notification, not this handler's.
    let registrationCalls: Set<Int>
    /// Values a handler sends into a relay or subject (`heightRelay.accept(h)`) and the
    /// closure of a subscription that receives them first: (value, consumer).
    var relayLinks: [(value: Range<Int>, consumer: ClosureID)] = []
    /// Per relay or subject property: the subscriptions to it in this file, each as the
    /// indices in `calls` of its chain from the property up to the subscribing call.
    let relaySubscriptions: [RelayKey: [[Int]]]

    /// How many calls deep handlers are followed into functions of the same file.
    static let reachDepth = 3

    init(_ fileIndex: FileIndex) {
        self.fileIndex = fileIndex
        let source = fileIndex.source
        var propertyObservers: [Outline.OwnedName: [ScopeID]] = [:]
        for property in fileIndex.outline.properties {
            for accessor in property.accessors where accessor.kind == .didSet || accessor.kind == .willSet {
                propertyObservers[Outline.OwnedName(owner: property.owner, name: property.nameHash), default: []]
                    .append(accessor.scope)
            }
        }
        self.propertyObservers = propertyObservers
        callsOnSelf = fileIndex.calls.indices.map(fileIndex.isCallOnSelf)
        registrationCalls = Set(fileIndex.registrations.map(\.call))
        relaySubscriptions = Self.relaySubscriptions(fileIndex)
        assignedProperties = fileIndex.assignments.map { assignment in
            let names = ExpressionBounds.chainNames(source, assignment.lhs, upTo: 3)
            if names.count == 1 { return source.nameHash(names[0]) }
            if names.count == 2, source.isWord(names[0], "self") { return source.nameHash(names[1]) }
            return nil
        }
    }

    mutating func run() {
        for registration in fileIndex.registrations { add(registration) }
        subscriptRegistrations()
        asyncSequences()
        helperCallbacks()
        notificationReaders()
        followCalls()
    }

    @discardableResult
    mutating func add(_ form: KeyboardHandler.Form, scope: ScopeID, events: [KeyboardEvent], registration: Int?,
                      deferredBy: Int? = nil, parameter: Int?, caller: Int? = nil) -> Bool {
        if let existing = handlerOfScope[scope] {
            for event in events where !handlers[existing].events.contains(event) {
                handlers[existing].events.append(event)
            }
            return false
        }
        handlerOfScope[scope] = handlers.count
        handlers.append(KeyboardHandler(
            form: form, events: events, scope: scope, registration: registration, deferredBy: deferredBy,
            notificationParameter: parameter, caller: caller, reachableEnd: reachableEnd(scope)))
        return true
    }

    /// The handlers of a keyboard registration: its selector's methods, its closures, the
    /// closures of its publisher chain, the body of its `for await` loop.
    mutating func add(_ registration: ObserverRegistration) {
        guard !registration.events.isEmpty else { return }
        let call = calls[registration.call]
        let callee = call.callee
        func addClosures(_ form: KeyboardHandler.Form) {
            for (closure, events) in registration.closures {
                add(form, scope: outline[closure].scope, events: events, registration: callee,
                    parameter: outline[closure].parameters.first)
            }
        }
        switch registration.kind {
        case .selector:
            guard let selector = call.argument("selector", source) else { return }
            for function in selectorTargets(selector.value, near: callee) {
                guard let scope = outline[function].scope else { continue }
                add(.selector, scope: scope, events: registration.events, registration: callee,
                    parameter: outline[function].parameters.first?.nameToken)
            }
        case .block:
            addClosures(.blockObserver)
        case .typedMessage:
            addClosures(.typedMessage)
        case .wrapper:
            addClosures(source.isWord(callee, "addObserver") ? .blockObserver : .wrapperEvent)
        case .publisher, .rxNotification:
            followChain(from: call, events: registration.events, registration: callee,
                        form: registration.kind == .publisher ? .combine : .rxSwift)
        case .asyncSequence:
            // The body of the `for await` loop over it: see `asyncSequences()`.
            break
        }
    }

    /// Wrapper callbacks stored by event: `callbacks[.willShow] = { notification in … }`.
    mutating func subscriptRegistrations() {
        for assignment in assignments where !assignment.isCompound {
            let close = assignment.lhs.upperBound - 1
            let brace = assignment.rhs.lowerBound
            guard source.kind(close) == .rightSquare, let open = source.partnerIndex(close),
                  let event = KeyboardVocabulary.wrapperEvent(source, (open + 1)..<close),
                  source.kind(brace) == .leftBrace,
                  source.partnerIndex(brace) == assignment.rhs.upperBound - 1,
                  let scope = outline.scope(at: brace), case .closure(let closure) = outline[scope].kind
            else { continue }
            add(.wrapperEvent, scope: scope, events: [event], registration: nil,
                parameter: outline[closure].parameters.first)
        }
    }

    /// Functions of the file named by `#selector(…)` in `value`, preferring those of the
    /// type that registers.
    func selectorTargets(_ value: Range<Int>, near registration: Int) -> [FunctionID] {
        guard let nameToken = source.selectedMethodName(in: value) else { return [] }
        let name = source.nameHash(nameToken)
        let candidates = outline.functions(named: name)
        guard let type = outline.enclosingType(at: registration) else { return Array(candidates) }
        let local = outline.functions(named: name, in: type)
        return Array(local.isEmpty ? candidates : local)
    }

    static let chainDeferrals: [StaticString] = ["receive", "delay", "debounce", "throttle", "observe", "observeOn"]

    /// Walks `.operator(…) { … }` after a publisher, marking its closures as handlers.
    mutating func followChain(from call: CallSite, events: [KeyboardEvent], registration: Int,
                              form: KeyboardHandler.Form) {
        var deferredBy: Int?
        // The closure whose result is the chain's current element (nil: the notification).
        var element: ClosureID?
        for index in fileIndex.publisherChain(after: call).calls {
            let next = calls[index]
            let name = next.callee
            if source.wordIndex(name, in: Self.chainDeferrals) != nil { deferredBy = deferredBy ?? name }
            let closures = next.handlerClosures
            for closure in closures {
                add(form, scope: outline[closure].scope, events: events, registration: registration,
                    deferredBy: deferredBy, parameter: outline[closure].parameters.first)
                if let element { chainLinks.append((element, closure)) }
            }
            if source.wordIndex(name, in: Self.transforms) != nil {
                element = closures.first
            }
        }
    }

    /// Operators whose closure's result becomes the next element of the chain.
    static let transforms: [StaticString] = ["map", "compactMap", "flatMap", "tryMap", "tryCompactMap"]

    /// The bodies of `for await … in notifications(named:)` loops over keyboard notifications.
    mutating func asyncSequences() {
        var sequences: [Int: [KeyboardEvent]] = [:]
        for registration in fileIndex.registrations where registration.kind == .asyncSequence {
            sequences[calls[registration.call].callee] = registration.events
        }
        guard !sequences.isEmpty else { return }
        for (index, scope) in outline.scopes.enumerated() {
            guard case .block(let keyword) = scope.kind, source.isWord(keyword, "for") else { continue }
            var found: [KeyboardEvent] = []
            var registration: Int?
            for token in keyword..<scope.open where source.isWord(token, "notifications") {
                if let events = sequences[token], !events.isEmpty {
                    found = events
                    registration = token
                }
            }
            guard !found.isEmpty else { continue }
            var variable = keyword + 1
            while source.wordIndex(variable, in: ["try", "await", "case", "let", "var"]) != nil { variable += 1 }
            add(.asyncSequence, scope: ScopeID(index), events: found, registration: registration,
                parameter: source.kind(variable) == .identifier ? variable : nil)
        }
    }

    mutating func helperCallbacks() {
        for function in outline.functions {
            // A registration says which notification a method handles; its name only guesses.
            guard let scope = function.scope, handlerOfScope[scope] == nil else { continue }
            let events = KeyboardVocabulary.callbackEvents(of: function, in: source)
            guard !events.isEmpty else { continue }
            add(.helperCallback, scope: scope, events: events, registration: nil,
                parameter: function.parameters.first?.nameToken)
        }
    }

    mutating func notificationReaders() {
        for function in outline.functions {
            guard let scope = function.scope else { continue }
            guard let parameter = function.parameters.first(where: { parameter in
                parameter.type.contains { source.isWord($0, "Notification") || source.isWord($0, "NSNotification") }
            }) else { continue }
            let body = outline[scope].body
            guard body.contains(where: {
                KeyboardVocabulary.userInfoKey(source, at: $0) != nil || constants.userInfoKey(namedAt: $0) != nil
            }) else { continue }
            add(.notificationReader, scope: scope, events: [], registration: nil, parameter: parameter.nameToken)
        }
    }

    /// Adds the functions of this file that handlers call (up to `reachDepth` levels) and
    /// the property observers that handlers trigger.
    mutating func followCalls() {
        var frontier = Array(handlers.indices)
        for _ in 0..<Self.reachDepth {
            var next: [Int] = []
            for handlerIndex in frontier {
                let handler = handlers[handlerIndex]
                let body = outline[handler.scope].body.lowerBound..<handler.reachableEnd
                for callIndex in fileIndex.callIndices(in: body) {
                    relay(callIndex, from: handlerIndex, into: &next)
                    if callsOnSelf[callIndex] {
                        for function in fileIndex.functions(calledBy: calls[callIndex]) {
                            reach(function, from: handlerIndex, into: &next)
                        }
                    }
                    // A method passed by name where a closure goes runs as that closure would:
                    // inside the animation, or later when handed to `async`.
                    guard let passed = fileIndex.methodsPassedByName[callIndex],
                          !registrationCalls.contains(callIndex) else { continue }
                    let callee = calls[callIndex].callee
                    let deferring = source.wordIndex(callee, in: Self.deferringCalls) != nil ? callee : nil
                    for function in passed {
                        reach(function, from: handlerIndex, deferredBy: deferring, into: &next)
                    }
                }
                for scope in triggeredObservers(in: body, of: handler.scope) {
                    if add(.reached, scope: scope, events: handler.events, registration: nil, parameter: nil,
                           caller: handlerIndex) {
                        next.append(handlers.count - 1)
                    }
                }
            }
            frontier = next
            if frontier.isEmpty { break }
        }
    }

    /// A relay or subject property of a type: its type's simple name (declarations and
    /// extensions share it) and the property's name.
    struct RelayKey: Hashable {
        let typeName: String
        let name: UInt64
    }

    /// Types whose values relay what is sent into them (`accept`, `onNext`, `send`) to their
    /// subscribers: RxRelay relays, RxSwift subjects, Combine subjects.
    static let relayTypes: [StaticString] = [
        "PublishRelay", "BehaviorRelay", "ReplayRelay", "PublishSubject", "BehaviorSubject", "ReplaySubject",
        "PassthroughSubject", "CurrentValueSubject",
    ]
    static let relaySends: [StaticString] = ["accept", "onNext", "send"]
    static let relaySubscribers: [StaticString] = ["subscribe", "bind", "drive", "emit", "sink"]
    /// Labels of the closure that receives the elements when a call takes several.
    static let elementClosureLabels: [StaticString] = ["onNext", "receiveValue"]

    /// The subscriptions of the file to stored relay and subject properties (see
    /// `relaySubscriptions`): one chain walk per mention of such a property.
    static func relaySubscriptions(_ fileIndex: FileIndex) -> [RelayKey: [[Int]]] {
        let source = fileIndex.source, outline = fileIndex.outline
        var relays = Set<RelayKey>()
        for property in outline.properties where !property.isStatic && property.kind != .computed {
            guard let owner = property.owner else { continue }
            let declared = Array(property.type) + Array(property.initializer ?? 0..<0)
            guard declared.contains(where: { source.wordIndex($0, in: relayTypes) != nil }) else { continue }
            relays.insert(RelayKey(typeName: outline[owner].simpleName, name: property.nameHash))
        }
        guard !relays.isEmpty else { return [:] }
        let relayNames = Set(relays.map(\.name))
        var found: [RelayKey: [[Int]]] = [:]
        // Forward from each mention of a relay (`relay.map { … }.subscribe(…)`): a chain
        // continued after a trailing closure on the next line has no receiver to go back to.
        for name in source.code.indices where source.kind(name) == .identifier && relayNames.contains(source.nameHash(name)) {
            let qualified = source.kind(name - 1) == .period
            guard !qualified || relayName(fileIndex, (name - 2)..<(name + 1)) == name
                    || relayName(fileIndex, (name - 3)..<(name + 1)) == name,
                  let key = relayKey(fileIndex, name), relays.contains(key) else { continue }
            let chain = fileIndex.chain(from: name).calls
            guard let last = chain.lastIndex(where: { source.wordIndex(fileIndex.calls[$0].callee, in: relaySubscribers) != nil })
            else { continue }
            found[key, default: []].append(Array(chain[...last]))
        }
        return found
    }

    /// The property token the receiver chain `range` starts from: `relay`, `self.relay`,
    /// `self?.relay`.
    static func relayName(_ fileIndex: FileIndex, _ range: Range<Int>) -> Int? {
        let source = fileIndex.source
        var name = range.lowerBound
        if source.isWord(name, "self") {
            name += 1
            if source.kind(name) == .postfixQuestionMark || source.kind(name) == .exclamationMark { name += 1 }
            guard source.kind(name) == .period else { return nil }
            name += 1
        }
        return range.contains(name) && source.kind(name) == .identifier ? name : nil
    }

    static func relayKey(_ fileIndex: FileIndex, _ name: Int) -> RelayKey? {
        guard let type = fileIndex.outline.enclosingType(at: name) else { return nil }
        return RelayKey(typeName: fileIndex.outline[type].simpleName, name: fileIndex.source.nameHash(name))
    }

    /// The closure of `call` that receives the chain's elements: the one labelled `onNext:` or
    /// `receiveValue:`, else the first unlabelled one (trailing closures included).
    func elementClosure(of call: CallSite) -> ClosureID? {
        let closures = call.arguments.filter { $0.closure != nil }
        if let labelled = closures.first(where: { argument in
            argument.label.map { source.wordIndex($0, in: Self.elementClosureLabels) != nil } ?? false
        }) {
            return labelled.closure
        }
        return closures.first { $0.label == nil }?.closure ?? call.trailingClosures.first?.closure
    }

    /// When call `index` of handler `sender` sends a value into a relay or subject of its type
    /// (`heightRelay.accept(h)`, `subject.onNext(h)`, `frames.send(h)`), the closures that
    /// receive it in this file's subscriptions become handlers that `sender` reaches, and the
    /// first of each chain receives the value.
    mutating func relay(_ index: Int, from sender: Int, into next: inout [Int]) {
        let call = calls[index]
        guard !relaySubscriptions.isEmpty, source.wordIndex(call.callee, in: Self.relaySends) != nil,
              call.arguments.count == 1, call.arguments[0].label == nil, let receiver = call.receiver,
              let name = Self.relayName(fileIndex, receiver), name == receiver.upperBound - 1,
              let key = Self.relayKey(fileIndex, name), let chains = relaySubscriptions[key] else { return }
        for chain in chains {
            var deferredBy: Int?
            // The closure whose result is the chain's current element (nil: the value sent).
            var element: ClosureID?
            for link in chain {
                let linked = calls[link]
                if source.wordIndex(linked.callee, in: Self.chainDeferrals) != nil { deferredBy = deferredBy ?? linked.callee }
                guard let closure = elementClosure(of: linked) else { continue }
                if add(.reached, scope: outline[closure].scope, events: handlers[sender].events, registration: nil,
                       deferredBy: deferredBy, parameter: outline[closure].parameters.first, caller: sender) {
                    next.append(handlers.count - 1)
                }
                if let element {
                    chainLinks.append((element, closure))
                } else {
                    relayLinks.append((call.arguments[0].value, closure))
                }
                if source.wordIndex(linked.callee, in: Self.transforms) != nil { element = closure }
            }
        }
    }

    /// Calls that run a closure handed to them later, outside the notification's delivery.
    static let deferringCalls: [StaticString] = ["async", "asyncAfter", "after"]

    /// Adds `function`, which handler `caller` calls or passes on, as a handler it reaches.
    mutating func reach(_ function: FunctionID, from caller: Int, deferredBy: Int? = nil, into next: inout [Int]) {
        guard let scope = outline[function].scope else { return }
        if add(.reached, scope: scope, events: handlers[caller].events, registration: nil, deferredBy: deferredBy,
               parameter: outline[function].parameters.first?.nameToken, caller: caller) {
            next.append(handlers.count - 1)
        } else if let existing = handlerOfScope[scope], existing != caller,
                  handlers[existing].form == .notificationReader, handlers[existing].caller == nil {
            handlers[existing].caller = caller
        }
    }

    /// `didSet`/`willSet` scopes of properties of the handler's type that `body` assigns.
    func triggeredObservers(in body: Range<Int>, of scope: ScopeID) -> [ScopeID] {
        guard let type = outline.enclosingType(at: outline[scope].open) else { return [] }
        var found: [ScopeID] = []
        var index = firstIndex(in: assignments, atOrAfter: body.lowerBound) { $0.op }
        while index < assignments.count, assignments[index].op < body.upperBound {
            if let name = assignedProperties[index] {
                found += propertyObservers[Outline.OwnedName(owner: type, name: name)] ?? []
            }
            index += 1
        }
        return found
    }

    /// The first token after an unconditional top-level `return` of the body, else its end.
    /// Nested braces are passed over whole: their tokens are in other scopes, and reading
    /// them made handlers nested in handlers quadratic.
    func reachableEnd(_ scope: ScopeID) -> Int {
        let range = outline[scope].body
        func inConditional(_ index: Int) -> Bool {
            outline.conditionalRegions.contains {
                $0.ifToken > range.lowerBound && $0.ifToken < index && index < $0.endifToken
            }
        }
        var index = range.lowerBound
        while index < range.upperBound {
            if source.kind(index) == .leftBrace, let close = source.partnerIndex(index) {
                index = close + 1
                continue
            }
            if source.kind(index) == .keyword, source.isWord(index, "return"), outline.scope(at: index) == scope,
               !inConditional(index) {
                let next = index + 1
                if source.startsLine(next), source.kind(next) == .keyword { return next }
                let end = ExpressionBounds.end(source, from: next, stopAtComma: false)
                // `return` followed directly by the closing brace leaves nothing unreachable.
                return max(index + 1, end)
            }
            index += 1
        }
        return outline[scope].close
    }
}
