import XCTest
import Lexer
@testable import Rules

/// The accessory and related-pitfall rules on broken, deep and large inputs: they finish,
/// never trap, and stay linear enough for big files.
final class AccessoryRobustnessTests: XCTestCase {
    static let rules: [any Rule.Type] = [
        AccessoryToolbarZeroFrame.self, AccessoryViewRecreated.self, AccessoryMissingCanBecomeFirstResponder.self,
        AccessoryRetainCycle.self, AccessoryViewAddedAsSubview.self, AccessoryMissingFlexibleHeight.self,
        AccessoryBlurInsteadOfInputView.self, TextViewContentSizeHeight.self, DisplayLinkStrongTarget.self,
    ]

    static let screen = """
    final class Chat_N: UIViewController {
        private lazy var bar: Bar_N = { let b = Bar_N(); b.autoresizingMask = .flexibleHeight; return b }()
        private var link: CADisplayLink?
        let textView = UITextView()
        override var inputAccessoryView: UIView? { isHidden ? nil : bar }
        override var canBecomeFirstResponder: Bool { true }
        override func viewDidLoad() {
            super.viewDidLoad()
            let toolbar = UIToolbar()
            textView.isScrollEnabled = false
            textView.inputAccessoryView = toolbar
            view.addSubview(toolbar)
            link = CADisplayLink(target: self, selector: #selector(step))
            print(textView.contentSize.height)
        }
        @objc func step() {}
        deinit { link?.invalidate() }
    }
    final class Bar_N: UIView {
        let blur = UIVisualEffectView(effect: UIBlurEffect(style: .regular))
        override var intrinsicContentSize: CGSize { CGSize(width: -1, height: lines * 20) }
    }

    """

    func run(_ code: String) -> [Diagnostic] {
        let source = Lexer.tokenize(SourceFile(path: "Input.swift", text: code))
        let analysis = FileAnalysis(source, project: ProjectFacts(merging: [collectFacts(source)]))
        let context = RuleContext(analysis: analysis, deploymentTarget: nil, options: [:])
        return Self.rules.flatMap { $0.init().check(context) }
    }

    func testPathologicalInputsFinish() {
        let prefix = "// inputAccessoryView intrinsicContentSize CADisplayLink isScrollEnabled UIVisualEffectView\n"
        let inputs = [
            prefix + String(repeating: "{", count: 10_000),
            prefix + "override var inputAccessoryView: UIView? {" + String(repeating: "(", count: 5_000),
            prefix + "class A: UIViewController { override var inputAccessoryView: UIView? { "
                + String(repeating: "a ?? ", count: 3_000) + "b } }",
            prefix + "class A: UIViewController { override var inputAccessoryView: UIView? { "
                + String(repeating: "c ? a : ", count: 3_000) + "b } }",
            prefix + "class A: UIView { override var inputAccessoryView: UIView? { make() }\n func make() -> UIView { make() } }",
            prefix + "class A: UIView { override var inputAccessoryView: UIView? { x }\n"
                + "func f() { let x = y; let y = x; view.addSubview(x) } }",
            prefix + "class A: B {} class B: A { override var inputAccessoryView: UIView? { v } }",
            prefix + "let link = CADisplayLink(target: self, selector: #selector(",
            prefix + "x.isScrollEnabled = false; x.contentSize.height; self.contentSize.",
            prefix + "override var intrinsicContentSize: CGSize { CGSize(width: 1, height: ) }",
            prefix + "class V: UIView { let e = UIVisualEffectView(effect: ) }",
            prefix + String(repeating: "a.", count: 20_000) + "inputAccessoryView = UIToolbar()",
        ]
        for input in inputs {
            _ = run(input)
        }
    }

    func testEveryPrefixOfAScreenIsSafe() {
        let code = Self.screen
        var cut = code.startIndex
        while cut < code.endIndex {
            _ = run(String(code[..<cut]))
            cut = code.index(cut, offsetBy: 5, limitedBy: code.endIndex) ?? code.endIndex
        }
    }

    func testLargeFileStaysFast() {
        var code = ""
        for index in 0..<200 {
            code += Self.screen.replacingOccurrences(of: "_N", with: "\(index)")
        }
        let start = Date()
        let found = run(code)
        let elapsed = Date().timeIntervalSince(start)
        // Each copy triggers the toolbar, subview, display-link and content-size rules.
        XCTAssertEqual(found.filter { $0.ruleID == "accessory_toolbar_zero_frame" }.count, 200)
        XCTAssertEqual(found.filter { $0.ruleID == "display_link_strong_target" }.count, 200)
        XCTAssertLessThan(elapsed, 10, "200 screens took \(elapsed)s")
    }
}
