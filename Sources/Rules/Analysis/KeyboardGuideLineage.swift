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
        return subclasses(of: name).first { usesKeyboardLayoutGuide($0) }
    }
}
