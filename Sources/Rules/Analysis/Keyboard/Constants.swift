import Lexer

/// Local bindings and constants of one file: what a name refers to, and the expression a
/// constant stands for. Built before handlers and registrations are found, which ask it
/// about notification names and userInfo keys held in constants. A class: the index, the
/// file model and the evaluators share one resolver instead of each copying its tables.
final class ConstantResolver: Sendable {
    let source: TokenizedSource
    let outline: Outline
    let bindings: [LocalBinding]
    /// Binding indices by name hash, in token order (`FileIndex.bindingsByName`).
    let bindingsByName: NameGroups
    /// The outline's type declarations by simple name.
    let typesBySimpleName: [String: [TypeID]]
    /// Names of constants (local or property) initialised with a plain chain of names
    /// (`UIResponder.keyboardFrameEndUserInfoKey`): the only names that can hold a key.
    let plainChainConstantNames: NameHashTable<Void>
    /// Whether some constant is initialised with a plain chain ending in a keyboard userInfo
    /// key: the constants a name is followed through end at such an initializer when the name
    /// holds a key, so without one `userInfoKey(namedAt:)` finds none.
    let someConstantHoldsUserInfoKey: Bool

    /// Initializers longer than this are not searched for a keyboard key or notification.
    static let maximumInitializerLength = 16

    init(source: TokenizedSource, outline: Outline, bindings: [LocalBinding], bindingsByName: NameGroups) {
        self.source = source
        self.outline = outline
        self.bindings = bindings
        self.bindingsByName = bindingsByName
        typesBySimpleName = Dictionary(grouping: outline.typeIDs) { outline[$0].simpleName }
        var plain = NameHashTable<Void>()
        var holdsKey = false
        for binding in bindings where !binding.isVariable {
            guard let value = binding.value, Self.isPlainChain(source, value) else { continue }
            plain.insert(binding.nameHash)
            holdsKey = holdsKey || KeyboardVocabulary.userInfoKey(source, at: value.upperBound - 1) != nil
        }
        for property in outline.properties where property.isConstant {
            guard let value = property.initializer, Self.isPlainChain(source, value) else { continue }
            plain.insert(property.nameHash)
            holdsKey = holdsKey || KeyboardVocabulary.userInfoKey(source, at: value.upperBound - 1) != nil
        }
        plainChainConstantNames = plain
        someConstantHoldsUserInfoKey = holdsKey
    }

    func binding(referencedBy name: Int) -> LocalBinding? {
        FileIndex.binding(referencedBy: name, source, outline, bindings, bindingsByName)
    }

    /// The closure a local holds (`let restore: (Notification) -> Void = { … }`).
    func closure(heldBy binding: LocalBinding) -> ClosureID? {
        guard let value = binding.value, source.kind(value.lowerBound) == .leftBrace,
              source.partnerIndex(value.lowerBound) == value.upperBound - 1,
              let scope = outline.scope(at: value.lowerBound), outline[scope].open == value.lowerBound,
              case .closure(let closure) = outline[scope].kind else { return nil }
        return closure
    }

    /// The closures `call` hands over: closure literals, and locals holding one passed by name
    /// (`keyboard.on(.didHide, perform: restore)`).
    func handlerClosures(of call: CallSite) -> [ClosureID] {
        call.handlerClosures + call.arguments.compactMap { argument in
            guard argument.closure == nil, argument.value.count == 1,
                  let binding = binding(referencedBy: argument.value.lowerBound), !binding.isVariable else { return nil }
            return closure(heldBy: binding)
        }
    }

    /// The expression a constant stands for: `range` itself unless it names a constant of this
    /// file, followed through up to `Limits.valueHops` constants. Constants are local `let`s with a
    /// value, and `let` properties with an initializer named bare (`noInsets`), through
    /// `self`/`Self`, through the name of the type declaring them
    /// (`KeyboardNotifications.willShow`), or as an implicit member of an extension of
    /// `Notification.Name` (`.keyboardUp`).
    func value(of range: Range<Int>) -> Range<Int> {
        var current = range
        for _ in 0..<Limits.valueHops {
            guard let next = initializer(named: current) else { break }
            current = next
        }
        return current
    }

    /// The initializer of the constant that `range` names, if it names one.
    func initializer(named range: Range<Int>) -> Range<Int>? {
        if range.count == 1, let binding = binding(referencedBy: range.lowerBound), !binding.isVariable,
           !binding.isShorthand {
            return binding.value
        }
        let member = range.upperBound - 1
        guard range.count <= 3, source.kind(member) == .identifier else { return nil }
        let owners: [TypeID]
        if range.count == 1 || range.count == 3 && source.wordIndex(range.lowerBound, in: ["self", "Self"]) != nil {
            guard let type = outline.enclosingType(at: range.lowerBound) else { return nil }
            owners = [type]
        } else if range.count == 2, source.kind(range.lowerBound) == .period {
            owners = typesBySimpleName["Name"] ?? []
        } else if range.count == 3, source.kind(range.lowerBound + 1) == .period {
            owners = typesBySimpleName[source.text(at: range.lowerBound)] ?? []
        } else {
            return nil
        }
        let name = source.nameHash(member)
        for owner in owners {
            for id in outline.properties(named: name, in: owner) {
                let property = outline[id]
                guard property.isConstant, let initializer = property.initializer,
                      !initializer.contains(range.lowerBound) else { continue }
                return initializer
            }
        }
        return nil
    }

    /// The expression named by the chain ending at identifier `index` (`key`, `Self.key`,
    /// `Keys.key`, `.keyboardUp`), when it is a constant: its final initializer.
    func constantValue(endingAt index: Int) -> Range<Int>? {
        var start = index
        if source.kind(index - 1) == .period {
            start = index - 1
            if source.kind(index - 2) == .identifier || source.kind(index - 2) == .keyword { start = index - 2 }
        }
        let value = value(of: start..<(index + 1))
        guard value != start..<(index + 1), value.count <= Self.maximumInitializerLength else { return nil }
        return value
    }

    /// The property of the enclosing type that the name at `index` (bare or after `self.`)
    /// refers to, when no local binding of that name is visible there: declared in the type's
    /// own body or, for code in an extension, in the file's declaration of the type (stored
    /// properties live there).
    func memberProperty(referencedBy index: Int) -> PropertyDeclaration? {
        guard source.kind(index) == .identifier, let type = outline.enclosingType(at: index) else { return nil }
        let name = source.nameHash(index)
        let declaration = outline[type]
        func declared(in owner: TypeID) -> PropertyID? { outline.firstPropertyByOwnerAndName[Outline.OwnedName(owner: owner, name: name)] }
        guard let property = declared(in: type) ?? (typesBySimpleName[declaration.simpleName] ?? []).lazy
            .filter({ $0 != type && self.outline[$0].qualifiedName == declaration.qualifiedName })
            .compactMap(declared(in:)).first
        else { return nil }
        let qualified = source.kind(index - 1) == .period
        if qualified, !source.isWord(index - 2, "self") { return nil }
        if !qualified, binding(referencedBy: index) != nil { return nil }
        return outline[property]
    }

    /// The keyboard userInfo key held by the constant named at `index`
    /// (`static let endFrameKey = UIResponder.keyboardFrameEndUserInfoKey`). A constant that
    /// holds what was read with a key (`let value = info[key]`) is not a key.
    func userInfoKey(namedAt index: Int) -> KeyboardUserInfoKey? {
        userInfoKey(namedAt: index, hash: source.nameHash(index))
    }

    /// `userInfoKey(namedAt:)` of the name at `index`, whose hash is `hash`.
    func userInfoKey(namedAt index: Int, hash: UInt64) -> KeyboardUserInfoKey? {
        guard someConstantHoldsUserInfoKey, source.kind(index) == .identifier,
              plainChainConstantNames.contains(hash),
              let value = constantValue(endingAt: index), isPlainChain(value) else { return nil }
        return KeyboardVocabulary.userInfoKey(source, at: value.upperBound - 1)
    }

    /// Whether `range` is only names and periods (`UIResponder.keyboardWillShowNotification`,
    /// `.keyboardWillShowNotification`).
    func isPlainChain(_ range: Range<Int>) -> Bool {
        Self.isPlainChain(source, range)
    }

    static func isPlainChain(_ source: TokenizedSource, _ range: Range<Int>) -> Bool {
        !range.isEmpty && range.allSatisfy { source.kind($0) == .identifier || source.kind($0) == .period }
    }
}

extension ConstantResolver {
    /// Numeric conversions that keep a literal's value (`TimeInterval(0.35)`).
    static let numericConversions: [StaticString] = ["TimeInterval", "Double", "CGFloat", "Float"]

    /// The number `range` is written as: a literal, signed or not, possibly wrapped in a
    /// numeric conversion (`TimeInterval(0.35)`, `CGFloat(-8)`).
    static func number(_ source: TokenizedSource, _ range: Range<Int>) -> Double? {
        var range = range
        if range.count >= 4, source.wordIndex(range.lowerBound, in: numericConversions) != nil,
           source.kind(range.lowerBound + 1) == .leftParen, source.partnerIndex(range.lowerBound + 1) == range.upperBound - 1 {
            range = (range.lowerBound + 2)..<(range.upperBound - 1)
        }
        return FileAnalysis.literalNumber(source, range)?.value
    }
}

extension FileAnalysis {
    /// The property of the enclosing type that the name at `index` refers to.
    func memberProperty(referencedBy index: Int) -> PropertyDeclaration? {
        constants.memberProperty(referencedBy: index)
    }

    /// The expression a constant stands for (see `ConstantResolver.value(of:)`).
    func constantValue(of range: Range<Int>) -> Range<Int> {
        constants.value(of: range)
    }

    /// The number `range` stands for: a literal (possibly converted, `TimeInterval(0.35)`), or
    /// a constant of this file or of another project type (`AnimationTiming.standard`)
    /// initialised with one.
    func constantNumber(_ range: Range<Int>) -> Double? {
        let value = constants.value(of: range)
        if let number = ConstantResolver.number(source, value) { return number }
        guard value == range, range.count == 3, source.kind(range.lowerBound) == .identifier,
              source.kind(range.lowerBound + 1) == .period, source.kind(range.lowerBound + 2) == .identifier
        else { return nil }
        return project.types[source.text(at: range.lowerBound)]?.numberConstants[source.text(at: range.lowerBound + 2)]
    }
}
