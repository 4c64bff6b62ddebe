import Lexer

/// A selector registration of `self` made in `init`/`viewDidLoad` (or a helper they call):
/// a later `removeObserver(self)` removes it for good.
struct SetupRegistration: Sendable, Hashable {
    let keys: [NotificationKey]
    let location: FactLocation
    /// The name as messages show it (`keyboardWillShowNotification`, `.didRefresh`).
    let displayName: String
    /// The method that adds it (`viewDidLoad`, `init`, or a helper they call).
    let methodName: String
}

/// What one type (declaration and extensions, in every file) does with notification
/// observers, for rules that look past the file they check: a superclass's registrations,
/// removals in an extension elsewhere.
public struct ObserverTypeFacts: Sendable {
    /// Names `self` is registered for with a selector.
    var selectorKeys: Set<NotificationKey> = []
    /// Some selector registration of `self` exists (names shown or not).
    var registersSelectorObserver = false
    /// Some `removeObserver(x)` with a token rather than `self`.
    var removesTokens = false
    /// Name hashes taking part in removals (see `ObserverAnalysis.removedNames`).
    var removedNames: Set<UInt64> = []
    /// The same for removals outside `deinit`, which can break a retain cycle.
    var removedNamesOutsideDeinit: Set<UInt64> = []
    /// Name hashes of values cancelled, emptied or set to nil outside `deinit`.
    var cancelledNamesOutsideDeinit: Set<UInt64> = []
    var setupRegistrations: [SetupRegistration] = []
    /// Names registered in `viewWillAppear`/`viewDidAppear` (or helpers they call).
    var appearKeys: Set<NotificationKey> = []
    /// Keyboard notifications or messages the type's code names anywhere.
    var keyboardEventsMentioned: Set<KeyboardEvent> = []
    /// Some removal runs in `viewWillDisappear`/`viewDidDisappear` (or a helper they call):
    /// subclasses' appear-time observers may be removed there.
    var removesOnDisappear = false
    /// The type lives as long as the app: a singleton (`static let shared = Type()`) or an
    /// application delegate. Its observers never need removing.
    var livesForTheApp = false
    /// Method name hashes the type's code calls on `self` from lifecycle methods (or their
    /// helpers) in a file that does not declare them, with the phases of those calls: an
    /// extension in another file that declares the method runs it in those phases.
    var lifecycleCalls: [UInt64: Set<LifecyclePhase>] = [:]

    /// Most types observe nothing: empty parts are passed over, since merging nothing into
    /// a collection shared with another copy still copies it.
    mutating func merge(_ other: ObserverTypeFacts) {
        if !other.selectorKeys.isEmpty { selectorKeys.formUnion(other.selectorKeys) }
        registersSelectorObserver = registersSelectorObserver || other.registersSelectorObserver
        removesTokens = removesTokens || other.removesTokens
        if !other.removedNames.isEmpty { removedNames.formUnion(other.removedNames) }
        if !other.removedNamesOutsideDeinit.isEmpty { removedNamesOutsideDeinit.formUnion(other.removedNamesOutsideDeinit) }
        if !other.cancelledNamesOutsideDeinit.isEmpty {
            cancelledNamesOutsideDeinit.formUnion(other.cancelledNamesOutsideDeinit)
        }
        for registration in other.setupRegistrations where !setupRegistrations.contains(registration) {
            setupRegistrations.append(registration)
        }
        if !other.appearKeys.isEmpty { appearKeys.formUnion(other.appearKeys) }
        if !other.keyboardEventsMentioned.isEmpty { keyboardEventsMentioned.formUnion(other.keyboardEventsMentioned) }
        livesForTheApp = livesForTheApp || other.livesForTheApp
        removesOnDisappear = removesOnDisappear || other.removesOnDisappear
        if !other.lifecycleCalls.isEmpty { lifecycleCalls.merge(other.lifecycleCalls) { $0.union($1) } }
    }
}

enum ObserverFactCollector {
    /// Fills `observers` of the file's type facts from the file's observer analysis.
    /// `mentionsKeyboard`: `FileIndex.mentionsKeyboard`.
    static func collect(_ analysis: ObserverAnalysis, _ source: TokenizedSource, _ outline: Outline,
                        mentionsKeyboard: Bool, into facts: inout FileFacts) {
        var byName: [String: ObserverTypeFacts] = [:]
        let path = source.file.path
        for registration in analysis.registered {
            guard let type = registration.type else { continue }
            let name = outline[type].qualifiedName
            let phases = analysis.phases(ofMethod: registration.method)
            if registration.kind == .selector, let observer = registration.observer, observer.count == 1,
               source.isWord(observer.lowerBound, "self") {
                byName[name, default: ObserverTypeFacts()].registersSelectorObserver = true
                byName[name, default: ObserverTypeFacts()].selectorKeys.formUnion(registration.keys)
                if phases.contains(.setup) {
                    byName[name, default: ObserverTypeFacts()].setupRegistrations.append(SetupRegistration(
                        keys: registration.keys,
                        location: FactLocation(path: path, range: source.byteRange(registration.callee..<(registration.callee + 1))),
                        displayName: displayName(registration, source),
                        methodName: registration.method.map { outline[$0].name } ?? "init"))
                }
            }
            if phases.contains(where: \.isAppear) {
                byName[name, default: ObserverTypeFacts()].appearKeys.formUnion(registration.keys)
            }
        }
        func isDeinit(_ method: FunctionID?) -> Bool { method.map { outline[$0].kind == .deinitializer } ?? false }
        for removal in analysis.removals {
            guard let type = removal.type else { continue }
            let name = outline[type].qualifiedName
            if !removal.removesSelf { byName[name, default: ObserverTypeFacts()].removesTokens = true }
            if analysis.phases(ofMethod: removal.method).contains(where: \.isDisappear) {
                byName[name, default: ObserverTypeFacts()].removesOnDisappear = true
            }
            if !isDeinit(removal.method) {
                byName[name, default: ObserverTypeFacts()].removedNamesOutsideDeinit.formUnion(removal.names)
            }
        }
        for (name, cancelled) in analysis.cancelledNames {
            for (hash, methods) in cancelled where methods.contains(where: { !isDeinit($0) }) {
                byName[name, default: ObserverTypeFacts()].cancelledNamesOutsideDeinit.insert(hash)
            }
        }
        for (name, hashes) in analysis.removedNames {
            byName[name, default: ObserverTypeFacts()].removedNames.formUnion(hashes)
        }
        // One pass over the file: each keyboard name counts for its innermost type.
        if mentionsKeyboard {
            for index in source.code.indices where source.kind(index) == .identifier {
                guard let event = KeyboardVocabulary.notification(source, at: index)
                        ?? KeyboardVocabulary.message(source, at: index),
                      let type = outline.enclosingType(at: index) else { continue }
                byName[outline[type].qualifiedName, default: ObserverTypeFacts()].keyboardEventsMentioned.insert(event)
            }
        }
        var staticProperties: [TypeID: [PropertyID]] = [:]
        for (id, property) in zip(outline.propertyIDs, outline.properties) where property.isStatic && property.initializer != nil {
            if let owner = property.owner { staticProperties[owner, default: []].append(id) }
        }
        for type in outline.typeIDs where livesForTheApp(type, staticProperties[type] ?? [], source, outline) {
            byName[outline[type].qualifiedName, default: ObserverTypeFacts()].livesForTheApp = true
        }
        for (name, calls) in analysis.lifecycle.phasesOfCallsLeavingFile {
            byName[name, default: ObserverTypeFacts()].lifecycleCalls = calls
        }
        for index in facts.types.indices {
            if let observers = byName[facts.types[index].name] { facts.types[index].observers.merge(observers) }
        }
    }
}

extension ObserverFactCollector {
    /// The keyboard notification's member, else the name argument as written.
    static func displayName(_ registration: RegisteredObserver, _ source: TokenizedSource) -> String {
        guard let name = registration.name else { return "notification" }
        for index in name where KeyboardVocabulary.notification(source, at: index) != nil {
            return source.text(at: index)
        }
        return source.text(spanning: name)
    }

    /// Types whose one instance lives as long as the process: application delegates and
    /// SwiftUI's `App`.
    static let applicationDelegates: Set<String> = [
        "UIApplicationDelegate", "NSApplicationDelegate", "WKApplicationDelegate", "WKExtensionDelegate", "App",
        "SwiftUI.App",
    ]

    /// A singleton (a static property initialized with the type itself) or an app delegate.
    static func livesForTheApp(_ type: TypeID, _ staticProperties: [PropertyID], _ source: TokenizedSource,
                               _ outline: Outline) -> Bool {
        let declaration = outline[type]
        if declaration.inheritance.contains(where: { applicationDelegates.contains($0) }) { return true }
        guard declaration.kind == .class || declaration.kind == .actor else { return false }
        let hash = source.nameHash(declaration.nameToken)
        return staticProperties.contains { property in
            guard let initializer = outline[property].initializer else { return false }
            let first = initializer.lowerBound
            let constructsSelf = source.nameHash(first) == hash || source.isWord(first, "Self")
                || (source.kind(first) == .period && source.isWord(first + 1, "init"))
            return constructsSelf && source.kind(first + (source.kind(first) == .period ? 2 : 1)) == .leftParen
        }
    }
}

extension ProjectFacts {
    /// The observer facts of type `name` across the project (empty when unknown).
    func observerFacts(of name: String) -> ObserverTypeFacts {
        types[name]?.observers ?? ObserverTypeFacts()
    }
}
