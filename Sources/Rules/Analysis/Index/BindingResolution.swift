import Lexer

extension FileIndex {
    /// The local binding that name token `name` refers to: the latest binding of that name
    /// visible there (see `LocalBinding.visibility`) in the same or an enclosing body. The one
    /// answer to "what is this name bound to" for every analysis and rule.
    func binding(referencedBy name: Int) -> LocalBinding? {
        guard source.kind(name) == .identifier, let scope = outline.executableScope(at: name),
              let sameName = bindingsByName[source.nameHash(name)] else { return nil }
        var position = firstIndex(in: sameName, atOrAfter: name) { bindings[$0].nameToken }
        while position > 0 {
            position -= 1
            let binding = bindings[sameName[position]]
            guard binding.visibility.contains(name),
                  let bindingScope = outline.executableScope(at: binding.nameToken),
                  outline.scope(scope, isWithin: bindingScope) else { continue }
            return binding
        }
        return nil
    }
}
