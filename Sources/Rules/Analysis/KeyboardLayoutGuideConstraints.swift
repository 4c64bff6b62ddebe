import Lexer

/// One side of an anchor constraint: `inputBar.bottomAnchor`, `view.keyboardLayoutGuide.topAnchor`.
struct AnchorReference: Sendable {
    /// The `…Anchor` name token.
    let anchor: Int
    /// The name the anchor belongs to (`inputBar`, `keyboardLayoutGuide`,
    /// `safeAreaLayoutGuide`); nil for a bare anchor of `self` (`bottomAnchor`).
    let owner: Int?
    /// Whether the anchor belongs to a keyboard layout guide, by name or through a local alias
    /// of one (then `owner` is that token); a local home-made `keyboardLayoutGuide` is not one.
    /// Whether the type's guide is UIKit's (project members, `UIView` extensions, the package)
    /// is for `ProjectFacts.usesKeyboardLayoutGuide(_:)` to say.
    let isKeyboardLayoutGuide: Bool
}

/// An Auto Layout constraint made in code from anchors, `a.bottomAnchor.constraint(equalTo:
/// b.topAnchor)`, and how it is switched on. The mixing rules need to know which views a type
/// pins to the keyboard layout guide and whether those constraints are fixed or edge-aware.
struct AnchorConstraint: Sendable {
    enum Activation: Sendable, Hashable {
        /// Handed to the guide's `setConstraints(_:activeWhenNearEdge:)` / `activeWhenAwayFrom:`.
        case edgeAware
        /// `.isActive = true`, or passed to `NSLayoutConstraint.activate(…)`, directly or
        /// through a name (local, property, array).
        case activated
        /// Built but not switched on in a way the file shows.
        case unknown
    }

    /// Index into `FileAnalysis.calls` of the `constraint(…)` call.
    let call: Int
    /// The receiver's anchor first, then the argument's (when it is an anchor).
    let anchors: [AnchorReference]
    let activation: Activation

    /// The `keyboardLayoutGuide` token of a side that belongs to the guide.
    var keyboardLayoutGuideToken: Int? {
        anchors.first(where: \.isKeyboardLayoutGuide)?.owner
    }
}

extension FileAnalysis {
    /// Every anchor constraint of the file, in call order.
    func anchorConstraints() -> [AnchorConstraint] {
        var found: [(call: Int, anchors: [AnchorReference])] = []
        let aliases = keyboardLayoutGuideAliases
        let calls = self.calls
        for index in calls.indices where source.isWord(calls[index].callee, "constraint") {
            let call = calls[index]
            guard let receiver = call.receiver,
                  let own = anchorReference(endingAt: receiver.upperBound - 1, aliases: aliases) else {
                continue
            }
            var anchors = [own]
            if let first = call.arguments.first, !first.value.isEmpty,
               let other = anchorReference(endingAt: first.value.upperBound - 1, aliases: aliases) {
                anchors.append(other)
            }
            found.append((index, anchors))
        }
        guard !found.isEmpty else { return [] }
        let switches = ConstraintSwitches(self, callees: Set(found.map { calls[$0.call].callee }))
        return found.map { item in
            AnchorConstraint(call: item.call, anchors: item.anchors,
                             activation: switches.activation(of: calls[item.call], source))
        }
    }

    /// The anchor reference whose `…Anchor` name is code token `end` (`owner.xAnchor`).
    func anchorReference(endingAt end: Int, aliases: KeyboardLayoutGuideAliases) -> AnchorReference? {
        // A local or parameter holding one of the guide's anchors: it stands for the guide there.
        if let anchor = aliases.anchorUses[end] {
            return AnchorReference(anchor: anchor, owner: end, isKeyboardLayoutGuide: true)
        }
        guard source.kind(end) == .identifier, source.word(end, hasSuffix: "Anchor") else { return nil }
        guard source.kind(end - 1) == .period, ExpressionBounds.isChainPiece(source, end - 2) else {
            return AnchorReference(anchor: end, owner: nil, isKeyboardLayoutGuide: false)
        }
        var owner = end - 2
        while source.kind(owner) == .postfixQuestionMark || source.kind(owner) == .exclamationMark { owner -= 1 }
        // `self.bottomAnchor`, `(a ?? b).topAnchor`: no owner name to go by.
        guard source.kind(owner) == .identifier else {
            return AnchorReference(anchor: end, owner: nil, isKeyboardLayoutGuide: false)
        }
        return AnchorReference(anchor: end, owner: owner,
                               isKeyboardLayoutGuide: aliases.refersToKeyboardLayoutGuide(source, at: owner))
    }

    /// The anchor constraints of the file grouped by the type whose code makes them.
    func anchorConstraintsByType(_ constraints: [AnchorConstraint]) -> [TypeID: [AnchorConstraint]] {
        var grouped: [TypeID: [AnchorConstraint]] = [:]
        for constraint in constraints {
            guard let type = outline.enclosingType(at: calls[constraint.call].callee) else { continue }
            grouped[type, default: []].append(constraint)
        }
        return grouped
    }

    /// Names of the views that `constraints` (those of one type) pin to UIKit's keyboard layout
    /// guide, directly (`inputBar.bottomAnchor` to the guide's `topAnchor`) or stacked on such
    /// a view (a table view whose bottom is pinned to the input bar's top): these shrink or
    /// move with the keyboard already. Containers (`view`, `self`, safe-area and content
    /// guides) are never included.
    func viewsPinnedToKeyboardLayoutGuide(_ constraints: [AnchorConstraint]) -> Set<UInt64> {
        var pinned = Set<UInt64>()
        for constraint in constraints where constraint.keyboardLayoutGuideToken != nil {
            for side in constraint.anchors where !side.isKeyboardLayoutGuide {
                if let owner = side.owner, !isContainerName(owner) { pinned.insert(source.nameHash(owner)) }
            }
        }
        // Views stacked above a pinned view: `x.bottomAnchor` to `pinned.topAnchor`.
        for _ in 0..<Limits.valueHops {
            var added = false
            for constraint in constraints where constraint.anchors.count == 2 && constraint.keyboardLayoutGuideToken == nil {
                let sides = constraint.anchors
                for (mine, theirs) in [(sides[0], sides[1]), (sides[1], sides[0])] {
                    guard let owner = mine.owner, let other = theirs.owner, !isContainerName(owner),
                          pinned.contains(source.nameHash(other)), source.isWord(mine.anchor, "bottomAnchor"),
                          source.isWord(theirs.anchor, "topAnchor") else { continue }
                    if pinned.insert(source.nameHash(owner)).inserted { added = true }
                }
            }
            if !added { break }
        }
        return pinned
    }

    /// Names that appear as anchor owners in `constraints`: the views whose layout the code shows.
    func viewsConstrained(_ constraints: [AnchorConstraint]) -> Set<UInt64> {
        var names = Set<UInt64>()
        for constraint in constraints {
            for side in constraint.anchors { if let owner = side.owner { names.insert(source.nameHash(owner)) } }
        }
        return names
    }

    static let containerNames: [StaticString] = [
        "view", "self", "contentView", "superview", "safeAreaLayoutGuide", "layoutMarginsGuide",
        "readableContentGuide", "contentLayoutGuide", "frameLayoutGuide", "keyboardLayoutGuide",
    ]

    func isContainerName(_ index: Int) -> Bool { source.wordIndex(index, in: Self.containerNames) != nil }

    /// Code tokens of type `name`'s uses of UIKit's keyboard layout guide in this file
    /// (the `keyboardLayoutGuide` tokens that pass the project's shadowing rules).
    func keyboardLayoutGuideUses(ofType name: String) -> [Int] {
        guard project.usesKeyboardLayoutGuide(name) else { return [] }
        let path = source.file.path
        let uses = facts.types.first { $0.name == name }?.keyboardLayoutGuideUses ?? []
        return uses.filter { $0.path == path }.compactMap { codeIndex(atByte: $0.range.lowerBound) }
    }

    /// `keyboardLayoutGuideUses(ofType:)` for every type of this file at once, by type name.
    func keyboardLayoutGuideUsesByType() -> [String: [Int]] {
        let path = source.file.path
        var uses: [String: [Int]] = [:]
        for type in facts.types where project.usesKeyboardLayoutGuide(type.name) {
            let tokens = type.keyboardLayoutGuideUses.filter { $0.path == path }.compactMap { codeIndex(atByte: $0.range.lowerBound) }
            if !tokens.isEmpty { uses[type.name] = tokens }
        }
        return uses
    }

    /// The code token that starts at byte `offset`, if one does.
    func codeIndex(atByte offset: Int) -> Int? {
        var low = 0, high = source.code.count
        while low < high {
            let mid = (low + high) / 2
            if Int(source.code[mid].start) < offset { low = mid + 1 } else { high = mid }
        }
        return low < source.code.count && Int(source.code[low].start) == offset ? low : nil
    }

    /// A place for messages: "line 12" in this file; another file is named by its file name
    /// (its text, and so its lines, is not at hand in pass 2).
    func placeDescription(_ location: FactLocation) -> String {
        if location.path == source.file.path {
            return "line \(source.file.location(of: location.range.lowerBound).line)"
        }
        let name = location.path.split(separator: "/").last.map(String.init) ?? location.path
        return "`\(name)`"
    }
}

/// How the file switches constraints on: `.isActive = true`, `NSLayoutConstraint.activate`,
/// the guide's edge-aware `setConstraints`, directly or through names bound to constraints.
/// Built in one pass over the ranges involved, keyed by the `constraint` callee tokens.
private struct ConstraintSwitches {
    var insideActivate = Set<Int>()
    var insideEdgeAware = Set<Int>()
    var activatedInPlace = Set<Int>()
    /// Names whose value expression holds a constraint call: `let c = …`, `c = …`,
    /// `self.c = …`, `lazy var c = …`.
    var boundNames: [Int: [Int]] = [:]
    /// Hashes of names activated by `name.isActive = true` or listed in those calls.
    var activatedNames = Set<UInt64>()
    var edgeAwareNames = Set<UInt64>()

    init(_ analysis: FileAnalysis, callees: Set<Int>) {
        let source = analysis.source
        let calls = analysis.calls
        for call in calls.indices {
            guard let open = calls[call].openParen, let close = calls[call].closeParen, close > open else { continue }
            let range = (open + 1)..<close
            let callee = calls[call].callee
            if source.isWord(callee, "activate") {
                for index in range {
                    if callees.contains(index) { insideActivate.insert(index) }
                    if source.kind(index) == .identifier { activatedNames.insert(source.nameHash(index)) }
                }
            } else if source.isWord(callee, "setConstraints") {
                for index in range {
                    if callees.contains(index) { insideEdgeAware.insert(index) }
                    if source.kind(index) == .identifier { edgeAwareNames.insert(source.nameHash(index)) }
                }
            }
        }
        func bind(_ range: Range<Int>?, to name: Int?) {
            guard let range, let name else { return }
            for index in range where callees.contains(index) { boundNames[index, default: []].append(name) }
        }
        for assignment in analysis.assignments {
            let names = ExpressionBounds.chainNames(source, assignment.lhs)
            if source.isWord(assignment.rhs.lowerBound, "true"), names.count >= 2,
               source.isWord(names[names.count - 1], "isActive") {
                activatedNames.insert(source.nameHash(names[names.count - 2]))
                for index in assignment.lhs where callees.contains(index) { activatedInPlace.insert(index) }
            }
            bind(assignment.rhs, to: names.last)
        }
        for binding in analysis.bindings { bind(binding.value, to: binding.nameToken) }
        for property in analysis.outline.properties { bind(property.initializer, to: property.nameToken) }
    }

    func activation(of call: CallSite, _ source: TokenizedSource) -> AnchorConstraint.Activation {
        let callee = call.callee
        if insideEdgeAware.contains(callee) { return .edgeAware }
        if insideActivate.contains(callee) || activatedInPlace.contains(callee) { return .activated }
        for name in boundNames[callee] ?? [] {
            let hash = source.nameHash(name)
            if edgeAwareNames.contains(hash) { return .edgeAware }
            if activatedNames.contains(hash) { return .activated }
        }
        return .unknown
    }
}

extension TokenizedSource {
    /// Whether name token `index` ends with `suffix` (byte comparison).
    func word(_ index: Int, hasSuffix suffix: StaticString) -> Bool {
        guard index >= 0, index < code.count else { return false }
        let token = code[index]
        let length = suffix.utf8CodeUnitCount
        guard token.kind == .identifier, token.length >= length else { return false }
        return file.bytes.withUnsafeBufferPointer { buffer in
            let start = Int(token.end) - length
            let expected = suffix.utf8Start
            for offset in 0..<length where buffer[start + offset] != expected[offset] { return false }
            return true
        }
    }
}

extension FileAnalysis {
    /// `location` as a related location of a diagnostic in this file (nil path: this file).
    func relatedLocation(_ location: FactLocation, message: String) -> RelatedLocation {
        RelatedLocation(path: location.path == source.file.path ? nil : location.path,
                        range: location.range, message: message)
    }

    /// Where type `name` uses UIKit's keyboard layout guide, preferring `preferred` (a token of
    /// this file), then a use in this file, then one in another file of the project.
    func keyboardLayoutGuideLocation(ofType name: String, preferring preferred: Int? = nil) -> FactLocation? {
        if let preferred {
            return FactLocation(path: source.file.path, range: source.byteRange(preferred..<(preferred + 1)))
        }
        let uses = project.types.keyboardFacts(of: name)?.keyboardLayoutGuideUses ?? []
        return uses.first { $0.path == source.file.path } ?? uses.first
    }
}
