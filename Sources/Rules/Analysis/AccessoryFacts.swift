import Lexer

/// What a type's `canBecomeFirstResponder` override returns.
enum FirstResponderAnswer: Int, Sendable, Hashable, Comparable {
    /// Literally `false`.
    case no
    /// An expression: true at least sometimes, as far as a linter can tell.
    case depends
    /// Literally `true`.
    case yes

    static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A place where instances of a type become an input accessory view.
struct AccessoryUse: Sendable, Hashable {
    let typeName: String
    /// The `inputAccessoryView` override's name or the assignment's `inputAccessoryView`.
    let location: FactLocation
}

/// An accessory named by a property the file does not declare (one of a superclass in
/// another file): resolved against the project's property types after the merge.
struct InheritedAccessoryUse: Sendable, Hashable {
    /// The type whose code uses the property.
    let typeName: String
    let property: String
    let location: FactLocation
}

/// Pass-1 facts about responders and input accessory views, per file and merged for the
/// project: accessory rules are cross-file because the pieces of a responder (its accessory
/// override, `canBecomeFirstResponder`, disappear methods, the accessory class and the code
/// that creates it) often live in different files and extensions.
public struct AccessoryFacts: Sendable {
    /// Types that override `canBecomeFirstResponder`, by simple name.
    var firstResponderAnswers: [String: FirstResponderAnswer] = [:]
    /// Where each of those overrides is (its name).
    var firstResponderOverrides: [String: FactLocation] = [:]
    /// Types whose `viewWillDisappear`/`viewDidDisappear` call `resignFirstResponder()` on
    /// themselves (directly or through a method of the file).
    var typesResigningOnDisappear: Set<String> = []
    var accessoryUses: [AccessoryUse] = []
    var inheritedAccessoryUses: [InheritedAccessoryUse] = []
    /// The type each property of each class holds (class name → property → type name), for
    /// resolving `inheritedAccessoryUses`.
    var propertyTypes: [String: [String: String]] = [:]
    /// Types that size themselves as accessories: they set `.flexibleHeight` in their own
    /// `autoresizingMask`, `allowsSelfSizing = true`, or turn off autoresizing-mask
    /// constraints (`translatesAutoresizingMaskIntoConstraints = false`).
    var selfSizingTypes: Set<String> = []
    /// Types some instance of which gets the same treatment where it is created
    /// (`bar.autoresizingMask = .flexibleHeight`).
    var typesSizedWhereCreated: Set<String> = []

    init() {}

    mutating func merge(_ other: AccessoryFacts) {
        for (type, answer) in other.firstResponderAnswers {
            if let known = firstResponderAnswers[type], known >= answer { continue }
            firstResponderAnswers[type] = answer
            firstResponderOverrides[type] = other.firstResponderOverrides[type]
        }
        typesResigningOnDisappear.formUnion(other.typesResigningOnDisappear)
        // Appending nothing to a shared array still copies it.
        if !other.accessoryUses.isEmpty { accessoryUses += other.accessoryUses }
        if !other.inheritedAccessoryUses.isEmpty { inheritedAccessoryUses += other.inheritedAccessoryUses }
        for (type, properties) in other.propertyTypes { Self.merge(properties, of: type, into: &propertyTypes) }
        selfSizingTypes.formUnion(other.selfSizingTypes)
        typesSizedWhereCreated.formUnion(other.typesSizedWhereCreated)
    }

    /// Merges a later file's property table of class `type` into `tables` (`propertyTypes`):
    /// a property keeps the type the first table gives it.
    static func merge(_ properties: [String: String], of type: String, into tables: inout [String: [String: String]]) {
        // A class of one file, as nearly all are: its table as that file has it.
        guard let position = tables.index(forKey: type) else {
            tables[type] = properties
            return
        }
        tables.values[position].merge(properties) { first, _ in first }
    }

    /// Markers without which a file holds none of these facts.
    static let markers: [StaticString] = [
        "FirstResponder", "inputAccessoryView", "autoresizingMask", "allowsSelfSizing",
        "translatesAutoresizingMaskIntoConstraints",
    ]

    /// `markers` among `FileChecker.catalogueMarkers` (which holds them all): a model that
    /// knows its file's catalogue markers answers the pre-check without a search.
    private static let markerCheck = CatalogueMarkerCheck(markers)

    /// The facts of one analysed file.
    init(_ analysis: FileAnalysis) {
        let source = analysis.source
        let outline = analysis.outline
        propertyTypes = Self.propertyTypes(analysis)
        guard Self.markerCheck.mayBeIn(analysis.source.file.bytes, present: analysis.model.catalogueMarkers) else { return }
        func record(_ answer: FirstResponderAnswer, for typeName: String, at nameToken: Int) {
            if let known = firstResponderAnswers[typeName], known >= answer { return }
            firstResponderAnswers[typeName] = answer
            firstResponderOverrides[typeName] = FactLocation(
                path: source.file.path, range: source.byteRange(analysis.tokenRange(nameToken)))
        }
        for (id, property) in zip(outline.propertyIDs, outline.properties)
        where property.name == "canBecomeFirstResponder" && property.modifiers.contains("override") {
            guard let owner = property.owner else { continue }
            let answer = analysis.getterScope(of: id).map { analysis.booleanAnswer(of: $0) } ?? .depends
            record(answer, for: outline[owner].simpleName, at: property.nameToken)
        }
        for function in outline.functions where function.hasModifier("override") {
            guard let owner = function.owner, let scope = function.scope else { continue }
            let typeName = outline[owner].simpleName
            if function.name == "canBecomeFirstResponder" {
                record(analysis.booleanAnswer(of: scope), for: typeName, at: function.nameToken)
            }
            if function.name == "viewWillDisappear" || function.name == "viewDidDisappear",
               analysis.resignsFirstResponder(from: scope) {
                typesResigningOnDisappear.insert(typeName)
            }
        }
        var uses: [(expression: Range<Int>, at: Int)] = []
        for override in analysis.accessoryOverrides {
            uses += override.returned.map { ($0, override.nameToken) }
        }
        for assignment in analysis.accessoryAssignments {
            if let last = analysis.chainNames(assignment.lhs).last { uses.append((assignment.rhs, last)) }
        }
        for use in uses {
            let location = FactLocation(path: source.file.path, range: source.byteRange(analysis.tokenRange(use.at)))
            for found in analysis.accessorySources(of: use.expression) {
                if let name = analysis.typeName(of: found) {
                    accessoryUses.append(AccessoryUse(typeName: name, location: location))
                } else if found.kind == .undeclaredName, let owner = analysis.simpleTypeName(at: found.token) {
                    inheritedAccessoryUses.append(InheritedAccessoryUse(
                        typeName: owner, property: source.text(at: found.token), location: location))
                }
            }
        }
        for assignment in analysis.assignments where analysis.isSelfSizingSetting(assignment) {
            let names = analysis.namesWithoutSelf(assignment.lhs)
            if names.count == 1 {
                if let type = analysis.simpleTypeName(at: assignment.op) { selfSizingTypes.insert(type) }
            } else if names.count == 2 {
                let holder = names[0]
                if let binding = analysis.binding(referencedBy: holder), let value = binding.value {
                    for found in analysis.accessorySources(of: value) {
                        if let name = analysis.typeName(of: found) { typesSizedWhereCreated.insert(name) }
                    }
                } else if let property = analysis.property(named: holder),
                          let name = analysis.viewTypeName(ofProperty: property) {
                    typesSizedWhereCreated.insert(name)
                }
            }
        }
    }
}

extension AccessoryFacts {
    /// The type each instance property of each class of the file holds (class name →
    /// property → type name): any class may be the superclass that declares an accessory
    /// property. A class's properties come one after another in the outline, so each run of
    /// one class is gathered in its own table and merged once (later properties win, as in
    /// declaration order), sparing a lookup of the class name per property.
    static func propertyTypes(_ analysis: FileAnalysis) -> [String: [String: String]] {
        let outline = analysis.outline
        var tables: [String: [String: String]] = [:]
        var runOwner: TypeID?
        var runIsClass = false
        var run: [String: String] = [:]
        func endRun() {
            guard let owner = runOwner, !run.isEmpty else { return }
            let name = outline[owner].simpleName
            if let position = tables.index(forKey: name) {
                tables.values[position].merge(run) { _, later in later }
            } else {
                tables[name] = run
            }
            run = [:]
        }
        for index in outline.properties.indices where !outline.properties[index].isStatic {
            guard let owner = outline.properties[index].owner else { continue }
            if owner != runOwner {
                endRun()
                runOwner = owner
                runIsClass = outline[owner].kind == .class
            }
            guard runIsClass, let name = analysis.viewTypeName(ofProperty: PropertyID(index)) else { continue }
            run[outline.properties[index].name] = name
        }
        endRun()
        return tables
    }
}

extension FileAnalysis {
    /// The type name of an accessory source: the constructed type or the property's type.
    func typeName(of found: AccessorySource) -> String? {
        switch found.kind {
        case .construction: source.text(at: found.token)
        case .property(let property): viewTypeName(ofProperty: property)
        case .nothing, .undeclaredName, .unresolved: nil
        }
    }

    /// What a Boolean getter or function returns: `.yes`/`.no` when every return is that
    /// literal, else `.depends`.
    func booleanAnswer(of scope: ScopeID) -> FirstResponderAnswer {
        let returned = returnedExpressions(of: scope)
        guard !returned.isEmpty else { return .depends }
        if returned.allSatisfy({ $0.count == 1 && source.isWord($0.lowerBound, "true") }) { return .yes }
        if returned.allSatisfy({ $0.count == 1 && source.isWord($0.lowerBound, "false") }) { return .no }
        return .depends
    }

    /// Whether code of `scope` calls `resignFirstResponder()` on `self`, directly or through
    /// methods of the file it calls and property observers it triggers (up to `Limits.valueHops` levels).
    func resignsFirstResponder(from scope: ScopeID) -> Bool {
        var frontier = [scope]
        var visited: Set<ScopeID> = [scope]
        for _ in 0..<Limits.valueHops {
            var next: [ScopeID] = []
            for current in frontier {
                for call in calls(in: outline[current].body) {
                    // The accessory's own field resigning (`inputAccessoryView?.textView
                    // .resignFirstResponder()`) ends the first-responder chain as well.
                    if source.isWord(call.callee, "resignFirstResponder"),
                       let receiver = call.receiver, namesWithoutSelf(receiver).first.map({ source.isWord($0, "inputAccessoryView") }) ?? false {
                        return true
                    }
                    guard call.isOnSelf(source) else { continue }
                    if source.isWord(call.callee, "resignFirstResponder") { return true }
                    if let function = sameFileFunction(for: call), let body = outline[function].scope,
                       visited.insert(body).inserted {
                        next.append(body)
                    }
                }
                // `isComposerHidden = true` whose `didSet` resigns.
                let body = outline[current].body
                let first = firstIndex(in: assignments, atOrAfter: body.lowerBound) { $0.op }
                for assignment in assignments[first...] {
                    guard assignment.op < body.upperBound else { break }
                    let names = namesWithoutSelf(assignment.lhs)
                    guard names.count == 1, binding(referencedBy: names[0]) == nil,
                          let property = property(named: names[0]) else { continue }
                    for accessor in outline[property].accessors
                    where (accessor.kind == .didSet || accessor.kind == .willSet) && visited.insert(accessor.scope).inserted {
                        next.append(accessor.scope)
                    }
                }
            }
            frontier = next
            if frontier.isEmpty { break }
        }
        return false
    }

    /// `autoresizingMask = [… .flexibleHeight …]`, `allowsSelfSizing = true` or
    /// `translatesAutoresizingMaskIntoConstraints = false`: the accessory takes the height
    /// its constraints or intrinsic size ask for.
    func isSelfSizingSetting(_ assignment: Assignment) -> Bool {
        // The chain's last name is a token of the left side: most assignments hold none of
        // the three names, and are passed over without building the chain.
        guard !assignment.isCompound, assignment.lhs.contains(where: { source.wordIndex($0, in: Self.selfSizingNames) != nil }),
              let last = chainNames(assignment.lhs).last else { return false }
        if source.isWord(last, "autoresizingMask") {
            return assignment.rhs.contains { source.isWord($0, "flexibleHeight") }
        }
        if source.isWord(last, "allowsSelfSizing") {
            return assignment.rhs.count == 1 && source.isWord(assignment.rhs.lowerBound, "true")
        }
        if source.isWord(last, "translatesAutoresizingMaskIntoConstraints") {
            return assignment.rhs.count == 1 && source.isWord(assignment.rhs.lowerBound, "false")
        }
        return false
    }

    /// The members whose setting `isSelfSizingSetting` recognises.
    static let selfSizingNames = WordList(["autoresizingMask", "allowsSelfSizing", "translatesAutoresizingMaskIntoConstraints"])
}

/// UIKit classes that matter to responder rules.
enum ResponderVocabulary {
    /// Classes that become first responder on their own and redeclare `inputAccessoryView`
    /// as read-write: their subclasses need no `canBecomeFirstResponder` override.
    static let textInputClasses: Set<String> = [
        "UITextField", "UITextView", "UISearchTextField", "UISearchBar", "WKWebView",
    ]
    /// View controllers of UIKit; their `canBecomeFirstResponder` is false.
    static let viewControllerClasses: Set<String> = [
        "UIViewController", "UITableViewController", "UICollectionViewController",
        "UINavigationController", "UITabBarController", "UIPageViewController", "UISplitViewController",
    ]
    /// Views of UIKit that do not become first responder unless told to.
    static let viewClasses: Set<String> = [
        "UIView", "UIControl", "UIButton", "UILabel", "UIImageView", "UIStackView", "UIScrollView",
        "UITableView", "UICollectionView", "UITableViewCell", "UICollectionViewCell",
        "UICollectionReusableView", "UITableViewHeaderFooterView", "UIInputView", "UIVisualEffectView",
        "UIToolbar", "UINavigationBar",
    ]
}

extension ProjectFacts {
    /// The first non-project class at the root of `name`'s superclass chain
    /// (`UIViewController` for `ChatViewController: BaseViewController`), or `name` itself
    /// when the project does not declare it.
    func rootClass(of name: String) -> String {
        let chain = [name] + superclasses(of: name)
        return chain.first { !(types.declaration(of: $0)?.isDeclared ?? false) } ?? chain[chain.count - 1]
    }

    /// `name` and its superclasses that the project declares, nearest first. Classes it only
    /// extends (`extension UIView { … }`) are left out: what such an extension does applies
    /// to every view, not to this lineage.
    func declaredLineage(of name: String) -> [String] {
        var lineage: [String] = []
        for type in [name] + superclasses(of: name) {
            guard types.declaration(of: type)?.isDeclared ?? false else { break }
            lineage.append(type)
        }
        return lineage
    }

    /// What the nearest `canBecomeFirstResponder` override of `name` or a project superclass
    /// returns; nil when none overrides it.
    func firstResponderAnswer(for name: String) -> FirstResponderAnswer? {
        firstResponderOverride(for: name)?.answer
    }

    /// The nearest `canBecomeFirstResponder` override of `name` or a superclass: what it
    /// returns and where it is. An override in an extension counts, including one in an
    /// extension of a UIKit class (`extension UIViewController { open override var … }`).
    func firstResponderOverride(for name: String) -> (answer: FirstResponderAnswer, location: FactLocation?)? {
        for type in [name] + superclasses(of: name) {
            if let answer = accessories.firstResponderAnswers[type] {
                return (answer, accessories.firstResponderOverrides[type])
            }
        }
        return nil
    }

    /// Whether `name` or a project superclass resigns first responder when it disappears.
    func resignsOnDisappear(_ name: String) -> Bool {
        declaredLineage(of: name).contains { accessories.typesResigningOnDisappear.contains($0) }
    }

    /// Every place where instances of a project type become input accessory views, with
    /// properties inherited from superclasses in other files resolved; `current` adds the
    /// facts of the file being checked as it is now.
    func accessoryUses(including current: AccessoryFacts? = nil) -> [AccessoryUse] {
        var uses = accessories.accessoryUses + (current?.accessoryUses ?? [])
        var propertyTypes = accessories.propertyTypes
        if let current {
            for (type, properties) in current.propertyTypes {
                propertyTypes[type, default: [:]].merge(properties) { first, _ in first }
            }
        }
        for inherited in accessories.inheritedAccessoryUses + (current?.inheritedAccessoryUses ?? []) {
            for type in declaredLineage(of: inherited.typeName) {
                if let name = propertyTypes[type]?[inherited.property] {
                    uses.append(AccessoryUse(typeName: name, location: inherited.location))
                    break
                }
            }
        }
        return uses
    }

    /// Whether `name` is a UIKit view controller, directly or through project superclasses.
    func isViewController(_ name: String) -> Bool {
        ResponderVocabulary.viewControllerClasses.contains(rootClass(of: name))
    }
}
