import Lexer

/// An observer closure that holds `self` keeps `self` alive as long as the observer lives.
public struct ObserverCapturesSelfStrongly: Rule {
    public static let metadata = RuleMetadata(
        id: "observer_captures_self_strongly",
        category: .observers,
        defaultSeverity: .warning,
        summary: "A notification observer closure captures `self` strongly while the observer outlives it or is kept by `self`.",
        rationale: """
        NotificationCenter keeps a block observer's closure until its token is removed, and a stored token or \
        `AnyCancellable` keeps the closure as long as `self` keeps the token. A closure that uses `self` without \
        `[weak self]` then forms a retain cycle, or keeps a dismissed screen alive forever when the token is \
        dropped: `deinit` never runs, so removing the observer there never happens, and the handler keeps \
        running for a screen nobody sees. An outer closure without a capture list captures `self` strongly \
        even when a closure inside it says `[weak self]`.
        """,
        fix: "Capture `[weak self]` (or `[unowned self]` when the observer surely dies first) in the observer closure, or remove the observer outside `deinit` (e.g. in `viewWillDisappear`).",
        fixAvailability: .unsafe,
        triggering: [
            RuleExample("""
            final class ChatViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillShowNotification, object: nil, queue: .main) { note in
                        ↓self.handleKeyboard(note)
                    }
                }
            }
            """),
            RuleExample("""
            final class ComposerView: UIView {
                private var hideToken: NSObjectProtocol?
                func start() {
                    hideToken = NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillHideNotification, object: nil, queue: .main) { [↓self] _ in
                        bottomConstraint.constant = 0
                    }
                }
                deinit { if let hideToken { NotificationCenter.default.removeObserver(hideToken) } }
            }
            """),
            RuleExample("""
            final class ProfileViewController: UIViewController {
                private var token: NSObjectProtocol?
                override func viewDidLoad() {
                    super.viewDidLoad()
                    token = NotificationCenter.default.addObserver(forName: UIApplication.didBecomeActiveNotification, object: nil, queue: .main) { _ in
                        DispatchQueue.main.async { [weak ↓self] in self?.reload() }
                    }
                }
            }
            """),
            RuleExample("""
            final class SearchViewController: UIViewController {
                private var cancellables = Set<AnyCancellable>()
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.publisher(for: UIResponder.keyboardWillChangeFrameNotification)
                        .sink { note in ↓self.move(with: note) }
                        .store(in: &cancellables)
                    NotificationCenter.default.publisher(for: UIResponder.keyboardWillHideNotification)
                        .map { _ in CGFloat(0) }
                        .assign(to: \\.bottomInset, on: ↓self)
                        .store(in: &cancellables)
                }
            }
            """),
            RuleExample("""
            actor KeyboardTracker {
                var height: CGFloat = 0
                var observation: ObservationToken?
                func start(on screen: UIScreen) {
                    observation = NotificationCenter.default.addObserver(of: screen, for: .keyboardWillShow) { message in
                        Task { await ↓self.update(message.endFrame.height) }
                    }
                }
            }
            """),
        ],
        nonTriggering: [
            RuleExample("""
            final class ChatViewController: UIViewController {
                private var token: NSObjectProtocol?
                override func viewDidLoad() {
                    super.viewDidLoad()
                    token = NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillShowNotification, object: nil, queue: .main) { [weak self] note in
                        guard let self else { return }
                        self.handleKeyboard(note)
                    }
                }
                deinit { if let token { NotificationCenter.default.removeObserver(token) } }
            }
            """),
            RuleExample("""
            final class ToolbarView: UIView {
                private var token: NSObjectProtocol?
                func start() {
                    token = NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillHideNotification, object: nil, queue: .main) { [unowned self] _ in
                        self.bottomConstraint.constant = 0
                    }
                }
            }
            """),
            RuleExample("""
            enum KeyboardLog {
                static func start() {
                    _ = NotificationCenter.default.addObserver(forName: UIResponder.keyboardDidShowNotification, object: nil, queue: nil) { _ in
                        print(Self.self)
                    }
                }
            }
            final class Analytics {
                static var token: NSObjectProtocol?
                static func start() {
                    token = NotificationCenter.default.addObserver(forName: UIApplication.didBecomeActiveNotification, object: nil, queue: nil) { _ in
                        self.track()
                    }
                }
            }
            """),
            RuleExample("""
            struct KeyboardHeightReader {
                var token: NSObjectProtocol?
                mutating func start() {
                    token = NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillShowNotification, object: nil, queue: nil) { note in
                        print(self)
                    }
                }
            }
            protocol KeyboardObserving {}
            extension KeyboardObserving {
                func observe() -> NSObjectProtocol {
                    NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillShowNotification, object: nil, queue: nil) { _ in print(self) }
                }
            }
            """),
            RuleExample("""
            final class FormViewController: UIViewController {
                private var token: NSObjectProtocol?
                override func viewWillAppear(_ animated: Bool) {
                    super.viewWillAppear(animated)
                    token = NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillShowNotification, object: nil, queue: .main) { note in
                        self.adjust(for: note)
                    }
                }
                override func viewWillDisappear(_ animated: Bool) {
                    super.viewWillDisappear(animated)
                    if let token { NotificationCenter.default.removeObserver(token) }
                }
            }
            """),
            RuleExample("""
            final class KeyboardObserverTests: XCTestCase {
                var fired = false
                func testDelivery() {
                    let center = NotificationCenter()
                    let token = center.addObserver(forName: UIResponder.keyboardWillShowNotification, object: nil, queue: nil) { _ in
                        self.fired = true
                    }
                    center.removeObserver(token)
                }
            }
            """),
            RuleExample("""
            final class SearchViewController: UIViewController {
                private var cancellables = Set<AnyCancellable>()
                override func viewWillAppear(_ animated: Bool) {
                    super.viewWillAppear(animated)
                    NotificationCenter.default.publisher(for: UIResponder.keyboardWillHideNotification)
                        .sink { _ in self.reset() }
                        .store(in: &cancellables)
                }
                override func viewDidDisappear(_ animated: Bool) {
                    super.viewDidDisappear(animated)
                    cancellables.removeAll()
                }
            }
            """),
        ],
        corrections: [
            RuleCorrection("""
            final class ChatViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillShowNotification, object: nil, queue: .main) { note in
                        ↓self.handleKeyboard(note)
                    }
                }
            }
            """, """
            final class ChatViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillShowNotification, object: nil, queue: .main) { [weak self] note in
                        guard let self else { return }
                        self.handleKeyboard(note)
                    }
                }
            }
            """),
            RuleCorrection("""
            final class ComposerView: UIView {
                private var hideToken: NSObjectProtocol?
                func start() {
                    hideToken = NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillHideNotification, object: nil, queue: .main) { [↓self] _ in
                        // Back to the bottom edge.
                        bottomConstraint.constant = 0
                    }
                }
                deinit { if let hideToken { NotificationCenter.default.removeObserver(hideToken) } }
            }
            """, """
            final class ComposerView: UIView {
                private var hideToken: NSObjectProtocol?
                func start() {
                    hideToken = NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillHideNotification, object: nil, queue: .main) { [weak self] _ in
                        guard let self else { return }
                        // Back to the bottom edge.
                        bottomConstraint.constant = 0
                    }
                }
                deinit { if let hideToken { NotificationCenter.default.removeObserver(hideToken) } }
            }
            """),
            RuleCorrection("""
            final class SearchViewController: UIViewController {
                private var cancellables = Set<AnyCancellable>()
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.publisher(for: UIResponder.keyboardWillChangeFrameNotification)
                        .sink { note in ↓self.move(with: note) }
                        .store(in: &cancellables)
                }
            }
            """, """
            final class SearchViewController: UIViewController {
                private var cancellables = Set<AnyCancellable>()
                override func viewDidLoad() {
                    super.viewDidLoad()
                    NotificationCenter.default.publisher(for: UIResponder.keyboardWillChangeFrameNotification)
                        .sink { [weak self] note in guard let self else { return }; self.move(with: note) }
                        .store(in: &cancellables)
                }
            }
            """),
            RuleCorrection("""
            final class ProfileViewController: UIViewController {
                private var token: NSObjectProtocol?
                override func viewDidLoad() {
                    super.viewDidLoad()
                    token = NotificationCenter.default.addObserver(forName: UIApplication.didBecomeActiveNotification, object: nil, queue: .main) { [unowned view] _ in
                        DispatchQueue.main.async { [weak ↓self] in self?.reload(view) }
                    }
                }
            }
            """, """
            final class ProfileViewController: UIViewController {
                private var token: NSObjectProtocol?
                override func viewDidLoad() {
                    super.viewDidLoad()
                    token = NotificationCenter.default.addObserver(forName: UIApplication.didBecomeActiveNotification, object: nil, queue: .main) { [weak self, unowned view] _ in
                        guard let self else { return }
                        DispatchQueue.main.async { [weak self] in self?.reload(view) }
                    }
                }
            }
            """),
        ]
    )

    /// Block observers, or keyboard subscriptions: their `publisher(for:)` names a keyboard
    /// notification (`publisher` alone is in most Combine code).
    public static let requiredMarkers: [StaticString] = ["addObserver"] + KeyboardVocabulary.keyboardMarkers

    public init() {}

    public func check(_ context: RuleContext) -> [Diagnostic] {
        let analysis = context.analysis
        let source = analysis.source
        let selfReferences = Self.selfReferences(source)
        var diagnostics: [Diagnostic] = []
        for registration in analysis.observers.registered {
            guard registration.kind == .block || registration.kind == .typedMessage, !registration.onLocalCenter,
                  let closure = registration.closure, let typeName = classTypeName(analysis, registration.type),
                  !analysis.isInStaticContext(registration.callee),
                  let selfToken = Self.firstStrongSelf(analysis, closure: closure, selfReferences: selfReferences)
            else { continue }
            let facts = ([typeName] + analysis.project.superclasses(of: typeName))
                .map { analysis.project.observerFacts(of: $0) }
                .reduce(into: ObserverTypeFacts()) { $0.merge($1) }
            guard !facts.livesForTheApp else { continue }
            let holding: String
            switch registration.store {
            case .discarded, .storedInLocal:
                guard registration.kind == .block else { continue }
                holding = "its token is thrown away, so NotificationCenter keeps the closure, and \(typeName) with it, forever"
            case .storedInProperty(let property, _):
                let hash = source.nameHash(property)
                let released = facts.removedNamesOutsideDeinit.contains(hash)
                    || (registration.kind == .typedMessage && facts.cancelledNamesOutsideDeinit.contains(hash))
                guard !released else { continue }
                holding = "its token is kept in `\(source.text(at: property))` and not removed outside deinit, so \(typeName) and the observer keep each other alive"
            case .passedOn:
                continue
            }
            diagnostics.append(Self.metadata.diagnostic(
                analysis, at: analysis.tokenRange(selfToken),
                message: "The \(analysis.observedName(registration)) observer closure captures `self` strongly; \(holding)",
                suggestion: "Capture `[weak self]` in the observer closure, or remove the observer outside deinit (e.g. in viewWillDisappear).",
                fix: Self.weakCapture(analysis, closure: closure, strongSelf: selfToken),
                related: [analysis.relatedLocation(at: registration.callee, "observer registered here")]))
        }
        for subscription in analysis.observers.subscriptions {
            guard case .storedInProperty(let property, _) = subscription.result,
                  let typeName = classTypeName(analysis, subscription.type),
                  !analysis.isInStaticContext(subscription.subscriber) else { continue }
            let facts = analysis.project.observerFacts(of: typeName)
            guard !facts.livesForTheApp, !facts.cancelledNamesOutsideDeinit.contains(source.nameHash(property)) else {
                continue
            }
            let call = analysis.calls[subscription.call]
            var selfToken: Int?
            var fix: Fix?
            if source.isWord(subscription.subscriber, "assign"), let on = analysis.argument(call, "on"),
               on.value.count == 1, source.isWord(on.value.lowerBound, "self") {
                selfToken = on.value.lowerBound
            } else if let closure = call.arguments.compactMap(\.closure).last ?? call.trailingClosures.first?.closure {
                selfToken = Self.firstStrongSelf(analysis, closure: closure, selfReferences: selfReferences)
                fix = selfToken.flatMap { Self.weakCapture(analysis, closure: closure, strongSelf: $0) }
            }
            guard let selfToken else { continue }
            let subscriber = source.text(at: subscription.subscriber)
            diagnostics.append(Self.metadata.diagnostic(
                analysis, at: analysis.tokenRange(selfToken),
                message: "`.\(subscriber)` on a keyboard publisher holds `self` strongly and its cancellable is kept in `\(source.text(at: property))` and not cancelled outside deinit: \(typeName) and the subscription keep each other alive",
                suggestion: "Use `[weak self]` in the closure (or `sink` with a weak capture instead of `assign(to:on: self)`), or cancel the subscription when the screen goes away.",
                fix: fix,
                related: [analysis.relatedLocation(at: subscription.publisher, "keyboard publisher here")]))
        }
        return diagnostics
    }

    /// `[weak self]` in the closure's capture list and `guard let self else { return }` as the
    /// first statement, so the body reads as before while `self` lives. Unsafe: the closure
    /// no longer keeps `self` alive, so it does nothing once `self` is gone (which is the
    /// point, but also a change of when its work runs). Nil when the edit cannot be made
    /// without rewriting the closure: an entry that binds `self` to another name
    /// (`[s = self]`), attributes before the signature, or a body that uses `$0`.
    static func weakCapture(_ analysis: FileAnalysis, closure: ClosureID, strongSelf: Int) -> Fix? {
        let source = analysis.source
        let description = analysis.outline[closure]
        let scope = analysis.outline[description.scope]
        var edits: [Edit] = []
        if let list = description.captureList {
            if list.contains(strongSelf) {
                guard source.kind(strongSelf - 1) == .leftSquare || source.kind(strongSelf - 1) == .comma else { return nil }
                edits.append(Edit(range: source.byteRange(strongSelf..<(strongSelf + 1)), replacement: "weak self"))
            } else {
                edits.append(Edit(range: source.byteRange(list.lowerBound..<(list.lowerBound + 1)), replacement: "[weak self, "))
            }
        } else {
            guard source.kind(scope.open + 1) != .atSign else { return nil }
            let opening = source.byteRange(scope.open..<(scope.open + 1))
            if description.inToken == nil {
                // `{ [weak self] in` would declare no parameter where the observer passes
                // one, and forbids the `$0` a body without a signature may use.
                let usesAnonymousParameter = (scope.open + 1..<scope.close).contains {
                    source.kind($0) == .identifier && source.text(at: $0).hasPrefix("$")
                }
                guard !usesAnonymousParameter else { return nil }
                edits.append(Edit(range: opening.upperBound..<opening.upperBound, replacement: " [weak self] _ in"))
            } else {
                edits.append(Edit(range: opening.upperBound..<opening.upperBound, replacement: " [weak self]"))
            }
        }
        let bodyStart = (description.inToken ?? description.captureList.map { $0.upperBound - 1 } ?? scope.open) + 1
        guard bodyStart < scope.close else { return nil }
        let guardStatement = "guard let self else { return }"
        let signatureEnd = Int(source.code[bodyStart - 1].end), statementStart = Int(source.code[bodyStart].start)
        let bytes = source.file.bytes
        var lineEnd = signatureEnd
        while lineEnd < statementStart, bytes[lineEnd] != 0x0A, bytes[lineEnd] != 0x0D { lineEnd += 1 }
        if lineEnd == statementStart || source.file.text(signatureEnd..<lineEnd).contains("/*") {
            // `{self.x()}`: the signature goes in at the same place, as one edit.
            if let signature = edits.last, signature.range == statementStart..<statementStart {
                edits[edits.count - 1] = Edit(range: signature.range, replacement: signature.replacement + " " + guardStatement + "; ")
            } else {
                edits.append(Edit(range: statementStart..<statementStart, replacement: guardStatement + "; "))
            }
        } else {
            // A line of its own right below the signature, above any comment that opens the body.
            let nextLine = bytes[lineEnd] == 0x0D && lineEnd + 1 < bytes.count && bytes[lineEnd + 1] == 0x0A ? lineEnd + 2 : lineEnd + 1
            edits.append(Edit(range: nextLine..<nextLine,
                              replacement: analysis.indentation(ofLineAt: bodyStart) + guardStatement + "\n"))
        }
        return Fix(.unsafe, edits: edits)
    }

    /// The simple name of `type` when its instances are objects: a class or actor, or an
    /// extension of a project class or of a UIKit/AppKit class.
    func classTypeName(_ analysis: FileAnalysis, _ type: TypeID?) -> String? {
        guard let type else { return nil }
        let declaration = analysis.outline[type]
        switch declaration.kind {
        case .class, .actor:
            return declaration.qualifiedName
        case .extension:
            if let facts = analysis.project.types.declaration(of: declaration.qualifiedName), facts.isDeclared {
                return facts.isClass ? declaration.qualifiedName : nil
            }
            let name = declaration.qualifiedName
            return name.hasPrefix("UI") || name.hasPrefix("NS") ? name : nil
        case .struct, .enum, .protocol:
            return nil
        }
    }

    /// The file's `self` keywords that are not members (`x.self`), in token order.
    static func selfReferences(_ source: TokenizedSource) -> [Int] {
        source.code.indices.filter {
            source.kind($0) == .keyword && source.isWord($0, "self") && source.kind($0 - 1) != .period
        }
    }

    /// The first `self` the closure captures strongly: an entry of its capture list without
    /// `weak`/`unowned`, or the first `self` in its body (a nested closure's `[weak self]`
    /// included), found in `selfReferences` rather than by reading the body, which was
    /// quadratic for closures nested in closures. Nil when its own capture list holds `self`
    /// weakly.
    static func firstStrongSelf(_ analysis: FileAnalysis, closure: ClosureID, selfReferences: [Int]) -> Int? {
        let source = analysis.source
        let description = analysis.outline[closure]
        let scope = analysis.outline[description.scope]
        if let list = description.captureList {
            var isWeak = false
            for index in list where source.isWord(index, "self") && source.kind(index - 1) != .period {
                // The entry that holds this `self`: back to the previous comma or `[`.
                var cursor = index - 1
                isWeak = false
                while cursor > list.lowerBound, source.kind(cursor) != .comma {
                    if source.isWord(cursor, "weak") || source.isWord(cursor, "unowned") { isWeak = true }
                    cursor -= 1
                }
                if isWeak { return nil }
                return index
            }
        }
        let start = description.captureList?.upperBound ?? scope.open + 1
        let first = firstIndex(in: selfReferences, atOrAfter: start) { $0 }
        return first < selfReferences.count && selfReferences[first] < scope.close ? selfReferences[first] : nil
    }
}
