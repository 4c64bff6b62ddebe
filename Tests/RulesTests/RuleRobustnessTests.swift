import XCTest
import Lexer
@testable import Rules

/// Rules and the analysis must finish on any token stream, and stay fast on big files.
final class RuleRobustnessTests: XCTestCase {
    static let keyboardHandler = """
    final class Screen_N: UIViewController {
        @objc func keyboardWillShow(_ note: Notification) {
            guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
            let local = view.convert(frame, from: nil)
            scrollView.contentInset.bottom = local.height - view.safeAreaInsets.bottom
            UIView.animate(withDuration: 0.25) { self.view.layoutIfNeeded() }
            DispatchQueue.main.async { self.bottom.constant = frame.height }
        }
    }

    """

    func runAllRules(_ code: String, path: String = "Input.swift") -> [Diagnostic] {
        let source = Lexer.tokenize(SourceFile(path: path, text: code))
        let analysis = FileAnalysis(source, project: ProjectFacts(merging: [collectFacts(source)]))
        let context = RuleContext(analysis: analysis, deploymentTarget: OSVersion(14), options: [:])
        return RuleRegistry.all.flatMap { $0.init().check(context) }
    }

    func testPathologicalInputsFinish() {
        let prefix = "// keyboardWillShow keyboardFrameEndUserInfoKey\n"
        let inputs = [
            prefix + String(repeating: "{", count: 10_000),
            prefix + String(repeating: "(", count: 10_000) + String(repeating: ")", count: 10_000),
            prefix + "func keyboardWillShow(_ n: Notification) {" + String(repeating: "run { ", count: 10_000)
                + "x.contentInset = .zero" + String(repeating: " }", count: 10_000) + "}",
            prefix + "func keyboardWillShow(_ n: Notification) {" + String(repeating: "if a { ", count: 5_000)
                + "view.frame.origin.y -= n.userInfo![UIResponder.keyboardFrameEndUserInfoKey]!.height"
                + String(repeating: " }", count: 5_000) + "}",
            prefix + "class A { func keyboardWillHide(_ n: Notification) { let x = (( ] } } ) = = += .zero",
            prefix + "let = var = guard else { } switch { case } #if #endif #available( @available( func ( init ( ->",
            String(Self.keyboardHandler.prefix(300)),
            prefix + String(repeating: "a.", count: 20_000) + "contentInset = .zero",
        ]
        for input in inputs {
            _ = runAllRules(input)
        }
    }

    func testEveryPrefixOfAHandlerIsSafe() {
        let code = Self.keyboardHandler
        var cut = code.startIndex
        while cut < code.endIndex {
            _ = runAllRules(String(code[..<cut]))
            cut = code.index(cut, offsetBy: 7, limitedBy: code.endIndex) ?? code.endIndex
        }
    }

    func testLargeFileStaysFast() {
        var code = ""
        for index in 0..<300 {
            code += Self.keyboardHandler.replacingOccurrences(of: "_N", with: "\(index)")
        }
        let clock = ContinuousClock()
        var found: [Diagnostic] = []
        let elapsed = clock.measure { found = runAllRules(code) }
        XCTAssertGreaterThan(found.count, 300)
        XCTAssertLessThan(elapsed, .seconds(10), "analysis and rules on \(code.utf8.count) bytes took \(elapsed)")
    }
}
