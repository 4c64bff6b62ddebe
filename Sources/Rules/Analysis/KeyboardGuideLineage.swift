/// Which types share a keyboard layout guide through inheritance: a handler written in a base
/// class runs in every subclass, and constraints made by a base class hold in its subclasses.
extension ProjectFacts {
    /// Project classes that inherit from `name`, directly or not, sorted by name. Only the
    /// analysed files' types are listed (see `FactScope`): a subclass that uses the keyboard
    /// layout guide says so in a file with keyboard words, which is always analysed.
    public func subclasses(of name: String) -> [String] {
        types.names.filter { $0 != name && superclasses(of: $0).contains(name) }.sorted()
    }

    /// The type itself or the nearest project superclass that uses UIKit's keyboard layout
    /// guide (its constraints hold in `name` too), with shadowing checked for `name`.
    public func keyboardLayoutGuideUserInLineage(of name: String) -> String? {
        guard !keyboardLayoutGuideIsShadowed(for: name) else { return nil }
        return ([name] + superclasses(of: name)).first { !(types.keyboardFacts(of: $0)?.keyboardLayoutGuideUses.isEmpty ?? true) }
    }

    /// Types in which code of `name` runs next to UIKit's keyboard layout guide: the lineage
    /// user of `name` (itself or a superclass), else the first subclass that uses the guide.
    public func keyboardLayoutGuideUserSharingCode(with name: String) -> String? {
        if let user = keyboardLayoutGuideUserInLineage(of: name) { return user }
        return firstGuideUsingSubclass[name]
    }

    /// Per project class: its first subclass by name that uses UIKit's keyboard layout guide,
    /// found by walking up once from each type that uses it (searching every type's
    /// superclasses for each type asked about was quadratic in the number of types).
    func guideUsingSubclasses() -> [String: String] {
        var first: [String: String] = [:]
        for name in types.keys where usesKeyboardLayoutGuide(name) {
            for ancestor in superclasses(of: name) where first[ancestor].map({ name < $0 }) ?? true {
                first[ancestor] = name
            }
        }
        return first
    }
}
