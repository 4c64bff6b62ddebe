import Lexer

extension FileIndex {
    /// The local binding that name token `name` refers to: the latest binding of that name
    /// visible there (see `LocalBinding.visibility`) in the same or an enclosing body. The one
    /// answer to "what is this name bound to" for every analysis and rule.
    func binding(referencedBy name: Int) -> LocalBinding? {
        Self.binding(referencedBy: name, source, outline, bindings, bindingsByName)
    }

    /// `binding(referencedBy:)` on the parts of an index, for what is built before the index
    /// is complete (its constants).
    static func binding(referencedBy name: Int, _ source: TokenizedSource, _ outline: Outline,
                        _ bindings: [LocalBinding], _ bindingsByName: NameGroups) -> LocalBinding? {
        guard source.kind(name) == .identifier, let scope = outline.executableScope(at: name),
              let sameName = bindingsByName[source.nameHash(name)] else { return nil }
        var position = firstIndex(in: sameName, atOrAfter: name) { bindings[$0].nameToken }
        while position > sameName.startIndex {
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

/// The declaration a name in executable code refers to: a local binding, a parameter of an
/// enclosing function or closure, or a closure's anonymous parameter (`$0`). Two names refer
/// to the same thing exactly when they resolve to equal declarations.
struct LocalDeclaration: Hashable, Sendable {
    /// The binding's or parameter's name token; for an anonymous parameter, the open brace of
    /// its closure.
    let token: Int
    let nameHash: UInt64
}

extension FileIndex {
    /// What name token `name` refers to: the nearest of the binding `binding(referencedBy:)`
    /// finds and the parameters of the functions and closures around the name (a closure
    /// parameter shadows a binding of the body around the closure; a binding shadows the
    /// parameters of its own body). Nil for names that are none of these (properties, types,
    /// functions, globals).
    func declaration(referencedBy name: Int) -> LocalDeclaration? {
        guard source.kind(name) == .identifier, let innermost = outline.executableScope(at: name) else { return nil }
        let hash = source.nameHash(name)
        let binding = binding(referencedBy: name)
        let bindingScope = binding.flatMap { outline.executableScope(at: $0.nameToken) }
        for scope in outline.enclosingScopes(from: innermost, before: bindingScope) {
            switch outline[scope].kind {
            case .function(let function):
                if let parameter = outline[function].parameters.first(where: {
                    source.nameHash($0.nameToken) == hash
                }) {
                    return LocalDeclaration(token: parameter.nameToken, nameHash: hash)
                }
            case .closure(let closure):
                let parameters = outline[closure].parameters
                if let parameter = parameters.first(where: { source.nameHash($0) == hash }) {
                    return LocalDeclaration(token: parameter, nameHash: hash)
                }
                if parameters.isEmpty, source.file.bytes[Int(source.code[name].start)] == UInt8(ascii: "$") {
                    return LocalDeclaration(token: outline[scope].open, nameHash: hash)
                }
            default:
                break
            }
        }
        return binding.map { LocalDeclaration(token: $0.nameToken, nameHash: hash) }
    }
}
