import XCTest
import Lexer
@testable import Rules

/// The guide analysis (anchor constraints, activations, lineage) on broken and large inputs.
final class MixingApproachesRobustnessTests: XCTestCase {
    static let guideScreen = """
    final class Screen_N: Base_N {
        lazy var bottom = bar.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor)
        override var inputAccessoryView: UIView? { accessory }
        override func viewDidLoad() {
            super.viewDidLoad()
            view.keyboardLayoutGuide.followsUndockedKeyboard = true
            NSLayoutConstraint.activate([
                list.bottomAnchor.constraint(equalTo: bar.topAnchor),
                view.keyboardLayoutGuide.leadingAnchor.constraint(equalTo: bar?.leadingAnchor),
            ])
            bottom.isActive = true
            callbacks[.willShow] = { note in self.list.contentInset.bottom = 1 }
            NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillShow(_:)),
                                                   name: UIResponder.keyboardWillShowNotification, object: nil)
        }
        @objc func keyboardWillShow(_ note: Notification) {
            let frame = note.userInfo![UIResponder.keyboardFrameEndUserInfoKey] as! CGRect
            list.contentInset.bottom = frame.height
            IQKeyboardManager.shared.isEnabled = true
        }
    }
    class Base_N: UIViewController {}

    """

    func runMixingRules(_ code: String, target: OSVersion?) -> [Diagnostic] {
        let source = Lexer.tokenize(SourceFile(path: "Input.swift", text: code))
        let analysis = FileAnalysis(source, project: ProjectFacts(merging: [collectFacts(source)]))
        let context = RuleContext(analysis: analysis, deploymentTarget: target, options: [:])
        return RuleRegistry.all.filter { $0.metadata.category == .mixingApproaches }.flatMap { $0.init().check(context) }
    }

    func testBrokenGuideCodeFinishes() {
        let inputs = [
            "view.keyboardLayoutGuide.",
            ".keyboardLayoutGuide.topAnchor.constraint(",
            "x.bottomAnchor.constraint(equalTo: ).isActive = true keyboardLayoutGuide",
            "callbacks[.willShow] = { callbacks[.willHide] = {",
            "class A: A { let keyboardLayoutGuide = 1 } class B: B {} extension UIView { var keyboardLayoutGuide",
            "NSLayoutConstraint.activate([" + String(repeating: "a.topAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor),", count: 2_000),
            String(repeating: "view.keyboardLayoutGuide.setConstraints([", count: 3_000),
        ]
        for input in inputs {
            for target in [nil, OSVersion(15), OSVersion(16), OSVersion(26)] {
                _ = runMixingRules(input, target: target)
            }
        }
    }

    func testEveryPrefixOfAGuideScreenIsSafe() {
        let code = Self.guideScreen
        var cut = code.startIndex
        while cut < code.endIndex {
            _ = runMixingRules(String(code[..<cut]), target: OSVersion(26))
            cut = code.index(cut, offsetBy: 5, limitedBy: code.endIndex) ?? code.endIndex
        }
    }

    func testManyGuideScreensStayFast() {
        var code = ""
        for index in 0..<300 {
            code += Self.guideScreen.replacingOccurrences(of: "_N", with: "\(index)")
        }
        let clock = ContinuousClock()
        var found: [Diagnostic] = []
        let elapsed = clock.measure { found = runMixingRules(code, target: OSVersion(15, 2)) }
        XCTAssertGreaterThanOrEqual(found.count, 300 * 4, "inset edits, manager, accessory, availability, undocked")
        XCTAssertLessThan(elapsed, .seconds(10), "mixing rules on \(code.utf8.count) bytes took \(elapsed)")
    }
}
