import XCTest
import Lexer
@testable import Rules

/// The one robustness harness: every rule, through `FileChecker` as the command line runs
/// them, on broken, deep, prefix-cut and large inputs. They finish, never trap, and stay
/// linear enough for big files.
final class RobustnessTests: XCTestCase {
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

    static let observerScreen = """
    final class ChatViewController: UIViewController {
        private var token: NSObjectProtocol?
        private var bag = Set<AnyCancellable>()
        private var task: Task<Void, Never>?
        override func viewWillAppear(_ animated: Bool) {
            super.viewWillAppear(animated)
            token = NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillShowNotification, object: self, queue: .main) { [self] n in
                bottom.constant = 300; self.view.layoutIfNeeded()
            }
            [UIResponder.keyboardDidShowNotification].forEach { NotificationCenter.default.addObserver(self, selector: #selector(shown), name: $0, object: nil) }
            NotificationCenter.default.publisher(for: UIResponder.keyboardWillHideNotification).sink { _ in self.reset() }.store(in: &bag)
            task = Task { for await _ in NotificationCenter.default.notifications(named: UIResponder.keyboardDidHideNotification) { self.view.frame.origin.y = 0 } }
        }
        override func viewDidDisappear(_ animated: Bool) { NotificationCenter.default.removeObserver(self) }
        deinit { if let token { NotificationCenter.default.removeObserver(token) } }
    }
    """

    /// Every rule (with its byte pre-check) on `code` under `target`.
    func check(_ code: String, target: OSVersion?) -> [Diagnostic] {
        let file = SourceFile(path: "Input.swift", text: code)
        let checker = FileChecker(rules: RuleRegistry.all.map { ConfiguredRule($0) }, deploymentTarget: target)
        return checker.check(file, project: ProjectFacts(merging: [collectFacts(Lexer.tokenize(file))]))
    }

    func testPathologicalInputsFinish() {
        let keyboardInputsPrefix = "// keyboardWillShow keyboardFrameEndUserInfoKey\n"
        let keyboardInputs = [
            keyboardInputsPrefix + String(repeating: "{", count: 10_000),
            keyboardInputsPrefix + String(repeating: "(", count: 10_000) + String(repeating: ")", count: 10_000),
            keyboardInputsPrefix + "func keyboardWillShow(_ n: Notification) {" + String(repeating: "run { ", count: 10_000)
                + "x.contentInset = .zero" + String(repeating: " }", count: 10_000) + "}",
            keyboardInputsPrefix + "func keyboardWillShow(_ n: Notification) {" + String(repeating: "if a { ", count: 5_000)
                + "view.frame.origin.y -= n.userInfo![UIResponder.keyboardFrameEndUserInfoKey]!.height"
                + String(repeating: " }", count: 5_000) + "}",
            keyboardInputsPrefix + "class A { func keyboardWillHide(_ n: Notification) { let x = (( ] } } ) = = += .zero",
            keyboardInputsPrefix + "let = var = guard else { } switch { case } #if #endif #available( @available( func ( init ( ->",
            String(Self.keyboardHandler.prefix(300)),
            keyboardInputsPrefix + String(repeating: "a.", count: 20_000) + "contentInset = .zero",
        ]
        let accessoryInputsPrefix = "// inputAccessoryView intrinsicContentSize CADisplayLink isScrollEnabled UIVisualEffectView\n"
        let accessoryInputs = [
            accessoryInputsPrefix + String(repeating: "{", count: 10_000),
            accessoryInputsPrefix + "override var inputAccessoryView: UIView? {" + String(repeating: "(", count: 5_000),
            accessoryInputsPrefix + "class A: UIViewController { override var inputAccessoryView: UIView? { "
                + String(repeating: "a ?? ", count: 3_000) + "b } }",
            accessoryInputsPrefix + "class A: UIViewController { override var inputAccessoryView: UIView? { "
                + String(repeating: "c ? a : ", count: 3_000) + "b } }",
            accessoryInputsPrefix + "class A: UIView { override var inputAccessoryView: UIView? { make() }\n func make() -> UIView { make() } }",
            accessoryInputsPrefix + "class A: UIView { override var inputAccessoryView: UIView? { x }\n"
                + "func f() { let x = y; let y = x; view.addSubview(x) } }",
            accessoryInputsPrefix + "class A: B {} class B: A { override var inputAccessoryView: UIView? { v } }",
            accessoryInputsPrefix + "let link = CADisplayLink(target: self, selector: #selector(",
            accessoryInputsPrefix + "x.isScrollEnabled = false; x.contentSize.height; self.contentSize.",
            accessoryInputsPrefix + "override var intrinsicContentSize: CGSize { CGSize(width: 1, height: ) }",
            accessoryInputsPrefix + "class V: UIView { let e = UIVisualEffectView(effect: ) }",
            accessoryInputsPrefix + String(repeating: "a.", count: 20_000) + "inputAccessoryView = UIToolbar()",
        ]
        let guideInputs = [
            "view.keyboardLayoutGuide.",
            ".keyboardLayoutGuide.topAnchor.constraint(",
            "x.bottomAnchor.constraint(equalTo: ).isActive = true keyboardLayoutGuide",
            "callbacks[.willShow] = { callbacks[.willHide] = {",
            "class A: A { let keyboardLayoutGuide = 1 } class B: B {} extension UIView { var keyboardLayoutGuide",
            "NSLayoutConstraint.activate([" + String(repeating: "a.topAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor),", count: 2_000),
            String(repeating: "view.keyboardLayoutGuide.setConstraints([", count: 3_000),
        ]
        // Deployment targets matter to the guide rules only.
        let targets: [([String], [OSVersion?])] = [
            (keyboardInputs, [OSVersion(14)]), (accessoryInputs, [nil]),
            (guideInputs, [nil, OSVersion(15), OSVersion(16), OSVersion(26)]),
        ]
        for (inputs, targets) in targets {
            for input in inputs {
                for target in targets { _ = check(input, target: target) }
            }
        }
    }

    func testEveryPrefixOfAScreenIsSafe() {
        for (code, step, target) in [(Self.keyboardHandler, 7, OSVersion(14)), (Self.screen, 5, nil), (Self.guideScreen, 5, OSVersion(26)),
                                    (Self.observerScreen, 5, nil)] {
            var cut = code.startIndex
            while cut < code.endIndex {
                _ = check(String(code[..<cut]), target: target)
                cut = code.index(cut, offsetBy: step, limitedBy: code.endIndex) ?? code.endIndex
            }
        }
    }

    /// `copies` renamed copies of `screen` in one file, checked under `target`: the findings
    /// and the time taken.
    func checkCopies(of screen: String, _ copies: Int, target: OSVersion?) -> ([Diagnostic], Duration) {
        var code = ""
        for index in 0..<copies {
            code += screen.replacingOccurrences(of: "_N", with: "\(index)")
        }
        var found: [Diagnostic] = []
        let elapsed = ContinuousClock().measure { found = check(code, target: target) }
        return (found, elapsed)
    }

    func testLargeKeyboardFileStaysFast() {
        let (found, elapsed) = checkCopies(of: Self.keyboardHandler, 300, target: OSVersion(14))
        XCTAssertGreaterThan(found.count, 300)
        XCTAssertLessThan(elapsed, .seconds(10), "300 keyboard handlers took \(elapsed)")
    }

    func testLargeAccessoryFileStaysFast() {
        let (found, elapsed) = checkCopies(of: Self.screen, 200, target: nil)
        // Each copy triggers the toolbar, subview, display-link and content-size rules.
        XCTAssertEqual(found.filter { $0.ruleID == "accessory_toolbar_zero_frame" }.count, 200)
        XCTAssertEqual(found.filter { $0.ruleID == "display_link_strong_target" }.count, 200)
        XCTAssertLessThan(elapsed, .seconds(10), "200 screens took \(elapsed)")
    }

    func testManyGuideScreensStayFast() {
        let (found, elapsed) = checkCopies(of: Self.guideScreen, 300, target: OSVersion(15, 2))
        let mixing = Set(RuleRegistry.all.filter { $0.metadata.category == .mixingApproaches }.map { $0.metadata.id })
        XCTAssertGreaterThanOrEqual(found.filter { mixing.contains($0.ruleID) }.count, 300 * 4,
                                    "inset edits, manager, accessory, availability, undocked")
        XCTAssertLessThan(elapsed, .seconds(10), "300 guide screens took \(elapsed)")
    }
}
