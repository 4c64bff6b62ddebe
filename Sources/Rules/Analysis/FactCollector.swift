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
        func firstKey(_ scope: ScopeID) -> KeyboardUserInfoKey? {
            for index in outline[scope].body {
                if let key = KeyboardVocabulary.userInfoKey(source, at: index) { return key }
            }
            return nil
        }
        /// An opaque type (`some View`: a SwiftUI body that observes the keyboard) is no value.
        func isOpaque(_ type: Range<Int>) -> Bool {
            source.isWord(type.lowerBound, "some") || source.isWord(type.lowerBound, "any")
        }
        for property in outline.properties where property.kind == .computed && !property.type.isEmpty {
            guard let scope = property.bodyScope, !geometryNames.contains(property.name), !isOpaque(property.type),
                  let key = firstKey(scope) else { continue }
            found[property.name] = key
        }
        for function in outline.functions where function.kind == .function {
            guard let scope = function.scope, let returnType = function.returnType, !returnType.isEmpty,
                  !source.isWord(returnType.lowerBound, "Void"), !isOpaque(returnType), !geometryNames.contains(function.name),
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
        func result(of scope: ScopeID) -> Range<Int> {
            let body = outline[scope].body
            // The last top-level `return`, else the whole (single-expression) body.
            if let last = body.last(where: { source.isWord($0, "return") && outline.scope(at: $0) == scope }) {
                return (last + 1)..<ExpressionBounds.end(source, from: last + 1, stopAtComma: false)
            }
            return body
        }
        var scopes: [(String, ScopeID)] = []
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
            guard let property = outline.property(named: hash, in: type),
                  let value = evaluator.value(of: assignment.rhs) else { continue }
            record(property, value)
        }
        return found
    }

    private static let keyboardLayoutGuideHash = NameHash.of("keyboardLayoutGuide")
    private static let inputAccessoryViewHash = NameHash.of("inputAccessoryView")
    private static let inputAccessoryViewControllerHash = NameHash.of("inputAccessoryViewController")
    private static let canBecomeFirstResponderHash = NameHash.of("canBecomeFirstResponder")

    private static let safeAreaMarkers = CatalogueMarkerCheck(KeyboardVocabulary.safeAreaMarkers)
    private static let exclusionMarkers = CatalogueMarkerCheck(["disabledDistanceHandlingClasses"])

    /// `catalogueMarkers`: which of `FileChecker.catalogueMarkers` the file's bytes hold, if
    /// known (`FileModel.catalogueMarkers`); they spare the byte pre-checks a search.
    static func collectTypes(_ fileIndex: FileIndex, catalogueMarkers: MarkerSet.Mask? = nil, into facts: inout FileFacts) {
        let source = fileIndex.source, outline = fileIndex.outline
        let assignments = fileIndex.assignments
        let path = source.file.path
        // Byte pre-checks: the token scans below look for names most files never contain.
        let bytes = source.file.bytes
        let mayNameSafeArea = safeAreaMarkers.mayBeIn(bytes, present: catalogueMarkers)
        // Both `keyboardLayoutGuide` (the only source of guide uses and aliases) and the
        // `KeyboardLayoutGuide` package hold these bytes.
        let mentionsGuide = fileIndex.mentionsKeyboard && KeyboardVocabulary.mayContain(["eyboardLayoutGuide"], in: bytes)
        let importsGuidePackage = mentionsGuide && (0..<source.code.count).contains {
            source.isWord($0, "import") && source.isWord($0 + 1, "KeyboardLayoutGuide")
        }
        facts.importsKeyboardLayoutGuidePackage = importsGuidePackage
        // Declarations and extensions of one type merged, in order of first appearance.
        var types: [TypeFacts] = []
        types.reserveCapacity(outline.types.count)
        var positionByName: [String: Int] = [:]
        positionByName.reserveCapacity(outline.types.count)
        var declaresGuide = [Bool](repeating: false, count: outline.types.count)
        var overridesAccessory = [Bool](repeating: false, count: outline.types.count)
        var becomesFirstResponder = [Bool](repeating: false, count: outline.types.count)
        var numberConstants = [[String: Double]](repeating: [:], count: outline.types.count)
        // One pass over the properties (one per type was quadratic in generated files), read
        // in place. A name is compared only when its hash is that of a name looked for: the
        // hash of a name spelled as written is the name's hash.
        for property in outline.properties.indices {
            guard let owner = outline.properties[property].owner?.rawValue, owner >= 0, owner < outline.types.count else { continue }
            if outline.properties[property].isConstant, let initializer = outline.properties[property].initializer,
               let number = ConstantResolver.number(source, initializer) {
                numberConstants[owner][outline.properties[property].name] = number
            }
            let hash = outline.properties[property].nameHash
            guard hash == Self.keyboardLayoutGuideHash || hash == Self.inputAccessoryViewHash
                    || hash == Self.inputAccessoryViewControllerHash || hash == Self.canBecomeFirstResponderHash else { continue }
            let name = outline.properties[property].name
            let overrides = outline.properties[property].modifiers.contains("override")
            if name == "keyboardLayoutGuide" { declaresGuide[owner] = true }
            if name == "inputAccessoryView" || name == "inputAccessoryViewController", overrides {
                overridesAccessory[owner] = true
            }
            if name == "canBecomeFirstResponder", overrides, let scope = outline.properties[property].bodyScope,
               outline[scope].body.contains(where: { source.isWord($0, "true") }) {
                becomesFirstResponder[owner] = true
            }
        }
        let bodies = scanTypeBodies(
            source, outline, mayNameSafeArea: mayNameSafeArea,
            aliases: mentionsGuide && !importsGuidePackage ? KeyboardLayoutGuideAliases(fileIndex) : nil)
        for (typeIndex, type) in outline.types.enumerated() {
            var typeFacts = TypeFacts(name: type.qualifiedName)
            typeFacts.isDeclared = type.kind != .extension
            typeFacts.isClass = type.kind == .class || type.kind == .actor
            typeFacts.inheritance = type.inheritance
            if type.kind == .class { typeFacts.superclass = type.inheritance.first }
            typeFacts.paths = [path]
            typeFacts.declaresKeyboardLayoutGuide = declaresGuide[typeIndex]
            typeFacts.overridesInputAccessoryView = overridesAccessory[typeIndex]
            typeFacts.canBecomeFirstResponder = becomesFirstResponder[typeIndex]
            typeFacts.numberConstants = numberConstants[typeIndex]
            if typeFacts.declaresKeyboardLayoutGuide, type.kind == .extension,
               type.simpleName == "UIView" || type.simpleName == "UIViewController" {
                facts.extendsViewsWithKeyboardLayoutGuide = true
            }
            typeFacts.mentionsSafeArea = bodies.mentionsSafeArea[typeIndex]
            typeFacts.keyboardLayoutGuideUses = bodies.guideUses[typeIndex]
            typeFacts.followsUndockedKeyboard = bodies.followsUndocked[typeIndex]
            typeFacts.usesEdgeAwareGuideConstraints = bodies.edgeAware[typeIndex]
            if let position = positionByName[type.qualifiedName] {
                types[position].merge(typeFacts)
            } else {
                positionByName[type.qualifiedName] = types.count
                types.append(TypeFacts.alone(typeFacts))
            }
        }
        facts.types = types

        // Most assignments are passed over before their chain's names are gathered.
        for assignment in assignments where mayNameSwitchOrAccessory(assignment.lhs, source) {
            let names = ExpressionBounds.chainNames(source, assignment.lhs)
            guard let last = names.last else { continue }
            if names.contains(where: { source.isWord($0, "IQKeyboardManager") }),
               source.isWord(last, "enable") || source.isWord(last, "isEnabled") {
                let value = assignment.rhs.lowerBound
                guard source.isWord(value, "true") || source.isWord(value, "false") else { continue }
                facts.keyboardManagerSwitches.append(KeyboardManagerSwitch(
                    location: FactLocation(path: path, range: source.byteRange(assignment.lhs)),
                    isEnabled: source.isWord(value, "true"),
                    typeName: outline.enclosingType(at: assignment.op).map { outline[$0].qualifiedName }))
            }
            if source.isWord(last, "inputAccessoryView"), let type = constructedType(source, assignment.rhs) {
                facts.accessoryViewTypes.append(type)
            }
        }
        let listsExclusions = exclusionMarkers.mayBeIn(bytes, present: catalogueMarkers)
        for index in 0..<(listsExclusions ? source.code.count : 0)
        where source.isWord(index, "disabledDistanceHandlingClasses") {
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
        for index in outline.properties.indices where outline.properties[index].nameHash == Self.inputAccessoryViewHash {
            let property = outline.properties[index]
            guard property.name == "inputAccessoryView" else { continue }
            if let initializer = property.initializer, let type = constructedType(source, initializer) {
                facts.accessoryViewTypes.append(type)
            }
            if let scope = property.bodyScope, let type = constructedType(source, outline[scope].body) {
                facts.accessoryViewTypes.append(type)
            }
        }
    }

    /// Whether a token of `lhs` is `IQKeyboardManager` or `inputAccessoryView`: the chain of
    /// an assignment `collectTypes` records (a keyboard manager switch, an accessory view
    /// construction) names one of them.
    static func mayNameSwitchOrAccessory(_ lhs: Range<Int>, _ source: TokenizedSource) -> Bool {
        lhs.contains { source.isWord($0, "IQKeyboardManager") || source.isWord($0, "inputAccessoryView") }
    }

    /// For each type: whether its extent (nested types included) names the safe area
    /// (`KeyboardVocabulary.namesSafeArea`), and the uses of UIKit's keyboard layout guide directly in
    /// its own code (through a local alias too), with `followsUndockedKeyboard = true` and
    /// edge-aware `setConstraints` among them. One pass over the tokens with a stack of the types around the cursor:
    /// a scan per type was quadratic in the nesting depth, and one property pass per type
    /// quadratic in the number of types (generated files declare thousands).
    /// `mayNameSafeArea` false (the bytes hold no `safeAreaMarkers`) skips the safe area;
    /// `aliases` nil (no guide uses to look for) skips the guide.
    static func scanTypeBodies(
        _ source: TokenizedSource, _ outline: Outline, mayNameSafeArea: Bool, aliases: KeyboardLayoutGuideAliases?
    ) -> TypeBodyFacts {
        let count = outline.types.count
        var found = TypeBodyFacts(
            mentionsSafeArea: [Bool](repeating: false, count: count),
            guideUses: [[FactLocation]](repeating: [], count: count),
            followsUndocked: [[FactLocation]](repeating: [], count: count),
            edgeAware: [Bool](repeating: false, count: count))
        let codeCount = source.code.count
        guard mayNameSafeArea || aliases != nil, count > 0, codeCount > 0 else { return found }
        let extents = outline.types.map { $0.extent.clamped(to: 0..<codeCount) }
        // Outer types first where two start together, so that the stack nests.
        let order = extents.indices.filter { !extents[$0].isEmpty }.sorted {
            (extents[$0].lowerBound, -extents[$0].upperBound, $0) < (extents[$1].lowerBound, -extents[$1].upperBound, $1)
        }
        var open: [Int] = []
        var next = 0
        for index in 0..<codeCount {
            while let top = open.last, extents[top].upperBound <= index { open.removeLast() }
            while next < order.count, extents[order[next]].lowerBound <= index {
                open.append(order[next])
                next += 1
            }
            guard source.kind(index) == .identifier else { continue }
            if mayNameSafeArea, KeyboardVocabulary.namesSafeArea(source, at: index) {
                // Every open type whose extent holds the token; one already marked had its
                // outer types marked with it.
                for type in open.reversed() where extents[type].contains(index) {
                    if found.mentionsSafeArea[type] { break }
                    found.mentionsSafeArea[type] = true
                }
            }
            guard let aliases, aliases.refersToKeyboardLayoutGuide(source, at: index),
                  source.kind(index + 1) == .period,
                  source.wordIndex(index + 2, in: guideMembers) != nil,
                  let type = outline.enclosingType(at: index)?.rawValue, type < count, extents[type].contains(index)
            else { continue }
            let path = source.file.path
            found.guideUses[type].append(FactLocation(path: path, range: source.byteRange(index..<(index + 1))))
            if source.isWord(index + 2, "followsUndockedKeyboard"), source.kind(index + 3) == .equal,
               source.isWord(index + 4, "true") {
                found.followsUndocked[type].append(FactLocation(path: path, range: source.byteRange(index..<(index + 5))))
            }
            if source.isWord(index + 2, "setConstraints") { found.edgeAware[type] = true }
        }
        return found
    }

    /// What `scanTypeBodies` finds, indexed by type.
    struct TypeBodyFacts {
        var mentionsSafeArea: [Bool]
        var guideUses: [[FactLocation]]
        var followsUndocked: [[FactLocation]]
        var edgeAware: [Bool]
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

/// A byte pre-check for words that are all among `FileChecker.catalogueMarkers`: read off the
/// markers a scan of the file found when known (pass 1 scans every file), else a search of
/// the bytes. Words outside the catalogue are always searched for, so the answer is the
/// search's either way.
struct CatalogueMarkerCheck: Sendable {
    let markers: [StaticString]
    /// The markers' bits in `FileChecker.catalogueMarkers`; nil when one is not among them.
    let mask: MarkerSet.Mask?

    init(_ markers: [StaticString]) {
        self.markers = markers
        let mask = FileChecker.catalogueMarkers.mask(of: markers)
        self.mask = mask.bits.nonzeroBitCount == markers.count ? mask : nil
    }

    /// Whether `bytes`, whose catalogue markers are `present` (if known), may hold a marker.
    func mayBeIn(_ bytes: [UInt8], present: MarkerSet.Mask?) -> Bool {
        if let mask, let present { return present.intersects(mask) }
        return KeyboardVocabulary.mayContain(markers, in: bytes)
    }
}
