import XCTest
import Lexer
@testable import Rules

/// Inputs that made the analysis quadratic, checked by the work they cause rather than by
/// time: expressions after a stray opening bracket (binary input read as Swift), and type
/// facts over thousands of types or deeply nested ones (generated code).
final class AnalysisScalingTests: XCTestCase {
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

    /// The per-type scans the single pass replaced, as the reference.
    func referenceTypeBodies(_ source: TokenizedSource, _ outline: Outline) -> ([Bool], [[Range<Int>]]) {
        var safeArea: [Bool] = [], uses: [[Range<Int>]] = []
        for (typeIndex, type) in outline.types.enumerated() {
            var mentions = false
            var found: [Range<Int>] = []
            for index in type.extent.clamped(to: 0..<source.code.count) where source.kind(index) == .identifier {
                if source.isWord(index, "safeAreaInsets") || source.isWord(index, "safeAreaLayoutGuide") { mentions = true }
                guard source.isWord(index, "keyboardLayoutGuide"), source.kind(index + 1) == .period,
                      source.wordIndex(index + 2, in: FactCollector.guideMembers) != nil,
                      outline.enclosingType(at: index) == typeIndex else { continue }
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
            "class Broken { class Open { let a = safeAreaInsets\n",
            "",
        ]
        for sample in samples {
            let source = Lexer.tokenize(SourceFile(path: "A.swift", text: sample))
            let outline = Outline(source)
            let found = FactCollector.scanTypeBodies(
                source, outline, enabled: true, importsGuidePackage: false,
                aliases: KeyboardLayoutGuideAliases(source, outline, bindings: []))
            let reference = referenceTypeBodies(source, outline)
            XCTAssertEqual(found.mentionsSafeArea, reference.0, sample)
            XCTAssertEqual(found.guideUses.map { $0.map(\.range) }, reference.1, sample)
        }
    }
}
