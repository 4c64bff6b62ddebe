import XCTest
import Lexer
@testable import Rules

/// The file index's resolvers: calls to functions, names to bindings, registrations.
final class AnalysisIndexTests: XCTestCase {
    /// The names of the functions the call whose callee is the `occurrence`-th `name` means.
    func resolved(_ analysis: FileAnalysis, _ name: String, occurrence: Int) -> [String] {
        guard let callee = analysis.index(of: name, occurrence: occurrence), let call = analysis.call(at: callee) else {
            return ["no call"]
        }
        return analysis.fileIndex.functions(calledBy: call).map { id in
            let function = analysis.outline[id]
            let owner = function.owner.map { analysis.outline[$0].simpleName } ?? "-"
            return "\(owner).\(function.name)(\(function.labels.joined(separator: ",")))"
        }
    }

    func testCallsThatLeaveOutDefaultedArgumentsResolve() {
        let analysis = analyze("""
        final class Screen: UIViewController {
            func updateInsets(force: Bool, retry: Bool = true) {}
            func run() {
                updateInsets(force: true)
                updateInsets(force: true, retry: false)
                updateInsets(retry: false)
            }
        }
        """)
        XCTAssertEqual(resolved(analysis, "updateInsets", occurrence: 1), ["Screen.updateInsets(force,retry)"])
        XCTAssertEqual(resolved(analysis, "updateInsets", occurrence: 2), ["Screen.updateInsets(force,retry)"])
        XCTAssertEqual(resolved(analysis, "updateInsets", occurrence: 3), [], "`force` has no default")
    }

    func testTrailingClosuresTakeTheirParameters() {
        let analysis = analyze("""
        final class Screen: UIViewController {
            func perform(animated: Bool, completion: () -> Void) {}
            func later(delay: Double = 0, options: Int = 0, then work: @escaping () -> Void) {}
            func pair(first: () -> Void, second: () -> Void) {}
            func run() {
                perform(animated: true) { print(1) }
                later { print(2) }
                later(delay: 1) { print(3) }
                pair { print(4) } second: { print(5) }
                perform { print(6) }
            }
        }
        """)
        XCTAssertEqual(resolved(analysis, "perform", occurrence: 1), ["Screen.perform(animated,completion)"])
        XCTAssertEqual(resolved(analysis, "later", occurrence: 1), ["Screen.later(delay,options,then)"])
        XCTAssertEqual(resolved(analysis, "later", occurrence: 2), ["Screen.later(delay,options,then)"])
        XCTAssertEqual(resolved(analysis, "pair", occurrence: 1), ["Screen.pair(first,second)"])
        XCTAssertEqual(resolved(analysis, "perform", occurrence: 2), [], "`animated` is missing")
        let call = analysis.call(at: analysis.index(of: "later", occurrence: 2)!)!
        let function = analysis.outline[analysis.fileIndex.function(calledBy: call)!]
        XCTAssertEqual(analysis.fileIndex.parameterPositions(of: call, for: function), [0, 2])
    }

    func testOverloadsByLabelsAndArity() {
        let analysis = analyze("""
        final class Screen: UIViewController {
            func apply(bottom: CGFloat) {}
            func apply(top: CGFloat) {}
            func apply(bottom: CGFloat, animated: Bool) {}
            func apply(_ insets: UIEdgeInsets) {}
            func log(_ items: Any..., separator: String = " ") {}
            func run() {
                apply(bottom: 1)
                apply(top: 1)
                apply(bottom: 1, animated: true)
                apply(.zero)
                log(1, 2, 3)
                log(1, 2, separator: ",")
            }
        }
        """)
        XCTAssertEqual(resolved(analysis, "apply", occurrence: 4), ["Screen.apply(bottom)"])
        XCTAssertEqual(resolved(analysis, "apply", occurrence: 5), ["Screen.apply(top)"])
        XCTAssertEqual(resolved(analysis, "apply", occurrence: 6), ["Screen.apply(bottom,animated)"])
        XCTAssertEqual(resolved(analysis, "apply", occurrence: 7), ["Screen.apply(_)"])
        XCTAssertEqual(resolved(analysis, "log", occurrence: 1), ["Screen.log(_,separator)"])
        XCTAssertEqual(resolved(analysis, "log", occurrence: 2), ["Screen.log(_,separator)"])
    }

    func testSelfImplicitSelfAndOtherReceivers() {
        let analysis = analyze("""
        final class A: UIViewController {
            func reload() {}
            func run(other: B) {
                reload()
                self.reload()
                other.reload()
                .reload()
            }
        }
        final class B {
            func reload() {}
        }
        """)
        XCTAssertEqual(resolved(analysis, "reload", occurrence: 1), ["A.reload()"])
        XCTAssertEqual(resolved(analysis, "reload", occurrence: 2), ["A.reload()"])
        XCTAssertEqual(resolved(analysis, "reload", occurrence: 3), ["A.reload()", "B.reload()"])
        let other = analysis.call(at: analysis.index(of: "reload", occurrence: 3)!)!
        XCTAssertNil(analysis.fileIndex.function(calledBy: other, onSelfOnly: true))
        let implicitMember = analysis.call(at: analysis.index(of: "reload", occurrence: 4)!)!
        XCTAssertFalse(implicitMember.isOnSelf(analysis.source), "`.reload()` is an implicit member, not self")
    }

    func testExtensionMethods() {
        let analysis = analyze("""
        final class Screen: UIViewController {
            func run() {
                configure()
                scrollView.setBottomInset(10)
            }
        }
        extension Screen {
            func configure() {}
        }
        extension UIScrollView {
            func setBottomInset(_ height: CGFloat) {}
        }
        """)
        XCTAssertEqual(resolved(analysis, "configure", occurrence: 0), ["Screen.configure()"])
        XCTAssertEqual(resolved(analysis, "setBottomInset", occurrence: 0), ["UIScrollView.setBottomInset(_)"])
    }

    func testIfLetBindsOnlyInsideItsBody() {
        let analysis = analyze("""
        final class Screen: UIViewController {
            var frame: CGRect?
            func run(value: CGRect?) {
                if let frame = value, let height = Optional(frame.height) { use(frame, height) } else { use(frame) }
                use(frame)
                while let frame = next() { use(frame) }
                guard let frame = frame else { return }
                use(frame)
            }
        }
        """)
        func bound(_ occurrence: Int) -> Int? {
            analysis.binding(referencedBy: analysis.index(of: "frame", occurrence: occurrence)!)?.nameToken
        }
        let ifBinding = analysis.index(of: "frame", occurrence: 1)
        XCTAssertEqual(bound(2), ifBinding, "later in the same condition")
        XCTAssertEqual(bound(3), ifBinding, "inside the if body")
        XCTAssertNil(bound(4), "in the else branch")
        XCTAssertNil(bound(5), "after the if statement")
        XCTAssertEqual(bound(7), analysis.index(of: "frame", occurrence: 6), "inside the while body")
        XCTAssertNil(bound(9), "`guard let frame = frame` reads the property")
        XCTAssertEqual(bound(10), analysis.index(of: "frame", occurrence: 8), "after guard let")
    }

    func testDeclarationIsTheNearestBindingOrParameter() {
        let analysis = analyze("""
        final class Screen: UIViewController {
            var frame: CGRect = .zero
            func run(frame: CGRect, height: CGFloat) {
                use(frame, height)
                let height = frame.height
                items.map { frame in use(frame, height) }
                items.map { use($0) }
                items.map { value in items.map { use($0) } }
            }
            func other() { use(frame) }
        }
        """)
        func declared(_ text: String, _ occurrence: Int) -> Int? {
            analysis.fileIndex.declaration(referencedBy: analysis.index(of: text, occurrence: occurrence)!)?.token
        }
        let parameter = analysis.index(of: "frame", occurrence: 1)
        XCTAssertEqual(declared("frame", 2), parameter, "a parameter of the function")
        XCTAssertEqual(declared("frame", 3), parameter, "the parameter in the binding's value")
        XCTAssertEqual(declared("height", 1), analysis.index(of: "height", occurrence: 0), "before the binding: the parameter")
        XCTAssertEqual(declared("height", 4), analysis.index(of: "height", occurrence: 2), "a binding shadows its body's parameter")
        XCTAssertEqual(declared("frame", 5), analysis.index(of: "frame", occurrence: 4), "a closure parameter shadows the function's")
        let firstMap = analysis.index(of: "map", occurrence: 1)!
        XCTAssertEqual(declared("$0", 0), firstMap + 1, "`$0` is the anonymous parameter of its closure")
        let innerMap = analysis.index(of: "map", occurrence: 3)!
        XCTAssertEqual(declared("$0", 1), innerMap + 1, "`$0` of the innermost closure")
        XCTAssertNil(declared("frame", 6), "a property is no local declaration")
    }

    func testProjectWrapperRegistrations() {
        let analysis = analyze("""
        final class Screen: UIViewController {
            func observe() {
                keyboard.on(.willShow) { info in self.show(info) }
                observer.start(willShowAction: { info in self.show(info) }, didHideHandler: { _ in self.hide() })
                observer.start { _ in } onKeyboardWillChangeFrame: { info in self.show(info) }
                menu.start(willShowMenu: { })
            }
        }
        """)
        let wrappers = analysis.registrations.filter { $0.kind == .wrapper }
        XCTAssertEqual(wrappers.map { $0.closures.map(\.events) }, [
            [[.willShow]],
            [[.willShow], [.didHide]],
            [[.willChangeFrame]],
        ])
        XCTAssertEqual(analysis.handlers.map(\.form), [.wrapperEvent, .wrapperEvent, .wrapperEvent, .wrapperEvent])
        XCTAssertTrue(analysis.observers.registered.isEmpty, "wrappers return nothing to keep or remove")
    }

    /// A handler that calls a helper leaving out a defaulted argument keeps the findings in
    /// the helper (they were silently dropped when calls had to pass every argument).
    func testHandlerFindingsBehindADefaultedArgument() {
        let code = """
        final class Screen: UIViewController {
            @objc func keyboardWillShow(_ notification: Notification) {
                let frame = (notification.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? NSValue)?.cgRectValue ?? .zero
                updateInsets(force: true)
                apply(bottom: frame.height)
            }
            func updateInsets(force: Bool, retry: Bool = true) {
                UIView.animate(withDuration: 0.3) { self.view.layoutIfNeeded() }
            }
            func apply(bottom: CGFloat, animated: Bool = true) {
                tableView.contentInset.bottom = bottom
            }
        }
        """
        let analysis = analyze(code)
        XCTAssertEqual(analysis.handlerSummaries().filter { $0.hasPrefix("reached") }.sorted(),
                       ["reached:apply", "reached:updateInsets"])
        let durations = RuleExamplesTests.diagnostics(KeyboardDurationHardcoded.self, code: code, options: [:],
                                                      deploymentTarget: nil)
        XCTAssertEqual(durations.count, 1)
        let screenSpace = RuleExamplesTests.diagnostics(KeyboardFrameScreenSpace.self, code: code, options: [:],
                                                        deploymentTarget: nil)
        XCTAssertEqual(screenSpace.count, 1, "the parameter carries the screen-space height")
    }
    /// `RegistrationRecogniser.mayRegister` passes calls over without classifying them: none
    /// of those may be a registration, on random code with registrations, wrappers, event
    /// arguments and closures held in constants.
    func testCallsPassedOverBeforeClassifyingRegisterNothing() {
        let fragments = [
            "let handler = { (n: Notification) in }", "let other = 1", "keyboard.on(.willShow, handler)",
            "keyboard.on(.willHide, other)", "observe(.didShow, handler, 1)", "bar.on(.willShow) { _ in }",
            "observe(willShowAction: { _ in })", "observe(willShowAction: handler)", "f(handler)", "g(.willHide)",
            "h(a, .x)", "h(.x, a, b)", "k(x: .willShow, y: handler)",
            "NotificationCenter.default.addObserver(self, selector: #selector(k), name: UIResponder.keyboardWillShowNotification, object: nil)",
            "NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillHideNotification, object: nil, queue: nil, using: handler)",
            "NotificationCenter.default.publisher(for: UIResponder.keyboardWillShowNotification)",
            "func run() {", "}", "\n",
        ]
        var generator = ByteScanTests.Generator(state: 5)
        var registered = 0
        for _ in 0..<300 {
            let text = (0..<generator.next(14)).map { _ in fragments[generator.next(fragments.count)] }.joined(separator: "\n")
            let index = FileIndex(Lexer.tokenize(SourceFile(path: "A.swift", text: text)))
            let recogniser = RegistrationRecogniser(source: index.source, outline: index.outline, calls: index.calls,
                                                    constants: index.constants)
            for call in index.calls.indices {
                let registration = recogniser.registration(index.calls[call], call)
                if registration != nil { registered += 1 }
                if !recogniser.mayRegister(call) {
                    XCTAssertNil(registration, "call \(call) of: \(text)")
                }
            }
        }
        XCTAssertGreaterThan(registered, 100)
    }
    /// `MatchingBuilder.run` asks `recordCall` only about names followed by `(`, `<` or `{`:
    /// it must find the calls (and closure arguments) that asking about every name finds.
    func testCallsFoundWhenEveryNameIsAsked() {
        let fragments = [
            "f(a, b: 1)", "x.y(z) { w in }", "Array<Int>()", "g<T>", "h { }", "k\n(1)", "a.b.c", "func m(p: Int) {",
            "}", "let v = n(", ")", "u.init(q)", "Task { }", "p(x:) { } label: { }", "[1, 2]", "(", "{", "o?.f(1)",
        ]
        var generator = ByteScanTests.Generator(state: 9)
        for _ in 0..<300 {
            let text = (0..<generator.next(20)).map { _ in fragments[generator.next(fragments.count)] }.joined(separator: " ")
            let source = Lexer.tokenize(SourceFile(path: "A.swift", text: text))
            let outline = Outline(source)
            let chainStarts = ChainStarts(source)
            var matching = MatchingBuilder(source: source, outline: outline, chainStarts: chainStarts)
            matching.run()
            var everyName = MatchingBuilder(source: source, outline: outline, chainStarts: chainStarts)
            for index in source.code.indices where source.kind(index) == .identifier
                || (source.isWord(index, "init") && source.kind(index - 1) == .period) {
                everyName.recordCall(index)
            }
            XCTAssertEqual(matching.callSites().map(\.callee), everyName.callSites().map(\.callee), text)
            XCTAssertEqual(matching.callSites().map(\.end), everyName.callSites().map(\.end), text)
            XCTAssertEqual(matching.closureCalls.map(\.closure), everyName.closureCalls.map(\.closure), text)
        }
    }

    /// Each call's arguments and trailing closures are its run of the file-wide tables: they
    /// match a split of its own parentheses at their top-level commas and the closures linked
    /// to it, whatever the calls around it hold.
    func testCallArgumentRunsMatchEachCallsOwnSplit() {
        let snippets = [
            """
            final class Screen: UIViewController {
                func run() {
                    UIView.animate(withDuration: 0.3, delay: 0, options: [.curveEaseOut, .beginFromCurrentState], animations: {
                        self.view.layoutIfNeeded()
                    }) { finished in print(finished) }
                    let inset = UIEdgeInsets(top: 0, left: f(a, g(b, c)), bottom: height, right: 0)
                    reload()
                    pair { print(4) } second: { print(5) } third: { print(6) }
                    items.map { $0 * 2 }.filter({ $0 > 1 })
                    outer(inner(x, y: [1, 2, 3]), z: (p, q), { _ in })
                    Task { await load(from: url, retry: 3) }
                    let value = Dictionary<String, Int>(uniqueKeysWithValues: zip(keys, values))
                }
            }
            """,
            "f()\ng(a)\nh(a, b,)\nk(label: )\nm(\"\\(x(y, z))\", w)",
            "call(a, { b in c(b) }, d) {} next: {}\nother(\n  first: 1,\n  second: nested(2, 3)\n)",
        ]
        for code in snippets {
            let analysis = analyze(code)
            let source = analysis.source
            XCTAssertFalse(analysis.calls.isEmpty, code)
            for (index, call) in analysis.calls.enumerated() {
                var expected: [String] = []
                if let open = call.openParen, let close = call.closeParen, open + 1 < close {
                    var start = open + 1
                    while start < close {
                        let end = source.firstTopLevel(in: start..<close) { source.kind($0) == .comma } ?? close
                        var value = start..<end
                        var label = "-"
                        if end - start >= 2, source.kind(start + 1) == .colon,
                           source.kind(start) == .identifier || source.kind(start) == .keyword {
                            label = source.text(at: start)
                            value = (start + 2)..<end
                        }
                        expected.append("\(label):\(value)")
                        start = end + 1
                    }
                }
                let arguments = call.arguments.map { "\($0.label.map { source.text(at: $0) } ?? "-"):\($0.value)" }
                XCTAssertEqual(arguments, expected, "\(source.text(at: call.callee)) in \(code)")
                XCTAssertEqual(call.arguments.indices, 0..<expected.count)
                XCTAssertEqual(call.arguments.indices.map { call.arguments[$0].value }, call.arguments.map(\.value))

                let linked = analysis.outline.closures.indices.filter { analysis.outline.closures[$0].call == index }
                let trailing = linked.filter { analysis.outline.closures[$0].isTrailing }
                XCTAssertEqual(call.trailingClosures.map(\.closure.rawValue), trailing)
                XCTAssertEqual(call.trailingClosures.map(\.label), trailing.map { analysis.outline.closures[$0].argumentLabel })
                XCTAssertEqual(call.arguments.compactMap(\.closure?.rawValue), linked.filter { !trailing.contains($0) })
            }
        }
    }
}
