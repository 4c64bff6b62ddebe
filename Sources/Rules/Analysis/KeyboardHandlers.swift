import Lexer

/// Code that runs because a keyboard notification fired (catalogue: "keyboard handler").
public struct KeyboardHandler: Sendable {
    public enum Form: Sendable, Hashable {
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

    public let form: Form
    /// The notifications it handles, when known.
    public internal(set) var events: [KeyboardEvent]
    /// The scope of its body (function, closure, accessor or `for` body).
    public let scope: Int
    /// The registration call's name token (`addObserver`, `publisher`, `notifications`,
    /// `notification`), when the handler was found through one.
    public let registration: Int?
    /// A Combine/Rx operator before the handler that moves it out of the notification's
    /// delivery (`receive(on:)`, `delay`, `debounce`, `throttle`): its name token.
    public let deferredBy: Int?
    /// The parameter that holds the notification or message, when there is one.
    public let notificationParameter: Int?
    /// For `.reached`: the handler that calls it; also set on a `.notificationReader` that a
    /// registered handler calls, so that it belongs to that registration.
    public internal(set) var caller: Int?
    /// Tokens from here to the end of the body are unreachable (after an unconditional
    /// `return` at the top level of the body); the scope's `close` when all is reachable.
    public internal(set) var reachableEnd: Int
}

/// Finds every keyboard handler of a file, following calls within the file.
struct KeyboardHandlerFinder {
    let source: TokenizedSource
    let outline: Outline
    let calls: [CallSite]
    let assignments: [Assignment]
    /// Callee token → call index.
    let callAtCallee: [Int: Int]
    let constants: ConstantResolver
    var handlers: [KeyboardHandler] = []
    var handlerOfScope: [Int: Int] = [:]
    /// Closures of a publisher chain whose result the next closure receives as its
    /// parameter (`.compactMap { … }.sink { frame in … }`): (producer, consumer).
    var chainLinks: [(producer: Int, consumer: Int)] = []
    /// The `didSet`/`willSet` bodies of properties, by owner type and property name.
    let propertyObservers: [Outline.OwnedName: [Int]]
    /// Per call: whether it is on `self` or unqualified. Per assignment: the name hash of the
    /// property it writes whole (`x = …`, `self.x = …`). Read once, not once per handler
    /// whose body holds them (handlers nest).
    let callsOnSelf: [Bool]
    let assignedProperties: [UInt64?]

    /// How many calls deep handlers are followed into functions of the same file.
    static let reachDepth = 3

    init(source: TokenizedSource, outline: Outline, calls: [CallSite], assignments: [Assignment],
         callAtCallee: [Int: Int], constants: ConstantResolver) {
        self.source = source
        self.constants = constants
        self.outline = outline
        self.calls = calls
        self.assignments = assignments
        self.callAtCallee = callAtCallee
        var propertyObservers: [Outline.OwnedName: [Int]] = [:]
        for property in outline.properties {
            for accessor in property.accessors where accessor.kind == .didSet || accessor.kind == .willSet {
                propertyObservers[Outline.OwnedName(owner: property.owner, name: property.nameHash), default: []]
                    .append(accessor.scope)
            }
        }
        self.propertyObservers = propertyObservers
        callsOnSelf = calls.map { call in
            guard let receiver = call.receiver else { return true }
            let name = ExpressionBounds.singleName(source, receiver)
            return name.map { source.wordIndex($0, in: ["self", "Self", "strongSelf", "weakSelf"]) != nil } ?? false
        }
        assignedProperties = assignments.map { assignment in
            let names = ExpressionBounds.chainNames(source, assignment.lhs, upTo: 3)
            if names.count == 1 { return source.nameHash(names[0]) }
            if names.count == 2, source.isWord(names[0], "self") { return source.nameHash(names[1]) }
            return nil
        }
    }

    mutating func run() {
        for index in calls.indices { registrations(calls[index]) }
        subscriptRegistrations()
        asyncSequences()
        helperCallbacks()
        notificationReaders()
        followCalls()
    }

    @discardableResult
    mutating func add(_ form: KeyboardHandler.Form, scope: Int, events: [KeyboardEvent], registration: Int?,
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

    func argumentEvents(_ call: CallSite, messages: Bool) -> [KeyboardEvent] {
        Self.registeredEvents(call, messages: messages, source, outline, calls, constants: constants)
    }

    /// The keyboard notifications (or typed messages) a registration names: in its
    /// arguments, or — when the name is a loop variable (`for name in [….keyboardWillShowNotification,
    /// …]`, `[…].forEach { addObserver(…, name: $0, …) }`) — in the sequence it iterates.
    static func registeredEvents(_ call: CallSite, messages: Bool, _ source: TokenizedSource, _ outline: Outline,
                                 _ calls: [CallSite], constants: ConstantResolver? = nil) -> [KeyboardEvent] {
        func events(in range: Range<Int>) -> [KeyboardEvent] {
            var found: [KeyboardEvent] = []
            for index in range {
                let event = messages ? KeyboardVocabulary.message(source, at: index)
                                     : KeyboardVocabulary.notification(source, at: index)
                if let event, !found.contains(event) { found.append(event) }
            }
            return found
        }
        guard let open = call.openParen, let close = call.closeParen else { return [] }
        let direct = events(in: (open + 1)..<close)
        if direct.isEmpty, let constants {
            // A name held in a constant (`let willHide = UIResponder.keyboardWillHideNotification`,
            // `static let willShow = …`, `extension Notification.Name { static let … }`).
            let named = call.arguments.flatMap { argument -> [KeyboardEvent] in
                let value = constants.value(of: argument.value)
                return value == argument.value || !constants.isPlainChain(value) ? [] : events(in: value)
            }
            if !named.isEmpty { return named }
        }
        guard direct.isEmpty, !messages,
              call.arguments.contains(where: { $0.value.count == 1 && source.kind($0.value.lowerBound) == .identifier })
        else { return direct }
        var current = outline.scope(at: call.callee)
        var steps = 0
        while let scope = current, steps < 8 {
            steps += 1
            switch outline.scopes[scope].kind {
            case .closure(let closure):
                if let loop = outline.closures[closure].call, source.isWord(calls[loop].callee, "forEach"),
                   let receiver = calls[loop].receiver {
                    return events(in: receiver)
                }
            case .block(let keyword):
                if source.isWord(keyword, "for") { return events(in: keyword..<outline.scopes[scope].open) }
            case .function, .type, .property, .accessor:
                return []
            }
            current = outline.scopes[scope].parent
        }
        return []
    }

    func closures(of call: CallSite) -> [Int] {
        call.arguments.compactMap(\.closure) + call.trailingClosures.map(\.closure)
    }

    func argument(_ call: CallSite, labelled label: StaticString) -> Argument? {
        call.arguments.first { $0.label.map { source.isWord($0, label) } ?? false }
    }

    mutating func registrations(_ call: CallSite) {
        let callee = call.callee
        if source.isWord(callee, "addObserver") {
            let notifications = argumentEvents(call, messages: false)
            if !notifications.isEmpty {
                if let selector = argument(call, labelled: "selector") {
                    for function in selectorTargets(selector.value, near: callee) {
                        guard let scope = outline.functions[function].scope else { continue }
                        add(.selector, scope: scope, events: notifications, registration: callee,
                            parameter: outline.functions[function].parameters.first?.nameToken)
                    }
                } else {
                    for closure in closures(of: call) {
                        add(.blockObserver, scope: outline.closures[closure].scope, events: notifications,
                            registration: callee, parameter: outline.closures[closure].parameters.first)
                    }
                }
                return
            }
            let messages = argumentEvents(call, messages: true)
            if !messages.isEmpty {
                for closure in closures(of: call) {
                    add(.typedMessage, scope: outline.closures[closure].scope, events: messages,
                        registration: callee, parameter: outline.closures[closure].parameters.first)
                }
            }
            return
        }
        if source.isWord(callee, "publisher") || isRxNotification(call) {
            let notifications = argumentEvents(call, messages: false)
            guard !notifications.isEmpty else { return }
            followChain(from: call, events: notifications, registration: callee,
                        form: source.isWord(callee, "publisher") ? .combine : .rxSwift)
            return
        }
        // Project wrappers: `keyboard.on(.willShow) { … }`.
        if call.arguments.contains(where: { isWrapperEvent($0.value) }) {
            for closure in closures(of: call) {
                add(.wrapperEvent, scope: outline.closures[closure].scope, events: wrapperEvents(call),
                    registration: callee, parameter: outline.closures[closure].parameters.first)
            }
        }
    }

    /// Wrapper callbacks stored by event: `callbacks[.willShow] = { notification in … }`.
    mutating func subscriptRegistrations() {
        for assignment in assignments where !assignment.isCompound {
            let close = assignment.lhs.upperBound - 1
            let brace = assignment.rhs.lowerBound
            guard source.kind(close) == .rightSquare, let open = source.partnerIndex(close),
                  isWrapperEvent((open + 1)..<close),
                  let position = source.wordIndex(open + 2, in: KeyboardVocabulary.wrapperEvents),
                  source.kind(brace) == .leftBrace,
                  source.partnerIndex(brace) == assignment.rhs.upperBound - 1,
                  let scope = outline.scope(at: brace), case .closure(let closure) = outline.scopes[scope].kind
            else { continue }
            add(.wrapperEvent, scope: scope, events: [KeyboardEvent(rawValue: position)!], registration: nil,
                parameter: outline.closures[closure].parameters.first)
        }
    }

    func isRxNotification(_ call: CallSite) -> Bool {
        guard source.isWord(call.callee, "notification"), let receiver = call.receiver else { return false }
        return source.isWord(receiver.upperBound - 1, "rx")
    }

    func isWrapperEvent(_ value: Range<Int>) -> Bool {
        value.count == 2 && source.kind(value.lowerBound) == .period
            && source.wordIndex(value.lowerBound + 1, in: KeyboardVocabulary.wrapperEvents) != nil
    }

    func wrapperEvents(_ call: CallSite) -> [KeyboardEvent] {
        call.arguments.compactMap { argument in
            guard isWrapperEvent(argument.value),
                  let position = source.wordIndex(argument.value.lowerBound + 1, in: KeyboardVocabulary.wrapperEvents)
            else { return nil }
            return KeyboardEvent(rawValue: position)
        }
    }

    /// Functions of the file named by `#selector(…)` in `value`, preferring those of the
    /// type that registers.
    func selectorTargets(_ value: Range<Int>, near registration: Int) -> [Int] {
        guard let nameToken = source.selectedMethodName(in: value) else { return [] }
        let name = source.nameHash(nameToken)
        let candidates = outline.functions(named: name)
        guard let type = outline.enclosingType(at: registration) else { return candidates }
        let local = outline.functions(named: name, in: type)
        return local.isEmpty ? candidates : local
    }

    static let chainDeferrals: [StaticString] = ["receive", "delay", "debounce", "throttle", "observe", "observeOn"]
    static let mergers: [StaticString] = ["Merge", "Merge3", "Merge4", "merge", "zip", "combineLatest", "CombineLatest", "amb"]

    /// Walks `.operator(…) { … }` after a publisher, marking its closures as handlers.
    mutating func followChain(from call: CallSite, events: [KeyboardEvent], registration: Int,
                              form: KeyboardHandler.Form) {
        var current = call
        // `Publishers.Merge(publisher(for: a), publisher(for: b))`: continue after the merger.
        for _ in 0..<3 {
            guard let outer = enclosingCall(of: current), source.wordIndex(outer.callee, in: Self.mergers) != nil
            else { break }
            current = outer
        }
        var cursor = current.end
        var deferredBy: Int?
        // The closure whose result is the chain's current element (nil: the notification).
        var element: Int?
        var steps = 0
        while steps < 64, source.kind(cursor + 1) == .period {
            steps += 1
            let name = cursor + 2
            guard let index = callAtCallee[name] else {
                if source.kind(name) == .identifier { cursor = name; continue }
                break
            }
            let next = calls[index]
            if source.wordIndex(name, in: Self.chainDeferrals) != nil { deferredBy = deferredBy ?? name }
            let closures = closures(of: next)
            for closure in closures {
                add(form, scope: outline.closures[closure].scope, events: events, registration: registration,
                    deferredBy: deferredBy, parameter: outline.closures[closure].parameters.first)
                if let element { chainLinks.append((element, closure)) }
            }
            if source.wordIndex(name, in: Self.transforms) != nil {
                element = closures.first
            }
            cursor = next.end
        }
    }

    /// Operators whose closure's result becomes the next element of the chain.
    static let transforms: [StaticString] = ["map", "compactMap", "flatMap", "tryMap", "tryCompactMap"]

    /// The call whose parentheses directly contain `call`.
    func enclosingCall(of call: CallSite) -> CallSite? {
        var best: CallSite?
        for other in calls {
            guard let open = other.openParen, let close = other.closeParen,
                  open < call.start, close > call.end else { continue }
            if best == nil || open > best!.openParen! { best = other }
        }
        return best
    }

    mutating func asyncSequences() {
        for (index, scope) in outline.scopes.enumerated() {
            guard case .block(let keyword) = scope.kind, source.isWord(keyword, "for") else { continue }
            var found: [KeyboardEvent] = []
            var registration: Int?
            for token in keyword..<scope.open where source.isWord(token, "notifications") {
                guard let call = callAtCallee[token] else { continue }
                let events = argumentEvents(calls[call], messages: false)
                if !events.isEmpty {
                    found = events
                    registration = token
                }
            }
            guard !found.isEmpty else { continue }
            var variable = keyword + 1
            while source.wordIndex(variable, in: ["try", "await", "case", "let", "var"]) != nil { variable += 1 }
            add(.asyncSequence, scope: index, events: found, registration: registration,
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
            let body = outline.scopes[scope].body
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
                let body = outline.scopes[handler.scope].body.lowerBound..<handler.reachableEnd
                for callIndex in callIndices(in: body) where callsOnSelf[callIndex] {
                    for function in resolve(calls[callIndex], from: handler.scope) {
                        guard let scope = outline.functions[function].scope else { continue }
                        if add(.reached, scope: scope, events: handler.events, registration: nil,
                               parameter: outline.functions[function].parameters.first?.nameToken,
                               caller: handlerIndex) {
                            next.append(handlers.count - 1)
                        } else if let existing = handlerOfScope[scope], existing != handlerIndex,
                                  handlers[existing].form == .notificationReader, handlers[existing].caller == nil {
                            handlers[existing].caller = handlerIndex
                        }
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

    /// Indices of calls whose callee lies in `range` (calls are in token order).
    func callIndices(in range: Range<Int>) -> Range<Int> {
        let low = firstIndex(in: calls, atOrAfter: range.lowerBound) { $0.callee }
        var end = low
        while end < calls.count, calls[end].callee < range.upperBound { end += 1 }
        return low..<end
    }

    /// Functions of the file that `call` can mean: same base name and argument count,
    /// labels matching when they can be compared; those of the caller's type first.
    func resolve(_ call: CallSite, from scope: Int) -> [Int] {
        let argumentCount = call.arguments.count + call.trailingClosures.count
        func fits(_ index: Int) -> Bool {
            let function = outline.functions[index]
            return function.kind == .function && function.scope != scope && function.parameters.count == argumentCount
        }
        let name = source.nameHash(call.callee)
        let sameType = outline.functions(named: name, in: outline.enclosingType(at: call.callee)).filter(fits)
        return sameType.isEmpty ? outline.functions(named: name).filter(fits) : sameType
    }

    /// `didSet`/`willSet` scopes of properties of the handler's type that `body` assigns.
    func triggeredObservers(in body: Range<Int>, of scope: Int) -> [Int] {
        guard let type = outline.enclosingType(at: outline.scopes[scope].open) else { return [] }
        var found: [Int] = []
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
    func reachableEnd(_ scope: Int) -> Int {
        let range = outline.scopes[scope].body
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
        return outline.scopes[scope].close
    }
}
