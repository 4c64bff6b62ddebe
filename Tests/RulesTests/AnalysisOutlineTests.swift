import XCTest
import Lexer
@testable import Rules

final class AnalysisOutlineTests: XCTestCase {
    /// `properties(named:in:)` walks a chain built with the outline: it must list what a
    /// search of every property lists, in source order, for every owner and name.
    func testPropertiesOfANameAndOwnerMatchASearch() {
        let text = """
        class A { var x = 1
        #if DEBUG
        var x = 2
        #else
        var x = 3
        #endif
        let y = 0; class B { var x = 4; var y = 5 } }
        var x = 6
        extension A { static var z: Int { 7 } }
        struct C { let y = 8; let y = 9 }
        """
        let outline = Outline(Lexer.tokenize(SourceFile(path: "A.swift", text: text)))
        XCTAssertGreaterThan(outline.properties.count, 8)
        for owner in [nil] + outline.typeIDs.map(Optional.some) {
            for hash in Set(outline.properties.map(\.nameHash)) + [NameHash.of("absent")] {
                let searched = outline.propertyIDs.filter { outline[$0].owner == owner && outline[$0].nameHash == hash }
                XCTAssertEqual(Array(outline.properties(named: hash, in: owner)), Array(searched))
            }
        }
    }

    /// `functions(named:)` and `functions(named:in:)` walk chains built with the outline: they
    /// must list what a search of every function lists, in source order, for every owner and
    /// name (overloads, `#if` branches, extensions, local functions, initializers).
    func testFunctionsOfANameAndOwnerMatchASearch() {
        let text = """
        class A { func f() {}
        #if DEBUG
        func f(x: Int) {}
        #else
        func f(y: Int) {}
        #endif
        init() {}; init(a: Int) {}
        func g() { func f() {}; func h() {} }
        class B { func f() {}; func g() {}; subscript(i: Int) -> Int { i } } }
        func f() {}
        extension A { func f(z: Int) {}; static func g() {} }
        struct C { func h() {}; func h(_ a: Int) {} }
        """
        let outline = Outline(Lexer.tokenize(SourceFile(path: "A.swift", text: text)))
        XCTAssertGreaterThan(outline.functions.count, 14)
        let functionIDs = outline.functions.indices.map(FunctionID.init)
        for hash in Set(outline.functions.map(\.nameHash)) + [NameHash.of("absent")] {
            let named = functionIDs.filter { outline[$0].nameHash == hash }
            XCTAssertEqual(Array(outline.functions(named: hash)), named)
            XCTAssertEqual(outline.functions(named: hash).isEmpty, named.isEmpty)
            for owner in [nil] + outline.typeIDs.map(Optional.some) {
                XCTAssertEqual(Array(outline.functions(named: hash, in: owner)), named.filter { outline[$0].owner == owner })
            }
        }
    }

    /// Modifier names are read from the word list: each must be the modifier's own spelling,
    /// as the file's text gives it.
    func testModifierNamesAreTheirSpelling() {
        let words = ModifierWords.words.words.map { "\($0)" }
        let source = Lexer.tokenize(SourceFile(path: "A.swift", text: words.joined(separator: " ") + " `private` privates"))
        var found = 0
        for index in source.code.indices {
            guard let position = ModifierWords.position(source, index) else { continue }
            XCTAssertEqual(ModifierWords.names[position], source.text(at: index))
            found += 1
        }
        XCTAssertEqual(found, words.count)
        let outline = Outline(Lexer.tokenize(SourceFile(path: "B.swift", text: """
        class C {
            @objc dynamic private(set) var a = 0
            @IBAction override public func f() {}
        }
        """)))
        XCTAssertEqual(outline.properties.first?.modifiers, ["private", "dynamic", "objc"])
        XCTAssertEqual(outline.functions.first?.modifiers, ["public", "override", "IBAction"])
    }

    /// `soleChainName` answers what `chainNames(upTo: 2)` answers when it finds one name.
    func testSoleChainNameMatchesChainNames() {
        let text = "self.a; strongSelf?.b(); x; (y); self; a.b.c; f(x).y; [1][0]; weakSelf!; .none; `self`"
        let source = Lexer.tokenize(SourceFile(path: "A.swift", text: text))
        for start in source.code.indices {
            for end in start...min(start + 6, source.code.count) {
                let names = ExpressionBounds.chainNames(source, start..<end, upTo: 2)
                XCTAssertEqual(ExpressionBounds.soleChainName(source, start..<end), names.count == 1 ? names[0] : nil)
            }
        }
    }

    func testTypesFunctionsAndProperties() {
        let analysis = analyze("""
        final class ComposerViewController: UIViewController, UITextViewDelegate {
            @IBOutlet private weak var bottomConstraint: NSLayoutConstraint!
            private lazy var bar: UIView = { UIView() }()
            var inset: CGFloat = 0 {
                didSet { view.setNeedsLayout() }
            }
            override var canBecomeFirstResponder: Bool { true }
            var title2: String {
                get { "a" }
                set { print(newValue) }
            }
            @objc private func keyboardWillShow(_ note: Notification) {}
            func move(by offset: CGFloat, animated: Bool) -> Bool { true }
            init() { super.init(nibName: nil, bundle: nil) }
        }
        extension ComposerViewController: UIScrollViewDelegate {
            struct Nested {}
        }
        """)
        let outline = analysis.outline
        XCTAssertEqual(outline.types.map(\.name), ["ComposerViewController", "ComposerViewController", "Nested"])
        XCTAssertEqual(outline.types[0].inheritance, ["UIViewController", "UITextViewDelegate"])
        XCTAssertEqual(outline.types[1].kind, .extension)
        XCTAssertEqual(outline.functions.map(\.name), ["keyboardWillShow", "move", "init"])
        let show = outline.functions[0]
        XCTAssertEqual(show.labels, ["_"])
        XCTAssertEqual(show.parameters.first?.name, "note")
        XCTAssertTrue(show.hasModifier("objc"))
        XCTAssertTrue(show.hasModifier("private"))
        XCTAssertEqual(show.owner, TypeID(0))
        XCTAssertEqual(outline.functions[1].labels, ["by", "animated"])
        XCTAssertNotNil(outline.functions[1].returnType)
        XCTAssertNil(outline.functions[0].returnType)

        let properties = Dictionary(uniqueKeysWithValues: outline.properties.map { ($0.name, $0) })
        XCTAssertEqual(properties["bottomConstraint"]?.kind, .stored)
        XCTAssertEqual(properties["bar"]?.kind, .lazy)
        XCTAssertEqual(properties["inset"]?.kind, .stored)
        XCTAssertEqual(properties["inset"]?.accessors.map(\.kind), [.didSet])
        XCTAssertEqual(properties["canBecomeFirstResponder"]?.kind, .computed)
        XCTAssertEqual(properties["title2"]?.accessors.map(\.kind), [.get, .set])
        XCTAssertTrue(properties["canBecomeFirstResponder"]?.modifiers.contains("override") ?? false)
    }

    func testClosuresKnowTheirCallAndLabel() {
        let analysis = analyze("""
        func setUp() {
            center.addObserver(forName: name, object: nil, queue: .main) { [weak self] note in
                self?.handle(note)
            }
            UIView.animate(withDuration: 0.3, animations: { self.layout() }) { finished in
                print(finished)
            }
            UIView.animate(withDuration: 1) {
                a()
            } completion: { _ in
                b()
            }
        }
        """)
        let closures = analysis.outline.closures
        XCTAssertEqual(closures.count, 5)
        let first = closures[0]
        XCTAssertTrue(first.isTrailing)
        XCTAssertNotNil(first.captureList)
        XCTAssertEqual(first.parameters.map { analysis.source.text(at: $0) }, ["note"])
        XCTAssertEqual(first.call.map { analysis.source.text(at: analysis.calls[$0].callee) }, "addObserver")
        XCTAssertEqual(closures[1].argumentLabel.map { analysis.source.text(at: $0) }, "animations")
        XCTAssertFalse(closures[1].isTrailing)
        XCTAssertTrue(closures[2].isTrailing)
        XCTAssertEqual(closures[4].argumentLabel.map { analysis.source.text(at: $0) }, "completion")
        XCTAssertTrue(closures[4].isTrailing)
        let animate = analysis.calls.filter { analysis.source.text(at: $0.callee) == "animate" }
        XCTAssertEqual(animate.count, 2)
        XCTAssertEqual(animate[1].trailingClosures.count, 2)
        XCTAssertEqual(animate[0].receiver.map { analysis.text($0) }, "UIView")
    }

    func testControlBlocksAreNotClosures() {
        let analysis = analyze("""
        func f(x: Int?) {
            if let x { print(x) } else { print(0) }
            guard let y = x else { return }
            for i in 0..<y where i > 1 { print(i) }
            switch y { default: break }
            repeat { y -= 1 } while y > 0
            items.forEach { print($0) }
            while y > 0 { y -= 1 }
        }
        """)
        XCTAssertEqual(analysis.outline.closures.count, 1)
        let blocks = analysis.outline.scopes.compactMap { scope -> String? in
            if case .block(let keyword) = scope.kind { return analysis.source.text(at: keyword) }
            return nil
        }
        XCTAssertEqual(blocks, ["if", "else", "else", "for", "switch", "repeat", "while"])
    }

    func testWalksOutwardsThroughEnclosingScopes() {
        let analysis = analyze("""
        enum Screen {
            final class Composer {
                func layout() {
                    items.forEach { item in
                        if item.isVisible {
                            place(item)
                        }
                    }
                }
            }
        }
        """)
        let outline = analysis.outline
        let place = analysis.index(of: "place")!
        func describe(_ scopes: some Sequence<ScopeID>) -> [String] {
            scopes.map { scope in
                switch outline[scope].kind {
                case .type(let type): "type \(outline[type].name)"
                case .function(let function): "func \(outline[function].name)"
                case .closure: "closure"
                case .block(let keyword): analysis.source.text(at: keyword)
                case .property, .accessor: "property"
                }
            }
        }
        XCTAssertEqual(describe(outline.enclosingScopes(from: outline.scope(at: place))),
                       ["if", "closure", "func layout", "type Composer", "type Screen"])
        XCTAssertEqual(describe(outline.enclosingScopes(from: outline.scope(at: place), before: outline.functions[0].scope)),
                       ["if", "closure"])
        XCTAssertEqual(describe(outline.scopesInsideExecutableBody(around: place)), ["if"])
        XCTAssertEqual(describe(outline.enclosingExecutableScopes(from: outline.scope(at: place))), ["closure", "func layout"])
        XCTAssertEqual(outline.enclosingTypes(from: outline.enclosingType(at: place)).map { outline[$0].name }, ["Composer", "Screen"])
        XCTAssertTrue(outline.enclosingScopes(from: nil).map { $0 }.isEmpty)

        // Deeper nesting than any real code: the walk stops at its bound.
        let depth = Limits.enclosingScopes + 10
        let deep = analyze("func f() {" + String(repeating: "run {", count: depth) + "x" + String(repeating: "}", count: depth + 1))
        let innermost = deep.outline.scope(at: deep.index(of: "x")!)
        XCTAssertEqual(deep.outline.enclosingScopes(from: innermost).map { $0 }.count, Limits.enclosingScopes)
        XCTAssertEqual(deep.outline.enclosingExecutableScopes(from: innermost).map { $0 }.count, Limits.enclosingScopes)
    }

    func testAvailabilityRegions() {
        let analysis = analyze("""
        @available(iOS 16.1, *)
        func modern() { a() }
        func mixed() {
            if #available(iOS 15.4, *) {
                b()
            } else {
                c()
            }
            guard #available(iOS 17, *) else { return }
            d()
        }
        """)
        let target = OSVersion(14)
        func version(_ name: String) -> OSVersion? {
            analysis.effectiveTarget(at: analysis.index(of: name)!, configured: target)
        }
        XCTAssertEqual(version("a"), OSVersion(16, 1))
        XCTAssertEqual(version("b"), OSVersion(15, 4))
        XCTAssertEqual(version("c"), OSVersion(14))
        XCTAssertEqual(version("d"), OSVersion(17))
        XCTAssertNil(analysis.effectiveTarget(at: analysis.index(of: "c")!, configured: nil))
    }

    func testConditionalCompilationRegions() {
        let analysis = analyze("""
        #if DEBUG
        let a = 1
        #if os(iOS)
        let b = 2
        #endif
        #endif
        """)
        XCTAssertEqual(analysis.outline.conditionalRegions.count, 2)
        XCTAssertEqual(analysis.text(analysis.outline.conditionalRegions[1].condition), "DEBUG")
    }

    func testAssignmentsAndBindings() {
        let analysis = analyze("""
        func f(note: Notification) {
            let frame = note.frame, other = 2
            var height: CGFloat = frame.height
            guard let info = note.userInfo else { return }
            if let info, let value = info[key] as? NSValue { print(value) }
            scrollView.contentInset.bottom += height
            self.constraint.constant = -height
            height = 0
            foo(x: 1)
            switch x { case .a: y = 1; default: y = 2 }
        }
        """)
        let names = analysis.bindings.map { analysis.source.text(at: $0.nameToken) }
        XCTAssertEqual(names, ["frame", "other", "height", "info", "info", "value"])
        XCTAssertEqual(analysis.bindings[2].value.map { analysis.text($0) }, "frame.height")
        XCTAssertTrue(analysis.bindings[4].isShorthand)
        XCTAssertEqual(analysis.bindings[5].value.map { analysis.text($0) }, "info[key] as? NSValue")
        let writes = analysis.assignments.map { "\(analysis.text($0.lhs)) \(analysis.source.text(at: $0.op)) \(analysis.text($0.rhs))" }
        XCTAssertEqual(writes, [
            "scrollView.contentInset.bottom += height", "self.constraint.constant = -height", "height = 0",
            "y = 1", "y = 2",
        ])
        let sink = analysis.layoutSink(of: analysis.assignments[0])
        XCTAssertEqual(sink?.kind, .contentInset)
        XCTAssertEqual(sink.map { analysis.text($0.receiver) }, "scrollView")
        XCTAssertEqual(analysis.layoutSink(of: analysis.assignments[1])?.kind, .constraintConstant)
        XCTAssertNil(analysis.layoutSink(of: analysis.assignments[2]))
        let local = analyze("""
        func f() {
            var frame = CGRect.zero
            frame.origin.y = 10
            view.frame.origin.y = 10
        }
        final class Bar: UIView {
            func move() { frame.origin.y = 10 }
        }
        """)
        XCTAssertEqual(local.assignments.map { local.layoutSink(of: $0)?.kind }, [nil, .frame, .frame],
                       "a local CGRect named frame is not a view's frame")
    }

    func testExpressionAndStatementBounds() {
        let analysis = analyze("""
        func f() {
            let height = view.bounds.height
                - keyboard.minY
                + padding
            let next = 1
            let chained = NotificationCenter.default
                .publisher(for: name)
                .sink { _ in }
            scrollView.contentInset.bottom = max(0,
                overlap)
        }
        """)
        let source = analysis.source
        XCTAssertEqual(analysis.bindings.map { $0.value.map { analysis.text($0) } ?? "" }, [
            "view.bounds.height\n        - keyboard.minY\n        + padding", "1",
            "NotificationCenter.default\n        .publisher(for: name)\n        .sink { _ in }",
        ])
        let minY = analysis.index(of: "minY")!
        XCTAssertEqual(source.text(at: ExpressionBounds.statementStart(source, containing: minY)), "let")
        let overlap = analysis.index(of: "overlap")!
        XCTAssertEqual(source.text(at: ExpressionBounds.statementStart(source, containing: overlap)), "0",
                       "inside parentheses the statement starts after the opening bracket")
        XCTAssertEqual(analysis.text(analysis.assignments[0].rhs), "max(0,\n        overlap)")
        let sink = analysis.index(of: "sink")!
        let start = analysis.chainStart(endingAt: sink)
        XCTAssertEqual(source.text(at: start), "NotificationCenter")
        XCTAssertEqual(ExpressionBounds.chainEnd(source, startingAt: start), sink)
    }

    func testSurvivesPathologicalInput() {
        let deep = String(repeating: "{ (", count: 10_000) + "x" + String(repeating: ") }", count: 10_000)
        let unbalanced = "class A { func f() { if x { let y = z( ] } } } } ) { var"
        let truncated = "func keyboardWillShow(_ n: Notification) { let f = n.userInfo?[UIResponder.keyboardFrameEndUserInfoKey"
        for code in [deep, unbalanced, truncated, "", "}}}}", "func", "class", "var x: Int {", "x = "] {
            let analysis = analyze(code)
            XCTAssertEqual(analysis.outline.scopeOfToken.count, analysis.source.code.count)
        }
        let deepClosures = "func f() {" + String(repeating: "run {", count: 10_000) + String(repeating: "}", count: 10_001)
        XCTAssertEqual(analyze(deepClosures).outline.closures.count, 10_000)
    }
    /// The innermost scope of every token, which the outline fills in between braces, is
    /// what a walk that keeps the open scopes on a stack gives each token on its own:
    /// braces their own scope, every other token the innermost one open. On random code,
    /// unbalanced braces and brackets included.
    func testScopeOfEveryTokenMatchesAScopeStackWalk() {
        let fragments = [
            "{", "{", "}", "}", "(", ")", "[", "]", "\n", "class A", "struct S: P", "func f(a: Int)", "init()",
            "var x: Int", "let y = 1", "if x", "guard y else", "else", "while z", "repeat", "for i in s",
            "switch k", "case .a:", "get", "set", "didSet", "run { a in", "foo(", "#if DEBUG\n", "#endif\n",
            "do", "catch", "x.y", "return", "enum E", "extension A", "protocol P", "deinit", "subscript(i: Int)",
        ]
        var generator = ByteScanTests.Generator(state: 3)
        for _ in 0..<400 {
            let text = (0..<generator.next(60)).map { _ in fragments[generator.next(fragments.count)] }.joined(separator: " ")
            let source = Lexer.tokenize(SourceFile(path: "A.swift", text: text))
            let outline = Outline(source)
            var scopeOfBrace: [Int: Int] = [:]
            for (index, scope) in outline.scopes.enumerated() { scopeOfBrace[scope.open] = index }
            var stack: [Int] = []
            for index in source.code.indices {
                var expected = -1
                switch source.code[index].kind {
                case .leftBrace:
                    expected = scopeOfBrace[index]!
                    stack.append(expected)
                case .rightBrace:
                    if let open = source.partnerIndex(index) {
                        expected = scopeOfBrace[open]!
                        if let position = stack.lastIndex(where: { outline.scopes[$0].open == open }) {
                            stack.removeSubrange(position...)
                        }
                    } else {
                        expected = stack.last ?? -1
                    }
                default:
                    expected = stack.last ?? -1
                }
                XCTAssertEqual(outline.scope(at: index)?.rawValue ?? -1, expected, "token \(index) of: \(text)")
            }
        }
    }
}
