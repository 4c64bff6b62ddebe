/// Which types share a keyboard layout guide through inheritance: a handler written in a base
/// class runs in every subclass, and constraints made by a base class hold in its subclasses.
extension ProjectFacts {
    /// The type itself or the nearest project superclass that uses UIKit's keyboard layout
    /// guide (its constraints hold in `name` too), with shadowing checked for `name`.
    func keyboardLayoutGuideUserInLineage(of name: String) -> String? {
        guard !keyboardLayoutGuideIsShadowed(for: name) else { return nil }
        // A superclass the project only extends (`extension UIView { … keyboardLayoutGuide … }`)
        // offers the guide to every view; it does not lay this type out with it.
        let ancestors = superclasses(of: name).filter { types.declaration(of: $0)?.isDeclared ?? false }
        return ([name] + ancestors).first { !(types.keyboardFacts(of: $0)?.keyboardLayoutGuideUses.isEmpty ?? true) }
    }

    /// Types in which code of `name` runs next to UIKit's keyboard layout guide: the lineage
    /// user of `name` (itself or a superclass), else the first subclass by name that uses the
    /// guide. Only the guide's users are walked up (every type's superclasses for each type
    /// asked about was quadratic in the number of types); looking their ancestors up makes the
    /// driver analyse them. Users are always analysed: they say so in files with keyboard
    /// words.
    func keyboardLayoutGuideUserSharingCode(with name: String) -> String? {
        if let user = keyboardLayoutGuideUserInLineage(of: name) { return user }
        return keyboardLayoutGuideUsers.first {
            $0 != name && superclasses(of: $0).contains(name) && usesKeyboardLayoutGuide($0)
        }
    }
}
