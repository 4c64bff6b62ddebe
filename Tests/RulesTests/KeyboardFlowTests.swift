import XCTest
import Lexer
@testable import Rules

/// Ways real code carries a keyboard value to where a rule judges it: each flow with code it
/// must follow and code it must leave alone.
final class KeyboardFlowTests: XCTestCase {
    /// The lines (1-based) of `rule`'s findings in `code`, sorted.
    func check(_ rule: any Rule.Type, _ code: String, files: [String: String] = [:],
               target: OSVersion? = nil) -> [Int] {
        let bytes = Array(code.utf8)
        return RuleExamplesTests.diagnostics(rule, code: code, files: files, deploymentTarget: target).map { diagnostic in
            1 + bytes[..<diagnostic.range.lowerBound].count { $0 == UInt8(ascii: "\n") }
        }.sorted()
    }

    func lines(_ found: [Int]) -> [Int] { found }

    func handler(_ body: String) -> String {
        """
        final class FormViewController: UIViewController {
            @objc func keyboardMoves(_ note: Notification) {
                guard let end = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
        \(body)
            }
        }
        """
    }

    // MARK: Struct copies written back

    func testInsetsCopyWrittenBackCarriesTheBottom() {
        let code = handler("""
                var insets = scrollView.contentInset
                insets.bottom = end.height
                scrollView.contentInset = insets
        """)
        XCTAssertEqual(lines(check(KeyboardInsetIgnoresSafeArea.self, code)), [6])
        XCTAssertEqual(lines(check(KeyboardFrameScreenSpace.self, code)), [5])
        XCTAssertEqual(lines(check(KeyboardHeightNotOverlap.self, code)), [5])
    }

    func testInsetsCopyThroughSafeAreaMathStaysClean() {
        // Several hops, each keeping the safe-area term.
        let code = handler("""
                let local = view.convert(end, from: nil)
                let overlap = max(0, view.bounds.maxY - local.minY - view.safeAreaInsets.bottom)
                let lift = overlap
                var insets = scrollView.contentInset
                insets.bottom = lift
                insets.top = 8
                scrollView.contentInset = insets
        """)
        XCTAssertTrue(check(KeyboardInsetIgnoresSafeArea.self, code).isEmpty)
        XCTAssertTrue(check(KeyboardFrameScreenSpace.self, code).isEmpty)
        // Only the top of the copy comes from the keyboard: the bottom is not judged.
        let top = handler("""
                var insets = scrollView.contentInset
                insets.top = view.convert(end, from: nil).height
                scrollView.contentInset = insets
        """)
        XCTAssertTrue(check(KeyboardInsetIgnoresSafeArea.self, top).isEmpty)
    }

    func testFrameCopyMovedRelativelyAccumulates() {
        let code = handler("""
                let overlap = max(0, view.bounds.maxY - view.convert(end, from: nil).minY)
                var barFrame = bar.frame
                barFrame.origin.y -= overlap
                bar.frame = barFrame
        """)
        XCTAssertEqual(lines(check(KeyboardInsetAccumulates.self, code)), [7])
    }

    func testFrameCopySetAbsolutelyOrFromAnotherViewDoesNotAccumulate() {
        let absolute = handler("""
                let overlap = max(0, view.bounds.maxY - view.convert(end, from: nil).minY)
                var barFrame = bar.frame
                barFrame.origin.y = view.bounds.maxY - overlap - barFrame.height
                bar.frame = barFrame
        """)
        XCTAssertTrue(check(KeyboardInsetAccumulates.self, absolute).isEmpty)
        let otherView = handler("""
                let overlap = max(0, view.bounds.maxY - view.convert(end, from: nil).minY)
                var barFrame = template.frame
                barFrame.origin.y -= overlap
                bar.frame = barFrame
        """)
        XCTAssertTrue(check(KeyboardInsetAccumulates.self, otherView).isEmpty)
    }

    // MARK: Deferred initialisation and ternaries

    func testDeferredLetKeepsTheValueOfEitherBranch() {
        let code = handler("""
                let lift: CGFloat
                if follows {
                    lift = end.height
                } else {
                    lift = 0
                }
                bottomConstraint.constant = -lift
        """)
        XCTAssertEqual(lines(check(KeyboardFrameScreenSpace.self, code)), [6])
        let converted = handler("""
                let lift: CGFloat
                if follows {
                    lift = view.convert(end, from: nil).height
                } else {
                    lift = 0
                }
                bottomConstraint.constant = -lift
        """)
        XCTAssertTrue(check(KeyboardFrameScreenSpace.self, converted).isEmpty)
    }

    func testTernaryBranchesAreRead() {
        let code = handler("""
                let overlap = max(0, view.bounds.maxY - view.convert(end, from: nil).minY)
                editor.contentInset.bottom = editor.isFirstResponder ? overlap : 0
        """)
        XCTAssertEqual(lines(check(KeyboardInsetIgnoresSafeArea.self, code)), [5])
        let safe = handler("""
                let overlap = max(0, view.bounds.maxY - view.convert(end, from: nil).minY)
                editor.contentInset.bottom = editor.isFirstResponder ? overlap - view.safeAreaInsets.bottom : 0
        """)
        XCTAssertTrue(check(KeyboardInsetIgnoresSafeArea.self, safe).isEmpty)
    }

    // MARK: Constants

    func testZeroInsetsThroughConstants() {
        let code = """
        final class EditorViewController: UIViewController {
            private static let noInsets = UIEdgeInsets.zero
            @objc func keyboardWillHide(_ note: Notification) {
                let cleared = UIEdgeInsets.zero
                body.contentInset = cleared
                body.verticalScrollIndicatorInsets = Self.noInsets
            }
        }
        """
        XCTAssertEqual(lines(check(ContentInsetResetToZero.self, code)), [5, 6])
    }

    func testSavedInsetsConstantIsNotAReset() {
        let code = """
        final class EditorViewController: UIViewController {
            private static let resting = UIEdgeInsets(top: 64, left: 0, bottom: 0, right: 0)
            @objc func keyboardWillHide(_ note: Notification) {
                let saved = originalInsets
                body.contentInset = saved
                body.verticalScrollIndicatorInsets = Self.resting
            }
        }
        """
        XCTAssertTrue(check(ContentInsetResetToZero.self, code).isEmpty)
    }

    // MARK: Animation options and curves

    func testEmptyAnimationOptionsHaveNoCurve() {
        for options in ["UIView.AnimationOptions()", "[]"] {
            let code = handler("""
                    UIView.animate(withDuration: 0.25, delay: 0, options: \(options), animations: { self.view.layoutIfNeeded() })
            """)
            XCTAssertEqual(lines(check(KeyboardCurveMismatch.self, code)), [4], options)
        }
        let curve = """
        final class FormViewController: UIViewController {
            @objc func keyboardMoves(_ note: Notification) {
                let curve = note.userInfo?[UIResponder.keyboardAnimationCurveUserInfoKey] as? UInt ?? 0
                UIView.animate(withDuration: 0.25, delay: 0, options: UIView.AnimationOptions(rawValue: curve << 16), animations: { self.view.layoutIfNeeded() })
            }
        }
        """
        XCTAssertTrue(check(KeyboardCurveMismatch.self, curve).isEmpty)
    }

    func testImplicitOptionsInitializerTakesTheCurve() {
        let code = """
        final class FormViewController: UIViewController {
            @objc func keyboardMoves(_ note: Notification) {
                let curve = note.userInfo?[UIResponder.keyboardAnimationCurveUserInfoKey] as? UInt ?? 0
                UIView.animate(withDuration: 0.25, delay: 0, options: .init(rawValue: curve), animations: { self.view.layoutIfNeeded() })
                UIView.animate(withDuration: 0.25, delay: 0, options: .init(rawValue: curve << 16), animations: { self.view.layoutIfNeeded() })
            }
        }
        """
        XCTAssertEqual(lines(check(KeyboardCurveUnshifted.self, code)), [4])
        // `.init(rawValue:)` of some other type is not an options set.
        let other = """
        final class FormViewController: UIViewController {
            @objc func keyboardMoves(_ note: Notification) {
                let curve = note.userInfo?[UIResponder.keyboardAnimationCurveUserInfoKey] as? Int ?? 0
                style = .init(rawValue: curve)
            }
        }
        """
        XCTAssertTrue(check(KeyboardCurveUnshifted.self, other).isEmpty)
    }

    func testCurveParameterOfHelperCallback() {
        let code = """
        final class ComposerView: UIView {
            func keyboardWillChangeFrame(to end: CGRect, duration: TimeInterval, curve: UInt) {
                let options = UIView.AnimationOptions(rawValue: curve)
                let shifted = UIView.AnimationOptions(rawValue: curve << 16)
            }
        }
        """
        XCTAssertEqual(lines(check(KeyboardCurveUnshifted.self, code)), [3])
    }

    // MARK: Handlers

    func testRegistrationDecidesOverTheMethodName() {
        let code = """
        final class ProfileViewController: UIViewController {
            override func viewDidLoad() {
                super.viewDidLoad()
                NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillShow(_:)), name: UIResponder.keyboardDidShowNotification, object: nil)
                NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillHide(_:)), name: UIResponder.keyboardWillHideNotification, object: nil)
            }
            @objc func keyboardWillShow(_ note: Notification) { saveBottom.constant = 80 }
            @objc func keyboardWillHide(_ note: Notification) { saveBottom.constant = 0 }
        }
        """
        XCTAssertEqual(lines(check(KeyboardDidShowForLayout.self, code)), [4])
        let will = code.replacingOccurrences(of: "keyboardDidShowNotification", with: "keyboardWillShowNotification")
        XCTAssertTrue(check(KeyboardDidShowForLayout.self, will).isEmpty)
    }

    // MARK: Geometry

    func testConvertingToASuperviewStaysInViewSpace() {
        let code = handler("""
                let inSuperview = tableView.convert(tableView.bounds, to: tableView.superview)
                tableView.contentInset.bottom = max(0, inSuperview.intersection(end).height - view.safeAreaInsets.bottom)
        """)
        XCTAssertEqual(lines(check(KeyboardFrameScreenSpace.self, code)), [5])
        for target in ["nil", "view.window", "UIApplication.mainWindow"] {
            let window = code.replacingOccurrences(of: "to: tableView.superview", with: "to: \(target)")
            XCTAssertTrue(check(KeyboardFrameScreenSpace.self, window).isEmpty, target)
        }
    }

    func testScreenGuardWithConditionsOnSeveralLines() {
        let code = """
        final class AvoidingView: UIView {
            @objc private func keyboardMoves(_ note: Notification) {
                guard
                    let screen = note.object as? UIScreen,
                    screen === window?.screen,
                    let end = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect
                else { return }
                bottomPin.constant = 0
            }
        }
        """
        XCTAssertEqual(lines(check(KeyboardNotificationScreenGuard.self, code, target: OSVersion(15))), [3])
        XCTAssertTrue(check(KeyboardNotificationScreenGuard.self, code, target: OSVersion(16, 1)).isEmpty)
        let ifElse = """
        final class AvoidingView: UIView {
            @objc private func keyboardMoves(_ note: Notification) {
                if let screen = note.object as? UIScreen, let end = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect {
                    bottomPin.constant = 0
                } else { return }
            }
        }
        """
        XCTAssertTrue(check(KeyboardNotificationScreenGuard.self, ifElse, target: OSVersion(15)).isEmpty)
    }

    // MARK: Notification names and userInfo keys in constants

    func testNotificationNamesInConstants() {
        let code = """
        enum KeyboardNames {
            static let willShow = UIResponder.keyboardWillShowNotification
        }
        extension Notification.Name {
            static let keyboardGone = UIResponder.keyboardWillHideNotification
        }
        final class SearchViewController: UIViewController {
            override func viewDidLoad() {
                super.viewDidLoad()
                let changes = UIResponder.keyboardWillChangeFrameNotification
                NotificationCenter.default.addObserver(self, selector: #selector(collapse(_:)), name: KeyboardNames.willShow, object: nil)
                NotificationCenter.default.addObserver(self, selector: #selector(expand(_:)), name: .keyboardGone, object: nil)
                NotificationCenter.default.addObserver(self, selector: #selector(follow(_:)), name: changes, object: nil)
            }
            @objc func collapse(_ note: Notification) { UIView.animate(withDuration: 0.25) { self.view.layoutIfNeeded() } }
            @objc func expand(_ note: Notification) { UIView.animate(withDuration: 0.25) { self.view.layoutIfNeeded() } }
            @objc func follow(_ note: Notification) { UIView.animate(withDuration: 0.25) { self.view.layoutIfNeeded() } }
        }
        """
        XCTAssertEqual(check(KeyboardDurationHardcoded.self, code), [15, 16, 17])
    }

    func testOtherNotificationNamesInConstantsAreNotKeyboardHandlers() {
        let code = """
        enum AppNames {
            static let refreshed = Notification.Name("Refreshed")
        }
        final class SearchViewController: UIViewController {
            override func viewDidLoad() {
                super.viewDidLoad()
                let rotated = UIDevice.orientationDidChangeNotification
                NotificationCenter.default.addObserver(self, selector: #selector(collapse(_:)), name: AppNames.refreshed, object: nil)
                NotificationCenter.default.addObserver(self, selector: #selector(expand(_:)), name: rotated, object: nil)
            }
            @objc func collapse(_ note: Notification) { UIView.animate(withDuration: 0.25) { self.view.layoutIfNeeded() } }
            @objc func expand(_ note: Notification) { UIView.animate(withDuration: 0.25) { self.view.layoutIfNeeded() } }
        }
        """
        XCTAssertTrue(check(KeyboardDurationHardcoded.self, code).isEmpty)
    }

    func testUserInfoKeyInConstant() {
        let code = """
        final class Footer: UIView {
            private static let endFrameKey = UIResponder.keyboardFrameEndUserInfoKey
            func update(with note: Notification) {
                guard let end = note.userInfo?[Self.endFrameKey] as? CGRect else { return }
                isHidden = end.minY < UIScreen.main.bounds.height
            }
        }
        """
        XCTAssertEqual(check(KeyboardMathUsesMainScreen.self, code), [5])
        // A constant holding what a key read is the value, not a key: its begin frame is
        // reported where the key is.
        let value = handler("""
                guard let begin = note.userInfo?[UIResponder.keyboardFrameBeginUserInfoKey] as? NSValue else { return }
                let frame = begin
                bottomConstraint.constant = view.convert(frame.cgRectValue, from: nil).height
        """)
        XCTAssertEqual(check(KeyboardFrameBeginKey.self, value), [4])
        let other = """
        final class Footer: UIView {
            private static let nameKey = "name"
            func update(with note: Notification) {
                guard let name = note.userInfo?[Self.nameKey] as? String else { return }
                isHidden = name.count < Int(UIScreen.main.bounds.height)
            }
        }
        """
        XCTAssertTrue(check(KeyboardMathUsesMainScreen.self, other).isEmpty)
    }

    // MARK: Observers

    /// The key a name holds through constants is the one following them gives, whether or
    /// not the file has a constant initialised with a key (which spares following them).
    func testUserInfoKeyOfEveryNameIsTheFollowedConstants() {
        let sources = [
            """
            final class Chat: UIViewController {
                static let endKey = UIResponder.keyboardFrameEndUserInfoKey
                enum Keys { static let curve = UIResponder.keyboardAnimationCurveUserInfoKey }
                @objc func moved(_ note: Notification) {
                    let duration = UIResponder.keyboardAnimationDurationUserInfoKey
                    let alias = duration
                    var mutable = UIResponder.keyboardFrameBeginUserInfoKey
                    let height = view.frame.height
                    _ = (note.userInfo?[Self.endKey], note.userInfo?[Keys.curve], note.userInfo?[alias], mutable, height)
                }
            }
            """,
            """
            final class Plain: UIViewController {
                let inset = view.safeAreaInsets.bottom
                @objc func moved(_ note: Notification) {
                    let height = view.frame.height
                    let alias = height
                    _ = (note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey], alias, inset)
                }
            }
            """,
        ]
        var found = 0
        for text in sources {
            let model = FileModel(Lexer.tokenize(SourceFile(path: "Chat.swift", text: text)))
            let constants = model.constants, source = model.source
            for index in source.code.indices where source.kind(index) == .identifier {
                var followed: KeyboardUserInfoKey?
                if constants.plainChainConstantNames.contains(source.nameHash(index)),
                   let value = constants.constantValue(endingAt: index), constants.isPlainChain(value) {
                    followed = KeyboardVocabulary.userInfoKey(source, at: value.upperBound - 1)
                }
                XCTAssertEqual(constants.userInfoKey(namedAt: index), followed, source.text(at: index))
                if followed != nil { found += 1 }
            }
        }
        XCTAssertGreaterThanOrEqual(found, 3, "endKey, curve and alias name keys")
    }

    func testTokenDroppedAsTheBodyOfASwitchCase() {
        let code = """
        final class InputController {
            func start(_ mode: Mode) {
                switch mode {
                case .follow:
                    NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillHideNotification, object: nil, queue: .main) { _ in }
                case .fixed:
                    token = NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillShowNotification, object: nil, queue: .main) { _ in }
                default:
                    let kept = NotificationCenter.default.addObserver(forName: UIResponder.keyboardDidShowNotification, object: nil, queue: .main) { _ in }
                    tokens.append(kept)
                }
            }
        }
        """
        XCTAssertEqual(check(ObserverTokenDiscarded.self, code), [5])
    }

    func testConfigurationFlagIsNotAnIdempotenceGuard() {
        let code = """
        final class EditorViewController: UIViewController {
            var avoidsKeyboard = true
            override func viewWillAppear(_ animated: Bool) {
                super.viewWillAppear(animated)
                startObserving()
            }
            override func viewDidDisappear(_ animated: Bool) {
                super.viewDidDisappear(animated)
                NotificationCenter.default.removeObserver(self, name: UIResponder.keyboardWillChangeFrameNotification, object: nil)
            }
            private func startObserving() {
                guard avoidsKeyboard else { return }
                NotificationCenter.default.addObserver(self, selector: #selector(keyboardMoves(_:)), name: UIResponder.keyboardWillChangeFrameNotification, object: nil)
            }
            @objc private func keyboardMoves(_ note: Notification) { bottom.constant = 0 }
        }
        """
        XCTAssertEqual(check(KeyboardObserverLifecycleUnbalanced.self, code), [13])
        let idempotent = code.replacingOccurrences(of: """
                guard avoidsKeyboard else { return }
                NotificationCenter.default.addObserver(self, selector: #selector(keyboardMoves(_:)), name: UIResponder.keyboardWillChangeFrameNotification, object: nil)
        """, with: """
                guard !isObserving else { return }
                NotificationCenter.default.addObserver(self, selector: #selector(keyboardMoves(_:)), name: UIResponder.keyboardWillChangeFrameNotification, object: nil)
                isObserving = true
        """)
        XCTAssertNotEqual(idempotent, code)
        XCTAssertTrue(check(KeyboardObserverLifecycleUnbalanced.self, idempotent).isEmpty)
    }

    func testExtensionsInOtherFiles() {
        let code = """
        final class LoginViewController: UIViewController {
            override func viewDidAppear(_ animated: Bool) {
                super.viewDidAppear(animated)
                NotificationCenter.default.addObserver(self, selector: #selector(keyboardMoves(_:)), name: UIResponder.keyboardWillChangeFrameNotification, object: nil)
            }
            @objc private func keyboardMoves(_ note: Notification) { bottom.constant = 0 }
        }
        """
        let unrelated = """
        extension LoginViewController: UITextFieldDelegate {
            func textFieldShouldReturn(_ textField: UITextField) -> Bool { true }
        }
        """
        XCTAssertEqual(check(KeyboardObserverLifecycleUnbalanced.self, code, files: ["Delegate.swift": unrelated]), [4])
        let removing = """
        extension LoginViewController {
            override func viewWillDisappear(_ animated: Bool) {
                super.viewWillDisappear(animated)
                NotificationCenter.default.removeObserver(self)
            }
        }
        """
        XCTAssertTrue(check(KeyboardObserverLifecycleUnbalanced.self, code, files: ["Removal.swift": removing]).isEmpty)
    }

    func testLifecyclePhasesReachHelpersDeclaredInOtherFiles() {
        let helpers = """
        extension CartViewController {
            func beginObserving() {
                NotificationCenter.default.addObserver(self, selector: #selector(keyboardMoves(_:)), name: UIResponder.keyboardWillChangeFrameNotification, object: nil)
            }
            func endObserving() {
                NotificationCenter.default.removeObserver(self, name: UIResponder.keyboardWillChangeFrameNotification, object: nil)
            }
            @objc func keyboardMoves(_ note: Notification) { bottom.constant = 0 }
        }
        """
        func controller(_ body: String) -> String {
            """
            final class CartViewController: UIViewController {
            \(body)
            }
            """
        }
        let onAppear = controller("""
            override func viewWillAppear(_ animated: Bool) {
                super.viewWillAppear(animated)
                beginObserving()
            }
        """)
        XCTAssertEqual(check(KeyboardObserverLifecycleUnbalanced.self, helpers, files: ["Cart.swift": onAppear]), [3])
        // Removed in the mirrored phase through the other helper.
        let mirrored = controller("""
            override func viewWillAppear(_ animated: Bool) {
                super.viewWillAppear(animated)
                self.beginObserving()
            }
            override func viewWillDisappear(_ animated: Bool) {
                super.viewWillDisappear(animated)
                endObserving()
            }
        """)
        XCTAssertTrue(check(KeyboardObserverLifecycleUnbalanced.self, helpers, files: ["Cart.swift": mirrored]).isEmpty)
        // Added once: nothing to balance.
        let once = controller("""
            override func viewDidLoad() {
                super.viewDidLoad()
                beginObserving()
            }
        """)
        XCTAssertTrue(check(KeyboardObserverLifecycleUnbalanced.self, helpers, files: ["Cart.swift": once]).isEmpty)
        // Another type's appear method calling a method of the same name on itself, or
        // calling this type's helper on an instance, says nothing about this type.
        let otherType = """
        final class CheckoutViewController: UIViewController {
            let cart = CartViewController()
            override func viewWillAppear(_ animated: Bool) {
                super.viewWillAppear(animated)
                beginObserving()
                cart.beginObserving()
            }
            func beginObserving() {}
        }
        """
        XCTAssertTrue(check(KeyboardObserverLifecycleUnbalanced.self, helpers, files: ["Checkout.swift": otherType]).isEmpty)
    }

    func testNestedTypesOfOneSimpleNameKeepTheirOwnFacts() {
        let chat = """
        enum Chat {
            final class ListView: UIView {
                let tableView = UITableView()
                func configure() {
                    tableView.contentInsetAdjustmentBehavior = .never
                }
            }
        }
        """
        let feed = """
        enum Feed {
            final class ListView: UIView {
                let tableView = UITableView()
                override func safeAreaInsetsDidChange() {
                    super.safeAreaInsetsDidChange()
                    tableView.contentInset.bottom = safeAreaInsets.bottom
                }
            }
        }
        """
        XCTAssertEqual(check(ContentInsetAdjustmentNever.self, chat, files: ["Feed.swift": feed]), [5])
        // The same type's extension in another file handles the safe area.
        let chatExtension = """
        extension Chat.ListView {
            override func safeAreaInsetsDidChange() {
                super.safeAreaInsetsDidChange()
                tableView.contentInset.bottom = safeAreaInsets.bottom
            }
        }
        """
        XCTAssertTrue(check(ContentInsetAdjustmentNever.self, chat, files: ["Chat+SafeArea.swift": chatExtension]).isEmpty)
    }

    func testSuperclassesResolveFromTheSubclassScope() {
        func screens(removingIn module: String) -> String {
            """
            enum Checkout {
                class Base: UIViewController {\(module == "Checkout" ? removal : "")}
            }
            enum Account {
                class Base: UIViewController {\(module == "Account" ? removal : "")}
            }
            """
        }
        let removal = """

                override func viewWillDisappear(_ animated: Bool) {
                    super.viewWillDisappear(animated)
                    NotificationCenter.default.removeObserver(self)
                }

        """
        let code = """
        extension Checkout {
            final class PaymentScreen: Base {
                override func viewWillAppear(_ animated: Bool) {
                    super.viewWillAppear(animated)
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardMoves(_:)), name: UIResponder.keyboardWillChangeFrameNotification, object: nil)
                }
                @objc func keyboardMoves(_ note: Notification) { bottom.constant = 0 }
            }
        }
        """
        XCTAssertTrue(check(KeyboardObserverLifecycleUnbalanced.self, code, files: ["Bases.swift": screens(removingIn: "Checkout")]).isEmpty)
        XCTAssertEqual(check(KeyboardObserverLifecycleUnbalanced.self, code, files: ["Bases.swift": screens(removingIn: "Account")]), [5])
    }

    func testValuesPassedToHelpersDeclaredInOtherFiles() {
        let helpers = """
        extension UIScrollView {
            func applyKeyboardInsets(_ insets: UIEdgeInsets, animated: Bool = false) {
                contentInset = insets
            }
            func applyKeyboardBottom(to bottom: CGFloat) {
                contentInset.bottom = bottom
            }
        }
        """
        func screen(_ line: String) -> String {
            """
            final class NotesViewController: UIViewController {
                let textView = UITextView()
                @objc func keyboardMoves(_ note: Notification) {
                    guard let end = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    let overlap = max(0, view.bounds.maxY - view.convert(end, from: nil).minY)
                    let safe = max(0, overlap - view.safeAreaInsets.bottom)
                    \(line)
                }
            }
            """
        }
        let raw = screen("textView.applyKeyboardInsets(UIEdgeInsets(top: 0, left: 0, bottom: overlap, right: 0))")
        XCTAssertEqual(check(KeyboardInsetIgnoresSafeArea.self, helpers, files: ["Notes.swift": raw]), [3])
        XCTAssertEqual(check(KeyboardInsetIgnoresSafeArea.self, helpers, files: ["Notes.swift": screen("textView.applyKeyboardBottom(to: overlap)")]), [6])
        // Safe-area math before the call keeps the helper clean.
        let safe = screen("textView.applyKeyboardInsets(UIEdgeInsets(top: 0, left: 0, bottom: safe, right: 0), animated: true)")
        XCTAssertTrue(check(KeyboardInsetIgnoresSafeArea.self, helpers, files: ["Notes.swift": safe]).isEmpty)
        // Labels the helper does not take mean another function.
        let otherLabels = screen("textView.applyKeyboardBottom(overlap)")
        XCTAssertTrue(check(KeyboardInsetIgnoresSafeArea.self, helpers, files: ["Notes.swift": otherLabels]).isEmpty)
        // A call on `self` means a method of the caller's own type, not the extension's.
        let onSelf = screen("applyKeyboardBottom(to: overlap)")
        XCTAssertTrue(check(KeyboardInsetIgnoresSafeArea.self, helpers, files: ["Notes.swift": onSelf]).isEmpty)
    }

    // MARK: Accessory views

    func testSettableAccessoryOfAViewThatBecomesFirstResponder() {
        let code = """
        final class ReactionButton: UIView {
            private var bar: UIView?
            override var inputAccessoryView: UIView? {
                get { bar }
                set { bar = newValue }
            }
            @objc func tapped() { becomeFirstResponder() }
        }
        """
        XCTAssertEqual(check(AccessoryMissingCanBecomeFirstResponder.self, code), [3])
        let relay = code.replacingOccurrences(of: "@objc func tapped() { becomeFirstResponder() }", with: "")
        XCTAssertTrue(check(AccessoryMissingCanBecomeFirstResponder.self, relay).isEmpty)
    }

    // MARK: Timing

    func testSpringAnimationsDoNotFollowTheKeyboardCurve() {
        let code = handler("""
                let animator = UIViewPropertyAnimator(duration: 0.3, dampingRatio: 0.85) { self.view.layoutIfNeeded() }
                UIView.animate(withDuration: 0.3, delay: 0, usingSpringWithDamping: 0.8, initialSpringVelocity: 0, options: [], animations: { self.view.layoutIfNeeded() })
        """)
        XCTAssertEqual(check(KeyboardCurveMismatch.self, code), [4, 5])
        let timing = handler("""
                let animator = UIViewPropertyAnimator(duration: 0.3, timingParameters: UICubicTimingParameters(animationCurve: curve))
        """)
        XCTAssertTrue(check(KeyboardCurveMismatch.self, timing).isEmpty)
    }

    func testDurationConstantOfAnotherType() {
        let timing = """
        enum Timing {
            static let standard = TimeInterval(0.35)
            static let none = TimeInterval(0)
            static var current: TimeInterval { 0.2 }
        }
        """
        let code = handler("""
                UIView.animate(withDuration: Timing.standard) { self.view.layoutIfNeeded() }
                UIView.animate(withDuration: Timing.none) { self.view.layoutIfNeeded() }
                UIView.animate(withDuration: Timing.current) { self.view.layoutIfNeeded() }
        """)
        XCTAssertEqual(check(KeyboardDurationHardcoded.self, code, files: ["Timing.swift": timing]), [4])
    }

    // MARK: Helpers

    func testValueReturnedByAHelper() {
        let code = """
        final class TransferViewController: UIViewController {
            private func bottomInset(for keyboardFrame: CGRect) -> CGFloat {
                return keyboardFrame.height + 12
            }
            @objc func keyboardMoves(_ note: Notification) {
                guard let end = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                amountList.contentInset.bottom = bottomInset(for: end)
            }
        }
        """
        XCTAssertEqual(check(KeyboardFrameScreenSpace.self, code), [3])
        XCTAssertEqual(check(KeyboardInsetIgnoresSafeArea.self, code), [7])
        let converted = """
        final class TransferViewController: UIViewController {
            private func bottomInset(for keyboardFrame: CGRect) -> CGFloat {
                let local = view.convert(keyboardFrame, from: nil)
                return max(0, view.bounds.maxY - local.minY - view.safeAreaInsets.bottom)
            }
            @objc func keyboardMoves(_ note: Notification) {
                guard let end = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                let inset = bottomInset(for: end)
                let padded = inset + 8
                amountList.contentInset.bottom = padded
            }
        }
        """
        XCTAssertTrue(check(KeyboardFrameScreenSpace.self, converted).isEmpty)
        XCTAssertTrue(check(KeyboardInsetIgnoresSafeArea.self, converted).isEmpty)
    }

    func testInsetsPassedToAnExtensionMethod() {
        let code = """
        extension UIScrollView {
            func setBottomInsets(_ insets: UIEdgeInsets) {
                contentInset = insets
                verticalScrollIndicatorInsets = insets
            }
        }
        final class FormViewController: UIViewController {
            @objc func keyboardMoves(_ note: Notification) {
                guard let end = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                let overlap = max(0, view.bounds.maxY - view.convert(end, from: nil).minY)
                scrollView.setBottomInsets(UIEdgeInsets(top: 0, left: 0, bottom: overlap, right: 0))
            }
        }
        """
        XCTAssertEqual(check(KeyboardInsetIgnoresSafeArea.self, code), [3, 4])
        let safe = code.replacingOccurrences(of: "bottom: overlap,", with: "bottom: max(0, overlap - view.safeAreaInsets.bottom),")
        XCTAssertTrue(check(KeyboardInsetIgnoresSafeArea.self, safe).isEmpty)
        // The keyboard only in the top edge.
        let top = code.replacingOccurrences(of: "UIEdgeInsets(top: 0, left: 0, bottom: overlap, right: 0)",
                                            with: "UIEdgeInsets(top: overlap, left: 0, bottom: 0, right: 0)")
        XCTAssertTrue(check(KeyboardInsetIgnoresSafeArea.self, top).isEmpty)
    }

    func testValueStoredOnSelfAndReadThroughAComputedProperty() {
        let code = """
        final class ChatViewController: UIViewController {
            private var keyboardHeight: CGFloat = 0
            private var bottomInset: CGFloat { keyboardHeight > 0 ? keyboardHeight + 8 : 0 }
            @objc func keyboardMoves(_ note: Notification) {
                guard let end = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                keyboardHeight = end.height
                applyInsets()
            }
            private func applyInsets() {
                messages.contentInset.bottom = bottomInset
            }
        }
        """
        XCTAssertEqual(check(KeyboardFrameScreenSpace.self, code), [6])
        XCTAssertEqual(check(KeyboardInsetIgnoresSafeArea.self, code), [10])
        let converted = code.replacingOccurrences(
            of: "keyboardHeight = end.height",
            with: "keyboardHeight = max(0, view.bounds.maxY - view.convert(end, from: nil).minY - view.safeAreaInsets.bottom)")
        XCTAssertTrue(check(KeyboardFrameScreenSpace.self, converted).isEmpty)
        XCTAssertTrue(check(KeyboardInsetIgnoresSafeArea.self, converted).isEmpty)
        // Read directly by code that keyboard handlers do not run (a layout pass), the stored
        // value is not followed.
        let layout = code.replacingOccurrences(of: "        applyInsets()\n", with: "")
            .replacingOccurrences(of: "messages.contentInset.bottom = bottomInset", with: "messages.contentInset.bottom = keyboardHeight")
        XCTAssertNotEqual(layout, code)
        XCTAssertTrue(check(KeyboardInsetIgnoresSafeArea.self, layout).isEmpty)
    }

    // MARK: Closures held in locals

    func testLocalClosureCalledInsideADeferral() {
        let code = handler("""
                let relayout = {
                    self.bottomConstraint.constant = 0
                    self.view.layoutIfNeeded()
                }
                DispatchQueue.main.async { relayout() }
        """)
        XCTAssertEqual(check(KeyboardDeferredLayout.self, code), [8])
        let direct = handler("""
                let relayout = {
                    self.bottomConstraint.constant = 0
                    self.view.layoutIfNeeded()
                }
                relayout()
                DispatchQueue.main.async { self.log() }
        """)
        XCTAssertTrue(check(KeyboardDeferredLayout.self, direct).isEmpty)
    }

    // MARK: State on self

    func testSwitchOverACurveStoredOnSelf() {
        let code = """
        struct KeyboardAnimation {
            let curve: UIView.AnimationCurve
            init?(_ note: Notification) {
                guard let raw = note.userInfo?[UIResponder.keyboardAnimationCurveUserInfoKey] as? Int,
                      let curve = UIView.AnimationCurve(rawValue: raw) else { return nil }
                self.curve = curve
            }
            var options: UIView.AnimationOptions {
                switch curve {
                case .easeInOut: return .curveEaseInOut
                case .easeIn: return .curveEaseIn
                case .easeOut: return .curveEaseOut
                case .linear: return .curveLinear
                @unknown default: fatalError()
                }
            }
        }
        """
        XCTAssertEqual(check(KeyboardCurveSwitchWithoutDefault.self, code), [9])
        let fallback = code.replacingOccurrences(of: "@unknown default: fatalError()", with: "@unknown default: return []")
        XCTAssertTrue(check(KeyboardCurveSwitchWithoutDefault.self, fallback).isEmpty)
    }

    // MARK: Publishers

    func testKeyboardPublisherHeldInALocal() {
        let code = """
        final class KeyboardModel: ObservableObject {
            @Published private(set) var endFrame: CGRect = .zero
            private var subscriptions = Set<AnyCancellable>()
            init() {
                let frames = NotificationCenter.default.publisher(for: UIResponder.keyboardWillChangeFrameNotification)
                    .compactMap { $0.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect }
                frames
                    .assign(to: \\.endFrame, on: self)
                    .store(in: &subscriptions)
            }
        }
        """
        XCTAssertEqual(check(ObserverCapturesSelfStrongly.self, code), [8])
        let weak = code.replacingOccurrences(of: ".assign(to: \\.endFrame, on: self)",
                                             with: ".sink { [weak self] in self?.endFrame = $0 }")
        XCTAssertNotEqual(weak, code)
        XCTAssertTrue(check(ObserverCapturesSelfStrongly.self, weak).isEmpty)
    }

    func testMergedKeyboardPublishers() {
        let code = """
        final class KeyboardVisibility: ObservableObject {
            @Published private(set) var isVisible = false
            private var subscriptions = Set<AnyCancellable>()
            init() {
                Publishers.Merge(
                    NotificationCenter.default.publisher(for: UIResponder.keyboardWillShowNotification).map { _ in true },
                    NotificationCenter.default.publisher(for: UIResponder.keyboardWillHideNotification).map { _ in false }
                )
                .sink { visible in
                    self.isVisible = visible
                }
                .store(in: &subscriptions)
            }
        }
        """
        XCTAssertEqual(check(ObserverCapturesSelfStrongly.self, code), [10])
        let weak = code.replacingOccurrences(of: ".sink { visible in", with: ".sink { [weak self] visible in")
            .replacingOccurrences(of: "self.isVisible = visible", with: "self?.isVisible = visible")
        XCTAssertTrue(check(ObserverCapturesSelfStrongly.self, weak).isEmpty)
    }

    // MARK: Results of other files

    func testMethodOfAHelperTypeInAnotherFile() {
        let state = """
        struct KeyboardState {
            let userInfo: [AnyHashable: Any]
            func overlap(in view: UIView) -> CGFloat {
                guard let end = userInfo[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return 0 }
                return view.bounds.intersection(view.convert(end, from: nil)).height
            }
            func safeOverlap(in view: UIView) -> CGFloat {
                guard let end = userInfo[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return 0 }
                return max(0, view.bounds.intersection(view.convert(end, from: nil)).height - view.safeAreaInsets.bottom)
            }
        }
        """
        let code = """
        final class SettingsViewController: UIViewController {
            func keyboardHelper(_ helper: AnyObject, keyboardWillShowWithState state: KeyboardState) {
                tableView.contentInset.bottom = state.overlap(in: view)
                otherTable.contentInset.bottom = state.safeOverlap(in: view)
            }
        }
        """
        XCTAssertEqual(check(KeyboardInsetIgnoresSafeArea.self, code, files: ["KeyboardState.swift": state]), [3])
        XCTAssertTrue(check(KeyboardFrameScreenSpace.self, code, files: ["KeyboardState.swift": state]).isEmpty)
    }

    func testWrapperStructComputedHeight() {
        let code = """
        final class ToastView: UIView {
            private struct KeyboardInfo {
                let endFrame: CGRect
                init(_ userInfo: [AnyHashable: Any]) {
                    endFrame = (userInfo[UIResponder.keyboardFrameEndUserInfoKey] as? NSValue)?.cgRectValue ?? .zero
                }
                var height: CGFloat { endFrame.height }
                func overlap(in view: UIView) -> CGFloat { view.bounds.maxY - view.convert(endFrame, from: nil).minY }
            }
            @objc private func keyboardMoves(_ note: Notification) {
                let keyboard = KeyboardInfo(note.userInfo ?? [:])
                bottomPin.constant = -keyboard.height - 16
            }
        }
        """
        XCTAssertEqual(check(KeyboardFrameScreenSpace.self, code), [7])
        XCTAssertEqual(check(KeyboardHeightNotOverlap.self, code), [7])
        let overlap = code.replacingOccurrences(of: "bottomPin.constant = -keyboard.height - 16",
                                                with: "bottomPin.constant = -keyboard.overlap(in: self) - 16")
        XCTAssertTrue(check(KeyboardFrameScreenSpace.self, overlap).isEmpty)
        XCTAssertTrue(check(KeyboardHeightNotOverlap.self, overlap).isEmpty)
    }

    // MARK: Types

    func testLayoutGuideInAnExtensionOfUIViewIsNotEverySubclasses() {
        let code = """
        final class UndoBanner: UIView {
            override init(frame: CGRect) {
                super.init(frame: frame)
                NotificationCenter.default.addObserver(self, selector: #selector(follow(_:)), name: UIResponder.keyboardWillChangeFrameNotification, object: nil)
            }
            @objc private func follow(_ note: Notification) { bottomPin.constant = 0 }
        }
        """
        let viewExtension = """
        extension UIView {
            var keyboardTopAnchor: NSLayoutYAxisAnchor { keyboardLayoutGuide.topAnchor }
        }
        """
        XCTAssertEqual(check(PreferKeyboardLayoutGuide.self, code, files: ["UIView+Keyboard.swift": viewExtension],
                             target: OSVersion(16)), [4])
        let baseClass = """
        class BannerBase: UIView {
            func pin() { keyboardLayoutGuide.topAnchor.constraint(equalTo: bottomAnchor).isActive = true }
        }
        """
        let subclass = code.replacingOccurrences(of: "final class UndoBanner: UIView", with: "final class UndoBanner: BannerBase")
        XCTAssertTrue(check(PreferKeyboardLayoutGuide.self, subclass, files: ["BannerBase.swift": baseClass],
                            target: OSVersion(16)).isEmpty)
    }

    // MARK: Project wrappers

    func testWrapperDidEventsWithTrailingAndLocalClosures() {
        let code = """
        final class ProfileViewController: UIViewController {
            private let keyboard = KeyboardEvents()
            override func viewDidLoad() {
                super.viewDidLoad()
                keyboard.on(.didShow) { [weak self] note in
                    self?.scrollView.contentInset.bottom = 80
                }
                let restore: (Notification) -> Void = { [weak self] _ in
                    self?.scrollView.contentInset.bottom = 0
                }
                keyboard.on(.didHide, perform: restore)
                let log: (Notification) -> Void = { _ in print("hidden") }
                keyboard.on(.didHide, perform: log)
                keyboard.on(.willShow) { [weak self] _ in self?.scrollView.contentInset.bottom = 80 }
            }
        }
        """
        XCTAssertEqual(check(KeyboardDidShowForLayout.self, code), [5, 11])
    }

    // MARK: Accessors and getters

    func testNotificationAccessorMeasuringAgainstTheMainScreen() {
        let accessor = """
        extension Notification {
            var coveredHeight: CGFloat {
                guard let end = userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return 0 }
                let bottom = UIScreen.main.bounds.maxY
                return bottom - end.origin.y
            }
        }
        """
        let controller = """
        final class PaymentViewController: UIViewController {
            override func viewDidLoad() {
                super.viewDidLoad()
                NotificationCenter.default.addObserver(self, selector: #selector(moved(_:)), name: UIResponder.keyboardWillChangeFrameNotification, object: nil)
            }
            @objc func moved(_ note: Notification) {
                payButtonBottom.constant = note.coveredHeight
            }
        }
        """
        // Reported where the screen and the raw frame are read, in this file and from another.
        XCTAssertEqual(check(KeyboardMathUsesMainScreen.self, accessor), [4])
        XCTAssertEqual(check(KeyboardFrameScreenSpace.self, accessor), [5])
        XCTAssertEqual(check(KeyboardMathUsesMainScreen.self, accessor, files: ["Pay.swift": controller]), [4])
        XCTAssertEqual(check(KeyboardFrameScreenSpace.self, accessor, files: ["Pay.swift": controller]), [5])
        XCTAssertTrue(check(KeyboardFrameScreenSpace.self, controller, files: ["Notification+Keyboard.swift": accessor]).isEmpty)
        XCTAssertTrue(check(KeyboardMathUsesMainScreen.self, controller, files: ["Notification+Keyboard.swift": accessor]).isEmpty)
        XCTAssertEqual(check(KeyboardFrameScreenSpace.self, accessor + "\n" + controller), [5])
    }

    func testNotificationAccessorWithRealConversionStaysClean() {
        let converted = """
        extension Notification {
            func coveredHeight(in view: UIView) -> CGFloat {
                guard let end = userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return 0 }
                let local = view.convert(end, from: nil)
                return max(0, view.bounds.maxY - local.minY)
            }
            var isKeyboardOnScreen: Bool {
                guard let end = userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return false }
                let scale = UIScreen.main.bounds.width
                print(scale)
                return end.minY < UIScreen.main.bounds.height
            }
        }
        """
        XCTAssertTrue(check(KeyboardFrameScreenSpace.self, converted).isEmpty)
        // The comparison meets the frame in its own statement; the width held in a local never does.
        XCTAssertEqual(check(KeyboardMathUsesMainScreen.self, converted), [11])
    }

    func testStaticGetterReturningAWindowIsReportedInItsBody() {
        let code = """
        enum Screens {
            static var current: UIWindow? { UIApplication.shared.keyWindow }
            static func top() -> UIWindow? { current }
        }
        final class FormViewController: UIViewController {
            override func viewDidLoad() {
                super.viewDidLoad()
                Screens.current?.rootViewController = self
            }
            @objc func keyboardMoves(_ note: Notification) {
                guard let end = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                let local = view.convert(end, from: Screens.top())
                bottom.constant = max(0, view.bounds.maxY - local.minY)
            }
            @objc func keyboardWillHide(_ note: Notification) {
                _ = Screens.current
            }
        }
        """
        // Once, in the getter's body, however many keyboard uses reach it (through another getter too).
        XCTAssertEqual(check(KeyboardMathUsesMainScreen.self, code), [2])
        XCTAssertTrue(check(KeyboardFrameScreenSpace.self, code).isEmpty)
    }

    func testGettersOutsideKeyboardCodeOrOfOtherReceiversAreLeftAlone() {
        let code = """
        final class FormViewController: UIViewController {
            var current: UIWindow? { UIApplication.shared.windows.first }
            var hostWindow: UIWindow? { view.window }
            override func viewDidLoad() {
                super.viewDidLoad()
                current?.makeKeyAndVisible()
            }
            @objc func keyboardMoves(_ note: Notification) {
                guard let end = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                let current = view.window
                let local = view.convert(end, from: current)
                let other = view.convert(end, from: hostWindow)
                bottom.constant = max(0, view.bounds.maxY - local.minY, view.bounds.maxY - other.minY)
            }
        }
        """
        XCTAssertTrue(check(KeyboardMathUsesMainScreen.self, code).isEmpty)
    }

    // MARK: Duration floors

    func testDurationFloorIsAFallbackWhenCheckingFallbacks() {
        let code = handler("""
                let duration = note.userInfo?[UIResponder.keyboardAnimationDurationUserInfoKey] as? Double ?? 0
                UIView.animate(withDuration: max(0.25, duration)) { self.view.layoutIfNeeded() }
                let later = max(duration, 0.3)
                UIView.animate(withDuration: later) { self.view.layoutIfNeeded() }
        """)
        let fallbacks: [String: OptionValue] = ["check_fallbacks": .bool(true)]
        let found = RuleExamplesTests.diagnostics(KeyboardDurationHardcoded.self, code: code, options: fallbacks)
        XCTAssertEqual(found.map { RuleExamplesTests.describe([$0], in: code).prefix(2) }, ["5:", "6:"])
        XCTAssertTrue(check(KeyboardDurationHardcoded.self, code).isEmpty, "off by default")
    }

    func testMaxOverOtherNumbersIsNoDurationFloor() {
        let code = handler("""
                let duration = note.userInfo?[UIResponder.keyboardAnimationDurationUserInfoKey] as? Double ?? 0
                let lift = max(0, view.bounds.maxY - view.convert(end, from: nil).minY)
                let pause = max(0, duration)
                UIView.animate(withDuration: pause) { self.bottom.constant = max(8, lift - self.view.safeAreaInsets.bottom) }
        """)
        let found = RuleExamplesTests.diagnostics(KeyboardDurationHardcoded.self, code: code,
                                                  options: ["check_fallbacks": .bool(true)])
        XCTAssertTrue(found.isEmpty, RuleExamplesTests.describe(found, in: code))
    }

    func testComparisonAgainstTheMainScreenIsABoolNotGeometry() {
        let code = handler("""
                let onScreen = end.minY < UIScreen.main.bounds.height
                footer.isHidden = onScreen
                let shown = end.minY < view.bounds.maxY
                isKeyboardShown = shown
                bottom.constant = end.minY < view.bounds.maxY ? view.bounds.maxY - end.minY : 0
        """)
        // Only the ternary's number is geometry.
        XCTAssertEqual(check(KeyboardFrameScreenSpace.self, code), [8])
        XCTAssertEqual(check(KeyboardMathUsesMainScreen.self, code), [4])
    }

    func testBoundsOfAGetterAreThoseOfWhatItReturns() {
        let code = """
        extension UIApplication {
            static var frontWindow: UIWindow? { shared.windows.first }
            static var display: UIScreen { UIScreen.main }
        }
        final class FormViewController: UIViewController {
            @objc func keyboardMoves(_ note: Notification) {
                guard let end = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                let inWindow = UIApplication.frontWindow!.bounds.height - end.minY
                let onScreen = UIApplication.display.bounds.height - end.minY
                print(inWindow)
                bottom.constant = onScreen
            }
        }
        """
        XCTAssertEqual(check(KeyboardMathUsesMainScreen.self, code), [2, 3])
        // A window's bounds are the keyboard's space; the main screen's are not the view's.
        XCTAssertEqual(check(KeyboardFrameScreenSpace.self, code), [9])
        XCTAssertTrue(check(KeyboardFrameScreenSpace.self, code.replacingOccurrences(of: "bottom.constant = onScreen", with: "")).isEmpty,
                      "screen math that reaches no layout stays with the main-screen rule")
    }

    func testSwiftUIBodyObservingTheKeyboardIsNoAccessor() {
        let modifier = """
        struct KeyboardPadding: ViewModifier {
            @State private var lift: CGFloat = 0
            func body(content: Content) -> some View {
                content.padding(.bottom, lift).onReceive(NotificationCenter.default.publisher(for: UIResponder.keyboardWillShowNotification)) { note in
                    lift = (note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect)?.height ?? 0
                }
            }
        }
        """
        let form = """
        struct CommentForm: View {
            var body: some View {
                TextField("Comment", text: $text).font(.body).frame(height: 44).scrollDismissesKeyboard(.interactively)
            }
            var rowHeight: CGFloat { UIFont.preferredFont(forTextStyle: .body).lineHeight + bounds.height }
        }
        """
        XCTAssertTrue(check(KeyboardFrameScreenSpace.self, form, files: ["KeyboardPadding.swift": modifier]).isEmpty)
        XCTAssertTrue(check(KeyboardHeightNotOverlap.self, form, files: ["KeyboardPadding.swift": modifier]).isEmpty)
    }

    func testDockDetectionAgainstTheMainScreenIsOnlyAMainScreenFinding() {
        let code = handler("""
                let dockTop = UIScreen.main.bounds.height - end.height
                isDocked = end.minY >= dockTop
        """)
        XCTAssertEqual(check(KeyboardMathUsesMainScreen.self, code), [4])
        XCTAssertTrue(check(KeyboardFrameScreenSpace.self, code).isEmpty)
    }
}
