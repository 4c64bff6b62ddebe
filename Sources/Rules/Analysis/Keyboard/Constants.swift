import Lexer

extension FileAnalysis {
    /// How many constants deep `constantValue(of:)` follows `let a = b` chains.
    static let maximumConstantHops = 4

    /// The expression a constant stands for: `range` itself unless it names a constant of this
    /// file, followed through up to `maximumConstantHops` constants. Constants are local
    /// `let`s with a value, and `let` properties with an initializer named bare (`noInsets`),
    /// through `self`/`Self` or through the name of the type declaring them
    /// (`KeyboardNotifications.willShow`).
    public func constantValue(of range: Range<Int>) -> Range<Int> {
        var current = range
        for _ in 0..<Self.maximumConstantHops {
            guard let next = constantInitializer(named: current) else { break }
            current = next
        }
        return current
    }

    /// The initializer of the constant that `range` names, if it names one.
    func constantInitializer(named range: Range<Int>) -> Range<Int>? {
        if let binding = constantBinding(referencedBy: range) { return binding.value }
        let names = chainNames(range)
        guard names.first == range.lowerBound, names.last == range.upperBound - 1,
              names.count == 1 || names.count == 2 && range.count == 3 else { return nil }
        let member = names[names.count - 1]
        guard let candidates = propertiesByName[source.nameHash(member)] else { return nil }
        let owner: Int?
        if names.count == 1 || source.isWord(names[0], "self") || source.isWord(names[0], "Self") {
            owner = outline.enclosingType(at: range.lowerBound)
        } else {
            owner = candidates.lazy.compactMap { self.outline.properties[$0].owner }
                .first { self.outline.types[$0].simpleName == self.source.text(at: names[0]) }
            guard owner != nil else { return nil }
        }
        for index in candidates {
            let property = outline.properties[index]
            guard property.owner == owner, property.isConstant, let initializer = property.initializer,
                  !initializer.contains(range.lowerBound) else { continue }
            return initializer
        }
        return nil
    }
}
