import Lexer

/// APIs that stand for the device's screen or some window of the app rather than the view's
/// own: `UIScreen.main`, `….keyWindow`, `….windows.first`/`….windows[0]`,
/// `….delegate?.window`. Keyboard geometry measured against them is wrong under Split View,
/// Slide Over, Stage Manager and external displays.
enum ScreenWideAPI {
    /// Display properties of `UIScreen.main` that are not geometry.
    static let displayProperties: [StaticString] = [
        "scale", "nativeScale", "brightness", "traitCollection", "maximumFramesPerSecond",
    ]

    /// The screen-wide API at `index`: the tokens to report and how to name them.
    static func at(_ index: Int, _ source: TokenizedSource) -> (range: Range<Int>, name: String)? {
        // Asked about most names of keyboard code: each API starts with a name of 6 to 9
        // bytes (`window`, `windows`, `UIScreen`, `keyWindow`), which most names are not.
        guard index >= 0, index < source.code.count, (6...9).contains(source.code[index].length) else { return nil }
        return spelled(at: index, source)
    }

    /// `at(_:_:)` without its look at the name's length.
    static func spelled(at index: Int, _ source: TokenizedSource) -> (range: Range<Int>, name: String)? {
        guard source.kind(index) == .identifier else { return nil }
        if source.isWord(index, "UIScreen"), source.kind(index + 1) == .period, source.isWord(index + 2, "main") {
            if source.kind(index + 3) == .period, source.wordIndex(index + 4, in: displayProperties) != nil { return nil }
            return (index..<(index + 3), "UIScreen.main")
        }
        guard source.kind(index - 1) == .period else { return nil }
        if source.isWord(index, "keyWindow") { return (index..<(index + 1), "keyWindow") }
        if source.isWord(index, "windows") {
            if source.kind(index + 1) == .period, source.isWord(index + 2, "first") {
                return (index..<(index + 1), "windows.first")
            }
            if source.kind(index + 1) == .leftSquare, source.isZeroLiteral(index + 2) {
                return (index..<(index + 1), "windows[0]")
            }
            return nil
        }
        if source.isWord(index, "window") {
            var before = index - 2
            while source.kind(before) == .postfixQuestionMark || source.kind(before) == .exclamationMark { before -= 1 }
            if source.isWord(before, "delegate") { return (index..<(index + 1), "UIApplication.shared.delegate?.window") }
        }
        return nil
    }
}

/// Getters of a file whose result is a screen-wide API (`static var mainWindow: UIWindow? {
/// UIApplication.shared.windows.first }`, `func currentScreen() -> UIScreen { .main }` is
/// not one: only the spelled-out APIs count). A use of such a getter is a use of what it
/// returns.
struct ScreenWideGetters: Sendable {
    struct Getter: Sendable {
        /// The screen-wide API token in the getter's result (what rules report).
        let api: Int
        /// The type declaring the getter.
        let owner: TypeID?
        /// The getter's own name token.
        let nameToken: Int
    }

    /// Getters by name hash.
    private(set) var byName: [UInt64: [Getter]] = [:]

    /// Getters returning another getter of the file are followed this many hops.
    static let maximumHops = 4

    init(_ source: TokenizedSource, _ outline: Outline, _ results: ResultExpressions) {
        // Zero-parameter functions and computed properties with the expressions they give.
        var candidates: [(name: UInt64, nameToken: Int, owner: TypeID?, results: [Range<Int>])] = []
        for (id, expressions) in results.properties {
            let property = outline[id]
            candidates.append((property.nameHash, property.nameToken, property.owner, expressions))
        }
        for (id, expressions) in results.functions where outline[id].parameters.isEmpty {
            let function = outline[id]
            candidates.append((function.nameHash, function.nameToken, function.owner, expressions))
        }
        candidates.sort { $0.nameToken < $1.nameToken }
        for _ in 0..<Self.maximumHops {
            var changed = false
            for candidate in candidates where !(byName[candidate.name]?.contains { $0.nameToken == candidate.nameToken } ?? false) {
                var api: Int?
                for expression in candidate.results where api == nil {
                    // Both the APIs and the getters are names.
                    for token in expression where source.kind(token) == .identifier {
                        if let found = ScreenWideAPI.at(token, source)?.range.lowerBound ?? getter(usedAt: token, source, outline)?.api {
                            api = found
                            break
                        }
                    }
                }
                guard let api else { continue }
                byName[candidate.name, default: []].append(Getter(api: api, owner: candidate.owner, nameToken: candidate.nameToken))
                changed = true
            }
            if !changed { break }
        }
    }

    /// The getter the name at `index` uses: a bare name (not a declaration or an argument
    /// label), or a member of the type declaring it (`UIApplication.mainWindow`, `Self.x`,
    /// `self.x`). Other receivers (`view.window`) are UIKit's members of the same name.
    func getter(usedAt index: Int, _ source: TokenizedSource, _ outline: Outline) -> Getter? {
        // Asked for every name a keyboard value reads; most files declare no such getter.
        guard !byName.isEmpty, source.kind(index) == .identifier, let getters = byName[source.nameHash(index)] else {
            return nil
        }
        func declared(by owner: TypeID?, in typeName: String?) -> Bool {
            owner.map { outline[$0].simpleName } == typeName
        }
        let afterPeriod = source.kind(index - 1) == .period
        let enclosing = outline.enclosingType(at: index).map { outline[$0].simpleName }
        if !afterPeriod {
            guard source.kind(index - 1) != .keyword, source.kind(index + 1) != .colon else { return nil }
            return getters.first { $0.nameToken != index && ($0.owner == nil || declared(by: $0.owner, in: enclosing)) }
        }
        let base = index - 2
        if source.isWord(base, "self") || source.isWord(base, "Self") {
            return getters.first { declared(by: $0.owner, in: enclosing) }
        }
        guard source.kind(base) == .identifier, source.kind(base - 1) != .period else { return nil }
        let name = source.text(at: base)
        return getters.first { $0.owner != nil && declared(by: $0.owner, in: name) }
    }
}

extension KeyboardValueEvaluator {
    /// The screen-wide API token of the getter used at `index`, if it names one (a bare
    /// name a local binding shadows does not).
    func screenWideGetter(usedAt index: Int) -> Int? {
        // Asked for every name a value reads: most files declare no such getter.
        guard !screenWideGetters.byName.isEmpty,
              let getter = screenWideGetters.getter(usedAt: index, source, outline) else { return nil }
        if source.kind(index - 1) != .period, constants.binding(referencedBy: index) != nil { return nil }
        return getter.api
    }
}

extension KeyboardValueEvaluator {
    /// The screen-wide API returned by the getter that member `index` is read on
    /// (`UIApplication.mainWindow?.bounds`).
    func screenWideGetter(receiverOf index: Int) -> Int? {
        var receiver = index - 2
        while source.kind(receiver) == .postfixQuestionMark || source.kind(receiver) == .exclamationMark { receiver -= 1 }
        return screenWideGetter(usedAt: receiver)
    }
}

extension FileAnalysis {
    /// The screen-wide API tokens whose value meets a keyboard frame value after a hop: held in
    /// a local (`let screenHeight = UIScreen.main.bounds.height`) or given by a getter, then
    /// combined with the frame in a binding, an assignment or a function's result.
    func screenAPIsMeetingKeyboardFrames() -> Set<Int> {
        guard let evaluator else { return [] }
        var found = Set<Int>()
        let values = [Array(evaluator.flow.valueAt.values), Array(evaluator.carriers.returned.values),
                      Array(evaluator.carriers.computed.values)]
        for group in values {
            for value in group where value.isFrame {
                if let api = value.screenAPI { found.insert(api) }
            }
        }
        return found
    }

    /// The screen-wide API token returned by the getter used at `index`, if it names one.
    func screenWideGetter(usedAt index: Int) -> Int? {
        evaluator?.screenWideGetter(usedAt: index)
    }
}
