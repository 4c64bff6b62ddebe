import XCTest
import Lexer
@testable import Rules

/// Keyboard values and handler code handed on without a call written out: methods passed by
/// name where a closure goes, values relayed through Rx relays and Combine subjects, guide
/// anchors held in locals and parameters, accessory views passed through parameters and enum
/// payloads.
extension KeyboardFlowTests {
    // MARK: Methods passed by name

    func didShowController(_ body: String, helper: String) -> String {
        """
        final class ComposerViewController: UIViewController {
            var pendingHeight: CGFloat = 0
            override func viewDidLoad() {
                super.viewDidLoad()
                NotificationCenter.default.addObserver(self, selector: #selector(keyboardShown(_:)),
                                                       name: UIResponder.keyboardDidShowNotification, object: nil)
            }
            @objc func keyboardShown(_ note: Notification) {
        \(body)
            }
            func relayout() {
        \(helper)
            }
        }
        """
    }

    func testMethodPassedByNameIsTheAnimationBody() {
        let layout = "        bottomConstraint.constant = 120\n        view.layoutIfNeeded()"
        for body in [
            "        UIView.animate(withDuration: 0.3, animations: relayout)",
            "        UIView.animate(withDuration: 0.3, animations: self.relayout)",
            "        UIView.animate(withDuration: 0.3, animations: relayout) { _ in self.done = true }",
            "        UIView.animate(withDuration: 0.3, delay: 0, options: [], animations: relayout, completion: nil)",
            "        let animator = UIViewPropertyAnimator(duration: 0.3, curve: .easeOut, animations: relayout)\n        animator.startAnimation()",
        ] {
            XCTAssertEqual(check(KeyboardDidShowForLayout.self, didShowController(body, helper: layout)), [5], body)
            XCTAssertEqual(check(KeyboardHideNotHandled.self, didShowController(body, helper: layout)), [5], body)
        }
    }

    func testMethodPassedByNameThatDoesNoLayoutOrIsAValueStaysClean() {
        let animate = "        UIView.animate(withDuration: 0.3, animations: relayout)"
        XCTAssertTrue(check(KeyboardDidShowForLayout.self, didShowController(animate, helper: "        print(\"shown\")")).isEmpty)
        // A local closure, a parameter or a property of the same name is the value, not the method.
        let layout = "        bottomConstraint.constant = 120"
        for body in [
            "        let relayout = { print(\"shown\") }\n        UIView.animate(withDuration: 0.3, animations: relayout)",
            "        let relayout: () -> Void = { print(\"shown\") }\n        UIView.animate(withDuration: 0.3, animations: relayout)",
        ] {
            XCTAssertTrue(check(KeyboardDidShowForLayout.self, didShowController(body, helper: layout)).isEmpty, body)
        }
        let parameter = """
        final class ComposerViewController: UIViewController {
            override func viewDidLoad() {
                super.viewDidLoad()
                NotificationCenter.default.addObserver(self, selector: #selector(keyboardShown(_:)),
                                                       name: UIResponder.keyboardDidShowNotification, object: nil)
            }
            @objc func keyboardShown(_ note: Notification) { run(relayout: { print("shown") }) }
            func run(relayout: @escaping () -> Void) { UIView.animate(withDuration: 0.3, animations: relayout) }
            func relayout() { bottomConstraint.constant = 120 }
        }
        """
        XCTAssertTrue(check(KeyboardDidShowForLayout.self, parameter).isEmpty)
        // Outside keyboard handlers the method is nobody's handler.
        let elsewhere = """
        final class ComposerViewController: UIViewController {
            func expand() { UIView.animate(withDuration: 0.3, animations: relayout) }
            func relayout() { bottomConstraint.constant = 120 }
            @objc func keyboardWillShow(_ note: Notification) { print("shown") }
        }
        """
        XCTAssertTrue(check(KeyboardDidShowForLayout.self, elsewhere).isEmpty)
        XCTAssertTrue(check(KeyboardDeferredLayout.self, elsewhere).isEmpty)
    }

    func testValueStoredForAMethodPassedByName() {
        let code = didShowController("""
                guard let end = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                pendingHeight = end.height
                UIView.animate(withDuration: 0.3, animations: relayout)
        """, helper: "        bottomConstraint.constant = pendingHeight")
        XCTAssertEqual(check(KeyboardFrameScreenSpace.self, code), [10])
        let converted = code.replacingOccurrences(of: "pendingHeight = end.height",
                                                  with: "pendingHeight = view.convert(end, from: nil).height")
        XCTAssertTrue(check(KeyboardFrameScreenSpace.self, converted).isEmpty)
    }

    func testMethodPassedByNameToAsyncIsDeferred() {
        let code = """
        final class SearchViewController: UIViewController {
            @objc func keyboardWillShow(_ note: Notification) {
                DispatchQueue.main.async(execute: relayout)
            }
            func relayout() { bottomConstraint.constant = 120 }
        }
        """
        XCTAssertEqual(check(KeyboardDeferredLayout.self, code), [3])
        let synchronous = code.replacingOccurrences(of: "DispatchQueue.main.async(execute: relayout)",
                                                    with: "UIView.performWithoutAnimation(relayout)")
        XCTAssertTrue(check(KeyboardDeferredLayout.self, synchronous).isEmpty)
        let logging = code.replacingOccurrences(of: "bottomConstraint.constant = 120", with: "logger.log(\"shown\")")
        XCTAssertTrue(check(KeyboardDeferredLayout.self, logging).isEmpty)
    }

    func testGuideOwnerAnimatedThroughAMethodPassedByName() {
        let code = """
        final class ChatViewController: UIViewController {
            override func viewDidLoad() {
                super.viewDidLoad()
                composer.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
            }
            @objc func keyboardWillShow(_ note: Notification) {
                UIView.animate(withDuration: 0.25, animations: layoutNow)
            }
            func layoutNow() { view.layoutIfNeeded() }
        }
        """
        // Once, at the animation that lays the view out, not again at the `layoutIfNeeded` it runs.
        XCTAssertEqual(check(KeyboardGuideManualAnimation.self, code), [7])
        let fading = code.replacingOccurrences(of: "func layoutNow() { view.layoutIfNeeded() }",
                                               with: "func layoutNow() { hint.alpha = 0 }")
        XCTAssertTrue(check(KeyboardGuideManualAnimation.self, fading).isEmpty)
    }

    // MARK: Relays and subjects

    func relayController(_ declaration: String, send: String, subscription: String) -> String {
        """
        final class ChatViewController: UIViewController {
            \(declaration)
            override func viewDidLoad() {
                super.viewDidLoad()
                NotificationCenter.default.addObserver(self, selector: #selector(keyboardMoves(_:)),
                                                       name: UIResponder.keyboardWillChangeFrameNotification, object: nil)
        \(subscription)
            }
            @objc func keyboardMoves(_ note: Notification) {
                guard let end = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                \(send)
            }
        }
        """
    }

    func testValueRelayedThroughRxRelaysAndSubjects() {
        let cases: [(declaration: String, send: String, subscription: String)] = [
            ("private let lift = PublishRelay<CGFloat>()", "lift.accept(end.height)", """
                    lift.subscribe(onNext: { [weak self] height in
                        self?.bottomConstraint.constant = height
                    }).disposed(by: bag)
            """),
            ("let lift = BehaviorRelay<CGFloat>(value: 0)", "self.lift.accept(end.height)", """
                    lift.asDriver()
                        .map { $0 + 8 }
                        .drive(onNext: { [weak self] in self?.bottomConstraint.constant = $0 })
                        .disposed(by: bag)
            """),
            ("private let lift: PublishSubject<CGFloat> = PublishSubject()", "lift.onNext(end.height)", """
                    self.lift.bind { [weak self] height in self?.bottomConstraint.constant = height }.disposed(by: bag)
            """),
            ("private let lift = PassthroughSubject<CGFloat, Never>()", "lift.send(end.height)", """
                    lift.sink { [weak self] height in self?.bottomConstraint.constant = height }.store(in: &cancellables)
            """),
            ("private let lift = CurrentValueSubject<CGFloat, Never>(0)", "lift.send(end.height)", """
                    lift.sink(receiveCompletion: { _ in }, receiveValue: { [weak self] height in
                        self?.bottomConstraint.constant = height
                    }).store(in: &cancellables)
            """),
        ]
        for item in cases {
            let code = relayController(item.declaration, send: item.send, subscription: item.subscription)
            let send = 1 + code.split(separator: "\n", omittingEmptySubsequences: false)
                .firstIndex { $0.contains(item.send) }!
            XCTAssertEqual(check(KeyboardFrameScreenSpace.self, code), [send], item.declaration)
            XCTAssertEqual(check(KeyboardHeightNotOverlap.self, code), [send], item.declaration)
            // Converted and reduced to the overlap before it is sent: clean after the hop.
            let converted = code.replacingOccurrences(
                of: "(end.height)", with: "(max(0, view.bounds.maxY - view.convert(end, from: nil).minY))")
            XCTAssertTrue(check(KeyboardFrameScreenSpace.self, converted).isEmpty, item.declaration)
            XCTAssertTrue(check(KeyboardHeightNotOverlap.self, converted).isEmpty, item.declaration)
        }
    }

    func testRelayedHandlerCodeBelongsToTheRegistration() {
        let code = relayController("private let shown = PublishRelay<Void>()", send: "shown.accept(())", subscription: """
                shown.subscribe(onNext: { [weak self] in self?.scrollView.contentInset.bottom = 80 }).disposed(by: bag)
        """).replacingOccurrences(of: "keyboardWillChangeFrameNotification", with: "keyboardDidShowNotification")
        XCTAssertEqual(check(KeyboardDidShowForLayout.self, code), [5])
        let deferred = relayController("private let lift = PassthroughSubject<CGFloat, Never>()", send: "lift.send(end.height)",
                                       subscription: """
                lift.receive(on: DispatchQueue.main).sink { [weak self] in self?.bottomConstraint.constant = $0 }.store(in: &bag)
        """)
        XCTAssertEqual(check(KeyboardDeferredLayout.self, deferred), [7])
        XCTAssertTrue(check(KeyboardDeferredLayout.self, deferred.replacingOccurrences(
            of: "lift.receive(on: DispatchQueue.main).sink", with: "lift.sink")).isEmpty)
    }

    func testRelaysThatDoNotCarryTheKeyboardValueStayClean() {
        // Another relay of the type, a value that is not the keyboard's, a relay of another
        // type with the same name, and an object that is no relay.
        let other = relayController("""
        private let lift = PublishRelay<CGFloat>()
            private let offset = PublishRelay<CGFloat>()
        """, send: "lift.accept(end.height)", subscription: """
                offset.subscribe(onNext: { [weak self] in self?.bottomConstraint.constant = $0 }).disposed(by: bag)
        """)
        XCTAssertTrue(check(KeyboardFrameScreenSpace.self, other).isEmpty)
        let constant = relayController("private let lift = PublishRelay<CGFloat>()", send: "lift.accept(120)", subscription: """
                lift.subscribe(onNext: { [weak self] in self?.bottomConstraint.constant = $0 }).disposed(by: bag)
        """)
        XCTAssertTrue(check(KeyboardFrameScreenSpace.self, constant).isEmpty)
        let otherType = relayController("private let lift = PublishRelay<CGFloat>()", send: "lift.accept(end.height)",
                                        subscription: "") + """

        final class BannerView: UIView {
            private let lift = PublishRelay<CGFloat>()
            func bind() { lift.subscribe(onNext: { [weak self] in self?.bottomConstraint.constant = $0 }).disposed(by: bag) }
        }
        """
        XCTAssertTrue(check(KeyboardFrameScreenSpace.self, otherType).isEmpty)
        let notARelay = relayController("private let lift = LiftTracker()", send: "lift.send(end.height)", subscription: """
                lift.sink { [weak self] in self?.bottomConstraint.constant = $0 }
        """)
        XCTAssertTrue(check(KeyboardFrameScreenSpace.self, notARelay).isEmpty)
    }

    // MARK: Guide anchors held in locals and parameters

    /// A controller whose guide follows undocked keyboards, up to the rest of `viewDidLoad`.
    var undockedSketch: String {
        """
        final class SketchViewController: UIViewController {
            override func viewDidLoad() {
                super.viewDidLoad()
                view.keyboardLayoutGuide.followsUndockedKeyboard = true

        """
    }

    func testGuideAnchorsHeldInLocalsAndParametersAreTheGuides() {
        let local = undockedSketch + """
                let keyboardTop = view.keyboardLayoutGuide.topAnchor
                palette.bottomAnchor.constraint(equalTo: keyboardTop).isActive = true
                let guide = view.keyboardLayoutGuide
                let centre = guide.centerXAnchor
                NSLayoutConstraint.activate([centre.constraint(equalTo: palette.centerXAnchor)])
            }
        }
        """
        XCTAssertEqual(check(UndockedKeyboardFixedConstraints.self, local), [6, 9])
        let parameters = undockedSketch + """
                pin(palette, above: view.keyboardLayoutGuide.topAnchor)
                centre(palette, in: view.keyboardLayoutGuide)
            }
            private func pin(_ bar: UIView, above anchor: NSLayoutYAxisAnchor) {
                bar.bottomAnchor.constraint(equalTo: anchor).isActive = true
            }
            private func centre(_ bar: UIView, in guide: UILayoutGuide) {
                bar.centerXAnchor.constraint(equalTo: guide.centerXAnchor).isActive = true
            }
        }
        """
        XCTAssertEqual(check(UndockedKeyboardFixedConstraints.self, parameters), [9, 12])
    }

    func testOtherAnchorsInLocalsAndParametersAndEdgeAwareGuidesStayClean() {
        let code = undockedSketch + """
                let safeBottom = view.safeAreaLayoutGuide.bottomAnchor
                palette.bottomAnchor.constraint(equalTo: safeBottom).isActive = true
                pin(palette, above: view.safeAreaLayoutGuide.bottomAnchor)
                let keyboardLayoutGuide = FloatingPanelGuide()
                let homeMadeTop = keyboardLayoutGuide.topAnchor
                palette.bottomAnchor.constraint(equalTo: homeMadeTop).isActive = true
            }
            private func pin(_ bar: UIView, above anchor: NSLayoutYAxisAnchor) {
                bar.bottomAnchor.constraint(equalTo: anchor).isActive = true
            }
        }
        """
        XCTAssertTrue(check(UndockedKeyboardFixedConstraints.self, code).isEmpty)
        let edgeAware = undockedSketch + """
                let keyboardTop = view.keyboardLayoutGuide.topAnchor
                let awayFromTop = palette.bottomAnchor.constraint(equalTo: keyboardTop)
                view.keyboardLayoutGuide.setConstraints([awayFromTop], activeWhenAwayFrom: .top)
            }
        }
        """
        XCTAssertTrue(check(UndockedKeyboardFixedConstraints.self, edgeAware).isEmpty)
    }

    // MARK: Accessory views through parameters and enum payloads

    func testAccessoryViewPassedToAParameter() {
        let code = """
        final class FormViewController: UIViewController {
            override func viewDidLoad() {
                super.viewDidLoad()
                attach(UIToolbar(), to: nameField)
            }
            private func attach(_ bar: UIToolbar, to field: UITextField) {
                field.inputAccessoryView = bar
            }
        }
        """
        XCTAssertEqual(check(AccessoryToolbarZeroFrame.self, code), [4])
        // Sized where it is made, or in the helper itself.
        let sizedBefore = code.replacingOccurrences(of: "attach(UIToolbar(), to: nameField)", with: """
        let bar = UIToolbar()
                bar.sizeToFit()
                attach(bar, to: nameField)
        """)
        XCTAssertTrue(check(AccessoryToolbarZeroFrame.self, sizedBefore).isEmpty)
        let sizedInHelper = code.replacingOccurrences(of: "field.inputAccessoryView = bar", with: """
        bar.sizeToFit()
                field.inputAccessoryView = bar
        """)
        XCTAssertTrue(check(AccessoryToolbarZeroFrame.self, sizedInHelper).isEmpty)
        let subview = """
        final class FormViewController: UIViewController {
            private func install(_ bar: UIView, on field: UITextField) {
                field.inputAccessoryView = bar
                view.addSubview(bar)
            }
            private func show(_ bar: UIView, on field: UITextField, hint: UIView) {
                field.inputAccessoryView = bar
                view.addSubview(hint)
            }
        }
        """
        XCTAssertEqual(check(AccessoryViewAddedAsSubview.self, subview), [4])
    }

    func testAccessoryViewInAnEnumPayload() {
        let code = """
        enum FieldAccessory {
            case toolbar(UIToolbar)
            case custom(UIView, height: CGFloat)
        }
        final class FormViewController: UIViewController {
            var accessory: FieldAccessory = .toolbar(UIToolbar())
            func apply() {
                switch accessory {
                case .toolbar(let bar): nameField.inputAccessoryView = bar
                case let .custom(view, _):
                    nameField.inputAccessoryView = view
                }
                if case FieldAccessory.toolbar(let bar) = accessory {
                    searchField.inputAccessoryView = bar
                }
            }
        }
        """
        XCTAssertEqual(check(AccessoryToolbarZeroFrame.self, code), [6])
        // A sized toolbar in the payload, or a zero toolbar in another case's payload.
        let sized = code.replacingOccurrences(of: ".toolbar(UIToolbar())",
                                              with: ".toolbar(UIToolbar(frame: CGRect(x: 0, y: 0, width: 320, height: 44)))")
        XCTAssertTrue(check(AccessoryToolbarZeroFrame.self, sized).isEmpty)
        let otherCase = code.replacingOccurrences(of: ".toolbar(UIToolbar())", with: ".custom(UIToolbar(), height: 0)")
            .replacingOccurrences(of: "case let .custom(view, _):", with: "case let .custom(_, height):")
            .replacingOccurrences(of: "nameField.inputAccessoryView = view", with: "print(height)")
        XCTAssertTrue(check(AccessoryToolbarZeroFrame.self, otherCase).isEmpty)
    }
}
