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
    /// The simple name (`ChatViewController`).
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
    /// The type mentions `safeAreaInsets` or `safeAreaLayoutGuide` somewhere.
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

    mutating func merge(_ other: TypeFacts) {
        isDeclared = isDeclared || other.isDeclared
        isClass = isClass || other.isClass
        for name in other.inheritance where !inheritance.contains(name) { inheritance.append(name) }
        if superclass == nil { superclass = other.superclass }
        declaresKeyboardLayoutGuide = declaresKeyboardLayoutGuide || other.declaresKeyboardLayoutGuide
        keyboardLayoutGuideUses += other.keyboardLayoutGuideUses
        followsUndockedKeyboard += other.followsUndockedKeyboard
        usesEdgeAwareGuideConstraints = usesEdgeAwareGuideConstraints || other.usesEdgeAwareGuideConstraints
        mentionsSafeArea = mentionsSafeArea || other.mentionsSafeArea
        overridesInputAccessoryView = overridesInputAccessoryView || other.overridesInputAccessoryView
        canBecomeFirstResponder = canBecomeFirstResponder || other.canBecomeFirstResponder
        for path in other.paths where !paths.contains(path) { paths.append(path) }
        observers.merge(other.observers)
        numberConstants.merge(other.numberConstants) { first, _ in first }
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
    public internal(set) var keyboardResults: [String: KeyboardValue.Traits] = [:]
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

    public init(path: String) { self.path = path }
}

/// The lookups of type names made while checking one file that met a type some file not
/// analysed yet declares (see `FactScope`). One file's check runs on one thread, and the
/// driver reads the log after it: no lock is needed.
public final class TypeLookups: @unchecked Sendable {
    /// Name hashes, as `FactScope.declaredTypeNames(in:)` records them.
    public private(set) var unanalysedNames: Set<UInt64> = []
    /// The names the checked file declares when pass 1 did not analyse it: its own facts
    /// join the project while it is checked, so it does not count among the files missing.
    let checkedFileDeclares: Set<UInt64>

    public init(checkedFileDeclares: Set<UInt64> = []) {
        self.checkedFileDeclares = checkedFileDeclares
    }

    func note(_ hash: UInt64) { unanalysedNames.insert(hash) }
}

/// The project's types by simple name, noting lookups of types whose facts are not all
/// collected yet.
public struct TypeTable: Sendable {
    private(set) var facts: [String: TypeFacts] = [:]
    /// The types of a file checked on top of the project (`ProjectFacts.including`), merged
    /// with the project's: a few entries, where copying `facts` for every checked file made
    /// a run quadratic in the size of the project.
    private(set) var layered: [String: TypeFacts] = [:]
    /// For each name declared by files pass 1 did not analyse (hashes), how many such files.
    let unanalysedFiles: [UInt64: Int]
    var lookups: TypeLookups?

    init(unanalysedFiles: [UInt64: Int]) { self.unanalysedFiles = unanalysedFiles }

    public subscript(name: String) -> TypeFacts? {
        if let lookups, !unanalysedFiles.isEmpty {
            let hash = FactScope.hash(ofTypeName: name)
            if let files = unanalysedFiles[hash], files > (lookups.checkedFileDeclares.contains(hash) ? 1 : 0) {
                lookups.note(hash)
            }
        }
        return keyboardFacts(of: name)
    }

    /// For the facts that only files with keyboard or accessory words hold (the keyboard
    /// layout guide's uses and declarations, `followsUndockedKeyboard`, edge-aware guide
    /// constraints): pass 1 analyses every such file, so these lookups are complete and not
    /// noted. Ask `self[name]` for anything else.
    public func keyboardFacts(of name: String) -> TypeFacts? { layered[name] ?? facts[name] }

    /// Every type the analysed files declare or extend (for tests).
    var names: [String] { Array(facts.keys) + layered.keys.filter { facts[$0] == nil } }

    mutating func merge(_ type: TypeFacts) {
        facts[type.name, default: TypeFacts(name: type.name)].merge(type)
    }

    mutating func layer(_ type: TypeFacts) {
        var merged = keyboardFacts(of: type.name) ?? TypeFacts(name: type.name)
        merged.merge(type)
        layered[type.name] = merged
    }
}

/// The merge of every analysed file's facts.
public struct ProjectFacts: Sendable {
    private var files: [FileFacts] = []
    /// Files checked on top of `files` (`including`).
    private var layeredFiles: [FileFacts] = []
    /// The paths of `files`.
    private var paths: Set<String> = []
    public private(set) var types: TypeTable
    public private(set) var keyboardAccessors: [String: KeyboardUserInfoKey] = [:]
    public private(set) var keyboardHeightAccessors: Set<String> = []
    public private(set) var keyboardFrameProperties: [String: KeyboardUserInfoKey] = [:]
    /// Some file declares `keyboardLayoutGuide` on `UIView`, so no use refers to UIKit's.
    public private(set) var shadowsKeyboardLayoutGuideEverywhere = false
    public private(set) var keyboardManagerSwitches: [KeyboardManagerSwitch] = []
    public private(set) var keyboardManagerExcludedTypes: Set<String> = []
    public private(set) var accessoryViewTypes: Set<String> = []
    public private(set) var accessories = AccessoryFacts()
    /// Name hashes of `keyboardAccessors` and `keyboardFrameProperties`, for token lookups.
    private(set) var accessorHashes: [UInt64: KeyboardUserInfoKey] = [:]
    private(set) var heightAccessorHashes: Set<UInt64> = []
    /// `keyboardResults` of every file by name hash (the first file to name one wins).
    private(set) var resultTraitHashes: [UInt64: KeyboardValue.Traits] = [:]
    private(set) var framePropertyHashes: [UInt64: KeyboardUserInfoKey] = [:]
    /// Types with uses of UIKit's keyboard layout guide (shadowed or not), sorted by name.
    private(set) var keyboardLayoutGuideUsers: [String] = []

    /// `unanalysedFiles`: for each type name (hash) declared by files whose facts are left
    /// out, how many such files.
    public init(merging files: [FileFacts], unanalysedFiles: [UInt64: Int] = [:]) {
        types = TypeTable(unanalysedFiles: unanalysedFiles)
        for file in files {
            for type in file.types { types.merge(type) }
            mergeFactsBeyondTypes(of: file)
        }
        self.files = files
        paths = Set(files.map(\.path))
    }

    /// Everything but the types; the first file to name an accessor or frame property wins.
    private mutating func mergeFactsBeyondTypes(of file: FileFacts) {
        for (name, key) in file.keyboardAccessors where keyboardAccessors[name] == nil {
            keyboardAccessors[name] = key
            let hash = NameHash.of(name)
            if accessorHashes[hash] == nil { accessorHashes[hash] = key }
        }
        for name in file.keyboardHeightAccessors where keyboardHeightAccessors.insert(name).inserted {
            heightAccessorHashes.insert(NameHash.of(name))
        }
        for (name, traits) in file.keyboardResults {
            let hash = NameHash.of(name)
            if resultTraitHashes[hash] == nil { resultTraitHashes[hash] = traits }
        }
        for (name, key) in file.keyboardFrameProperties where keyboardFrameProperties[name] == nil {
            keyboardFrameProperties[name] = key
            let hash = NameHash.of(name)
            if framePropertyHashes[hash] == nil { framePropertyHashes[hash] = key }
        }
        // Appending nothing to a shared array still copies it.
        if !file.keyboardManagerSwitches.isEmpty { keyboardManagerSwitches += file.keyboardManagerSwitches }
        keyboardManagerExcludedTypes.formUnion(file.keyboardManagerExcludedTypes)
        accessoryViewTypes.formUnion(file.accessoryViewTypes)
        accessories.merge(file.accessories)
        shadowsKeyboardLayoutGuideEverywhere = shadowsKeyboardLayoutGuideEverywhere || file.extendsViewsWithKeyboardLayoutGuide
        for type in file.types where !type.keyboardLayoutGuideUses.isEmpty {
            let position = keyboardLayoutGuideUsers.firstIndex { $0 >= type.name } ?? keyboardLayoutGuideUsers.endIndex
            if position == keyboardLayoutGuideUsers.endIndex || keyboardLayoutGuideUsers[position] != type.name {
                keyboardLayoutGuideUsers.insert(type.name, at: position)
            }
        }
    }

    public static let empty = ProjectFacts(merging: [])

    /// These facts, noting in `lookups` the lookups of types not all of whose files are
    /// analysed.
    public func noting(lookups: TypeLookups?) -> ProjectFacts {
        var noting = self
        noting.types.lookups = lookups
        return noting
    }

    /// The project with one file's facts replaced (or added): after `--fix` edits a file,
    /// cross-file rules must see what the file says now, not what it said before the edit.
    public func replacing(_ file: FileFacts) -> ProjectFacts {
        var updated = (files + layeredFiles).filter { $0.path != file.path }
        updated.append(file)
        return ProjectFacts(merging: updated, unanalysedFiles: types.unanalysedFiles).noting(lookups: types.lookups)
    }

    /// The project superclass chain of `name` (first inherited name that is a project
    /// class), nearest first, bounded against cycles.
    public func superclasses(of name: String) -> [String] {
        var chain: [String] = []
        var current = name
        while chain.count < 32, let facts = types[current], let parent = facts.superclass,
              !chain.contains(parent), parent != name {
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

    /// This project's facts with `file` added when the project does not hold it yet.
    /// The file's facts are layered on top: the result is that of merging it after every
    /// other file, at the cost of the file's own facts.
    func including(_ file: FileFacts) -> ProjectFacts {
        if paths.contains(file.path) || layeredFiles.contains(where: { $0.path == file.path }) { return self }
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
    let analysis = FileAnalysis(source, project: .empty)
    var facts = analysis.facts
    facts.accessories = AccessoryFacts(analysis)
    return facts
}
