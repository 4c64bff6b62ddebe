import Lexer

/// Pass-1 facts of one file, read off its outline.
enum FactCollector {
    /// Names that are everyday view geometry: a project member with one of these names is
    /// never treated as a keyboard value, whatever it is assigned.
    static let geometryNames: Set<String> = [
        "frame", "bounds", "center", "height", "width", "origin", "size", "x", "y", "minY", "maxY",
    ]

    static let guideMembers: [StaticString] = [
        "topAnchor", "bottomAnchor", "leadingAnchor", "trailingAnchor", "leftAnchor", "rightAnchor",
        "heightAnchor", "widthAnchor", "centerXAnchor", "centerYAnchor",
        "followsUndockedKeyboard", "usesBottomSafeArea", "keyboardDismissPadding", "setConstraints",
        // SnapKit: `make.bottom.equalTo(view.keyboardLayoutGuide.snp.top)`.
        "snp",
    ]

    /// Computed properties and value-returning functions whose bodies read a keyboard key.
    static func accessors(_ source: TokenizedSource, _ outline: Outline) -> [String: KeyboardUserInfoKey] {
        var found: [String: KeyboardUserInfoKey] = [:]
        func firstKey(_ scope: Int) -> KeyboardUserInfoKey? {
            for index in outline.scopes[scope].body {
                if let key = KeyboardVocabulary.userInfoKey(source, at: index) { return key }
            }
            return nil
        }
        for property in outline.properties where property.kind == .computed && !property.type.isEmpty {
            guard let scope = property.bodyScope, !geometryNames.contains(property.name),
                  let key = firstKey(scope) else { continue }
            found[property.name] = key
        }
        for function in outline.functions where function.kind == .function {
            guard let scope = function.scope, let returnType = function.returnType, !returnType.isEmpty,
                  !source.isWord(returnType.lowerBound, "Void"), !geometryNames.contains(function.name),
                  let key = firstKey(scope) else { continue }
            found[function.name] = key
        }
        return found
    }

    /// Accessors of this file (among `accessors`) whose result is the height of a keyboard
    /// frame still in screen coordinates.
    static func heightAccessors(_ source: TokenizedSource, _ outline: Outline, _ accessors: [String: KeyboardUserInfoKey],
                                _ evaluator: KeyboardValueEvaluator) -> Set<String> {
        var found = Set<String>()
        func result(of scope: Int) -> Range<Int> {
            let body = outline.scopes[scope].body
            // The last top-level `return`, else the whole (single-expression) body.
            if let last = body.last(where: { source.isWord($0, "return") && outline.scope(at: $0) == scope }) {
                return (last + 1)..<ExpressionBounds.end(source, from: last + 1, stopAtComma: false)
            }
            return body
        }
        var scopes: [(String, Int)] = []
        for property in outline.properties where accessors[property.name] != nil {
            if let scope = property.accessors.first(where: { $0.kind == .get })?.scope ?? property.bodyScope {
                scopes.append((property.name, scope))
            }
        }
        for function in outline.functions where accessors[function.name] != nil {
            if let scope = function.scope { scopes.append((function.name, scope)) }
        }
        for (name, scope) in scopes {
            guard let value = evaluator.value(of: result(of: scope)), value.has([.height, .screenSpace]),
                  value.screenGeometry != nil else { continue }
            found.insert(name)
        }
        return found
    }

    /// Stored properties of this file's types that receive keyboard frames, in an
    /// assignment (`self.endFrame = frame`) or a memberwise initializer call.
    static func frameProperties(_ source: TokenizedSource, _ outline: Outline, _ assignments: [Assignment],
                                _ evaluator: KeyboardValueEvaluator) -> [String: KeyboardUserInfoKey] {
        var found: [String: KeyboardUserInfoKey] = [:]
        func record(_ property: PropertyDeclaration, _ value: KeyboardValue) {
            guard property.kind == .stored, !property.isStatic, value.isFrame,
                  !geometryNames.contains(property.name) else { return }
            found[property.name] = value.has(.frameBegin) && !value.has(.frameEnd) ? .frameBegin : .frameEnd
        }
        for assignment in assignments {
            let names = ExpressionBounds.chainNames(source, assignment.lhs)
            guard names.count == 1 || (names.count == 2 && source.isWord(names[0], "self")),
                  let type = outline.enclosingType(at: assignment.op) else { continue }
            let hash = source.nameHash(names[names.count - 1])
            guard let property = outline.properties.first(where: { $0.owner == type && $0.nameHash == hash }),
                  let value = evaluator.value(of: assignment.rhs) else { continue }
            record(property, value)
        }
        return found
    }

    static func collectTypes(_ source: TokenizedSource, _ outline: Outline, calls: [CallSite],
                             assignments: [Assignment], bindings: [LocalBinding] = [],
                             into facts: inout FileFacts) {
        let path = source.file.path
        let aliases = KeyboardLayoutGuideAliases(source, outline, bindings: bindings)
        let importsGuidePackage = (0..<source.code.count).contains {
            source.isWord($0, "import") && source.isWord($0 + 1, "KeyboardLayoutGuide")
        }
        facts.importsKeyboardLayoutGuidePackage = importsGuidePackage
        var byName: [String: TypeFacts] = [:]
        var order: [String] = []
        for (typeIndex, type) in outline.types.enumerated() {
            var typeFacts = TypeFacts(name: type.simpleName)
            typeFacts.isDeclared = type.kind != .extension
            typeFacts.isClass = type.kind == .class || type.kind == .actor
            typeFacts.inheritance = type.inheritance
            if type.kind == .class { typeFacts.superclass = type.inheritance.first }
            typeFacts.paths = [path]
            for property in outline.properties where property.owner == typeIndex {
                if property.name == "keyboardLayoutGuide" { typeFacts.declaresKeyboardLayoutGuide = true }
                if property.name == "inputAccessoryView" || property.name == "inputAccessoryViewController",
                   property.modifiers.contains("override") {
                    typeFacts.overridesInputAccessoryView = true
                }
                if property.name == "canBecomeFirstResponder", property.modifiers.contains("override"),
                   let scope = property.bodyScope,
                   outline.scopes[scope].body.contains(where: { source.isWord($0, "true") }) {
                    typeFacts.canBecomeFirstResponder = true
                }
            }
            if typeFacts.declaresKeyboardLayoutGuide, type.kind == .extension,
               type.simpleName == "UIView" || type.simpleName == "UIViewController" {
                facts.extendsViewsWithKeyboardLayoutGuide = true
            }
            let extent = type.extent.clamped(to: 0..<source.code.count)
            for index in extent where source.kind(index) == .identifier {
                if source.isWord(index, "safeAreaInsets") || source.isWord(index, "safeAreaLayoutGuide") {
                    typeFacts.mentionsSafeArea = true
                }
                guard !importsGuidePackage, aliases.refersToKeyboardLayoutGuide(source, at: index),
                      source.kind(index + 1) == .period,
                      source.wordIndex(index + 2, in: guideMembers) != nil,
                      outline.enclosingType(at: index) == typeIndex else { continue }
                typeFacts.keyboardLayoutGuideUses.append(
                    FactLocation(path: path, range: source.byteRange(index..<(index + 1))))
                if source.isWord(index + 2, "followsUndockedKeyboard"), source.kind(index + 3) == .equal,
                   source.isWord(index + 4, "true") {
                    typeFacts.followsUndockedKeyboard.append(
                        FactLocation(path: path, range: source.byteRange(index..<(index + 5))))
                }
                if source.isWord(index + 2, "setConstraints") { typeFacts.usesEdgeAwareGuideConstraints = true }
            }
            if byName[type.simpleName] == nil { order.append(type.simpleName) }
            byName[type.simpleName, default: TypeFacts(name: type.simpleName)].merge(typeFacts)
        }
        facts.types = order.compactMap { byName[$0] }

        for assignment in assignments {
            let names = ExpressionBounds.chainNames(source, assignment.lhs)
            guard let last = names.last else { continue }
            if names.contains(where: { source.isWord($0, "IQKeyboardManager") }),
               source.isWord(last, "enable") || source.isWord(last, "isEnabled") {
                let value = assignment.rhs.lowerBound
                guard source.isWord(value, "true") || source.isWord(value, "false") else { continue }
                facts.keyboardManagerSwitches.append(KeyboardManagerSwitch(
                    location: FactLocation(path: path, range: source.byteRange(assignment.lhs)),
                    isEnabled: source.isWord(value, "true"),
                    typeName: outline.enclosingType(at: assignment.op).map { outline.types[$0].simpleName }))
            }
            if source.isWord(last, "inputAccessoryView"), let type = constructedType(source, assignment.rhs) {
                facts.accessoryViewTypes.append(type)
            }
        }
        for index in 0..<source.code.count where source.isWord(index, "disabledDistanceHandlingClasses") {
            let end = ExpressionBounds.end(source, from: index + 1, stopAtComma: false)
            var cursor = index + 1
            while cursor + 2 < end {
                if source.kind(cursor) == .identifier, source.kind(cursor + 1) == .period,
                   source.isWord(cursor + 2, "self") {
                    facts.keyboardManagerExcludedTypes.append(source.text(at: cursor))
                }
                cursor += 1
            }
        }
        for property in outline.properties where property.name == "inputAccessoryView" {
            if let initializer = property.initializer, let type = constructedType(source, initializer) {
                facts.accessoryViewTypes.append(type)
            }
            if let scope = property.bodyScope, let type = constructedType(source, outline.scopes[scope].body) {
                facts.accessoryViewTypes.append(type)
            }
        }
    }

    /// `TypeName(…)` at the start of an expression (after an optional `return`).
    static func constructedType(_ source: TokenizedSource, _ range: Range<Int>) -> String? {
        var start = range.lowerBound
        if source.isWord(start, "return") { start += 1 }
        guard source.kind(start) == .identifier, source.kind(start + 1) == .leftParen else { return nil }
        let name = source.text(at: start)
        guard let first = name.unicodeScalars.first, first.properties.isUppercase else { return nil }
        return name
    }
}
