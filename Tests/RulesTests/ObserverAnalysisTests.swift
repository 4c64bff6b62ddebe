import XCTest
import Lexer
@testable import Rules

final class ObserverAnalysisTests: XCTestCase {
    func testRegistrationKindsKeysAndTokenStores() {
        let analysis = analyze("""
        final class ChatViewController: UIViewController {
            var token: NSObjectProtocol?
            var tokens: [NSObjectProtocol] = []
            var bag = Set<AnyCancellable>()
            override func viewDidLoad() {
                super.viewDidLoad()
                NotificationCenter.default.addObserver(self, selector: #selector(show(_:)), name: UIResponder.keyboardWillShowNotification, object: nil)
                token = NotificationCenter.default.addObserver(forName: UIApplication.didBecomeActiveNotification, object: nil, queue: .main) { _ in }
                tokens.append(NotificationCenter.default.addObserver(forName: .NSCalendarDayChanged, object: nil, queue: nil) { _ in })
                NotificationCenter.default.addObserver(forName: UIResponder.keyboardDidHideNotification, object: nil, queue: nil) { _ in }
                _ = NotificationCenter.default.addObserver(of: screen, for: .keyboardWillHide) { _ in }
                let local = NotificationCenter.default.addObserver(forName: .a, object: nil, queue: nil) { _ in }
                NotificationCenter.default.publisher(for: UIResponder.keyboardWillChangeFrameNotification).sink { _ in }.store(in: &bag)
                NotificationCenter.default.publisher(for: UIResponder.keyboardWillHideNotification).sink { _ in }
                addObserver(self, forKeyPath: "frame", options: [], context: nil)
            }
            @objc func show(_ n: Notification) {}
        }
        """)
        let registrations = analysis.observers.registered
        XCTAssertEqual(registrations.map(\.kind), [.selector, .block, .block, .block, .typedMessage, .block, .publisher, .publisher])
        XCTAssertEqual(registrations[0].events, [.willShow])
        XCTAssertEqual(registrations[3].events, [.didHide])
        XCTAssertEqual(registrations[4].events, [.willHide])
        XCTAssertEqual(registrations[1].keys, [.named(NameHash.of("didBecomeActiveNotification"))])
        XCTAssertEqual(registrations.map { analysis.describe($0.store) },
                       ["passed", "property token", "property tokens", "discarded", "discarded", "local local", "passed", "passed"])
        XCTAssertEqual(analysis.observers.subscriptions.map { analysis.describe($0.result) }, ["property bag", "discarded"])
        XCTAssertTrue(registrations.allSatisfy { analysis.source.text(at: $0.method.map { analysis.outline[$0].nameToken } ?? 0) == "viewDidLoad" })
        XCTAssertEqual(analysis.handlers(of: registrations[0]).count, 1)
    }

    func testRemovalsLoopNamesAndNamesTakingPart() {
        let analysis = analyze("""
        final class FormViewController: UIViewController {
            var showToken: NSObjectProtocol?
            var others: [NSObjectProtocol] = []
            func stop() {
                [UIResponder.keyboardWillShowNotification, UIResponder.keyboardWillHideNotification].forEach {
                    NotificationCenter.default.removeObserver(self, name: $0, object: nil)
                }
                for name in [UIApplication.didBecomeActiveNotification] {
                    NotificationCenter.default.removeObserver(self, name: name, object: nil)
                }
                if let token = showToken { NotificationCenter.default.removeObserver(token) }
                others.forEach(NotificationCenter.default.removeObserver)
                NotificationCenter.default.removeObserver(self)
                removeObserver(self, forKeyPath: "frame")
            }
        }
        """)
        let removals = analysis.observers.removals
        XCTAssertEqual(removals.count, 5)
        XCTAssertEqual(removals[0].keys, [.keyboard(.willShow), .keyboard(.willHide)])
        XCTAssertEqual(removals[1].keys, [], "other names through a loop variable are not resolved")
        XCTAssertTrue(removals[0].removesSelf)
        XCTAssertFalse(removals[2].removesSelf)
        XCTAssertTrue(removals[3].removesSelf)
        XCTAssertNil(removals[3].keys, "no name: every name")
        XCTAssertNil(removals[4].call, "a reference, not a call")
        let removed = analysis.observers.removedNames["FormViewController"] ?? []
        XCTAssertTrue(removed.contains(NameHash.of("showToken")))
        XCTAssertTrue(removed.contains(NameHash.of("others")))
    }

    func testLifecyclePhasesFollowHelpers() {
        let analysis = analyze("""
        final class ProfileViewController: UIViewController {
            override func viewWillAppear(_ animated: Bool) {
                super.viewWillAppear(animated)
                startObserving()
            }
            override func viewDidDisappear(_ animated: Bool) { self.stopObserving() }
            private func startObserving() { register() }
            private func register() {}
            private func stopObserving() {}
            private func unused() {}
            init() { super.init(nibName: nil, bundle: nil) }
            deinit {}
        }
        """)
        func phases(_ name: String) -> Set<LifecyclePhase> {
            let function = analysis.outline.functionIDs.first { analysis.outline[$0].name == name }
            return analysis.observers.phases(ofMethod: function)
        }
        XCTAssertEqual(phases("startObserving"), [.willAppear])
        XCTAssertEqual(phases("register"), [.willAppear])
        XCTAssertEqual(phases("stopObserving"), [.didDisappear])
        XCTAssertEqual(phases("unused"), [])
        XCTAssertEqual(phases("init"), [.setup])
        XCTAssertEqual(phases("deinit"), [.teardown])
    }

    /// A phase is carried through `Limits.lifecycleHelperLevels` levels of helpers, however
    /// the methods are ordered, in every analysis of the same code.
    func testLifecyclePhasesGoAsManyLevelsWhateverTheOrder() {
        let helpers = ["first", "second", "third", "fourth", "fifth"]
        for order in [helpers, helpers.reversed(), ["third", "first", "fifth", "second", "fourth"]] {
            var methods = ""
            for name in order {
                let next = helpers.firstIndex(of: name).map { $0 + 1 < helpers.count ? helpers[$0 + 1] + "()" : "" } ?? ""
                methods += "    private func \(name)() { \(next) }\n"
            }
            let code = "final class ChatViewController: UIViewController {\n"
                + "    override func viewDidLoad() { super.viewDidLoad(); first() }\n" + methods + "}\n"
            for _ in 0..<8 {
                let analysis = analyze(code)
                let reached = helpers.filter { name in
                    let function = analysis.outline.functionIDs.first { analysis.outline[$0].name == name }
                    return !analysis.observers.phases(ofMethod: function).isEmpty
                }
                XCTAssertEqual(reached, Array(helpers.prefix(Limits.lifecycleHelperLevels)), code)
            }
        }
    }

    /// Files with no lifecycle method and no observing type skip the calls between methods:
    /// their phases, with or without seeds from other files, and the lifecycle calls they
    /// report must be those the whole graph gives.
    func testLifecycleGraphWithoutCallsAnswersLikeTheWholeGraph() {
        let sources = [
            "struct Plain { func draw() { layout(); helper() } func layout() { helper() } }",
            "extension Screen { func refresh() { reload() } func reload() { fetch() } }",
            """
            final class Store {
                var cancellable: AnyCancellable?
                func stop() { tearDown() }
                func tearDown() { cancellable?.cancel() }
            }
            """,
            """
            extension ChatViewController {
                func start() { watch() }
                func watch() { NotificationCenter.default.addObserver(self, selector: #selector(tap), name: .b, object: nil) }
            }
            """,
            """
            final class ProfileViewController: UIViewController {
                override func viewWillAppear(_ animated: Bool) { startObserving(); elsewhere() }
                private func startObserving() { register() }
                private func register() {}
            }
            """,
            "func free() { helper() }",
        ]
        for text in sources {
            let fileIndex = FileIndex(Lexer.tokenize(SourceFile(path: "A.swift", text: text)))
            let builder = ObserverAnalysisBuilder(fileIndex)
            let built = builder.build()
            let whole = builder.lifecycleGraph(LifecycleGraph(ownPhasesIn: fileIndex.outline))
            XCTAssertEqual(built.lifecycle.phases, whole.phases, text)
            XCTAssertEqual(built.lifecycle.phasesOfCallsLeavingFile, whole.phasesOfCallsLeavingFile, text)
            // Other files seed only the methods of observing types; the first method's phase
            // reaches its helpers only along the calls.
            guard !built.cancelledNames.isEmpty || !built.registered.isEmpty,
                  let first = fileIndex.outline.functionIDs.first else { continue }
            XCTAssertEqual(built.lifecycle.propagated(seeds: [first: [.didAppear]]),
                           whole.propagated(seeds: [first: [.didAppear]]), text)
        }
    }

    /// The calls leaving the file are kept only from methods with a phase: the phases they
    /// carry are those of every unresolved call on `self` from such a method, and no call from
    /// a method without one shows.
    func testCallsLeavingFileCarryTheirCallersPhases() {
        let text = """
        final class ChatViewController: UIViewController {
            override func viewDidLoad() { setUpKeyboard(); start() }
            private func start() { more(); self.evenMore() }
            @objc func tap() { other(); start() }
            func unrelated() { notCarried() }
        }
        extension ChatViewController {
            override func viewWillAppear(_ animated: Bool) { appearing() }
        }
        """
        let fileIndex = FileIndex(Lexer.tokenize(SourceFile(path: "A.swift", text: text)))
        let lifecycle = ObserverAnalysisBuilder(fileIndex).build().lifecycle
        let outline = fileIndex.outline
        func phases(of name: String) -> Set<LifecyclePhase> {
            let id = outline.functionIDs.first { outline[$0].name == name }!
            return lifecycle.phases[id] ?? []
        }
        XCTAssertFalse(phases(of: "viewDidLoad").isEmpty)
        XCTAssertEqual(phases(of: "start"), phases(of: "viewDidLoad"))
        XCTAssertTrue(phases(of: "tap").isEmpty)
        let expected: [UInt64: Set<LifecyclePhase>] = [
            NameHash.of("setUpKeyboard"): phases(of: "viewDidLoad"), NameHash.of("more"): phases(of: "start"),
            NameHash.of("evenMore"): phases(of: "start"), NameHash.of("appearing"): phases(of: "viewWillAppear"),
        ]
        XCTAssertEqual(lifecycle.phasesOfCallsLeavingFile, ["ChatViewController": expected])
        XCTAssertEqual(lifecycle.callsLeavingFile.count, 4)
    }

    func testLocalCentersAndCrossFileFacts() {
        let base = analyze("""
        class BaseViewController: UIViewController {
            override func viewDidLoad() {
                super.viewDidLoad()
                NotificationCenter.default.addObserver(self, selector: #selector(refresh), name: .didRefresh, object: nil)
            }
        }
        extension BaseViewController {
            func stop() { if let t = token { NotificationCenter.default.removeObserver(t) } }
            func watch() { NotificationCenter.default.addObserver(self, selector: #selector(hide), name: UIResponder.keyboardWillHideNotification, object: nil) }
        }
        """, path: "Base.swift")
        let project = ProjectFacts(merging: [base.facts])
        let facts = project.observerFacts(of: "BaseViewController")
        XCTAssertEqual(facts.setupRegistrations.count, 1)
        XCTAssertEqual(facts.setupRegistrations.first?.location.path, "Base.swift")
        XCTAssertTrue(facts.removesTokens)
        XCTAssertTrue(facts.removedNames.contains(NameHash.of("token")))
        XCTAssertEqual(facts.keyboardEventsMentioned, [.willHide])
        XCTAssertTrue(facts.selectorKeys.contains(.keyboard(.willHide)))

        let test = analyze("""
        func testIt() {
            let center = NotificationCenter()
            center.addObserver(forName: .a, object: nil, queue: nil) { _ in }
            NotificationCenter.default.addObserver(forName: .a, object: nil, queue: nil) { _ in }
        }
        """)
        XCTAssertEqual(test.observers.registered.map(\.onLocalCenter), [true, false])
    }

    /// The driver analyses the files holding the types a file's analysis looks up before it
    /// checks the file: `FileModel.typesItsAnalysisLooksUp` must name exactly those.
    func testTypesTheAnalysisLooksUpAreKnownFromTheFileAlone() {
        let sources = [
            // Registers in one type, removes in a nested one, cancels in a third; one type
            // neither registers nor removes, and an extension registers too.
            """
            final class ChatViewController: UIViewController {
                var token: NSObjectProtocol?
                override func viewDidLoad() {
                    super.viewDidLoad()
                    token = NotificationCenter.default.addObserver(forName: .a, object: nil, queue: nil) { _ in }
                }
                func helper() {}
                final class Footer: UIView {
                    deinit { NotificationCenter.default.removeObserver(self) }
                    func layout() {}
                }
            }
            final class Store {
                var bag = Set<AnyCancellable>()
                var cancellable: AnyCancellable?
                func stop() { cancellable?.cancel() }
            }
            struct Plain { func draw() {} }
            extension Settings.Screen {
                func start() { NotificationCenter.default.addObserver(self, selector: #selector(tap), name: .b, object: nil) }
                @objc func tap() {}
            }
            """,
            // No observers at all.
            "final class Empty: UIView { func layout() {} }",
            // Code outside any type.
            "NotificationCenter.default.addObserver(forName: .a, object: nil, queue: nil) { _ in }\nfunc free() {}",
        ]
        for text in sources {
            let model = FileModel(Lexer.tokenize(SourceFile(path: "A.swift", bytes: Array(text.utf8))))
            let lookups = TypeLookups()
            _ = FileAnalysis(model, project: ProjectFacts.empty.recordingTypeLookups(into: lookups))
            XCTAssertEqual(Set(model.typesItsAnalysisLooksUp), lookups.names, text)
            XCTAssertEqual(model.typesItsAnalysisLooksUp.count, lookups.names.count, text)
            XCTAssertTrue(lookups.declarationNames.isEmpty, text)
        }
    }

    func testNoCrashOnTruncatedCode() {
        for code in ["NotificationCenter.default.addObserver(forName:", "x.removeObserver(", "[a].forEach { removeObserver(self, name: $0", "token = center.addObserver(forName: n) {"] {
            _ = analyze(code).observers
        }
    }
}

final class ObserverLifetimeTests: XCTestCase {
    func testSingletonsAndApplicationDelegatesLiveForTheApp() {
        let analysis = analyze("""
        final class Store { static let shared = Store() }
        final class Cache { static let shared: Cache = .init() }
        final class AppDelegate: UIResponder, UIApplicationDelegate {}
        final class Screen: UIViewController { static let defaultTitle = "x" }
        struct Config { static let shared = Config() }
        """)
        let project = ProjectFacts(merging: [analysis.facts])
        XCTAssertTrue(project.observerFacts(of: "Store").livesForTheApp)
        XCTAssertTrue(project.observerFacts(of: "Cache").livesForTheApp)
        XCTAssertTrue(project.observerFacts(of: "AppDelegate").livesForTheApp)
        XCTAssertFalse(project.observerFacts(of: "Screen").livesForTheApp)
        XCTAssertFalse(project.observerFacts(of: "Config").livesForTheApp)
    }
}

final class NotificationTaskTests: XCTestCase {
    func testTasksAroundKeyboardSequences() {
        let analysis = analyze("""
        final class ChatViewController: UIViewController {
            var task: Task<Void, Never>?
            func start() {
                Task { for await _ in NotificationCenter.default.notifications(named: UIResponder.keyboardWillShowNotification) {} }
                task = Task.detached { for await _ in NotificationCenter.default.notifications(named: UIResponder.keyboardWillHideNotification) {} }
                Task { for await _ in NotificationCenter.default.notifications(named: UIApplication.didBecomeActiveNotification) {} }
            }
            func watch() async {
                for await _ in NotificationCenter.default.notifications(named: UIResponder.keyboardDidShowNotification) {}
            }
        }
        """)
        let tasks = analysis.observers.tasks
        XCTAssertEqual(tasks.map { analysis.source.text(at: $0.task) }, ["Task", "Task"])
        XCTAssertEqual(tasks.map(\.result).first, .discarded)
        if case .storedInProperty(let property, _) = tasks[1].result {
            XCTAssertEqual(analysis.source.text(at: property), "task")
        } else {
            XCTFail("the detached task is stored in `task`")
        }
    }
}

final class TokenStoreTests: XCTestCase {
    func testImplicitReturnsAndWildcardBindings() {
        let analysis = analyze("""
        final class Observers {
            lazy var all: [NSObjectProtocol] = names.map { NotificationCenter.default.addObserver(forName: $0, object: nil, queue: nil) { _ in } }
            lazy var one: NSObjectProtocol = { NotificationCenter.default.addObserver(forName: .a, object: nil, queue: nil) { _ in } }()
            func make() -> NSObjectProtocol { NotificationCenter.default.addObserver(forName: .b, object: nil, queue: nil) { _ in } }
            func drop() {
                let _ = NotificationCenter.default.addObserver(forName: .c, object: nil, queue: nil) { _ in }
                DispatchQueue.main.async { NotificationCenter.default.addObserver(forName: .d, object: nil, queue: nil) { _ in } }
            }
        }
        """)
        XCTAssertEqual(analysis.observers.registered.map(\.store), [.passedOn, .passedOn, .passedOn, .discarded, .discarded])
    }

    /// The methods given a phase by their own name, found through name hashes, are those
    /// `LifecyclePhase.of` gives one when asked about every method.
    func testOwnPhasesAreThoseOfEveryMethodAskedByName() {
        var sources = ["""
        final class Screen: UIViewController {
            init() { super.init(nibName: nil, bundle: nil) }
            deinit {}
            override func `viewDidLoad`() { super.viewDidLoad() }
            override func loadView() {}
            override func awakeFromNib() {}
            override func viewWillAppear(_ animated: Bool) {}
            override func viewDidAppear(_ animated: Bool) {}
            override func viewWillDisappear(_ animated: Bool) {}
            override func viewDidDisappear(_ animated: Bool) {}
            func viewDidLoadLater() {}
            subscript(index: Int) -> Int { index }
            struct Nested { func viewWillAppear() {} }
        }
        func viewDidLoad() {}
        """]
        for rule in RuleRegistry.all {
            for example in rule.metadata.triggering + rule.metadata.nonTriggering { sources.append(example.code) }
        }
        for text in sources {
            let outline = FileModel(Lexer.tokenize(SourceFile(path: "Screen.swift", text: text.replacingOccurrences(of: "↓", with: "")))).fileIndex.outline
            var expected: [FunctionID: Set<LifecyclePhase>] = [:]
            for (id, function) in zip(outline.functionIDs, outline.functions) where function.owner != nil {
                if let phase = LifecyclePhase.of(function.name, kind: function.kind) { expected[id] = [phase] }
            }
            XCTAssertEqual(LifecycleGraph(ownPhasesIn: outline).ownPhases, expected, text)
        }
        let screen = FileModel(Lexer.tokenize(SourceFile(path: "Screen.swift", text: sources[0]))).fileIndex.outline
        XCTAssertEqual(LifecycleGraph(ownPhasesIn: screen).ownPhases.count, 10)
    }

    /// `layoutWorkByRootHandler` looks for a layout sink only in assignments with a token in a
    /// keyboard handler: the same answer as classifying every assignment of the file.
    func testLayoutWorkEqualsThatOfEveryAssignment() {
        let sources = [
            """
            class ChatViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    view.frame = .zero
                    bottom.constant = 8
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillShow(_:)), name: UIResponder.keyboardWillShowNotification, object: nil)
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillHide(_:)), name: UIResponder.keyboardWillHideNotification, object: nil)
                }
                @objc func keyboardWillShow(_ note: Notification) {
                    scrollView.contentOffset = .zero
                    var frame = view.frame
                    frame.origin.y = 0
                    bottom.constant = 100
                    view.layoutIfNeeded()
                }
                @objc func keyboardWillHide(_ note: Notification) { move() }
                func move() { tableView.contentInset.bottom = 0; items[0].frame = .zero }
            }
            """,
            """
            class Plain { func f() { view.frame = .zero; view.setNeedsLayout() } }
            """,
        ]
        var found = 0
        for code in sources {
            let analysis = analyze(code)
            var expected: [Int: Int] = [:]
            func record(_ token: Int) {
                guard let handler = analysis.handlerIndex(at: token) else { return }
                let root = analysis.rootHandler(of: handler)
                if let existing = expected[root], existing <= token { return }
                expected[root] = token
            }
            for assignment in analysis.assignments {
                guard let sink = analysis.layoutSink(of: assignment), sink.kind != .contentOffset else { continue }
                record(sink.member)
            }
            for call in analysis.calls where analysis.source.wordIndex(call.callee, in: ["layoutIfNeeded", "setNeedsLayout"]) != nil {
                record(call.callee)
            }
            XCTAssertEqual(analysis.layoutWorkByRootHandler(), expected)
            found += expected.count
        }
        XCTAssertGreaterThan(found, 0)
    }
}
