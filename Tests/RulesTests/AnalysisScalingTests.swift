import XCTest
import Lexer
@testable import Rules

/// Inputs that made the analysis quadratic, checked by the work they cause rather than by
/// time: expressions after a stray opening bracket (binary input read as Swift), and type
/// facts over thousands of types or deeply nested ones (generated code).
final class AnalysisScalingTests: XCTestCase {
    /// Every file pass 2 checks joins the project's facts while it is checked. Copying the
    /// project's type table for each made a run quadratic in the size of the project: the
    /// file's types are layered on top instead, with the answers of merging it last.
    func testACheckedFileLayersItsTypesOnTopOfTheProject() {
        let files = (0..<200).map { index in
            collectFacts(Lexer.tokenize(SourceFile(path: "T\(index).swift", text: "class T\(index): Base\(index) {}\n")))
        }
        let project = ProjectFacts(merging: files)
        let checked = collectFacts(Lexer.tokenize(SourceFile(
            path: "Checked.swift", text: "extension T5: Codable {}\nfinal class New: T5 {}\n")))
        let included = project.including(checked)
        let merged = ProjectFacts(merging: files + [checked])
        for name in ["T5", "New", "T7", "Missing"] {
            XCTAssertEqual(included.types[name]?.inheritance, merged.types[name]?.inheritance, name)
            XCTAssertEqual(included.types[name]?.paths, merged.types[name]?.paths, name)
            XCTAssertEqual(included.types[name]?.superclass, merged.types[name]?.superclass, name)
        }
        XCTAssertEqual(included.superclasses(of: "New"), ["T5", "Base5"])
        XCTAssertEqual(included.types.facts.count, 200, "the project's table is not copied")
        XCTAssertEqual(Set(included.types.layered.keys), ["T5", "New"])
        XCTAssertEqual(included.including(checked).types.layered.count, 2, "a file joins once")
    }

    /// `--fix` replaces a file's facts after each round: taking a file out merges again only
    /// the types it declares or extends, with the answers of merging the project without it.
    func testReplacingAFileAnswersAsMergingWithoutItAndTouchesOnlyItsTypes() {
        func facts(_ path: String, _ text: String) -> FileFacts {
            collectFacts(Lexer.tokenize(SourceFile(path: path, text: text)))
        }
        let files = (0..<200).map { facts("T\($0).swift", "class T\($0): Base\($0) {}\n") }
        let edited = facts("Edited.swift", """
            extension T5: Codable {}
            final class New: T5 {}
            extension Notification { var keyboardFrame: CGRect? { userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect } }
            """)
        let project = ProjectFacts(merging: files + [edited])
        XCTAssertEqual(project.keyboardAccessors.keys.sorted(), ["keyboardFrame"])
        let without = project.excluding("Edited.swift")
        let reference = ProjectFacts(merging: files)
        for name in ["T5", "New", "T7", "Missing"] {
            XCTAssertEqual(without.types[name]?.inheritance, reference.types[name]?.inheritance, name)
            XCTAssertEqual(without.types[name]?.paths, reference.types[name]?.paths, name)
        }
        XCTAssertTrue(without.keyboardAccessors.isEmpty)
        XCTAssertFalse(without.contains(path: "Edited.swift"))
        XCTAssertEqual(Set(without.types.layered.keys), ["T5", "New", "Notification"], "only the file's types are merged again")
        XCTAssertEqual(without.types.names.count, reference.types.names.count)

        let fixed = facts("Edited.swift", "extension T5: Hashable {}\n")
        let replaced = project.replacing(fixed)
        let merged = ProjectFacts(merging: files + [fixed])
        XCTAssertEqual(replaced.types["T5"]?.inheritance, merged.types["T5"]?.inheritance)
        XCTAssertEqual(replaced.types["T5"]?.paths, merged.types["T5"]?.paths)
        XCTAssertNil(replaced.types["New"])
        XCTAssertTrue(replaced.keyboardAccessors.isEmpty)
    }

    func testStrayOpenersDoNotExtendExpressionsToTheEndOfTheFile() {
        let lines = (0..<200).map { "a\($0) = f(\($0) [ {" }
        let text = "// keyboardWillShow\n" + lines.joined(separator: "\n") + "\n"
        let source = Lexer.tokenize(SourceFile(path: "Broken.swift", text: text))
        let analysis = FileAnalysis(source)
        XCTAssertEqual(analysis.assignments.count, 200)
        for assignment in analysis.assignments {
            let line = source.file.location(of: Int(source.code[assignment.op].start)).line
            let last = source.code[assignment.rhs.upperBound - 1]
            XCTAssertEqual(source.file.location(of: Int(last.start)).line, line,
                           "the right-hand side of the assignment on line \(line) runs past its line")
        }
    }

    func testBalancedBracketsStillSpanLines() {
        let text = "func f() {\n    let frame = g(\n        a,\n        b)\n    let next = 1\n}\n"
        let source = Lexer.tokenize(SourceFile(path: "Fine.swift", text: text))
        let end = ExpressionBounds.end(source, from: source.code.firstIndex { source.token($0, is: "g") }!)
        XCTAssertTrue(source.token(source.code[end], is: "let"), "the call's arguments on later lines belong to it")
    }

    func testChainedAssignmentsEndAtTheNextAssignment() {
        let text = "// keyboardWillShow\nfunc f() {\n    a = b = c += d -= e\n    x = y == z ? p : q\n}\n"
        let source = Lexer.tokenize(SourceFile(path: "Chain.swift", text: text))
        let sides = FileAnalysis(source).assignments.map {
            [source.text(spanning: $0.lhs), source.text(spanning: $0.rhs)]
        }
        XCTAssertEqual(sides, [["a", "b"], ["b", "c"], ["c", "d"], ["d", "e"], ["x", "y == z ? p : q"]])
        // Every link of a long chain holds one token: linear work, not one scan to the end of
        // the chain per link.
        let links = 5_000
        let chain = Lexer.tokenize(SourceFile(
            path: "Long.swift", text: "// keyboardWillShow\n" + Array(repeating: "a", count: links).joined(separator: " = ")))
        let assignments = FileAnalysis(chain).assignments
        XCTAssertEqual(assignments.count, links - 1)
        XCTAssertEqual(assignments.map(\.rhs.count).reduce(0, +), links - 1)
    }

    /// Token soups that put every kind of chain piece next to every other, broken brackets
    /// included.
    static let chainSamples = [
        "self.scrollView?.contentInset.bottom = view.convert(frame, from: nil).height",
        "a.b(c)[d]!.e?.f<T>(g).h; x = .zero; y = (a + b).c; t = (1, 2).0.description",
        "f()\n  .g()\n(h)\n.i\nUIView.animate(withDuration: 0.3) { self.view.layoutIfNeeded() }.j()",
        "a ) b ] c . ( d > e! ? . ! 1.f super.init() Self.k[0]() try? g()",
        "",
    ] + [{
        var state: UInt32 = 7
        let pieces = ["a", ".", "(", ")", "[", "]", "?", "!", "<", ">", "self", "1", "=", "\n", " ", "{", "}", ",", "+",
                      ".f(", ".g()", "?.h(x)", "[0]", ".init(", "super", "<T>"]
        return (0..<3_000).map { _ -> String in
            state = state &* 1_103_515_245 &+ 12345
            return pieces[Int(state >> 16) % pieces.count]
        }.joined()
    }()]

    /// The chain start by walking back step by step from `end`: what the table must equal.
    static func walkedChainStart(_ source: TokenizedSource, endingAt end: Int) -> Int {
        var cursor = end
        while cursor >= 0 {
            switch ExpressionBounds.chainStep(source, at: cursor) {
            case .continues(let next): cursor = next
            case .starts(let start): return min(start, end)
            }
        }
        return max(cursor, 0)
    }

    func testChainStartTableMatchesTheWalk() {
        for sample in Self.chainSamples {
            let source = Lexer.tokenize(SourceFile(path: "Chains.swift", text: sample))
            let table = ChainStarts(source)
            for end in -1...source.code.count {
                XCTAssertEqual(table.chainStart(endingAt: end), Self.walkedChainStart(source, endingAt: end),
                               "chain ending at token \(end) of \(sample.prefix(80))")
            }
        }
    }

    /// The last name of a receiver or of an assignment's left-hand side, walked back from its
    /// end, is the last of its names.
    func testLastNameMatchesTheChainsNames() {
        var compared = 0
        for sample in Self.chainSamples {
            let source = Lexer.tokenize(SourceFile(path: "Chains.swift", text: sample))
            let analysis = FileAnalysis(source)
            for chain in analysis.calls.compactMap(\.receiver) + analysis.assignments.map(\.lhs) {
                compared += 1
                XCTAssertEqual(ExpressionBounds.lastName(source, ofChainEndingAt: chain.upperBound - 1),
                               ExpressionBounds.chainNames(source, chain).last,
                               "chain \(chain) of \(sample.prefix(80))")
            }
        }
        XCTAssertGreaterThan(compared, 100)
    }

    /// `chainNames` (names gathered on the stack, a second walk for long chains) answers what
    /// collecting every top-level name of the range answers, for chains shorter and longer
    /// than what is gathered on the stack and with and without a limit.
    func testChainNamesMatchTheTopLevelNames() {
        var compared = 0, long = 0
        for sample in Self.chainSamples {
            let source = Lexer.tokenize(SourceFile(path: "Chains.swift", text: sample))
            for start in source.code.indices {
                for end in [start, start + 1, start + 3, start + 9, start + 20, start + 45] where end <= source.code.count {
                    for limit in [1, 2, 3, 8, 9, Int.max] {
                        var plain: [Int] = []
                        _ = source.firstTopLevel(in: start..<end) { cursor in
                            if source.kind(cursor) == .identifier || source.kind(cursor) == .keyword { plain.append(cursor) }
                            return plain.count >= limit
                        }
                        XCTAssertEqual(ExpressionBounds.chainNames(source, start..<end, upTo: limit), plain,
                                       "tokens \(start)..<\(end), limit \(limit) of \(sample.prefix(80))")
                        compared += 1
                        if plain.count > 8 { long += 1 }
                    }
                }
            }
        }
        XCTAssertGreaterThan(compared, 1_000)
        XCTAssertGreaterThan(long, 100)
    }

    /// Brackets deeper than `Limits.expressionNesting` inside an expression are passed over, so that
    /// nested closures each holding an assignment cost linear work.
    func testKeyboardValuesAreReadThirtyTwoBracketLevelsDeep() {
        func value(parentheses depth: Int) -> KeyboardValue? {
            let text = "func keyboardWillShow(_ note: Notification) {\n    x = " + String(repeating: "(", count: depth)
                + "note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey]" + String(repeating: ")", count: depth) + "\n}\n"
            let analysis = FileAnalysis(Lexer.tokenize(SourceFile(path: "Deep.swift", text: text)))
            return analysis.assignments.first.flatMap { analysis.keyboardValue(of: $0) }
        }
        XCTAssertEqual(Limits.expressionNesting, 32)
        // The key sits one level below the parentheses, inside the subscript.
        XCTAssertTrue(value(parentheses: 31)?.isFrame ?? false)
        XCTAssertNil(value(parentheses: 32))
    }

    /// The per-type scans the single pass replaced, as the reference.
    func referenceTypeBodies(_ source: TokenizedSource, _ outline: Outline) -> ([Bool], [[Range<Int>]]) {
        var safeArea: [Bool] = [], uses: [[Range<Int>]] = []
        for type in outline.typeIDs {
            var mentions = false
            var found: [Range<Int>] = []
            for index in outline[type].extent.clamped(to: 0..<source.code.count) where source.kind(index) == .identifier {
                if KeyboardVocabulary.namesSafeArea(source, at: index) { mentions = true }
                guard source.isWord(index, "keyboardLayoutGuide"), source.kind(index + 1) == .period,
                      source.wordIndex(index + 2, in: FactCollector.guideMembers) != nil,
                      outline.enclosingType(at: index) == type else { continue }
                found.append(source.byteRange(index..<(index + 1)))
            }
            safeArea.append(mentions)
            uses.append(found)
        }
        return (safeArea, uses)
    }

    func testTypeBodyScanMatchesPerTypeScans() {
        let samples = [
            """
            class A: UIViewController {
                class B: UIView {
                    func f() { keyboardLayoutGuide.topAnchor.constraint(equalTo: x).isActive = true }
                    struct C { let inset = safeAreaInsets.bottom }
                }
                func g() { view.keyboardLayoutGuide.followsUndockedKeyboard = true }
                var h: CGFloat { view.safeAreaLayoutGuide.layoutFrame.height }
            }
            extension A.B { func k() { _ = keyboardLayoutGuide.bottomAnchor } }
            struct D { let e = 1 }
            enum E { case a; struct F { let s = safeAreaInsets } }
            """,
            "class X { class Y { class Z { let a = safeAreaInsets } } }\nclass W { let b = keyboardLayoutGuide.topAnchor }",
            "class V { class U { let a = bottomLayoutGuide.length } }\nclass T { let b = bottomSafeAreaInset }",
            "class Broken { class Open { let a = safeAreaInsets\n",
            "",
        ]
        for sample in samples {
            let source = Lexer.tokenize(SourceFile(path: "A.swift", text: sample))
            let outline = Outline(source)
            let found = FactCollector.scanTypeBodies(
                source, outline, mayNameSafeArea: true, aliases: KeyboardLayoutGuideAliases(FileIndex(source)))
            let reference = referenceTypeBodies(source, outline)
            XCTAssertEqual(found.mentionsSafeArea, reference.0, sample)
            XCTAssertEqual(found.guideUses.map { $0.map(\.range) }, reference.1, sample)
        }
    }
}
