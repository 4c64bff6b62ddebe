import Lexer

/// A place in a file of the project: enough for a related location in another file.
public struct FactLocation: Sendable, Hashable {
    public let path: String
    public let range: Range<Int>
    public init(path: String, range: Range<Int>) {
        self.path = path
        self.range = range
    }
}

/// What the project says about one type, across its declaration and extensions.
public struct TypeFacts: Sendable {
    /// The qualified name (`ChatViewController`, `ChatModule.ListView` for a nested type).
    public let name: String
    /// `true` once a `class`/`struct`/`enum`/`actor`/`protocol` declaration was seen (not only
    /// extensions).
    public internal(set) var isDeclared: Bool
    public internal(set) var isClass: Bool
    /// Inherited types and conformances of the declaration and its extensions.
    public internal(set) var inheritance: [String]
    /// The first inherited name of the class declaration itself (extensions cannot add a
    /// superclass): the superclass when it is a class.
    public internal(set) var superclass: String?
    /// The type declares a member named `keyboardLayoutGuide` (a home-made guide that
    /// shadows UIKit's for the type and its subclasses).
    public internal(set) var declaresKeyboardLayoutGuide: Bool
    /// Places where the type constrains to, configures or calls UIKit's keyboard layout guide.
    public internal(set) var keyboardLayoutGuideUses: [FactLocation]
    /// Where the type sets its keyboard layout guide's `followsUndockedKeyboard = true`.
    public internal(set) var followsUndockedKeyboard: [FactLocation]
    /// The type hands constraints to the guide's edge-aware `setConstraints(_:activeWhen…:)`.
    public internal(set) var usesEdgeAwareGuideConstraints: Bool
    /// The type names the safe area somewhere (`safeAreaInsets`, `safeAreaLayoutGuide`,
    /// `topLayoutGuide`, `bottomLayoutGuide`, a project name that says so).
    public internal(set) var mentionsSafeArea: Bool
    /// The type overrides `inputAccessoryView` or `inputAccessoryViewController`.
    public internal(set) var overridesInputAccessoryView: Bool
    /// The type overrides `canBecomeFirstResponder` with a body that returns `true`.
    public internal(set) var canBecomeFirstResponder: Bool
    public internal(set) var paths: [String]
    /// Notification observers the type registers and removes.
    public internal(set) var observers = ObserverTypeFacts()
    /// `let` properties whose initializer is a number (`static let standard = TimeInterval(0.35)`),
    /// by name: other files name them as `Type.member`.
    public internal(set) var numberConstants: [String: Double] = [:]

    init(name: String) {
        self.name = name
        isDeclared = false
        isClass = false
        inheritance = []
        superclass = nil
        declaresKeyboardLayoutGuide = false
        keyboardLayoutGuideUses = []
        followsUndockedKeyboard = []
        usesEdgeAwareGuideConstraints = false
        mentionsSafeArea = false
        overridesInputAccessoryView = false
        canBecomeFirstResponder = false
        paths = []
    }

    /// Empty parts of `other` are passed over: appending nothing to an array shared with
    /// another copy still copies it.
    mutating func merge(_ other: TypeFacts) {
        isDeclared = isDeclared || other.isDeclared
        isClass = isClass || other.isClass
        for name in other.inheritance where !inheritance.contains(name) { inheritance.append(name) }
        if superclass == nil { superclass = other.superclass }
        declaresKeyboardLayoutGuide = declaresKeyboardLayoutGuide || other.declaresKeyboardLayoutGuide
        if !other.keyboardLayoutGuideUses.isEmpty { keyboardLayoutGuideUses += other.keyboardLayoutGuideUses }
        if !other.followsUndockedKeyboard.isEmpty { followsUndockedKeyboard += other.followsUndockedKeyboard }
        usesEdgeAwareGuideConstraints = usesEdgeAwareGuideConstraints || other.usesEdgeAwareGuideConstraints
        mentionsSafeArea = mentionsSafeArea || other.mentionsSafeArea
        overridesInputAccessoryView = overridesInputAccessoryView || other.overridesInputAccessoryView
        canBecomeFirstResponder = canBecomeFirstResponder || other.canBecomeFirstResponder
        for path in other.paths where !paths.contains(path) { paths.append(path) }
        observers.merge(other.observers)
        if !other.numberConstants.isEmpty { numberConstants.merge(other.numberConstants) { first, _ in first } }
    }

    /// `type` merged into the facts of no file: `type` itself unless it lists something
    /// twice, which shares its storage where merging would copy it piece by piece (most
    /// types of a project come from one file).
    static func alone(_ type: TypeFacts) -> TypeFacts {
        if type.inheritance.holdsNothingTwice, type.paths.holdsNothingTwice, type.observers.setupRegistrations.holdsNothingTwice {
            return type
        }
        var merged = TypeFacts(name: type.name)
        merged.merge(type)
        return merged
    }
}

extension Array where Element: Equatable {
    /// No element equals an earlier one. For the few elements of a type's lists.
    fileprivate var holdsNothingTwice: Bool {
        indices.allSatisfy { index in !self[..<index].contains(self[index]) }
    }
}

/// What a type's declaration says, which no extension can change: whether the project
/// declares the type (not only extends it), whether it is a class, and its superclass.
public struct TypeDeclarationFacts: Sendable {
    /// The qualified name (`TypeFacts.name`).
    public let name: String
    public let isDeclared: Bool
    public let isClass: Bool
    public let superclass: String?

    init(_ facts: TypeFacts) {
        name = facts.name
        isDeclared = facts.isDeclared
        isClass = facts.isClass
        superclass = facts.superclass
    }
}

/// `IQKeyboardManager.shared.enable = true/false` (or `isEnabled`) and its exclusions.
public struct KeyboardManagerSwitch: Sendable, Hashable {
    public let location: FactLocation
    public let isEnabled: Bool
    /// The type whose code flips the switch (nil at file level).
    public let typeName: String?
}

/// Facts about one file gathered in pass 1 (types, their traits, keyboard accessors, …) so
/// that cross-file rules can ask about the whole project without re-reading files.
public struct FileFacts: Sendable {
    public let path: String
    public internal(set) var types: [TypeFacts] = []
    /// Computed properties and functions whose result is a keyboard value
    /// (`extension Notification { var keyboardFrame: CGRect? … }`), by name.
    public internal(set) var keyboardAccessors: [String: KeyboardUserInfoKey] = [:]
    /// Those accessors whose result is the height of a keyboard frame still in screen
    /// coordinates (`func keyboardHeight(_ n: Notification) -> CGFloat`).
    public internal(set) var keyboardHeightAccessors: Set<String> = []
    /// Methods and computed properties whose result is keyboard geometry (an overlap, a
    /// height) by name, with what it carries: code in other files calling them gets it.
    var keyboardResults: [String: KeyboardValue.Traits] = [:]
    /// Keyboard values this file's handlers pass to functions it does not declare: the file
    /// declaring the function gets them as parameter values.
    var keyboardArguments: [KeyboardArgumentFact] = []
    /// Stored properties of project types that are assigned keyboard frame values (a wrapper's
    /// `endFrame`), by name.
    public internal(set) var keyboardFrameProperties: [String: KeyboardUserInfoKey] = [:]
    /// `extension UIView { var keyboardLayoutGuide … }`: shadows UIKit's guide project-wide.
    public internal(set) var extendsViewsWithKeyboardLayoutGuide = false
    /// `import KeyboardLayoutGuide`: that package declares its own guide.
    public internal(set) var importsKeyboardLayoutGuidePackage = false
    public internal(set) var keyboardManagerSwitches: [KeyboardManagerSwitch] = []
    /// Types listed in `disabledDistanceHandlingClasses` (as `TypeName.self`).
    public internal(set) var keyboardManagerExcludedTypes: [String] = []
    /// Types whose instances become input accessory views.
    public internal(set) var accessoryViewTypes: [String] = []
    /// Responder and input accessory facts.
    public internal(set) var accessories = AccessoryFacts()
    /// Scroll view classes whose insets this file's code takes in hand.
    public internal(set) var scrollViewInsets = ScrollViewInsetFacts()

    public init(path: String) { self.path = path }
}

extension FileFacts {
    /// Whether the file holds facts beyond those about its types (accessors, switches,
    /// accessory uses, keyboard layout guide users…): replacing such a file recomputes those
    /// facts from the other files that hold some.
    var hasFactsBeyondTypes: Bool { !accessories.propertyTypes.isEmpty || hasFactsBesidesTypesAndPropertyTables }

    /// Whether the file holds facts beyond those about its types other than its accessory
    /// property tables (`AccessoryFacts.propertyTypes`): nearly every file with a class holds
    /// tables, most nothing else beyond its types.
    var hasFactsBesidesTypesAndPropertyTables: Bool {
        !keyboardAccessors.isEmpty || !keyboardHeightAccessors.isEmpty || !keyboardFrameProperties.isEmpty
            || !keyboardResults.isEmpty || !keyboardArguments.isEmpty
            || extendsViewsWithKeyboardLayoutGuide || !keyboardManagerSwitches.isEmpty
            || !keyboardManagerExcludedTypes.isEmpty || !accessoryViewTypes.isEmpty || !accessories.isEmptyBesidesPropertyTypes
            || !scrollViewInsets.isEmpty
            || types.contains { !$0.keyboardLayoutGuideUses.isEmpty }
    }
}

extension AccessoryFacts {
    var isEmpty: Bool { propertyTypes.isEmpty && isEmptyBesidesPropertyTypes }

    /// Empty but for `propertyTypes`.
    var isEmptyBesidesPropertyTypes: Bool {
        firstResponderAnswers.isEmpty && typesResigningOnDisappear.isEmpty && accessoryUses.isEmpty
            && inheritedAccessoryUses.isEmpty && selfSizingTypes.isEmpty && typesSizedWhereCreated.isEmpty
    }
}

/// The project's types by qualified name (`ChatModule.ListView`): nested types of the same
/// simple name stay apart.
public struct TypeTable: Sendable {
    /// The merge of the files the project was built from.
    private(set) var facts: [String: TypeFacts] = [:]
    /// Types whose merge changed since (`ProjectFacts.including`, `excluding`): a few
    /// entries, where copying `facts` for every checked file made a run quadratic in the size
    /// of the project. An entry without paths stands for a type no file declares any more.
    private(set) var layered: [String: TypeFacts] = [:]
    /// Qualified names of nested types by their simple name (`ListView` →
    /// `ChatModule.ListView`): code outside the outer type may still write the simple name.
    private(set) var nestedBySimpleName: [String: [String]] = [:]
    /// Every name `nestedBySimpleName` lists.
    private var indexedNestedNames: Set<String> = []

    /// Where the lookups of one check are written down (`FileChecker.checkReportingLookups`);
    /// nil everywhere else.
    var lookups: TypeLookups?

    /// The type of qualified name `name`; for a name no type has, the nested types of that
    /// simple name (merged when several have it: the name alone cannot tell them apart).
    public subscript(name: String) -> TypeFacts? {
        lookups?.names.insert(name)
        return unrecorded(name)
    }

    /// `self[name]` without writing the lookup down: merging facts is not a question a rule asks.
    private func unrecorded(_ name: String) -> TypeFacts? {
        if let type = exactly(name) { return type }
        var found: TypeFacts?
        for qualified in nestedBySimpleName[name] ?? [] {
            guard let type = exactly(qualified) else { continue }
            if found == nil { found = type } else { found!.merge(type) }
        }
        return found
    }

    private func exactly(_ name: String) -> TypeFacts? {
        if let type = layered[name] { return type.paths.isEmpty ? nil : type }
        return facts[name]
    }

    /// What the declaration of type `name` says (see `TypeDeclarationFacts`), for callers that
    /// ask nothing else: written down as a declaration lookup, which the driver answers from
    /// the files that may declare the name (`MarkerSet.Scan.declarationNames`) without those
    /// that only extend it, which cannot change the answer, with one exception: when the
    /// project declares nested types of that simple name and no top-level one, an extension
    /// of `name` makes `name` the type meant instead of the nested ones (an extended type
    /// that declares nothing), so the driver analyses files extending it until one does.
    public func declaration(of name: String) -> TypeDeclarationFacts? {
        lookups?.declarationNames.insert(name)
        return unrecorded(name).map(TypeDeclarationFacts.init)
    }

    /// `self[name]` for callers that read only its keyboard layout guide facts
    /// (`keyboardLayoutGuideUses`, `followsUndockedKeyboard`, `usesEdgeAwareGuideConstraints`,
    /// `declaresKeyboardLayoutGuide`). Not written down as a lookup: only files with keyboard
    /// words hold those facts, and the driver analyses every such file in pass 1
    /// (`FactScope.projectWideMarkers`), so no other file can change the answer. Rules that
    /// look through every type of a file for guide facts would otherwise make the driver
    /// analyse every file declaring a type of the same name.
    public func keyboardFacts(of name: String) -> TypeFacts? { unrecorded(name) }

    /// The qualified name that `written` means inside type `context` (a qualified name):
    /// a type nested in `context` or in one of the types around it, innermost first, else a
    /// type of that name anywhere (`declaration(of: written)`), else `written` itself (a type
    /// the project does not declare, such as `UIViewController`). Each nested name tried is
    /// written down as a lookup of that qualified name: whether it exists decides the answer.
    public func resolve(_ written: String, from context: String?) -> String {
        var scope = context ?? ""
        var steps = 0
        while !scope.isEmpty, steps < Limits.enclosingScopes {
            steps += 1
            let candidate = scope + "." + written
            lookups?.names.insert(candidate)
            if exactly(candidate) != nil { return candidate }
            scope = scope.lastIndex(of: ".").map { String(scope[..<$0]) } ?? ""
        }
        return declaration(of: written)?.name ?? written
    }

    /// Whether a type name is qualified (`ChatModule.ListView`). Read off the name's UTF-8 in
    /// place: iterating a string's UTF-8 view byte by byte costs tens of instructions a byte,
    /// and every type of every analysed file is asked.
    public static func isQualified(_ name: String) -> Bool {
        name.utf8.withContiguousStorageIfAvailable { $0.contains(UInt8(ascii: ".")) } ?? name.utf8.contains(UInt8(ascii: "."))
    }

    /// The last component of a qualified or written name (`ListView` of `ChatModule.ListView`).
    public static func simpleName(of name: String) -> String {
        guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")) else { return name }
        return String(name[name.utf8.index(after: dot)...])
    }

    private mutating func index(_ name: String) {
        guard Self.isQualified(name), indexedNestedNames.insert(name).inserted else { return }
        nestedBySimpleName[Self.simpleName(of: name), default: []].append(name)
    }

    /// Indexes the nested names among `names`, keeping each simple name's list in the order
    /// in which merging every file one after the other would have indexed them: by
    /// `firstOccurrence` (the first file holding the name, and its place among that file's
    /// types), which files added before the first holder of an indexed name change too.
    mutating func index(_ names: [String], inOrderOf firstOccurrence: (String) -> (file: Int, position: Int)) {
        var simpleNames: Set<String> = []
        for name in names where Self.isQualified(name) {
            let simple = Self.simpleName(of: name)
            if indexedNestedNames.insert(name).inserted { nestedBySimpleName[simple, default: []].append(name) }
            simpleNames.insert(simple)
        }
        for simple in simpleNames {
            guard let listed = nestedBySimpleName[simple], listed.count > 1 else { continue }
            nestedBySimpleName[simple] = listed.map { (firstOccurrence($0), $0) }.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    /// Every type the files declare or extend (for tests).
    var names: [String] {
        facts.keys.filter { layered[$0] == nil } + layered.compactMap { $0.value.paths.isEmpty ? nil : $0.key }
    }

    mutating func merge(_ type: TypeFacts) {
        if let position = facts.index(forKey: type.name) {
            facts.values[position].merge(type)
        } else {
            facts[type.name] = .alone(type)
        }
        index(type.name)
    }

    mutating func layer(_ type: TypeFacts) {
        index(type.name)
        guard var merged = exactly(type.name) else {
            layered[type.name] = .alone(type)
            return
        }
        merged.merge(type)
        layered[type.name] = merged
    }

    mutating func replace(_ name: String, with merged: TypeFacts) { layered[name] = merged }

    /// `merged` as the merge of type `name` from every file, for a table without layers.
    mutating func setMerge(_ merged: TypeFacts, of name: String) { facts[name] = merged }

    /// Whether some type was merged again since the files were (`layer`, `replace`).
    var hasLayers: Bool { !layered.isEmpty }

    mutating func reserveCapacity(_ count: Int) { facts.reserveCapacity(count) }
}

/// The type names one check looked up. It belongs to that check alone (created, written
/// and read on one thread within `FileChecker.checkReportingLookups`), which returns its
/// contents as a value: nothing outside the check ever sees it.
final class TypeLookups: @unchecked Sendable {
    /// Names whose facts were read (`TypeTable[name]`).
    var names: Set<String> = []
    /// Names of which only what the declaration says was read (`TypeTable.declaration(of:)`).
    var declarationNames: Set<String> = []
}

/// The merge of every analysed file's facts. Adding a file on top (`including`) or taking one
/// out (`excluding`) costs that file's facts, not the project's.
///
/// The tables sit behind one reference that no project changes while another holds it: a
/// project is handed to every analysis and check (and copied each time), and copying the
/// tables themselves retained each of their ~20 collections.
public struct ProjectFacts: Sendable {
    private final class Storage: Sendable {
        let tables: ProjectTables
        init(_ tables: ProjectTables) { self.tables = tables }
    }

    private var storage: Storage

    private init(_ tables: ProjectTables) { storage = Storage(tables) }

    public init(merging files: [FileFacts]) { self.init(ProjectTables(merging: files)) }

    public static let empty = ProjectFacts(merging: [])

    /// See `ProjectTables.update(toMerge:)`.
    public mutating func update(toMerge files: [FileFacts]) {
        var tables = storage.tables
        // Dropping this project's storage first leaves `tables` the only holder of its
        // collections (unless another project shares them), so they change in place.
        storage = Self.empty.storage
        tables.update(toMerge: files)
        storage = Storage(tables)
    }

    /// The same facts, writing down every type name looked up in them into `lookups`.
    func recordingTypeLookups(into lookups: TypeLookups) -> ProjectFacts {
        ProjectFacts(storage.tables.recordingTypeLookups(into: lookups))
    }

    /// Whether the project holds facts of the file at `path`.
    public func contains(path: String) -> Bool { storage.tables.contains(path: path) }

    /// See `ProjectTables.replacing(_:)`.
    public func replacing(_ file: FileFacts) -> ProjectFacts { ProjectFacts(storage.tables.replacing(file)) }

    /// See `ProjectTables.excluding(_:)`.
    public func excluding(_ path: String) -> ProjectFacts { ProjectFacts(storage.tables.excluding(path)) }

    /// See `ProjectTables.including(_:)`.
    func including(_ file: FileFacts) -> ProjectFacts {
        contains(path: file.path) ? self : ProjectFacts(storage.tables.including(file))
    }

    public var types: TypeTable { _read { yield storage.tables.types } }
    public var keyboardAccessors: [String: KeyboardUserInfoKey] { _read { yield storage.tables.keyboardAccessors } }
    public var keyboardHeightAccessors: Set<String> { _read { yield storage.tables.keyboardHeightAccessors } }
    public var keyboardFrameProperties: [String: KeyboardUserInfoKey] { _read { yield storage.tables.keyboardFrameProperties } }
    /// Some file declares `keyboardLayoutGuide` on `UIView`, so no use refers to UIKit's.
    public var shadowsKeyboardLayoutGuideEverywhere: Bool { storage.tables.shadowsKeyboardLayoutGuideEverywhere }
    public var keyboardManagerSwitches: [KeyboardManagerSwitch] { _read { yield storage.tables.keyboardManagerSwitches } }
    public var keyboardManagerExcludedTypes: Set<String> { _read { yield storage.tables.keyboardManagerExcludedTypes } }
    public var accessoryViewTypes: Set<String> { _read { yield storage.tables.accessoryViewTypes } }
    public var accessories: AccessoryFacts { _read { yield storage.tables.accessories } }
    public var scrollViewInsets: ScrollViewInsetFacts { _read { yield storage.tables.scrollViewInsets } }
    var accessorHashes: NameHashTable<KeyboardUserInfoKey> { _read { yield storage.tables.accessorHashes } }
    var heightAccessorHashes: NameHashTable<Void> { _read { yield storage.tables.heightAccessorHashes } }
    var resultTraitHashes: NameHashTable<KeyboardValue.Traits> { _read { yield storage.tables.resultTraitHashes } }
    var framePropertyHashes: NameHashTable<KeyboardUserInfoKey> { _read { yield storage.tables.framePropertyHashes } }
    var keyboardArguments: NameHashTable<[KeyboardArgumentFact]> { _read { yield storage.tables.keyboardArguments } }
    /// Types with uses of UIKit's keyboard layout guide (shadowed or not), sorted by name.
    var keyboardLayoutGuideUsers: [String] { _read { yield storage.tables.keyboardLayoutGuideUsers } }

    /// How far `superclasses(of:)` follows a chain: deeper class hierarchies do not occur in
    /// practice, and a bound keeps a cyclic or generated hierarchy cheap.
    public static let maximumSuperclassDepth = 32

    /// The project superclass chain of `name` (first inherited name that is a project
    /// class), nearest first, bounded against cycles. Each superclass is named as the project
    /// declares it (qualified, resolved from the scope of the subclass's declaration), or as
    /// written when the project does not declare it (`UIViewController`).
    public func superclasses(of name: String) -> [String] {
        var chain: [String] = []
        var current = name
        while chain.count < Self.maximumSuperclassDepth, let facts = types.declaration(of: current),
              let written = facts.superclass {
            let outer = facts.name.lastIndex(of: ".").map { String(facts.name[..<$0]) }
            let parent = types.resolve(written, from: outer)
            guard !chain.contains(parent), parent != name, parent != facts.name else { break }
            chain.append(parent)
            current = parent
        }
        return chain
    }

    /// Whether `name` is, or inherits from, `ancestor` (as far as the project shows).
    public func type(_ name: String, inheritsFrom ancestor: String) -> Bool {
        name == ancestor || superclasses(of: name).contains(ancestor)
    }

    /// Whether a project-declared `keyboardLayoutGuide` shadows UIKit's for `name`.
    public func keyboardLayoutGuideIsShadowed(for name: String) -> Bool {
        if shadowsKeyboardLayoutGuideEverywhere { return true }
        return ([name] + superclasses(of: name)).contains { types.keyboardFacts(of: $0)?.declaresKeyboardLayoutGuide ?? false }
    }

    /// Whether type `name` (its declaration and extensions) uses UIKit's keyboard layout guide.
    public func usesKeyboardLayoutGuide(_ name: String) -> Bool {
        guard let facts = types.keyboardFacts(of: name), !facts.keyboardLayoutGuideUses.isEmpty else { return false }
        return !keyboardLayoutGuideIsShadowed(for: name)
    }

    /// Whether some file enables IQKeyboardManager.
    public var enablesKeyboardManager: Bool { keyboardManagerSwitches.contains { $0.isEnabled } }
}

/// The tables of `ProjectFacts`, which holds them behind one reference.
struct ProjectTables: Sendable {
    /// The files the project was built from, in merge order.
    private var files: [FileFacts] = []
    private var indexByPath: [String: Int] = [:]
    /// Indices in `files` of those taken out (`excluding`).
    private var excludedFiles: Set<Int> = []
    /// Indices in `files` of those with facts beyond their types.
    private var filesWithFactsBeyondTypes: [Int] = []
    /// Files added on top of `files` (`including`).
    private var layeredFiles: [FileFacts] = []
    private(set) var types = TypeTable()
    private(set) var keyboardAccessors: [String: KeyboardUserInfoKey] = [:]
    private(set) var keyboardHeightAccessors: Set<String> = []
    private(set) var keyboardFrameProperties: [String: KeyboardUserInfoKey] = [:]
    private(set) var shadowsKeyboardLayoutGuideEverywhere = false
    private(set) var keyboardManagerSwitches: [KeyboardManagerSwitch] = []
    private(set) var keyboardManagerExcludedTypes: Set<String> = []
    private(set) var accessoryViewTypes: Set<String> = []
    private(set) var accessories = AccessoryFacts()
    private(set) var scrollViewInsets = ScrollViewInsetFacts()
    /// Name hashes of `keyboardAccessors` and `keyboardFrameProperties`, for token lookups.
    private(set) var accessorHashes = NameHashTable<KeyboardUserInfoKey>()
    private(set) var heightAccessorHashes = NameHashTable<Void>()
    /// `keyboardResults` of every file by name hash (the first file to name one wins).
    private(set) var resultTraitHashes = NameHashTable<KeyboardValue.Traits>()
    private(set) var framePropertyHashes = NameHashTable<KeyboardUserInfoKey>()
    /// `keyboardArguments` of every file by the hash of the called name.
    private(set) var keyboardArguments = NameHashTable<[KeyboardArgumentFact]>()
    private(set) var keyboardLayoutGuideUsers: [String] = []

    /// Whether `update(toMerge:)` can merge again only what added files change: the files'
    /// paths are distinct, and each type of a file names that file alone as its path, so
    /// that a type's `paths` lead to the files holding it.
    private var supportsUpdates = true

    init(merging files: [FileFacts]) {
        types.reserveCapacity(files.reduce(0) { $0 + $1.types.count })
        accessories.propertyTypes.reserveCapacity(files.reduce(0) { $0 + $1.accessories.propertyTypes.count })
        indexByPath.reserveCapacity(files.count)
        // Files and types are read in place: copying each out of its array retained every
        // collection it holds.
        for index in files.indices {
            for position in files[index].types.indices { types.merge(files[index].types[position]) }
            if files[index].hasFactsBeyondTypes {
                filesWithFactsBeyondTypes.append(index)
                mergeFactsBeyondTypes(of: files[index])
            }
            if indexByPath[files[index].path] == nil { indexByPath[files[index].path] = index } else { supportsUpdates = false }
            if !Self.typesNameOnly(files[index]) { supportsUpdates = false }
        }
        self.files = files
    }

    /// Each type of `file` names `file` as its one path (as `collectFacts` makes them).
    private static func typesNameOnly(_ file: FileFacts) -> Bool {
        file.types.allSatisfy { $0.paths.count == 1 && $0.paths[0] == file.path }
    }

    /// Becomes `ProjectFacts(merging: files)`, where `files` holds the files this project was
    /// merged from, unchanged and in the same order, with others among them (a driver that
    /// analysed more files since): the types the added files declare or extend are merged
    /// again from the files holding them, and the facts beyond types only when an added file
    /// holds some, so that the update costs about the added files rather than the project.
    /// Any other `files` (or a project with files taken out or added on top) is merged anew.
    /// The merged files are recognised by path: facts under a path this project holds must be
    /// those it merged (a driver adds the facts of files it had not analysed).
    mutating func update(toMerge files: [FileFacts]) {
        guard let added = positionsAdded(in: files) else {
            self = ProjectTables(merging: files)
            return
        }
        guard !added.isEmpty else { return }
        self.files = files
        indexByPath = Dictionary(minimumCapacity: files.count)
        filesWithFactsBeyondTypes = []
        for index in files.indices {
            indexByPath[files[index].path] = index
            if files[index].hasFactsBeyondTypes { filesWithFactsBeyondTypes.append(index) }
        }
        // The names the added files hold, in order, with the added files holding each.
        var touched: [String] = []
        var addedHolders: [String: [Int]] = [:]
        for index in added {
            for type in files[index].types {
                if addedHolders[type.name] == nil { touched.append(type.name) }
                if addedHolders[type.name, default: []].last != index { addedHolders[type.name, default: []].append(index) }
            }
        }
        for name in touched {
            let earlier = (types.facts[name]?.paths ?? []).compactMap { indexByPath[$0] }
            var merged: TypeFacts?
            for index in (earlier + (addedHolders[name] ?? [])).sorted() {
                for type in files[index].types where type.name == name {
                    if merged == nil { merged = .alone(type) } else { merged!.merge(type) }
                }
            }
            if let merged { types.setMerge(merged, of: name) }
        }
        types.index(touched) { [files, indexByPath, facts = types.facts] name in
            guard let path = facts[name]?.paths.first, let file = indexByPath[path],
                  let position = files[file].types.firstIndex(where: { $0.name == name }) else { return (Int.max, Int.max) }
            return (file, position)
        }
        if added.contains(where: { files[$0].hasFactsBesidesTypesAndPropertyTables }) {
            mergeFactsBeyondTypesAgain()
        } else {
            mergePropertyTablesAgain(of: Set(added.flatMap { files[$0].accessories.propertyTypes.keys }))
        }
    }

    /// The accessory property tables of the classes `names` merged again from the files
    /// holding them, in merge order: what `mergeFactsBeyondTypesAgain` gives when the files
    /// added since hold no other facts beyond types (see `update(toMerge:)`, which takes no
    /// file out and layers none), at the cost of the tables rather than of every fact.
    private mutating func mergePropertyTablesAgain(of names: Set<String>) {
        guard !names.isEmpty else { return }
        var merged: [String: [String: String]] = [:]
        for index in filesWithFactsBeyondTypes {
            for (type, properties) in files[index].accessories.propertyTypes where names.contains(type) {
                AccessoryFacts.merge(properties, of: type, into: &merged)
            }
        }
        for (type, properties) in merged { accessories.propertyTypes[type] = properties }
    }

    /// The positions in `files` of the files this project does not hold, when `files` holds
    /// every file of this project in the same order, each once, and the project can be
    /// updated (`supportsUpdates`, no file taken out or added on top); else nil.
    private func positionsAdded(in files: [FileFacts]) -> [Int]? {
        guard supportsUpdates, excludedFiles.isEmpty, layeredFiles.isEmpty, !types.hasLayers else { return nil }
        var matched = 0
        var added: [Int] = []
        var addedPaths: Set<String> = []
        for (index, file) in files.enumerated() {
            if matched < self.files.count, self.files[matched].path == file.path {
                matched += 1
            } else if indexByPath[file.path] != nil || !addedPaths.insert(file.path).inserted || !Self.typesNameOnly(file) {
                return nil
            } else {
                added.append(index)
            }
        }
        return matched == self.files.count ? added : nil
    }

    /// Everything but the types; the first file to name an accessor or frame property wins.
    private mutating func mergeFactsBeyondTypes(of file: FileFacts) {
        for (name, key) in file.keyboardAccessors where keyboardAccessors[name] == nil {
            keyboardAccessors[name] = key
            let hash = NameHash.of(name)
            if !accessorHashes.contains(hash) { accessorHashes.setValue(key, for: hash) }
        }
        for name in file.keyboardHeightAccessors where keyboardHeightAccessors.insert(name).inserted {
            heightAccessorHashes.insert(NameHash.of(name))
        }
        for (name, traits) in file.keyboardResults {
            let hash = NameHash.of(name)
            if !resultTraitHashes.contains(hash) { resultTraitHashes.setValue(traits, for: hash) }
        }
        for fact in file.keyboardArguments { keyboardArguments.modify(NameHash.of(fact.call.name), default: []) { $0.append(fact) } }
        for (name, key) in file.keyboardFrameProperties where keyboardFrameProperties[name] == nil {
            keyboardFrameProperties[name] = key
            let hash = NameHash.of(name)
            if !framePropertyHashes.contains(hash) { framePropertyHashes.setValue(key, for: hash) }
        }
        // Appending nothing to a shared array still copies it.
        if !file.keyboardManagerSwitches.isEmpty { keyboardManagerSwitches += file.keyboardManagerSwitches }
        keyboardManagerExcludedTypes.formUnion(file.keyboardManagerExcludedTypes)
        accessoryViewTypes.formUnion(file.accessoryViewTypes)
        accessories.merge(file.accessories)
        scrollViewInsets.merge(file.scrollViewInsets)
        shadowsKeyboardLayoutGuideEverywhere = shadowsKeyboardLayoutGuideEverywhere || file.extendsViewsWithKeyboardLayoutGuide
        for type in file.types where !type.keyboardLayoutGuideUses.isEmpty {
            let position = keyboardLayoutGuideUsers.firstIndex { $0 >= type.name } ?? keyboardLayoutGuideUsers.endIndex
            if position == keyboardLayoutGuideUsers.endIndex || keyboardLayoutGuideUsers[position] != type.name {
                keyboardLayoutGuideUsers.insert(type.name, at: position)
            }
        }
    }

    func recordingTypeLookups(into lookups: TypeLookups) -> ProjectTables {
        var project = self
        project.types.lookups = lookups
        return project
    }

    func contains(path: String) -> Bool {
        if let index = indexByPath[path], !excludedFiles.contains(index) { return true }
        return layeredFiles.contains { $0.path == path }
    }

    /// The project with one file's facts replaced (or added): after `--fix` edits a file,
    /// cross-file rules must see what the file says now, not what it said before the edit.
    func replacing(_ file: FileFacts) -> ProjectTables {
        excluding(file.path).including(file)
    }

    /// The project without the facts of the file at `path`: the types that file declares or
    /// extends are merged again from the other files that hold them, and the facts beyond
    /// types from the files that hold some.
    func excluding(_ path: String) -> ProjectTables {
        var project = self
        let removed: FileFacts
        if let index = indexByPath[path], !excludedFiles.contains(index) {
            removed = files[index]
            project.excludedFiles.insert(index)
        } else if let layered = layeredFiles.firstIndex(where: { $0.path == path }) {
            removed = layeredFiles[layered]
            project.layeredFiles.remove(at: layered)
        } else {
            return self
        }
        for type in removed.types { project.mergeTypeAgain(type.name) }
        if removed.hasFactsBeyondTypes { project.mergeFactsBeyondTypesAgain() }
        return project
    }

    /// Type `name` merged from the files that still hold it, in merge order.
    private mutating func mergeTypeAgain(_ name: String) {
        var merged = TypeFacts(name: name)
        for path in types.facts[name]?.paths ?? [] {
            guard let index = indexByPath[path], !excludedFiles.contains(index) else { continue }
            for type in files[index].types where type.name == name { merged.merge(type) }
        }
        for file in layeredFiles {
            for type in file.types where type.name == name { merged.merge(type) }
        }
        types.replace(name, with: merged)
    }

    private mutating func mergeFactsBeyondTypesAgain() {
        keyboardAccessors = [:]
        keyboardHeightAccessors = []
        keyboardFrameProperties = [:]
        shadowsKeyboardLayoutGuideEverywhere = false
        keyboardManagerSwitches = []
        keyboardManagerExcludedTypes = []
        accessoryViewTypes = []
        accessories = AccessoryFacts()
        scrollViewInsets = ScrollViewInsetFacts()
        accessorHashes = NameHashTable()
        heightAccessorHashes = NameHashTable()
        framePropertyHashes = NameHashTable()
        keyboardArguments = NameHashTable()
        resultTraitHashes = NameHashTable()
        keyboardLayoutGuideUsers = []
        for index in filesWithFactsBeyondTypes where !excludedFiles.contains(index) {
            mergeFactsBeyondTypes(of: files[index])
        }
        for file in layeredFiles { mergeFactsBeyondTypes(of: file) }
    }


    /// This project's facts with `file` added when the project does not hold it yet.
    /// The file's facts are layered on top: the result is that of merging it after every
    /// other file, at the cost of the file's own facts.
    func including(_ file: FileFacts) -> ProjectTables {
        if contains(path: file.path) { return self }
        var project = self
        for type in file.types { project.types.layer(type) }
        project.mergeFactsBeyondTypes(of: file)
        project.layeredFiles.append(file)
        return project
    }
}

/// Pass 1 for one file: the full analysis, whose facts include those that can sit in any
/// file (a class's property types, a token released in an extension, a singleton), so no
/// byte pre-check can skip it without losing facts that keep cross-file rules precise.
public func collectFacts(_ source: TokenizedSource) -> FileFacts {
    collectFacts(FileModel(source))
}

/// `collectFacts` of the file `model` was built from.
public func collectFacts(_ model: FileModel) -> FileFacts {
    FileAnalysis.facts(of: model)
}
