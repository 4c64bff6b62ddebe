import Lexer

/// A call that subscribes to notifications, for any notification: `addObserver` (selector,
/// block, iOS 26 typed message), `publisher(for:)`, `rx.notification(…)`,
/// `notifications(named:)`, and the calls of project wrappers that hand a closure a keyboard
/// event (`keyboard.on(.willShow) { … }`, `observe(willShowAction: { … })`). Handler discovery
/// and the observer rules both start here: a registration call is classified once.
struct ObserverRegistration: Sendable {
    enum Kind: Sendable, Hashable {
        case selector, block, typedMessage, publisher, rxNotification, asyncSequence
        /// A project wrapper: a closure registered with an event (`.willShow` as an argument,
        /// an `addObserver` without a name label) or passed under a label that names a
        /// keyboard event (`willShowAction:`, `onKeyboardWillHide:`). No token to keep.
        case wrapper
    }

    let kind: Kind
    /// Index into `FileAnalysis.calls`.
    let call: Int
    /// The keyboard notifications or messages registered for (empty for other notifications).
    let events: [KeyboardEvent]
    /// The `object:` (or `of:`) argument.
    let object: Range<Int>?
    /// The function whose body contains the registration (nil at file level or in a closure
    /// property initializer).
    let function: FunctionID?
    /// The handler closures with the events each handles: the `using:` or trailing closure of
    /// block and typed forms, every closure of a wrapper call (a closure under an event label
    /// handles that label's event only).
    let closures: [(closure: ClosureID, events: [KeyboardEvent])]
}

/// Classifies the calls of a file that register for notifications (see `ObserverRegistration`).
struct RegistrationRecogniser {
    let source: TokenizedSource
    let outline: Outline
    let calls: [CallSite]
    let constants: ConstantResolver

    func registrations() -> [ObserverRegistration] {
        var found: [ObserverRegistration] = []
        for index in calls.indices where mayRegister(index) {
            if let registration = registration(calls[index], index) { found.append(registration) }
        }
        return found
    }

    /// The callees of the registering APIs `registration(_:_:)` recognises by name; any other
    /// call registers only as a project wrapper, which hands over closures.
    static let registeringCallees = WordList(["addObserver", "publisher", "notifications", "notification"])

    /// Whether call `index` can be a registration: it names a registering API, or it hands
    /// over a closure as a wrapper's registration does: a literal, or a name that may hold
    /// one next to an event argument (`.willShow`, two tokens; `wrapperRegistration` looks
    /// at named closures only then). Asked of every call, read in place before a call is
    /// copied out of `calls`.
    func mayRegister(_ index: Int) -> Bool {
        source.wordIndex(calls[index].callee, in: Self.registeringCallees) != nil
            || !calls[index].trailingClosures.isEmpty
            || calls[index].arguments.contains { $0.closure != nil }
            || (calls[index].arguments.contains { $0.value.count == 1 }
                && calls[index].arguments.contains { $0.value.count == 2 && source.kind($0.value.lowerBound) == .period })
    }

    func registration(_ call: CallSite, _ index: Int) -> ObserverRegistration? {
        let callee = call.callee
        func has(_ label: StaticString) -> Bool { call.argument(label, source) != nil }
        let kind: ObserverRegistration.Kind
        // The APIs told apart by their callee, each one of `registeringCallees`.
        if source.isWord(callee, "addObserver") {
            if has("forKeyPath") { return nil }
            if has("selector") {
                kind = .selector
            } else if has("forName") {
                kind = .block
            } else if has("of") || has("for") || has("forMessage") {
                kind = .typedMessage
            } else if !call.handlerClosures.isEmpty, !events(of: call, messages: false).isEmpty {
                kind = .wrapper
            } else {
                return nil
            }
        } else if source.isWord(callee, "publisher"), call.arguments.first?.hasLabel("for", source) ?? false {
            kind = .publisher
        } else if source.isWord(callee, "notifications"), call.arguments.first?.hasLabel("named", source) ?? false {
            kind = .asyncSequence
        } else if source.isWord(callee, "notification"), let receiver = call.receiver,
                  source.isWord(receiver.upperBound - 1, "rx") {
            kind = .rxNotification
        } else {
            return wrapperRegistration(call, index)
        }
        let events = events(of: call, messages: kind == .typedMessage)
        var closures: [(ClosureID, [KeyboardEvent])] = []
        switch kind {
        case .block, .typedMessage:
            if let closure = call.argument("using", source)?.closure ?? call.trailingClosures.first?.closure {
                closures.append((closure, events))
            }
        case .wrapper:
            closures = constants.handlerClosures(of: call).map { ($0, events) }
        case .selector, .publisher, .rxNotification, .asyncSequence:
            break
        }
        return ObserverRegistration(
            kind: kind, call: index, events: events,
            object: call.arguments.first { $0.hasLabel("object", source) || $0.hasLabel("of", source) }?.value,
            function: function(containing: callee), closures: closures)
    }

    /// A project wrapper call: an event argument (`.willShow`) with closures, or closures
    /// under labels that name keyboard events.
    func wrapperRegistration(_ call: CallSite, _ index: Int) -> ObserverRegistration? {
        let eventArguments = call.arguments.compactMap { KeyboardVocabulary.wrapperEvent(source, $0.value) }
        var closures: [(ClosureID, [KeyboardEvent])] = []
        if !eventArguments.isEmpty {
            closures = constants.handlerClosures(of: call).map { ($0, eventArguments) }
        } else {
            for argument in call.arguments {
                guard let closure = argument.closure, let label = argument.label,
                      let event = KeyboardVocabulary.callbackLabelEvent(source.text(at: label)) else { continue }
                closures.append((closure, [event]))
            }
            for trailing in call.trailingClosures {
                guard let label = trailing.label,
                      let event = KeyboardVocabulary.callbackLabelEvent(source.text(at: label)) else { continue }
                closures.append((trailing.closure, [event]))
            }
        }
        guard !closures.isEmpty else { return nil }
        var events: [KeyboardEvent] = []
        for (_, handled) in closures { for event in handled where !events.contains(event) { events.append(event) } }
        return ObserverRegistration(
            kind: .wrapper, call: index, events: events, object: nil, function: function(containing: call.callee),
            closures: closures)
    }

    func function(containing token: Int) -> FunctionID? {
        outline.executableScope(at: token).flatMap { outline.function(ofScope: outline.functionBody(ofScope: $0)) }
    }

    /// The keyboard notifications (or typed messages) a registration names: in its
    /// arguments, or — when the name is a loop variable (`for name in [….keyboardWillShowNotification,
    /// …]`, `[…].forEach { addObserver(…, name: $0, …) }`) — in the sequence it iterates.
    func events(of call: CallSite, messages: Bool) -> [KeyboardEvent] {
        Self.registeredEvents(call, messages: messages, source, outline, calls, constants: constants)
    }

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
        for scope in outline.enclosingScopes(from: outline.scope(at: call.callee)) {
            switch outline[scope].kind {
            case .closure(let closure):
                if let loop = outline[closure].call, source.isWord(calls[loop].callee, "forEach"),
                   let receiver = calls[loop].receiver {
                    return events(in: receiver)
                }
            case .block(let keyword):
                if source.isWord(keyword, "for") { return events(in: keyword..<outline[scope].open) }
            case .function, .type, .property, .accessor:
                return []
            }
        }
        return []
    }
}
