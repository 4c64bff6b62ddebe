import Lexer

/// A display link retains its target until it is invalidated, so invalidating it in the
/// target's `deinit` never happens.
public struct DisplayLinkStrongTarget: Rule {
    public static let metadata = RuleMetadata(
        id: "display_link_strong_target",
        category: .relatedPitfalls,
        defaultSeverity: .warning,
        summary: "`CADisplayLink(target: self, …)` is invalidated only in `deinit`, or never.",
        rationale: """
        A `CADisplayLink` retains its target, and the run loop retains the link until it is invalidated. \
        With `self` as the target, `deinit` cannot run while the link lives, so an `invalidate()` there is \
        dead code: the view or controller leaks, and its per-frame callback keeps running (and tracking \
        the keyboard or the accessory) after it left the screen, costing a frame's work 60 to 120 times a \
        second.
        """,
        fix: "Invalidate the link on a stop path (`viewWillDisappear`, `willMove(toWindow:)` with nil, `removeFromSuperview`, a stop method), or target a weak proxy object that forwards to `self`.",
        noFixReason: "Invalidating the link on a stop path changes when the callback stops, and the right path (`viewWillDisappear`, `willMove(toWindow:)`, a stop method) or a weak proxy type depends on the object's lifecycle.",
        triggering: [
            RuleExample("""
            final class ScreenRecorder: NSObject {
                private var displayLink: CADisplayLink?
                func start() {
                    displayLink = ↓CADisplayLink(target: self, selector: #selector(capture))
                    displayLink?.add(to: .main, forMode: .common)
                }
                func stop() {
                    displayLink?.remove(from: .main, forMode: .common)
                }
                @objc private func capture() {}
            }
            """),
            RuleExample("""
            final class KeyboardTrackingView: UIView {
                private var displayLink: CADisplayLink?
                func startTracking() {
                    displayLink = ↓CADisplayLink(target: self, selector: #selector(step))
                    displayLink?.add(to: .main, forMode: .common)
                }
                @objc private func step() { setNeedsLayout() }
                deinit {
                    displayLink?.invalidate()
                }
            }
            """),
            RuleExample("""
            final class TypingIndicatorView: UIView {
                private var link: CADisplayLink!
                override init(frame: CGRect) {
                    super.init(frame: frame)
                    link = ↓CADisplayLink(target: self, selector: #selector(animateDots(_:)))
                    link.add(to: .main, forMode: .default)
                }
                required init?(coder: NSCoder) { fatalError() }
                @objc private func animateDots(_ link: CADisplayLink) { setNeedsDisplay() }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                private var dismissLink: CADisplayLink?
                func interactiveDismissBegan() {
                    dismissLink?.invalidate()
                    dismissLink = ↓CADisplayLink(target: self, selector: #selector(followKeyboard))
                    dismissLink?.add(to: .main, forMode: .common)
                }
                @objc private func followKeyboard() { view.setNeedsLayout() }
            }
            """),
            RuleExample("""
            final class CounterLabel: UILabel {
                func run() {
                    let link = ↓CADisplayLink(target: self, selector: #selector(tick))
                    link.add(to: .main, forMode: .common)
                }
                @objc private func tick() { text = "\\(Date())" }
            }
            """),
            RuleExample("""
            final class WaveformView: UIView {
                private var refresh: CADisplayLink?
                override func didMoveToWindow() {
                    super.didMoveToWindow()
                    refresh = ↓CADisplayLink(target: self, selector: #selector(redraw))
                    refresh?.add(to: .main, forMode: .common)
                }
                @objc private func redraw() { setNeedsDisplay() }
                private func stopRefreshing() { refresh?.invalidate() }
                deinit { stopRefreshing() }
            }
            """),
        ],
        nonTriggering: [
            RuleExample("""
            final class CountdownView: UIView {
                private var link: CADisplayLink? {
                    didSet { oldValue?.invalidate() }
                }
                func start() {
                    link = CADisplayLink(target: self, selector: #selector(tick))
                    link?.add(to: .main, forMode: .common)
                }
                func stop() { link = nil }
                @objc private func tick() {}
            }
            """),
            RuleExample("""
            final class KeyboardTrackingView: UIView {
                private var displayLink: CADisplayLink?
                func startTracking() {
                    let proxy = WeakDisplayLinkTarget(self)
                    displayLink = CADisplayLink(target: proxy, selector: #selector(WeakDisplayLinkTarget.step))
                    displayLink?.add(to: .main, forMode: .common)
                }
                deinit { displayLink?.invalidate() }
            }
            """),
            RuleExample("""
            final class KeyboardTrackingView: UIView {
                private var displayLink: CADisplayLink?
                func startTracking() {
                    displayLink = CADisplayLink(target: self, selector: #selector(step))
                    displayLink?.add(to: .main, forMode: .common)
                }
                func stopTracking() {
                    displayLink?.invalidate()
                    displayLink = nil
                }
                @objc private func step() { setNeedsLayout() }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                private var dismissLink: CADisplayLink?
                override func viewDidAppear(_ animated: Bool) {
                    super.viewDidAppear(animated)
                    dismissLink = CADisplayLink(target: self, selector: #selector(followKeyboard))
                    dismissLink?.add(to: .main, forMode: .common)
                }
                override func viewWillDisappear(_ animated: Bool) {
                    super.viewWillDisappear(animated)
                    self.dismissLink?.invalidate()
                }
                @objc private func followKeyboard() { view.setNeedsLayout() }
            }
            """),
            RuleExample("""
            final class WaveformView: UIView {
                private var refresh: CADisplayLink?
                override func willMove(toWindow newWindow: UIWindow?) {
                    super.willMove(toWindow: newWindow)
                    if newWindow == nil {
                        refresh?.invalidate()
                    } else {
                        refresh = CADisplayLink(target: self, selector: #selector(redraw))
                        refresh?.add(to: .main, forMode: .common)
                    }
                }
                @objc private func redraw() { setNeedsDisplay() }
            }
            """),
            RuleExample("""
            final class CounterLabel: UILabel {
                private var remaining = 60
                func run() {
                    let link = CADisplayLink(target: self, selector: #selector(tick(_:)))
                    link.add(to: .main, forMode: .common)
                }
                @objc private func tick(_ sender: CADisplayLink) {
                    remaining -= 1
                    if remaining == 0 { sender.invalidate() }
                }
            }
            """),
            RuleExample("""
            final class SparkleView: UIView {
                private var link: CADisplayLink?
                func start() {
                    link = CADisplayLink(target: self, selector: #selector(step))
                    link?.add(to: .main, forMode: .common)
                }
                override func removeFromSuperview() {
                    guard let current = link else { return super.removeFromSuperview() }
                    current.invalidate()
                    super.removeFromSuperview()
                }
                @objc private func step() {}
            }
            """),
            RuleExample("""
            final class DisplayLinkDriver {
                private var link: CADisplayLink?
                private let onFrame: () -> Void
                init(onFrame: @escaping () -> Void) {
                    self.onFrame = onFrame
                }
                func start() {
                    link = CADisplayLink(target: WeakProxy(target: self), selector: #selector(WeakProxy.tick))
                }
            }
            """),
        ]
    )

    public static var requiredMarkers: [StaticString] { ["CADisplayLink"] }

    public init() {}

    /// Whether the file pauses the link held in `property` (`isPaused = true`) or removes it
    /// from its run loop (`remove(from:forMode:)`): the callback stops, the retain stays.
    static func isStoppedWithoutInvalidation(_ property: PropertyID, _ analysis: FileAnalysis) -> Bool {
        let source = analysis.source
        let name = analysis.outline[property].nameHash
        let removed = analysis.calls.contains { call in
            guard source.isWord(call.callee, "remove"), analysis.argument(call, "from") != nil,
                  let receiver = call.receiver else { return false }
            return analysis.chainNames(receiver).last.map { source.nameHash($0) == name } ?? false
        }
        return removed || analysis.assignments.contains { assignment in
            let names = analysis.chainNames(assignment.lhs)
            return names.count >= 2 && source.isWord(names[names.count - 1], "isPaused")
                && source.nameHash(names[names.count - 2]) == name
                && assignment.rhs.count == 1 && source.isWord(assignment.rhs.lowerBound, "true")
        }
    }

    public func check(_ context: RuleContext) -> [Diagnostic] {
        let analysis = context.analysis
        let source = analysis.source
        var diagnostics: [Diagnostic] = []
        let invalidated = invalidatedProperties(analysis)
        for call in analysis.calls {
            guard let typeToken = analysis.constructedTypeToken(call), source.isWord(typeToken, "CADisplayLink"),
                  let target = analysis.argument(call, "target"), target.value.count == 1,
                  source.isWord(target.value.lowerBound, "self"),
                  let typeName = analysis.typeName(at: call.callee) else { continue }
            let creator = analysis.outline.executableScope(at: call.callee)
            let holder = keptHolder(of: call, analysis)
            var deinitInvalidation: Int?
            var invalidatedElsewhere = false
            var invalidatedBeforeRecreation = false
            switch holder {
            case .property(let property):
                for invalidation in invalidated where invalidation.property == property {
                    let invalidation = invalidation.callee
                    guard analysis.typeName(at: invalidation) == typeName else { continue }
                    let scope = analysis.outline.executableScope(at: invalidation)
                    if isDeinitPath(invalidation, analysis) {
                        deinitInvalidation = deinitInvalidation ?? invalidation
                    } else if scope == creator, invalidation < call.callee,
                              let creationBlock = analysis.outline.scope(at: call.callee),
                              let invalidationBlock = analysis.outline.scope(at: invalidation),
                              analysis.outline.scope(creationBlock, isWithin: invalidationBlock) {
                        // Invalidating the previous link on the way to creating the next one.
                        invalidatedBeforeRecreation = true
                    } else {
                        invalidatedElsewhere = true
                    }
                }
                if Self.observerInvalidatesOldValue(property, analysis), isReplacedOutsideDeinit(property, analysis) {
                    invalidatedElsewhere = true
                }
            case .local(let binding):
                invalidatedElsewhere = selectorInvalidatesItsLink(call, analysis)
                    || isHandedOn(binding, analysis)
            case .unknown:
                invalidatedElsewhere = true
            }
            if invalidatedElsewhere { continue }
            let link: String
            switch holder {
            case .property(let property): link = "`\(analysis.outline[property].name)`"
            case .local(let binding): link = "`\(source.text(at: analysis.bindings[binding].nameToken))`"
            case .unknown: link = "the link"
            }
            let message: String
            if deinitInvalidation != nil {
                message = "`CADisplayLink(target: self, …)` retains `\(typeName)` and \(link) is invalidated only in `deinit`, which cannot run while the link is alive"
            } else if invalidatedBeforeRecreation {
                message = "`CADisplayLink(target: self, …)` retains `\(typeName)` and \(link) is invalidated only before the next link replaces it, so the last one keeps `\(typeName)` alive and runs forever"
            } else if case .property(let property) = holder, Self.isStoppedWithoutInvalidation(property, analysis) {
                message = "`CADisplayLink(target: self, …)` retains `\(typeName)` and \(link) is never invalidated: pausing it or removing it from its run loop stops the callback but keeps `\(typeName)` alive"
            } else {
                message = "`CADisplayLink(target: self, …)` retains `\(typeName)` and \(link) is never invalidated, so `\(typeName)` never deallocates and the callback runs forever"
            }
            var diagnostic = Self.metadata.diagnostic(
                analysis, at: analysis.tokenRange(call.callee), message: message,
                suggestion: "Invalidate \(link) when `\(typeName)` stops (disappear, `willMove(toWindow: nil)`, a stop method) or target a weak proxy.")
            if let deinitInvalidation {
                diagnostic = diagnostic.relating([RelatedLocation(
                    range: source.byteRange(analysis.tokenRange(deinitInvalidation)),
                    message: "the only invalidation, reached from deinit")])
            }
            diagnostics.append(diagnostic)
        }
        return diagnostics
    }

    enum Holder {
        case property(PropertyID)
        /// Index in `bindings`.
        case local(Int)
        case unknown
    }

    /// Where the new link is kept: the property it is assigned to (directly or through a
    /// local), or the local it stays in.
    func keptHolder(of call: CallSite, _ analysis: FileAnalysis) -> Holder {
        let span = call.start..<(call.end + 1)
        /// Whether `range` is the call, give or take parentheses, `!`, `as` and `self.`.
        func isCall(_ range: Range<Int>?) -> Bool {
            guard let range, range.lowerBound <= span.lowerBound, range.upperBound >= span.upperBound else { return false }
            return analysis.strippedExpression(range) == span
        }
        for assignment in analysis.assignments where isCall(assignment.rhs) {
            return propertyHolder(assignment, analysis) ?? .unknown
        }
        for (id, property) in zip(analysis.outline.propertyIDs, analysis.outline.properties) where isCall(property.initializer) {
            return .property(id)
        }
        guard let binding = analysis.bindings.firstIndex(where: { isCall($0.value) }) else { return .unknown }
        let nameToken = analysis.bindings[binding].nameToken
        let hash = analysis.bindings[binding].nameHash
        for assignment in analysis.assignments where analysis.source.nameHash(assignment.rhs.upperBound - 1) == hash {
            guard let name = analysis.singleName(analysis.strippedExpression(assignment.rhs)),
                  let found = analysis.binding(referencedBy: name), found.nameToken == nameToken else { continue }
            return propertyHolder(assignment, analysis) ?? .unknown
        }
        return .local(binding)
    }

    func propertyHolder(_ assignment: Assignment, _ analysis: FileAnalysis) -> Holder? {
        let names = analysis.namesWithoutSelf(assignment.lhs)
        guard names.count == 1, analysis.binding(referencedBy: names[0]) == nil,
              let property = analysis.property(named: names[0]) else { return nil }
        return .property(property)
    }

    /// `invalidate` calls on properties (`link?.invalidate()`, `self.link.invalidate()`, or on a
    /// local bound to the property), computed once per file.
    /// Every `invalidate()` of the file whose receiver is a property, with that property.
    func invalidatedProperties(_ analysis: FileAnalysis) -> [(callee: Int, property: PropertyID)] {
        var found: [(callee: Int, property: PropertyID)] = []
        for call in analysis.calls where analysis.source.isWord(call.callee, "invalidate") {
            guard let receiver = call.receiver else { continue }
            let names = analysis.namesWithoutSelf(receiver)
            guard names.count == 1 else { continue }
            if let binding = analysis.binding(referencedBy: names[0]) {
                guard let value = binding.value else { continue }
                let aliased = analysis.namesWithoutSelf(analysis.strippedExpression(value))
                if aliased.count == 1, let property = analysis.property(named: aliased[0]) {
                    found.append((call.callee, property))
                }
            } else if let property = analysis.property(named: names[0]) {
                found.append((call.callee, property))
            }
        }
        return found
    }

    /// Whether the code at `index` runs only because `deinit` runs: it is in `deinit`, or in a
    /// private method whose every call in the file is in `deinit`.
    func isDeinitPath(_ index: Int, _ analysis: FileAnalysis) -> Bool {
        func enclosingFunction(_ index: Int) -> FunctionID? {
            let outline = analysis.outline
            return outline.enclosingExecutableScopes(from: outline.scope(at: index)).lazy.compactMap(outline.function(ofScope:)).first
        }
        guard let function = enclosingFunction(index) else { return false }
        let declaration = analysis.outline[function]
        if declaration.kind == .deinitializer { return true }
        guard declaration.hasModifier("private") || declaration.hasModifier("fileprivate") else { return false }
        let callers = analysis.calls.filter {
            $0.callee != declaration.nameToken && analysis.source.nameHash($0.callee) == declaration.nameHash
        }
        return !callers.isEmpty && callers.allSatisfy { caller in
            enclosingFunction(caller.callee).map { analysis.outline[$0].kind == .deinitializer } ?? false
        }
    }

    /// Whether the selector's method invalidates the link it receives (`sender.invalidate()`).
    func selectorInvalidatesItsLink(_ call: CallSite, _ analysis: FileAnalysis) -> Bool {
        let source = analysis.source
        guard let selector = analysis.argument(call, "selector"),
              let name = selector.value.first(where: { source.kind($0) == .identifier && !source.isWord($0, "selector") })
        else { return false }
        var method = name
        while source.kind(method + 1) == .period, source.kind(method + 2) == .identifier { method += 2 }
        for function in analysis.outline.functions(named: source.nameHash(method)) {
            guard let scope = analysis.outline[function].scope,
                  let parameter = analysis.outline[function].parameters.first else { continue }
            for inner in analysis.calls(in: analysis.outline[scope].body) where source.isWord(inner.callee, "invalidate") {
                if let receiver = inner.receiver, receiver.count == 1,
                   source.nameHash(receiver.lowerBound) == source.nameHash(parameter.nameToken) {
                    return true
                }
            }
        }
        return false
    }

    /// Whether a local link leaves its function (returned, passed as an argument other than
    /// to its own methods, appended to a collection): someone else may invalidate it.
    func isHandedOn(_ binding: Int, _ analysis: FileAnalysis) -> Bool {
        let nameToken = analysis.bindings[binding].nameToken
        guard let scope = analysis.outline.executableScope(at: nameToken) else { return false }
        let hash = analysis.bindings[binding].nameHash
        for index in analysis.outline[scope].body
        where index > nameToken && analysis.source.kind(index) == .identifier && analysis.source.nameHash(index) == hash {
            guard let found = analysis.binding(referencedBy: index), found.nameToken == nameToken else { continue }
            // `link.add(to:forMode:)`, `link.preferredFramesPerSecond = …`: its own members.
            if analysis.source.kind(index + 1) == .period { continue }
            return true
        }
        return false
    }

    /// Whether the property's `didSet`/`willSet` invalidates the link it replaces
    /// (`didSet { oldValue?.invalidate() }`, `willSet { link?.invalidate() }`).
    static func observerInvalidatesOldValue(_ property: PropertyID, _ analysis: FileAnalysis) -> Bool {
        guard let body = analysis.outline[property].bodyScope else { return false }
        let source = analysis.source
        let hash = analysis.outline[property].nameHash
        return analysis.calls(in: analysis.outline[body].body).contains { call in
            guard source.isWord(call.callee, "invalidate"), let receiver = call.receiver else { return false }
            return receiver.contains { source.isWord($0, "oldValue") || source.nameHash($0) == hash }
        }
    }

    /// Whether the property is assigned (`link = nil`, a new link) outside the deinit path: with
    /// an observer that invalidates the old link, that assignment ends the cycle.
    func isReplacedOutsideDeinit(_ property: PropertyID, _ analysis: FileAnalysis) -> Bool {
        let hash = analysis.outline[property].nameHash
        return analysis.assignments.contains { assignment in
            guard !assignment.isCompound, let last = analysis.chainNames(assignment.lhs).last,
                  analysis.source.nameHash(last) == hash,
                  analysis.source.isWord(assignment.rhs.lowerBound, "nil") else { return false }
            return !isDeinitPath(assignment.op, analysis)
        }
    }
}
