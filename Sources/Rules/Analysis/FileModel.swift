import Lexer

/// What one file says on its own, whatever the rest of the project holds: its index,
/// keyboard handlers, animations, inset setups, observer registrations and the facts read
/// off those. `FileAnalysis` binds a model to the project's facts; a run that checks a file
/// after collecting its facts can bind the model it built then instead of building it again.
/// Immutable once built.
public final class FileModel: @unchecked Sendable {
    /// The file's index: outline, calls, assignments, bindings, chains, registrations and
    /// their resolvers.
    let fileIndex: FileIndex
    let handlers: [KeyboardHandler]
    /// Which handler closures feed which (`KeyboardHandlerFinder.chainLinks`/`relayLinks`):
    /// the keyboard value flow follows them.
    let chainLinks: [(producer: ClosureID, consumer: ClosureID)]
    let relayLinks: [(value: Range<Int>, consumer: ClosureID)]
    /// Animation calls of the file, in call order.
    let animations: [AnimationCall]
    /// The file's notification registrations, removals and subscriptions, with the
    /// lifecycle phases the file itself gives (see `FileAnalysis.observers`).
    let observers: ObserverAnalysis
    /// The file's facts that need no keyboard values: its types, keyboard accessors and
    /// observer facts.
    let facts: FileFacts
    /// Whether the file mentions keyboard APIs at all (`FileIndex.mentionsKeyboard`); when
    /// not, no handler or keyboard value analysis is built.
    var mentionsKeyboard: Bool { fileIndex.mentionsKeyboard }

    let handlerLookup: HandlerLookup
    /// Constants: the expressions names stand for.
    let constants: ConstantResolver
    /// Where the file turns a scroll view's inset adjustment off or builds its
    /// `contentInset` from the safe area.
    let insetSetups: [ScrollViewInsetSetup]
    /// Scroll views set to `contentInsetAdjustmentBehavior = .never`, by type.
    let insetAdjustmentNever: Set<FileAnalysis.TypedReceiver>
    /// Animation indices by the executable scope of their call (nil: none), in call order.
    let animationsByScope: [ScopeID?: [Int]]
    /// Bodies of methods an animation takes by name (`animations: updateLayout`), by function
    /// body scope: the index in `animations` of the first such animation.
    let animationOfNamedBody: [ScopeID: Int]
    /// Callees of the file's `Task.sleep(…)` calls, in token order: `deferral(at:)` finds the
    /// first one in a handler by binary search instead of walking the handler's calls for
    /// every token it is asked about.
    let taskSleeps: [Int]
    /// Closures held in a local (`let relayout = { … }`): the callees of the calls of that
    /// local (`relayout()`), where the closure's code actually runs.
    let localClosureCalls: [ClosureID: [Int]]
    /// Innermost handler of each code token (-1: none), reachable code only.
    let handlerAtToken: [Int32]
    /// The file's latest keyboard value flow, which later analyses of the model reuse when
    /// the project tells them nothing new about its names.
    let keyboardEvaluations = KeyboardEvaluationMemo()

    /// The types whose facts the file's analysis reads from the project whatever the rules
    /// ask (the lifecycle phases other files give the methods of its observing types, see
    /// `ObserverAnalysis.seedingPhases`): a driver that has the files holding them analysed
    /// before the check spares the check a second run once they are (`TypeNameLookups`).
    public var typesItsAnalysisLooksUp: [String] { observers.typesSeededFromProject }

    /// Which of `FileChecker.catalogueMarkers` the bytes hold, when whoever built the model
    /// had them already (pass 1 scans every file): a check of the same bytes then needs no
    /// scan of its own.
    let catalogueMarkers: MarkerSet.Mask?

    /// The bytes the model was built from.
    public var file: SourceFile { fileIndex.source.file }
    /// The tokens the model was built from.
    public var source: TokenizedSource { fileIndex.source }

    /// `catalogueMarkers`: `FileChecker.catalogueMarkers.present(in:)` of `source`'s bytes, if
    /// known.
    public init(_ source: TokenizedSource, catalogueMarkers: MarkerSet.Mask? = nil) {
        self.catalogueMarkers = catalogueMarkers
        let fileIndex = FileIndex(source)
        self.fileIndex = fileIndex
        let outline = fileIndex.outline
        let calls = fileIndex.calls
        taskSleeps = calls.indices.filter { index in
            source.isWord(calls[index].callee, "sleep")
                && calls[index].receiver.map { source.isWord($0.upperBound - 1, "Task") } ?? false
        }.map { calls[$0].callee }
        let animations = FileAnalysis.findAnimations(source, fileIndex.calls)
        self.animations = animations
        animationsByScope = Dictionary(grouping: animations.indices) {
            outline.executableScope(at: fileIndex.calls[animations[$0].call].callee)
        }
        var animationOfNamedBody: [ScopeID: Int] = [:]
        for (index, animation) in animations.enumerated() {
            for function in fileIndex.methodsPassedByName[animation.call] ?? [] {
                if let scope = outline[function].scope, animationOfNamedBody[scope] == nil {
                    animationOfNamedBody[scope] = index
                }
            }
        }
        self.animationOfNamedBody = animationOfNamedBody
        let constants = fileIndex.constants
        self.constants = constants
        localClosureCalls = FileAnalysis.localClosureCalls(fileIndex)
        let insetSetups = ScrollViewInsetSetup.find(source, outline, fileIndex.assignments, constants)
        self.insetSetups = insetSetups
        insetAdjustmentNever = Set(insetSetups.compactMap { setup in
            setup.kind == .adjustmentNever
                ? FileAnalysis.TypedReceiver(type: setup.type, receiver: FileAnalysis.receiverKey(source, names: setup.receiver))
                : nil
        })

        let mentionsKeyboard = fileIndex.mentionsKeyboard
        var handlerAtToken = [Int32](repeating: -1, count: mentionsKeyboard ? source.code.count : 0)
        var facts = FileFacts(path: source.file.path)
        if mentionsKeyboard {
            var finder = KeyboardHandlerFinder(fileIndex)
            finder.run()
            handlers = finder.handlers
            chainLinks = finder.chainLinks
            relayLinks = finder.relayLinks
            FileAnalysis.markInnermostHandlers(handlers, outline, into: &handlerAtToken)
            facts.keyboardAccessors = FactCollector.accessors(source, outline)
        } else {
            handlers = []
            chainLinks = []
            relayLinks = []
        }
        self.handlerAtToken = handlerAtToken
        handlerLookup = HandlerLookup(handlers, outline)
        FactCollector.collectTypes(fileIndex, catalogueMarkers: catalogueMarkers, into: &facts)
        let observers = ObserverAnalysisBuilder(fileIndex, catalogueMarkers: catalogueMarkers).build()
        ObserverFactCollector.collect(observers, source, outline, mentionsKeyboard: mentionsKeyboard, into: &facts)
        self.observers = observers
        self.facts = facts
    }
}
