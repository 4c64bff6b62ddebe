import Lexer

/// Everything rules ask about one file, built once: the file's `FileModel` (outline, call
/// sites, assignments, bindings, handlers, observers) bound to the project's facts, which
/// decide its keyboard values. Immutable once built and shared between rules (`project` and
/// `facts` are set only inside `init`).
public final class FileAnalysis: @unchecked Sendable, FileIndexReader {
    /// What the file says on its own; several analyses may share one.
    let model: FileModel
    /// The project's facts, with this file's own included (except in the analysis
    /// `facts(of:)` makes and discards, which reads the project only for keyboard values).
    public private(set) var project: ProjectFacts
    /// This file's pass-1 facts.
    private(set) var facts: FileFacts
    /// What the observer rules know about the file's registrations, with the lifecycle phases
    /// other files of the project give its types.
    let observers: ObserverAnalysis
    let evaluator: KeyboardValueEvaluator?

    var fileIndex: FileIndex { model.fileIndex }
    var handlers: [KeyboardHandler] { model.handlers }
    var animations: [AnimationCall] { model.animations }
    var mentionsKeyboard: Bool { model.mentionsKeyboard }
    var handlerLookup: HandlerLookup { model.handlerLookup }
    var constants: ConstantResolver { model.constants }
    var insetSetups: [ScrollViewInsetSetup] { model.insetSetups }
    var insetAdjustmentNever: Set<TypedReceiver> { model.insetAdjustmentNever }
    var animationsByScope: [ScopeID?: [Int]] { model.animationsByScope }
    var animationOfNamedBody: [ScopeID: Int] { model.animationOfNamedBody }
    var taskSleeps: [Int] { model.taskSleeps }
    var localClosureCalls: [ClosureID: [Int]] { model.localClosureCalls }
    var handlerAtToken: [Int32] { model.handlerAtToken }

    public convenience init(_ source: TokenizedSource, project: ProjectFacts = .empty) {
        self.init(FileModel(source), project: project)
    }

    /// Binds `model` to `project`: the keyboard values (which the project's accessors,
    /// wrapper properties, results and arguments decide), the facts that need them, and the
    /// observer phases other files give.
    public convenience init(_ model: FileModel, project: ProjectFacts = .empty) {
        self.init(model, project: project, forFactsOnly: false)
    }

    /// The file's facts as pass 1 gathers them: those of an analysis of `model` on its own.
    static func facts(of model: FileModel) -> FileFacts {
        FileAnalysis(model, project: .empty, forFactsOnly: true).facts
    }

    /// `forFactsOnly`: nothing but `facts` is read off the analysis (`facts(of:)`), so the
    /// project facts are not layered again with what the analysis adds to the file's own and
    /// the observers get no phases from them: `project` holds at most the facts the keyboard
    /// values are evaluated with and `observers` are the model's. The accessory and scroll
    /// view inset facts, read off the analysis, ask neither.
    private init(_ model: FileModel, project: ProjectFacts, forFactsOnly: Bool) {
        self.model = model
        let fileIndex = model.fileIndex, source = fileIndex.source, outline = fileIndex.outline
        var facts = model.facts
        // Only the keyboard values of an analysis for facts read the project.
        var merged = forFactsOnly && !model.mentionsKeyboard ? project : project.including(facts)
        if model.mentionsKeyboard {
            var evaluation = model.keyboardEvaluations.evaluation(of: model, with: KeyboardProjectTables(merged))
            // Facts that need values (wrapper properties, height accessors) feed back into this
            // file's own flow once.
            facts.keyboardFrameProperties = evaluation.frameProperties
            facts.keyboardHeightAccessors = evaluation.heightAccessors
            let knownProperties = merged.keyboardFrameProperties
            if facts.keyboardFrameProperties.keys.contains(where: { knownProperties[$0] == nil })
                || !facts.keyboardHeightAccessors.isSubset(of: merged.keyboardHeightAccessors) {
                merged = merged.replacing(facts)
                evaluation = model.keyboardEvaluations.evaluation(of: model, with: KeyboardProjectTables(merged))
            }
            facts.keyboardResults = evaluation.results
            facts.keyboardArguments = evaluation.arguments
            self.evaluator = evaluation.evaluator
        } else {
            evaluator = nil
        }
        self.facts = facts
        if forFactsOnly {
            self.project = merged
            self.observers = model.observers
        } else {
            // Without keyboard values the facts are those `merged` holds already.
            self.project = model.mentionsKeyboard ? project.including(facts) : merged
            // The facts hold this file's own phases; rules also see those other files give.
            self.observers = model.observers.seedingPhases(from: self.project, outline)
        }
        // Accessory and scroll view inset facts are read off the finished analysis; a project
        // that lacks this file's facts (pass 1, a file checked on top of the others) gets
        // them too.
        if !project.contains(path: source.file.path) {
            self.facts.accessories = AccessoryFacts(self)
            self.facts.scrollViewInsets = ScrollViewInsetFacts(self)
            if !forFactsOnly, !self.facts.accessories.isEmpty || !self.facts.scrollViewInsets.isEmpty {
                self.project = project.including(self.facts)
            }
        }
    }

    // MARK: Handlers

    /// Marks each token with the handler of the smallest body whose reachable code holds it.
    /// Handlers go from the smallest body up and mark only tokens no smaller one took; runs
    /// of marked tokens are jumped over (with path halving), so each token is visited about
    /// once however deeply handlers nest, where marking every handler's whole body was
    /// quadratic in the nesting.
    static func markInnermostHandlers(_ handlers: [KeyboardHandler], _ outline: Outline,
                                      into handlerAtToken: inout [Int32]) {
        var nextUnmarked = (0...handlerAtToken.count).map { Int32(truncatingIfNeeded: $0) }
        func unmarked(from index: Int) -> Int {
            var index = index
            while Int(nextUnmarked[index]) != index {
                nextUnmarked[index] = nextUnmarked[Int(nextUnmarked[index])]
                index = Int(nextUnmarked[index])
            }
            return index
        }
        let order = handlers.indices.sorted {
            outline[handlers[$0].scope].body.count < outline[handlers[$1].scope].body.count
        }
        for handler in order {
            let body = outline[handlers[handler].scope].body
            let end = min(handlers[handler].reachableEnd, body.upperBound, handlerAtToken.count)
            var token = unmarked(from: min(body.lowerBound, handlerAtToken.count))
            while token < end {
                handlerAtToken[token] = Int32(handler)
                nextUnmarked[token] = Int32(truncatingIfNeeded: token + 1)
                token = unmarked(from: token + 1)
            }
        }
    }

    /// Closures bound to a local and the calls of that local (see `localClosureCalls`).
    static func localClosureCalls(_ fileIndex: FileIndex) -> [ClosureID: [Int]] {
        let source = fileIndex.source
        var closureOfBinding: [Int: ClosureID] = [:]
        for binding in fileIndex.bindings {
            if let closure = fileIndex.constants.closure(heldBy: binding) { closureOfBinding[binding.nameToken] = closure }
        }
        guard !closureOfBinding.isEmpty else { return [:] }
        var found: [ClosureID: [Int]] = [:]
        let calls = fileIndex.calls
        for index in calls.indices where calls[index].receiver == nil {
            let callee = calls[index].callee
            guard fileIndex.bindingsByName[source.nameHash(callee)] != nil,
                  let binding = fileIndex.binding(referencedBy: callee),
                  let closure = closureOfBinding[binding.nameToken] else { continue }
            found[closure, default: []].append(callee)
        }
        return found
    }

    /// The innermost keyboard handler whose reachable code contains code token `index`.
    func handler(at index: Int) -> KeyboardHandler? {
        guard index >= 0, index < handlerAtToken.count else { return nil }
        let value = Int(handlerAtToken[index])
        return value >= 0 ? handlers[value] : nil
    }

    /// Index in `handlers` of the innermost handler containing `index`.
    func handlerIndex(at index: Int) -> Int? {
        guard index >= 0, index < handlerAtToken.count else { return nil }
        let value = Int(handlerAtToken[index])
        return value >= 0 ? value : nil
    }

    func isInKeyboardHandler(_ index: Int) -> Bool { handlerIndex(at: index) != nil }

    /// The handlers that registered `root` reaches through `.reached` links, root first.
    func rootHandler(of index: Int) -> Int {
        var current = index
        var steps = 0
        while let caller = handlers[current].caller, steps < Limits.handlerCallers {
            current = caller
            steps += 1
        }
        return current
    }

    /// The token that moves code token `index` out of the keyboard's animation transaction:
    /// the `async`/`asyncAfter`/`Task` call whose closure contains it, a `Task.sleep` before
    /// it in the handler, or the Combine/Rx operator (`receive(on:)`, `delay`, …) before the
    /// handler's closure. Nil when the code runs synchronously in the handler.
    func deferral(at index: Int) -> Int? {
        deferral(at: index, hops: 0)
    }


    func deferral(at index: Int, hops: Int) -> Int? {
        guard let handlerIndex = handlerIndex(at: index) else { return nil }
        let handler = handlers[handlerIndex]
        for scope in outline.enclosingScopes(from: outline.scope(at: index), before: handler.scope) {
            if case .closure(let closure) = outline[scope].kind {
                if let call = outline[closure].call {
                    let callee = calls[call].callee
                    if source.wordIndex(callee, in: ["async", "asyncAfter", "Task", "detached", "after"]) != nil {
                        return callee
                    }
                } else if hops < Limits.valueHops, let sites = localClosureCalls[closure] {
                    // `let relayout = { … }` runs where it is called: `async { relayout() }`.
                    for site in sites {
                        if let deferral = deferral(at: site, hops: hops + 1) { return deferral }
                    }
                }
            }
        }
        let body = outline[handler.scope].body
        let sleep = firstIndex(in: taskSleeps, atOrAfter: body.lowerBound) { $0 }
        if sleep < taskSleeps.count, taskSleeps[sleep] < index { return taskSleeps[sleep] }
        if let deferred = handler.deferredBy { return deferred }
        if let caller = handler.caller, let registrationDeferral = handlers[rootHandler(of: caller)].deferredBy {
            return registrationDeferral
        }
        return nil
    }

    // MARK: Keyboard values

    /// The value of an assignment's right-hand side (computed once, with the file's flow).
    func keyboardValue(of assignment: Assignment) -> KeyboardValue? {
        guard let evaluator else { return nil }
        return evaluator.flow.valueAt[assignment.op]
    }

    /// The value bound by a local binding (computed once, with the file's flow).
    func keyboardValue(of binding: LocalBinding) -> KeyboardValue? {
        guard let evaluator else { return nil }
        return evaluator.flow.valueAt[binding.nameToken]
    }

    /// The keyboard value the expression `range` carries, or nil. A value may carry only a
    /// safe-area term or a window-space rect (`isKeyboard` is then false).
    func keyboardValue(of range: Range<Int>) -> KeyboardValue? {
        evaluator?.value(of: range)
    }

    // MARK: Calls

    /// The call whose callee is code token `index`.
    func call(at index: Int) -> CallSite? { fileIndex.call(at: index) }

    /// Calls whose callee lies in `range`.
    func calls(in range: Range<Int>) -> ArraySlice<CallSite> {
        calls[fileIndex.callIndices(in: range)]
    }

    /// Assignments whose operator lies in `range`.
    func assignments(in range: Range<Int>) -> ArraySlice<Assignment> {
        let low = firstIndex(in: assignments, atOrAfter: range.lowerBound) { $0.op }
        var end = low
        while end < assignments.count, assignments[end].op < range.upperBound { end += 1 }
        return assignments[low..<end]
    }

    /// The argument of `call` labelled `label`.
    func argument(_ call: CallSite, _ label: StaticString) -> Argument? {
        call.argument(label, source)
    }

    /// Whether the argument is exactly one numeric literal (sign allowed) and its value.
    func literalNumber(_ range: Range<Int>) -> (token: Int, value: Double)? {
        Self.literalNumber(source, range)
    }

    static func literalNumber(_ source: TokenizedSource, _ range: Range<Int>) -> (token: Int, value: Double)? {
        var start = range.lowerBound
        var sign = 1.0
        if range.count == 2, source.kind(start) == .prefixOperator, source.token(source.code[start], is: "-") {
            sign = -1
            start += 1
        }
        guard range.upperBound - start == 1, let value = source.numericValue(at: start) else { return nil }
        return (start, sign * value)
    }

    // MARK: Layout

    /// The layout sink an assignment writes, if any.
    func layoutSink(of assignment: Assignment) -> LayoutSink? {
        guard let sink = LayoutSink.classify(source, chainNames(assignment.lhs), lhs: assignment.lhs) else { return nil }
        // `frame.origin.y = …` on a local `var frame: CGRect` (or a local copy of insets) is
        // arithmetic, not layout.
        if sink.receiver.isEmpty, binding(referencedBy: sink.member) != nil { return nil }
        return sink
    }

    /// A receiver chain as comparable name hashes, `self` left out (`self.tableView` and
    /// `tableView` are the same receiver).
    func receiverKey(_ range: Range<Int>) -> [UInt64] {
        receiverKey(names: chainNames(range))
    }

    func receiverKey(names: [Int]) -> [UInt64] {
        Self.receiverKey(source, names: names)
    }

    static func receiverKey(_ source: TokenizedSource, names: some Sequence<Int>) -> [UInt64] {
        names.filter { !source.isWord($0, "self") }.map { source.nameHash($0) }
    }

    /// A scroll view (a `receiverKey`) in a type declaration.
    struct TypedReceiver: Hashable, Sendable {
        let type: TypeID
        let receiver: [UInt64]
    }

    /// The local binding that name token `name` refers to (see `FileIndex.binding(referencedBy:)`).
    func binding(referencedBy name: Int) -> LocalBinding? {
        fileIndex.binding(referencedBy: name)
    }

    /// The `UIEdgeInsets(…)` initializer call that `range` is (`UIEdgeInsets(…)`,
    /// `UIEdgeInsets.init(…)`, `.init(…)`), directly or through a local constant bound to one.
    func edgeInsetsCall(_ range: Range<Int>) -> CallSite? {
        KeyboardValueEvaluator.edgeInsetsCall(source, constantValue(of: range), fileIndex.callAtCallee, calls)
    }

    /// The member names of the chain `range`.
    func chainNames(_ range: Range<Int>) -> [Int] {
        ExpressionBounds.chainNames(source, range)
    }

    /// The qualified name of the type whose body contains `index` (the extended type for
    /// extensions): the key of its project facts.
    func typeName(at index: Int) -> String? {
        outline.enclosingType(at: index).map { outline[$0].qualifiedName }
    }

    /// The simple name of the type whose body contains `index`, as other code writes it
    /// (`Bar()`): what accessory facts, which start from such names, are keyed by.
    func simpleTypeName(at index: Int) -> String? {
        outline.enclosingType(at: index).map { outline[$0].simpleName }
    }

    /// Whether the type containing `index` uses UIKit's keyboard layout guide (in this file
    /// or any other, extensions included; home-made guides shadow it).
    func typeUsesKeyboardLayoutGuide(at index: Int) -> Bool {
        guard let name = typeName(at: index) else { return false }
        return project.usesKeyboardLayoutGuide(name)
    }

    /// The effective deployment target at `index`: the configured target raised by
    /// `#available`/`@available` around it.
    func effectiveTarget(at index: Int, configured: OSVersion?) -> OSVersion? {
        let available = outline.availableVersion(at: index)
        switch (configured, available) {
        case let (configured?, available?): return max(configured, available)
        case let (configured?, nil): return configured
        case let (nil, available?): return available
        case (nil, nil): return nil
        }
    }
}

/// A write or call that changes layout (catalogue: "layout sink").
struct LayoutSink: Sendable {
    enum Kind: Sendable, Hashable {
        case contentInset, scrollIndicatorInsets, additionalSafeAreaInsets, constraintConstant
        case frame, center, transform, contentOffset
    }
    let kind: Kind
    /// The sink's member token (`contentInset`, `constant`, `frame`, …).
    let member: Int
    /// The edge or component written after it (`bottom`, `y`), if any.
    let component: Int?
    /// The receiver before the member (`self.scrollView`), possibly empty.
    let receiver: Range<Int>

    static let insetEdges: [StaticString] = ["bottom", "top", "left", "right"]

    static func classify(_ source: TokenizedSource, _ names: [Int], lhs: Range<Int>) -> LayoutSink? {
        guard let last = names.last else { return nil }
        let count = names.count
        func sink(_ kind: Kind, memberAt position: Int) -> LayoutSink {
            let member = names[position]
            let component = position + 1 < count ? names[count - 1] : nil
            let receiverEnd = source.kind(member - 1) == .period ? member - 1 : member
            return LayoutSink(kind: kind, member: member, component: component,
                              receiver: lhs.lowerBound..<max(lhs.lowerBound, receiverEnd))
        }
        // Member written whole.
        if source.isWord(last, "contentInset") { return sink(.contentInset, memberAt: count - 1) }
        if source.wordIndex(last, in: ["scrollIndicatorInsets", "verticalScrollIndicatorInsets"]) != nil {
            return sink(.scrollIndicatorInsets, memberAt: count - 1)
        }
        if source.isWord(last, "additionalSafeAreaInsets") { return sink(.additionalSafeAreaInsets, memberAt: count - 1) }
        if source.isWord(last, "constant") { return sink(.constraintConstant, memberAt: count - 1) }
        if source.isWord(last, "frame") { return sink(.frame, memberAt: count - 1) }
        if source.isWord(last, "center") { return sink(.center, memberAt: count - 1) }
        if source.isWord(last, "transform") { return sink(.transform, memberAt: count - 1) }
        if source.isWord(last, "contentOffset") { return sink(.contentOffset, memberAt: count - 1) }
        guard count >= 2 else { return nil }
        let parent = names[count - 2]
        if source.wordIndex(last, in: insetEdges) != nil {
            if source.isWord(parent, "contentInset") { return sink(.contentInset, memberAt: count - 2) }
            if source.wordIndex(parent, in: ["scrollIndicatorInsets", "verticalScrollIndicatorInsets"]) != nil {
                return sink(.scrollIndicatorInsets, memberAt: count - 2)
            }
            if source.isWord(parent, "additionalSafeAreaInsets") {
                return sink(.additionalSafeAreaInsets, memberAt: count - 2)
            }
        }
        if source.isWord(last, "y") || source.isWord(last, "x") {
            if source.isWord(parent, "center") { return sink(.center, memberAt: count - 2) }
            if source.isWord(parent, "contentOffset") { return sink(.contentOffset, memberAt: count - 2) }
            if source.isWord(parent, "origin"), count >= 3, source.isWord(names[count - 3], "frame") {
                return sink(.frame, memberAt: count - 3)
            }
        }
        if source.wordIndex(last, in: ["origin", "size", "height"]) != nil, source.isWord(parent, "frame") {
            return sink(.frame, memberAt: count - 2)
        }
        if source.isWord(last, "height"), source.isWord(parent, "size"), count >= 3,
           source.isWord(names[count - 3], "frame") {
            return sink(.frame, memberAt: count - 3)
        }
        return nil
    }
}
