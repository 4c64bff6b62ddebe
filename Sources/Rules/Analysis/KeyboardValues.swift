import Lexer

/// What an expression carries from a keyboard notification: which keyboard values it
/// derives from and how they were transformed on the way.
struct KeyboardValue: Sendable, Hashable {
    struct Traits: OptionSet, Sendable, Hashable {
        let rawValue: UInt32
        init(rawValue: UInt32) { self.rawValue = rawValue }

        static let frameEnd = Traits(rawValue: 1 << 0)
        static let frameBegin = Traits(rawValue: 1 << 1)
        static let duration = Traits(rawValue: 1 << 2)
        static let curve = Traits(rawValue: 1 << 3)
        static let isLocal = Traits(rawValue: 1 << 4)
        /// Contains a keyboard frame still in screen coordinates.
        static let screenSpace = Traits(rawValue: 1 << 5)
        /// Contains a keyboard frame passed through `convert(_:from:)`/`convert(_:to:)`.
        static let converted = Traits(rawValue: 1 << 6)
        /// A safe-area term takes part (`safeAreaInsets`, `safeAreaLayoutGuide`,
        /// `adjustedContentInset`).
        static let safeArea = Traits(rawValue: 1 << 7)
        /// The keyboard's overlap with a view (`intersection`, `maxY - minY`).
        static let overlap = Traits(rawValue: 1 << 8)
        /// The keyboard frame's `height` was read.
        static let height = Traits(rawValue: 1 << 9)
        /// A curve shifted into `AnimationOptions` position (`<< 16`).
        static let shifted = Traits(rawValue: 1 << 10)
        /// A view rect converted into window/screen space (`convert(bounds, to: nil)`):
        /// working in the keyboard's space.
        static let windowSpace = Traits(rawValue: 1 << 11)
        /// A view's geometry (`bounds`, `frame`) takes part.
        static let viewGeometry = Traits(rawValue: 1 << 12)
        /// The main screen's geometry (`UIScreen.main.bounds`) takes part: the device's screen,
        /// not this view's window, so a keyboard frame measured against it stays unconverted.
        static let mainScreen = Traits(rawValue: 1 << 13)

        /// Traits that make an expression a keyboard value.
        static let keyboardSources: Traits = [.frameEnd, .frameBegin, .duration, .curve, .isLocal]
        static let frame: Traits = [.frameEnd, .frameBegin]
    }

    var traits: Traits
    /// The first geometry member (`height`, `minY`, `origin`, `intersection`…) read on a
    /// keyboard frame that was still in screen coordinates.
    @CompactTokenIndex var screenGeometry: Int? = nil
    /// The first geometry member read on any keyboard frame.
    @CompactTokenIndex var geometry: Int? = nil
    /// The first `height` read on a keyboard frame itself (not on an intersection).
    @CompactTokenIndex var heightMember: Int? = nil
    /// The first token that brought a keyboard value in (key, member, accessor).
    @CompactTokenIndex var origin: Int? = nil
    /// The first token that brought a begin frame in (`keyboardFrameBeginUserInfoKey`,
    /// `beginFrame`).
    @CompactTokenIndex var beginOrigin: Int? = nil
    /// The first token that brought the animation curve in.
    @CompactTokenIndex var curveOrigin: Int? = nil
    /// The first screen-wide API (`UIScreen.main`, `keyWindow`, `windows.first`) that took
    /// part, directly or through a local or a getter returning it.
    @CompactTokenIndex var screenAPI: Int? = nil

    var isKeyboard: Bool { !traits.intersection(.keyboardSources).isEmpty }
    var isFrame: Bool { !traits.intersection(.frame).isEmpty }
    func has(_ trait: Traits) -> Bool { traits.contains(trait) }

    mutating func merge(_ other: KeyboardValue) {
        traits.formUnion(other.traits)
        if screenGeometry == nil { screenGeometry = other.screenGeometry }
        if geometry == nil { geometry = other.geometry }
        if heightMember == nil { heightMember = other.heightMember }
        if origin == nil { origin = other.origin }
        if beginOrigin == nil { beginOrigin = other.beginOrigin }
        if curveOrigin == nil { curveOrigin = other.curveOrigin }
        if screenAPI == nil { screenAPI = other.screenAPI }
    }

    init(traits: Traits, screenGeometry: Int? = nil, geometry: Int? = nil, origin: Int? = nil) {
        self.traits = traits
        self.screenGeometry = screenGeometry
        self.geometry = geometry
        self.origin = origin
        if traits.contains(.frameBegin) { beginOrigin = origin }
        if traits.contains(.curve) { curveOrigin = origin }
    }
}

/// A token index, or nil, in 32 bits: a `KeyboardValue`, copied at every merge and every
/// write of the flow, holds seven of them. A file's token indices fit in 32 bits (the lexer's
/// bracket table stores them so); `Int32.min` stands for nil.
@propertyWrapper
struct CompactTokenIndex: Sendable, Hashable {
    private var stored: Int32

    init(wrappedValue: Int?) {
        stored = Self.stored(wrappedValue)
    }

    var wrappedValue: Int? {
        get { stored == .min ? nil : Int(stored) }
        set { stored = Self.stored(newValue) }
    }

    private static func stored(_ index: Int?) -> Int32 {
        index.map { Int32(truncatingIfNeeded: $0) } ?? .min
    }
}

/// Keyboard values through a file: what each local binding and parameter holds as the code
/// goes (its binding, reassignments, values passed to it), what properties are assigned, and
/// the accessors of the project that return such values.
struct KeyboardValueFlow: Sendable {
    struct Entry: Sendable {
        let token: Int
        /// The executable scope the write is visible in.
        let scope: ScopeID
        let value: KeyboardValue?
    }

    /// The writes of each local binding and parameter (`FileIndex.declaration(referencedBy:)`),
    /// in token order.
    private(set) var locals: [LocalDeclaration: [Entry]] = [:]
    /// The writes of properties named bare or through `self` in a method (its function body is
    /// the entry's scope), by name: visible only in the same handler.
    private(set) var propertyWrites: [UInt64: [Entry]] = [:]
    /// The names of everything in `locals` and `propertyWrites`: a name not among them has no
    /// value, whatever it refers to, without resolving it.
    private(set) var writtenNames = NameHashTable<Void>()
    /// The value of each binding (by name token) and assignment right-hand side (by operator
    /// token), as the final pass computed them.
    var valueAt: [Int: KeyboardValue] = [:]
    /// Per function scope: names of helper-callback parameters whose members are keyboard
    /// values (`info.endFrame`).
    var infoParameters: [ScopeID: Set<UInt64>] = [:]

    /// Starts a pass: the parameters hold `parameters`, nothing else is written yet; about
    /// `writes` locals will be (room for them is made once rather than grown per write).
    mutating func restart(parameters: [LocalDeclaration: [Entry]], writes: Int) {
        locals = parameters
        locals.reserveCapacity(parameters.count + writes)
        propertyWrites = [:]
        valueAt = [:]
        writtenNames = NameHashTable(minimumCapacity: parameters.count + writes)
        for parameter in parameters.keys { writtenNames.insert(parameter.nameHash) }
    }

    mutating func write(_ entry: Entry, to local: LocalDeclaration) {
        locals[local, default: []].append(entry)
        writtenNames.insert(local.nameHash)
    }

    mutating func write(_ entry: Entry, toPropertyNamed hash: UInt64) {
        propertyWrites[hash, default: []].append(entry)
        writtenNames.insert(hash)
    }
}

/// Evaluates expressions against the flow. Three fixed scanning levels (full, atoms,
/// flat) instead of recursion over the input.
struct KeyboardValueEvaluator: FileIndexReader {
    let fileIndex: FileIndex
    let handlerAtToken: [Int32]
    /// What the project says about names (see `KeyboardProjectTables.agree`): the flow
    /// depends on nothing else outside the file.
    private(set) var project: KeyboardProjectTables
    let constants: ConstantResolver
    let results: ResultExpressions
    let screenWideGetters: ScreenWideGetters
    /// Whether the file's bytes hold a safe-area marker: without one no name of it names the
    /// safe area (`KeyboardVocabulary.namesSafeArea`), which is asked about most names read.
    let mayNameSafeArea: Bool
    var flow = KeyboardValueFlow()
    var carriers = KeyboardValueCarriers()

    var accessors: NameHashTable<KeyboardUserInfoKey> { project.accessors }
    var heightAccessors: NameHashTable<Void> { project.heightAccessors }
    var frameProperties: NameHashTable<KeyboardUserInfoKey> { project.frameProperties }
    var projectResults: NameHashTable<KeyboardValue.Traits> { project.results }
    var projectArguments: NameHashTable<[KeyboardArgumentFact]> { project.arguments }

    init(fileIndex: FileIndex, handlerAtToken: [Int32], project: KeyboardProjectTables, constants: ConstantResolver) {
        self.fileIndex = fileIndex
        self.handlerAtToken = handlerAtToken
        self.project = project
        self.constants = constants
        results = ResultExpressions(fileIndex.source, fileIndex.outline)
        screenWideGetters = ScreenWideGetters(fileIndex.source, fileIndex.outline, results)
        mayNameSafeArea = KeyboardVocabulary.mayContain(KeyboardVocabulary.safeAreaMarkers, in: fileIndex.source.file.bytes)
    }

    /// A fresh evaluator of `other`'s file with `project`. What `other` read off the file
    /// alone (its result expressions, screen-wide getters and safe-area marker) is the same
    /// whatever the project says, and is not read again.
    init(ofTheFileOf other: KeyboardValueEvaluator, project: KeyboardProjectTables) {
        fileIndex = other.fileIndex
        handlerAtToken = other.handlerAtToken
        self.project = project
        constants = other.constants
        results = other.results
        screenWideGetters = other.screenWideGetters
        mayNameSafeArea = other.mayNameSafeArea
    }

    /// Reads `tables` from now on: tables that agree with those the flow was built with on
    /// every question it asks (`KeyboardProjectTables.agree`).
    mutating func rebind(to tables: KeyboardProjectTables) {
        project = tables
    }

    enum Level { case full, atoms, flat }

    /// Whether the expression is a comparison (a `Bool`): a comparison at its top level that
    /// is not the condition of a ternary (`end.minY < maxY ? overlap : 0` is a number).
    static func isComparison(_ range: Range<Int>, _ source: TokenizedSource) -> Bool {
        source.firstTopLevel(in: range) { source.wordIndexOperator($0, in: ["<", ">", "<=", ">=", "==", "!="]) } != nil
            && source.firstTopLevel(in: range) { source.kind($0) == .infixQuestionMark } == nil
    }

    static let geometryMembers = WordList([
        "height", "minY", "maxY", "midY", "origin", "size", "y", "width", "minX", "maxX", "midX", "x",
    ])
    static let infoMembers = WordList([
        "endFrame", "frameEnd", "keyboardFrame", "beginFrame", "frameBegin", "frame", "curve", "animationCurve",
        "duration", "animationDuration",
    ])
    static let infoKeys: [KeyboardUserInfoKey] = [
        .frameEnd, .frameEnd, .frameEnd, .frameBegin, .frameBegin, .frameEnd, .animationCurve, .animationCurve,
        .animationDuration, .animationDuration,
    ]

    func isInHandler(_ index: Int) -> Bool {
        index >= 0 && index < handlerAtToken.count && handlerAtToken[index] >= 0
    }

    static func traits(of key: KeyboardUserInfoKey) -> KeyboardValue.Traits {
        switch key {
        case .frameEnd: [.frameEnd, .screenSpace]
        case .frameBegin: [.frameBegin, .screenSpace]
        case .animationDuration: .duration
        case .animationCurve: .curve
        case .isLocal: .isLocal
        }
    }

    /// The keyboard value of the expression in `range`, or nil when it carries none. Values
    /// that only hold a window-space rect, a safe-area term, the main screen's geometry or a
    /// screen-wide API are kept too: they change how keyboard values combined with them are
    /// judged.
    func value(of range: Range<Int>) -> KeyboardValue? {
        var value = scan(range, level: .full)
        if value.has(.screenSpace), Self.isComparison(range, source) {
            // A comparison is a `Bool`, in no coordinate space: names holding it carry no
            // unconverted geometry on.
            value.traits.remove(.screenSpace)
            value.screenGeometry = nil
        }
        return value.isKeyboard || value.has(.windowSpace) || value.has(.safeArea) || value.has(.mainScreen)
            || value.screenAPI != nil ? value : nil
    }

    /// A left-to-right scan in progress: the next token, the bracket depth there and what the
    /// tokens before it carry.
    struct Scan {
        var index: Int
        var depth = 0
        var value = KeyboardValue(traits: [])

        /// The value once the scan ends: a keyboard frame combined with a window-space rect
        /// is no longer in screen space.
        var settled: KeyboardValue {
            var result = value
            if result.has(.screenSpace), result.has(.windowSpace) {
                result.traits.remove(.screenSpace)
                result.screenGeometry = nil
            }
            return result
        }
    }

    /// The base of the chain the last geometry member was read on (`frame.size` for
    /// `frame.size.height`), scanned as far as `end`. The next member of the same chain
    /// resumes that scan instead of scanning the chain again from its start, which made long
    /// member chains quadratic.
    struct ChainBase {
        let start: Int
        var scan: Scan
        var end: Int
        var mentionsIntersection = false
    }

    func scan(_ range: Range<Int>, level: Level) -> KeyboardValue {
        var state = Scan(index: range.lowerBound)
        var base: ChainBase?
        advance(&state, to: range.upperBound, level: level, base: &base)
        return state.settled
    }

    /// Continues `state` up to `upperBound` (the loop does not depend on where the range
    /// ends, so a scan resumed to a later end finds what one scan to that end finds).
    func advance(_ state: inout Scan, to upperBound: Int, level: Level, base: inout ChainBase?) {
        // Read once: every token of the scan asks it several questions.
        let source = self.source
        let end = min(upperBound, source.code.count)
        while state.index < end {
            let index = state.index
            state.index += 1
            if let partner = source.partnerIndex(index) {
                if partner < index {
                    state.depth = max(0, state.depth - 1)
                } else if state.depth == Limits.expressionNesting {
                    state.index = partner + 1
                } else {
                    state.depth += 1
                }
                continue
            }
            let kind = source.kind(index)
            if kind == .binaryOperator {
                if source.token(source.code[index], is: "<<"), source.numericValue(at: index + 1) == 16 {
                    state.value.traits.insert(.shifted)
                }
                continue
            }
            guard kind == .identifier else { continue }
            let afterPeriod = source.kind(index - 1) == .period
            // The name's hash, computed once for the several tables asked about it.
            let hash = source.nameHash(index)
            if state.value.screenAPI == nil {
                state.value.screenAPI = ScreenWideAPI.at(index, source).map(\.range.lowerBound) ?? screenWideGetter(usedAt: index)
            }
            // convert(_:from:) / convert(_:to:)
            if level != .flat, source.isWord(index, "convert"), let callIndex = fileIndex.callAtCallee[index],
               let close = calls[callIndex].closeParen, let first = calls[callIndex].arguments.first {
                let argument = scan(first.value, level: level == .full ? .atoms : .flat)
                if argument.isFrame {
                    var converted = argument
                    converted.traits.remove(.screenSpace)
                    converted.traits.insert(.converted)
                    converted.screenGeometry = nil
                    state.value.merge(converted)
                } else if let target = calls[callIndex].argument("to", source),
                          isWindowOrNil(target.value) {
                    state.value.traits.insert(.windowSpace)
                }
                state.index = close + 1
                continue
            }
            if let key = KeyboardVocabulary.userInfoKey(source, at: index) ?? constants.userInfoKey(namedAt: index, hash: hash) {
                state.value.merge(KeyboardValue(traits: Self.traits(of: key), origin: index))
            } else if afterPeriod, let key = KeyboardVocabulary.messageMember(source, at: index), isInHandler(index) {
                state.value.merge(KeyboardValue(traits: Self.traits(of: key), origin: index))
            } else if let result = projectResult(at: index, hash: hash) {
                // Before accessors: what the other file computed is more than which key it read.
                state.value.merge(result)
            } else if let key = accessorKey(index, hash: hash, afterPeriod: afterPeriod) {
                var value = KeyboardValue(traits: Self.traits(of: key), origin: index)
                if heightAccessors.contains(hash) {
                    // The accessor reads the height itself: report its uses at the call.
                    value.traits.insert(.height)
                    value.geometry = index
                    value.screenGeometry = index
                    value.heightMember = index
                }
                state.value.merge(value)
            } else if afterPeriod, source.isWord(index - 2, "self"), let member = memberValue(index, hash: hash) {
                state.value.merge(member)
            } else if afterPeriod, let member = computedValue(ofMemberAt: index, hash: hash) {
                state.value.merge(member)
            } else if afterPeriod {
                if level == .full, source.wordIndex(index, in: Self.geometryMembers) != nil
                    || source.isWord(index, "intersection") {
                    geometry(at: index, into: &state.value, base: &base)
                } else if KeyboardVocabulary.includesSafeArea(source, at: index, fileMayNameSafeArea: mayNameSafeArea) {
                    state.value.traits.insert(.safeArea)
                } else if source.isWord(index, "bounds") {
                    if source.isWord(index - 2, "main"), source.isWord(index - 4, "UIScreen") {
                        // `UIScreen.main.bounds` is the device's screen, not the view's: math with it
                        // leaves the keyboard frame unconverted (the main-screen rule reports the screen).
                        state.value.traits.insert(.mainScreen)
                    } else if let getter = screenWideGetter(receiverOf: index) {
                        // A getter's bounds are those of what it returns.
                        state.value.traits.insert(source.isWord(getter, "UIScreen") ? .mainScreen : .windowSpace)
                    } else if Self.isWindow(source, index - 2) {
                        // A window's bounds are window space: keyboard-space math.
                        state.value.traits.insert(.windowSpace)
                    } else {
                        state.value.traits.insert(.viewGeometry)
                    }
                } else if source.isWord(index, "frame") {
                    state.value.traits.insert(.viewGeometry)
                }
            } else if source.kind(index + 1) != .colon || source.kind(index - 1) == .infixQuestionMark {
                // A name, not an argument label (`cond ? overlap : 0` reads `overlap`).
                if let returned = returnedValue(ofCallAt: index) {
                    state.value.merge(returned)
                } else if let named = entry(named: index, hash: hash)?.value ?? memberValue(index, hash: hash) {
                    state.value.merge(named)
                } else if KeyboardVocabulary.includesSafeArea(source, at: index, fileMayNameSafeArea: mayNameSafeArea) {
                    state.value.traits.insert(.safeArea)
                } else if source.isWord(index, "bounds") || source.isWord(index, "frame") {
                    state.value.traits.insert(.viewGeometry)
                }
            }
        }
    }

    /// Whether a `convert(_:to:)` target is window space: `nil`, or a chain that names a
    /// window (`view.window`, `keyWindow`, `mainWindow`). Converting to a superview or
    /// another view stays in view space.
    func isWindowOrNil(_ target: Range<Int>) -> Bool {
        guard let last = target.last else { return false }
        if target.count == 1, source.isWord(last, "nil") { return true }
        var name = last
        while name > target.lowerBound, source.kind(name) == .postfixQuestionMark || source.kind(name) == .exclamationMark {
            name -= 1
        }
        return Self.isWindow(source, name) || source.word(name, contains: "Window") || source.word(name, contains: "window")
    }

    /// Whether the chain ending at `index` names a window (`window`, `view.window?`,
    /// `keyWindow`).
    static func isWindow(_ source: TokenizedSource, _ index: Int) -> Bool {
        var last = index
        while source.kind(last) == .postfixQuestionMark || source.kind(last) == .exclamationMark { last -= 1 }
        return source.isWord(last, "window") || source.isWord(last, "keyWindow")
    }

    /// A geometry member (`height`, `minY`, `intersection`, …) at `index`: classifies what
    /// it is read on.
    func geometry(at index: Int, into result: inout KeyboardValue, base: inout ChainBase?) {
        let baseEnd = index - 2
        let baseStart = fileIndex.chainStart(endingAt: baseEnd)
        guard baseStart <= baseEnd else { return }
        var chain = base.flatMap { $0.start == baseStart && $0.end <= baseEnd + 1 ? $0 : nil }
            ?? ChainBase(start: baseStart, scan: Scan(index: baseStart), end: baseStart)
        var nested: ChainBase?
        advance(&chain.scan, to: baseEnd + 1, level: .atoms, base: &nested)
        if !chain.mentionsIntersection {
            chain.mentionsIntersection = (chain.end..<(baseEnd + 1)).contains { source.isWord($0, "intersection") }
        }
        chain.end = baseEnd + 1
        base = chain
        var baseValue = chain.scan.settled
        if source.isWord(index, "intersection"), let call = fileIndex.callAtCallee[index], let open = calls[call].openParen,
           let close = calls[call].closeParen {
            baseValue.merge(scan((open + 1)..<close, level: .atoms))
        }
        guard baseValue.isFrame else {
            // The main screen's height is the screen's, not a view's.
            if source.isWord(index, "height") || source.isWord(index, "maxY"), !baseValue.has(.mainScreen) {
                result.traits.insert(.viewGeometry)
            }
            return
        }
        let onIntersection = chain.mentionsIntersection
        if source.isWord(index, "intersection") || source.isWord(index, "minY") || onIntersection
            || (source.isWord(index, "y") && source.isWord(index - 2, "origin")) {
            result.traits.insert(.overlap)
        }
        if source.isWord(index, "height"), !onIntersection {
            result.traits.insert(.height)
            if result.heightMember == nil { result.heightMember = index }
        }
        // `frame.size.height`: report the last member, not `size`.
        let continues = source.kind(index + 1) == .period
            && source.wordIndex(index + 2, in: Self.geometryMembers) != nil
        if !continues {
            if result.geometry == nil { result.geometry = index }
            if baseValue.has(.screenSpace), result.screenGeometry == nil { result.screenGeometry = index }
        }
    }

    /// The keyboard key the accessor, wrapper frame property or info-parameter member named
    /// at `index` (whose name hashes to `hash`) reads.
    func accessorKey(_ index: Int, hash: UInt64, afterPeriod: Bool) -> KeyboardUserInfoKey? {
        // Asked for every name a value reads: without accessors or frame properties (most
        // files in pass 1) the name's hash is not needed.
        if !accessors.isEmpty || !frameProperties.isEmpty {
            if afterPeriod || source.kind(index + 1) == .leftParen, let key = accessors[hash] { return key }
            if afterPeriod, isInHandler(index), let key = frameProperties[hash] { return key }
            // A wrapper's own computed property reading its stored frame (`var height { endFrame.height }`).
            if !afterPeriod, let key = frameProperties[hash], isInComputedProperty(index), memberValue(index, hash: hash) == nil,
               storesProperty(named: hash, at: index) {
                return key
            }
        }
        if afterPeriod, !flow.infoParameters.isEmpty, let member = source.wordIndex(index, in: Self.infoMembers),
           let scope = outline.executableScope(at: index),
           let parameters = flow.infoParameters[outline.functionBody(ofScope: scope)],
           parameters.contains(source.nameHash(index - 2)) {
            return Self.infoKeys[member]
        }
        return nil
    }

    /// Whether the type enclosing `index` has a stored property whose name hashes to `hash`.
    func storesProperty(named hash: UInt64, at index: Int) -> Bool {
        guard let type = outline.enclosingType(at: index) else { return false }
        return results.storedNames.contains(Outline.OwnedName(owner: type, name: hash))
    }

    /// The project tables whose answer about the name at `index` (an identifier) can count
    /// where the flow reads them, a superset of the reads that count: `accessorKey` reads the
    /// accessors after a period or before a call, the frame properties after a period in a
    /// handler or bare in a computed property of a type with a stored property of that name;
    /// `advance` asks the height accessors only about a name `accessorKey` gives a key;
    /// `projectResult` reads the results after a period or at a callee, for names the file
    /// declares no function or computed property of. These reads are the only ones of the
    /// tables, so tables that answer alike here build the same flow
    /// (`KeyboardProjectTables.agree`).
    func tablesAsked(at index: Int) -> KeyboardProjectTables.Tables {
        let afterPeriod = source.kind(index - 1) == .period
        let hash = source.nameHash(index)
        var asked: KeyboardProjectTables.Tables = []
        if afterPeriod || source.kind(index + 1) == .leftParen { asked.insert(.accessors) }
        if afterPeriod ? isInHandler(index) : isInComputedProperty(index) && storesProperty(named: hash, at: index) {
            asked.insert(.frameProperties)
        }
        if !asked.isEmpty { asked.insert(.heightAccessors) }
        if afterPeriod || fileIndex.callAtCallee[index] != nil,
           outline.functions(named: hash).isEmpty, !results.computedNames.contains(hash) {
            asked.insert(.results)
        }
        return asked
    }

    /// Whether the flow asks a table about a name where it answers differently: `differing`
    /// holds the names some tables answer differently about, each with those tables.
    func asksAbout(_ differing: NameHashTable<KeyboardProjectTables.Tables>) -> Bool {
        let code = source.code
        for index in code.indices where code[index].kind == .identifier {
            if let tables = differing[source.nameHash(index)], !tablesAsked(at: index).isDisjoint(with: tables) { return true }
        }
        return false
    }

    /// The latest write visible at `index` of what the name at `index` refers to: the local
    /// binding or parameter the binding resolver gives, else a property written in the same
    /// handler.
    func entry(named index: Int) -> KeyboardValueFlow.Entry? {
        entry(named: index, hash: source.nameHash(index))
    }

    /// `entry(named:)` of the name at `index`, whose hash is `hash`.
    func entry(named index: Int, hash: UInt64) -> KeyboardValueFlow.Entry? {
        guard !flow.writtenNames.isEmpty, flow.writtenNames.contains(hash) else { return nil }
        if let declaration = fileIndex.declaration(referencedBy: index) {
            return latest(flow.locals[declaration], before: index, inHandlerOnly: false)
        }
        return propertyEntry(named: index, hash: hash)
    }

    /// The latest write of the property named at `index` (whose name hashes to `hash`) in
    /// the same handler before it.
    func propertyEntry(named index: Int, hash: UInt64) -> KeyboardValueFlow.Entry? {
        latest(flow.propertyWrites[hash], before: index, inHandlerOnly: true)
    }

    /// The last of `entries` before `index` whose scope holds it (and, for properties, in the
    /// same handler).
    func latest(_ entries: [KeyboardValueFlow.Entry]?, before index: Int, inHandlerOnly: Bool) -> KeyboardValueFlow.Entry? {
        guard let entries, let scope = outline.executableScope(at: index) else { return nil }
        for entry in entries.reversed() where entry.token < index {
            guard outline.scope(scope, isWithin: entry.scope) else { continue }
            if inHandlerOnly, handlerAtToken[entry.token] != handlerAtToken[index] { continue }
            return entry
        }
        return nil
    }

    /// Builds the flow: bindings, reassignments and parameters, in up to `Limits.valueHops`
    /// passes so that values passed to functions declared earlier in the file reach them.
    mutating func build(chainLinks: [(producer: ClosureID, consumer: ClosureID)] = [],
                        relayLinks: [(value: Range<Int>, consumer: ClosureID)] = []) {
        // Helper-callback CGRect parameters and info parameters.
        var parameterEntries: [LocalDeclaration: [KeyboardValueFlow.Entry]] = [:]
        func enter(_ value: KeyboardValue, parameter token: Int, hash: UInt64, scope: ScopeID) {
            parameterEntries[LocalDeclaration(token: token, nameHash: hash), default: []]
                .append(.init(token: token, scope: scope, value: value))
        }
        for function in outline.functions {
            guard let scope = function.scope else { continue }
            guard !KeyboardVocabulary.callbackEvents(of: function, in: source).isEmpty else { continue }
            for parameter in function.parameters {
                let lowered = parameter.name.lowercased() + parameter.label.lowercased()
                let token = parameter.nameToken
                if parameter.type.contains(where: { source.isWord($0, "CGRect") }) {
                    let key: KeyboardUserInfoKey = lowered.contains("begin") ? .frameBegin : .frameEnd
                    enter(KeyboardValue(traits: Self.traits(of: key), origin: token), parameter: token,
                          hash: source.nameHash(token), scope: scope)
                } else if parameter.type.contains(where: { source.isWord($0, "TimeInterval") })
                            || lowered.contains("duration") {
                    enter(KeyboardValue(traits: .duration, origin: token), parameter: token,
                          hash: source.nameHash(token), scope: scope)
                } else if lowered.contains("curve") {
                    enter(KeyboardValue(traits: .curve, origin: token), parameter: token,
                          hash: source.nameHash(token), scope: scope)
                } else if !parameter.type.contains(where: { source.isWord($0, "Notification") }) {
                    flow.infoParameters[scope, default: []].insert(source.nameHash(token))
                }
            }
        }
        // Parameters that receive keyboard values from calls in other files.
        for function in outline.functions {
            guard let facts = projectArguments[function.nameHash], let scope = function.scope else { continue }
            for fact in facts {
                guard let positions = parameterPositions(of: fact.call, for: function) else { continue }
                for (position, passed) in fact.arguments {
                    let parameter = function.parameters[positions[position]]
                    let declaration = LocalDeclaration(token: parameter.nameToken, nameHash: source.nameHash(parameter.nameToken))
                    parameterEntries[declaration, default: []].append(.init(
                        token: parameter.nameToken, scope: scope, value: passed.value(at: parameter.nameToken)))
                    if let bottom = fact.insetBottoms[position] {
                        _ = KeyboardValueCarriers.merge(bottom.value(at: parameter.nameToken), into: &carriers.insetBottoms,
                                                        at: parameter.nameToken)
                    }
                }
            }
        }
        // Parameters that already have an entry, and the functions calls can pass values to:
        // looked up per call rather than searched.
        var parametersWithEntries = Set(parameterEntries.keys.map(\.token))
        // The function each call of the file means, when it means exactly one.
        var calledFunctions: [(call: CallSite, function: FunctionDeclaration, positions: [Int])] = []
        var declaredNames = NameHashTable<Void>()
        for function in outline.functions { declaredNames.insert(function.nameHash) }
        let calls = self.calls
        for index in calls.indices
        where !calls[index].arguments.isEmpty && declaredNames.contains(source.nameHash(calls[index].callee)) {
            let call = calls[index]
            guard let id = fileIndex.function(calledBy: call),
                  let positions = fileIndex.parameterPositions(of: call, for: outline[id]) else { continue }
            calledFunctions.append((call, outline[id], positions))
        }
        // Events in token order: bindings and simple assignments, with what each binds or
        // assigns (resolved once: the same in every pass).
        enum Step {
            case binding(Int)
            /// An assignment; the local binding or parameter its left-hand side's first name
            /// refers to (nil: a property, or `self.…`), and the names of its left-hand side's
            /// chain (`ExpressionBounds.chainNames`).
            case assignment(Int, LocalDeclaration?, names: [Int])
        }
        var steps: [(Int, Step)] = bindings.indices.map { (bindings[$0].nameToken, .binding($0)) }
        for (index, assignment) in assignments.enumerated() {
            let first = assignment.lhs.lowerBound
            let local = source.isWord(first, "self") ? nil : fileIndex.declaration(referencedBy: first)
            steps.append((assignment.op, .assignment(index, local, names: ExpressionBounds.chainNames(source, assignment.lhs))))
        }
        steps.sort { $0.0 < $1.0 }

        for iteration in 0..<Limits.valueHops {
            flow.restart(parameters: parameterEntries, writes: steps.count)
            for (_, step) in steps {
                switch step {
                case .binding(let index):
                    let binding = bindings[index]
                    guard let scope = outline.executableScope(at: binding.nameToken) else { continue }
                    let value = binding.value.flatMap { self.value(of: $0) }
                    if let value { flow.valueAt[binding.nameToken] = value }
                    flow.write(.init(token: binding.nameToken, scope: scope, value: value),
                               to: LocalDeclaration(token: binding.nameToken, nameHash: binding.nameHash))
                case .assignment(let index, let local, let names):
                    let assignment = assignments[index]
                    let rhsValue = self.value(of: assignment.rhs)
                    if let rhsValue { flow.valueAt[assignment.op] = rhsValue }
                    let isProperty = names.count == 2 && source.isWord(names[0], "self")
                    guard let scope = outline.executableScope(at: assignment.op) else { continue }
                    if names.count > 1, let local, let rhsValue,
                       let previous = latest(flow.locals[local], before: names[0], inHandlerOnly: false) {
                        // `frame.size.height = …` or `insets.bottom = …` on a local (a keyboard
                        // frame, or a copy of a view's frame or insets to be written back): it
                        // now also carries what was written into it.
                        var merged = previous.value ?? rhsValue
                        merged.merge(rhsValue)
                        if merged.has(.screenSpace), merged.has(.windowSpace) {
                            merged.traits.remove(.screenSpace)
                            merged.screenGeometry = nil
                        }
                        flow.write(.init(token: assignment.op, scope: scope, value: merged), to: local)
                        continue
                    }
                    guard names.count == 1 || isProperty else { continue }
                    let name = names[names.count - 1]
                    var value = rhsValue
                    // A compound assignment keeps what the name held; so does one that may not
                    // run (inside an `if`, `switch` or loop of the body): `let lift: CGFloat`
                    // assigned in two branches carries what either branch gave it.
                    let mayNotRun = outline.scope(at: assignment.op) != scope
                    if assignment.isCompound || mayNotRun,
                       let previous = (local.map { latest(flow.locals[$0], before: name, inHandlerOnly: false) }
                                       ?? propertyEntry(named: name, hash: source.nameHash(name)))?.value {
                        if value == nil { value = previous } else { value!.merge(previous) }
                    }
                    if let local {
                        guard value != nil || flow.locals[local] != nil else { continue }
                        flow.write(.init(token: assignment.op, scope: scope, value: value), to: local)
                        continue
                    }
                    let hash = source.nameHash(name)
                    if let value, value.isKeyboard, isInHandler(assignment.op),
                       let type = outline.enclosingType(at: assignment.op) {
                        _ = KeyboardValueCarriers.merge(value, into: &carriers.stored,
                                                        at: Outline.OwnedName(owner: type, name: hash))
                    }
                    guard value != nil || flow.propertyWrites[hash] != nil else { continue }
                    flow.write(.init(token: assignment.op, scope: outline.functionBody(ofScope: scope), value: value),
                               toPropertyNamed: hash)
                }
            }
            // Parameters of same-file functions that receive keyboard values.
            if iteration == Limits.valueHops - 1 { break }
            var changed = collectResults()
            // Publisher chains: the consumer's parameter (or `$0`) is the producer's result, or
            // the value sent into the relay it subscribes to.
            let links = chainLinks.map { link -> (Range<Int>, ClosureID) in
                let producer = outline[link.producer]
                let body = outline[producer.scope].body
                return (producer.inToken.map { ($0 + 1)..<body.upperBound } ?? body, link.consumer)
            } + relayLinks.map { ($0.value, $0.consumer) }
            for (result, consumerID) in links {
                let consumer = outline[consumerID]
                guard let value = value(of: result), value.isKeyboard else { continue }
                let token = consumer.parameters.first ?? outline[consumer.scope].open
                let hash = consumer.parameters.first.map { source.nameHash($0) } ?? NameHash.of("$0")
                guard parametersWithEntries.insert(token).inserted else { continue }
                enter(value, parameter: token, hash: hash, scope: consumer.scope)
                changed = true
            }
            for (call, function, positions) in calledFunctions {
                for (position, argument) in call.arguments.enumerated() {
                    guard let value = value(of: argument.value), value.isKeyboard else { continue }
                    let parameter = function.parameters[positions[position]]
                    if let insets = Self.edgeInsetsCall(source, argument.value, fileIndex.callAtCallee, calls),
                       let bottom = insets.argument("bottom", source),
                       let bottomValue = self.value(of: bottom.value) {
                        changed = KeyboardValueCarriers.merge(bottomValue, into: &carriers.insetBottoms, at: parameter.nameToken)
                            || changed
                    }
                    guard parametersWithEntries.insert(parameter.nameToken).inserted else { continue }
                    enter(value, parameter: parameter.nameToken, hash: source.nameHash(parameter.nameToken),
                          scope: function.scope!)
                    changed = true
                }
            }
            if !changed { break }
        }
    }
}
