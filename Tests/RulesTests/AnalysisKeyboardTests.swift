import XCTest
import Lexer
@testable import Rules

final class AnalysisKeyboardTests: XCTestCase {
    func testNotificationSpellings() {
        let analysis = analyze("""
        let a = UIResponder.keyboardWillShowNotification
        let b = UIApplication.keyboardDidHideNotification
        let c: NSNotification.Name = .keyboardWillChangeFrameNotification
        let d = NSNotification.Name.UIKeyboardWillHide
        let e = UIKeyboardDidShowNotification
        let f = someOther.keyboardWillShow
        """)
        let events = analysis.source.code.indices.compactMap { KeyboardVocabulary.notification(analysis.source, at: $0) }
        XCTAssertEqual(events, [.willShow, .didHide, .willChangeFrame, .willHide, .didShow])
        let keys = analyze("let k = [UIResponder.keyboardFrameEndUserInfoKey, UIKeyboardAnimationCurveUserInfoKey, keyboardIsLocalUserInfoKey]")
        XCTAssertEqual(keys.source.code.indices.compactMap { KeyboardVocabulary.userInfoKey(keys.source, at: $0) },
                       [.frameEnd, .animationCurve, .isLocal])
    }

    func testPreCheck() {
        XCTAssertFalse(KeyboardVocabulary.mayContain(KeyboardVocabulary.keyboardMarkers, in: Array("let x = 1".utf8)))
        XCTAssertTrue(KeyboardVocabulary.mayContain(KeyboardVocabulary.keyboardMarkers, in: Array("UIKeyboardWillShow".utf8)))
        XCTAssertTrue(KeyboardVocabulary.mayContain(["inputAccessory"], in: Array("x.inputAccessoryView".utf8)))
        XCTAssertFalse(analyze("func f() { view.layoutIfNeeded() }").mentionsKeyboard)
    }

    func testHandlerForms() {
        let analysis = analyze("""
        final class ChatViewController: UIViewController {
            var bag = Set<AnyCancellable>()
            func observe() {
                NotificationCenter.default.addObserver(self, selector: #selector(onShow(_:)),
                    name: UIResponder.keyboardWillShowNotification, object: nil)
                token = NotificationCenter.default.addObserver(
                    forName: UIResponder.keyboardWillHideNotification, object: nil, queue: .main) { note in
                    self.hide(note)
                }
                NotificationCenter.default.publisher(for: UIResponder.keyboardWillChangeFrameNotification)
                    .receive(on: RunLoop.main)
                    .sink { [weak self] note in self?.change(note) }
                    .store(in: &bag)
                NotificationCenter.default.rx.notification(UIResponder.keyboardDidShowNotification)
                    .subscribe(onNext: { _ in print("shown") })
                Task {
                    for await note in NotificationCenter.default.notifications(named: UIResponder.keyboardDidHideNotification) {
                        print(note)
                    }
                }
                observation = NotificationCenter.default.addObserver(of: view.window?.windowScene?.screen, for: .keyboardWillShow) { message in
                    print(message.endFrame)
                }
                keyboard.on(.willHide) { info in print(info) }
                callbacks[.didChangeFrame] = { [weak self] note in self?.relayout() }
            }
            @objc func onShow(_ note: Notification) {}
            func hide(_ note: Notification) {}
            func change(_ note: Notification) {}
            func unrelated() {}
        }
        final class Helper: KeyboardObserving {
            func keyboardHelper(_ helper: KeyboardHelper, keyboardWillShowWithState state: KeyboardState) {}
            func parse(_ n: Notification) -> CGFloat {
                (n.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect)?.height ?? 0
            }
        }
        """)
        let summaries = analysis.handlerSummaries()
        XCTAssertEqual(Set(summaries), [
            "selector:onShow", "blockObserver:{addObserver}", "combine:{sink}", "rxSwift:{subscribe}",
            "asyncSequence:for", "typedMessage:{addObserver}", "wrapperEvent:{on}", "wrapperEvent:{?}",
            "helperCallback:keyboardHelper", "notificationReader:parse", "reached:hide", "reached:change",
        ])
        let sink = analysis.handlers.first { $0.form == .combine }!
        XCTAssertEqual(sink.deferredBy.map { analysis.source.text(at: $0) }, "receive")
        XCTAssertEqual(analysis.handlers.first { $0.form == .selector }?.events, [.willShow])
        let changeCall = analysis.index(of: "change", occurrence: 0)!
        XCTAssertEqual(analysis.deferral(at: changeCall).map { analysis.source.text(at: $0) }, "receive")
        XCTAssertNil(analysis.handler(at: analysis.index(of: "unrelated")! + 3))
    }

    func testRegistrationsAndWhatHappensToTheirTokens() {
        let analysis = analyze("""
        final class Screen: UIViewController {
            var token: NSObjectProtocol?
            var tokens: [NSObjectProtocol] = []
            func observe() {
                NotificationCenter.default.addObserver(self, selector: #selector(onShow), name: UIResponder.keyboardWillShowNotification, object: nil)
                token = NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillHideNotification, object: textField, queue: .main) { _ in }
                _ = NotificationCenter.default.addObserver(forName: .NSCalendarDayChanged, object: nil, queue: nil) { _ in }
                NotificationCenter.default.addObserver(forName: UIResponder.keyboardDidShowNotification, object: nil, queue: nil) { _ in }
                let local: NSObjectProtocol = NotificationCenter.default.addObserver(forName: UIResponder.keyboardDidHideNotification, object: nil, queue: nil) { _ in }
                tokens.append(NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillChangeFrameNotification, object: nil, queue: nil) { _ in })
                NotificationCenter.default.publisher(for: UIResponder.keyboardWillShowNotification)
                    .sink { _ in }
                    .store(in: &bag)
                let cancellable = NotificationCenter.default.publisher(for: UIResponder.keyboardWillHideNotification).sink { _ in }
                observation = NotificationCenter.default.addObserver(of: screen, for: .keyboardWillShow) { _ in }
            }
            @objc func onShow(_ n: Notification) {}
        }
        """)
        let stores = Dictionary(uniqueKeysWithValues: analysis.observers.registered.map { ($0.registration, $0.store) })
        let subscriptions = Dictionary(uniqueKeysWithValues: analysis.observers.subscriptions.map { ($0.publisher, $0.result) })
        let summary = analysis.registrations.indices.map { index -> String in
            let registration = analysis.registrations[index]
            let callee = analysis.calls[registration.call].callee
            let keepsToken = registration.kind == .block || registration.kind == .typedMessage
            let result = ((keepsToken ? stores[index] : nil) ?? subscriptions[callee]).map(analysis.describe) ?? "-"
            return "\(registration.kind) \(registration.events.map { "\($0)" }.joined(separator: ",")) \(result)"
        }
        XCTAssertEqual(summary, [
            "selector willShow -",
            "block willHide property token",
            "block  discarded",
            "block didShow discarded",
            "block didHide local local",
            "block willChangeFrame property tokens",
            "publisher willShow property bag",
            "publisher willHide local cancellable",
            "typedMessage willShow property observation",
        ])
        XCTAssertEqual(analysis.registrations[1].object.map { analysis.text($0) }, "textField")
        XCTAssertEqual(analysis.registrations[0].function.map { analysis.outline[$0].name }, "observe")
    }

    func testNotificationNamesFromLoops() {
        let analysis = analyze("""
        final class Screen: UIViewController {
            func observe() {
                [UIResponder.keyboardWillShowNotification, UIResponder.keyboardWillHideNotification].forEach {
                    NotificationCenter.default.addObserver(self, selector: #selector(relayout), name: $0, object: nil)
                }
                for name in [UIResponder.keyboardDidShowNotification] {
                    NotificationCenter.default.addObserver(self, selector: #selector(settle), name: name, object: nil)
                }
                NotificationCenter.default.addObserver(self, selector: #selector(other), name: someName, object: nil)
            }
            @objc func relayout() { view.layoutIfNeeded() }
            @objc func settle() {}
            @objc func other() {}
        }
        """)
        XCTAssertEqual(Set(analysis.handlerSummaries()), ["selector:relayout", "selector:settle"])
        XCTAssertEqual(analysis.handlers.first?.events, [.willShow, .willHide])
        XCTAssertEqual(analysis.registrations.map(\.events), [[.willShow, .willHide], [.didShow], []])
    }

    func testReachedFunctionsObserversAndUnreachableCode() {
        let analysis = analyze("""
        class Screen: UIViewController {
            var keyboardHeight: CGFloat = 0 {
                didSet { bottom.constant = keyboardHeight }
            }
            @objc func keyboardWillShow(_ note: Notification) {
                step1()
                keyboardHeight = 10
                return
                let unused = dead()
            }
            func step1() { step2() }
            func step2() { step3() }
            func step3() { step4() }
            func step4() {}
            func dead() {}
        }
        """)
        let summaries = Set(analysis.handlerSummaries())
        XCTAssertTrue(summaries.isSuperset(of: ["reached:step1", "reached:step2", "reached:step3", "reached:keyboardHeight.didSet"]))
        XCTAssertFalse(summaries.contains("reached:step4"), "calls are followed three levels deep")
        XCTAssertFalse(summaries.contains("reached:dead"), "code after return is not part of the handler")
        XCTAssertNil(analysis.handler(at: analysis.index(of: "dead")!))
    }

    func testDeferralInsideHandler() {
        let analysis = analyze("""
        @objc func keyboardWillHide(_ n: Notification) {
            a()
            DispatchQueue.main.asyncAfter(deadline: .now() + 0.1) { b() }
            Task { c() }
            Task { try await Task.sleep(nanoseconds: 1); d() }
        }
        """)
        func deferral(_ name: String) -> String? {
            analysis.deferral(at: analysis.index(of: name)!).map { analysis.source.text(at: $0) }
        }
        XCTAssertNil(deferral("a"))
        XCTAssertEqual(deferral("b"), "asyncAfter")
        XCTAssertEqual(deferral("c"), "Task")
        XCTAssertEqual(deferral("d"), "Task")
    }

    func testFrameValuesFlowThroughBindingsConversionsAndParameters() {
        let analysis = analyze("""
        class Screen: UIViewController {
            @objc func keyboardWillShow(_ note: Notification) {
                guard let value = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? NSValue else { return }
                let raw = value.cgRectValue
                let local = view.convert(raw, from: nil)
                let rawHeight = raw.height
                let localHeight = local.height - view.safeAreaInsets.bottom
                let overlap = view.bounds.maxY - local.minY
                let windowRect = view.convert(view.bounds, to: nil)
                let shared = windowRect.intersection(raw).height
                apply(rawHeight)
                self.saved = raw.size.height
                print(saved)
            }
            func apply(_ amount: CGFloat) {
                print(amount)
            }
        }
        """)
        func value(of name: String) -> KeyboardValue? {
            if name == "amount" || name == "saved" {
                let index = analysis.index(of: name, occurrence: 1)!
                return analysis.keyboardValue(of: index..<(index + 1))
            }
            return analysis.boundValue(name)
        }
        let raw = value(of: "raw")!
        XCTAssertTrue(raw.has([.frameEnd, .screenSpace]))
        XCTAssertFalse(value(of: "local")!.has(.screenSpace))
        XCTAssertTrue(value(of: "local")!.has(.converted))
        let rawHeight = value(of: "rawHeight")!
        XCTAssertTrue(rawHeight.has([.height, .screenSpace]))
        XCTAssertEqual(rawHeight.screenGeometry.map { analysis.source.text(at: $0) }, "height")
        let localHeight = value(of: "localHeight")!
        XCTAssertTrue(localHeight.has([.height, .safeArea, .converted]))
        XCTAssertNil(localHeight.screenGeometry)
        XCTAssertTrue(value(of: "overlap")!.has(.overlap))
        let shared = value(of: "shared")!
        XCTAssertFalse(shared.has(.screenSpace), "intersecting with a window-space rect is keyboard-space math")
        XCTAssertTrue(value(of: "amount")!.has(.screenSpace), "values flow into parameters")
        XCTAssertTrue(value(of: "saved")!.has(.height), "a property written in the handler flows like a local")
        let note = analysis.index(of: "note", occurrence: 1)!
        XCTAssertNil(analysis.keyboardValue(of: note..<(note + 1)))
    }

    func testPublisherChainsPassValuesToTheNextClosure() {
        let analysis = analyze("""
        func bind() {
            NotificationCenter.default.publisher(for: UIResponder.keyboardWillShowNotification)
                .compactMap { $0.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect }
                .filter { !$0.isEmpty }
                .sink { frame in
                    let height = frame.height
                }
            NotificationCenter.default.publisher(for: UIResponder.keyboardWillHideNotification)
                .map { note in note.userInfo?[UIResponder.keyboardAnimationDurationUserInfoKey] as? Double ?? 0 }
                .sink { print($0) }
        }
        """)
        XCTAssertTrue(analysis.boundValue("height")?.has([.frameEnd, .height, .screenSpace]) ?? false)
        let printed = analysis.index(of: "$0", occurrence: 2)!
        XCTAssertTrue(analysis.keyboardValue(of: printed..<(printed + 1))?.has(.duration) ?? false)
        let filtered = analysis.index(of: "$0", occurrence: 1)!
        XCTAssertTrue(analysis.keyboardValue(of: filtered..<(filtered + 1))?.has(.frameEnd) ?? false,
                      "filter passes the element through")
    }

    func testNamesCarryWhatTheirDeclarationHolds() {
        let analysis = analyze("""
        final class Screen: UIViewController {
            var frame: CGRect = .zero
            @objc func keyboardWillShow(_ note: Notification) {
                let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect ?? .zero
                let rows = views.map { frame in frame.height }
                if let frame = cached { let cachedHeight = frame.height }
                let endHeight = frame.height
            }
            func layout() { let ownHeight = frame.height }
        }
        """)
        XCTAssertNil(analysis.boundValue("rows"), "a closure parameter shadows the keyboard frame")
        XCTAssertNil(analysis.boundValue("cachedHeight"), "an `if let` shadows it inside its body")
        XCTAssertTrue(analysis.boundValue("endHeight")?.has([.frameEnd, .height]) ?? false, "and only there")
        XCTAssertNil(analysis.boundValue("ownHeight"), "another method reads the property")
    }

    func testSafeAreaTermsAndScreenSpaceMath() {
        let analysis = analyze("""
        @objc func keyboardWillShow(_ note: Notification) {
            guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
            let screenHeight = UIScreen.main.bounds.height
            let onScreen = screenHeight - frame.origin.y
            let inView = view.bounds.height - frame.origin.y
            let padded = view.convert(frame, from: nil).height - bottomSafeAreaInset
            let plain = view.convert(frame, from: nil).height - footerHeight
            let belowBars = view.convert(frame, from: nil).minY - topLayoutGuide.length
            let belowHeader = view.convert(frame, from: nil).minY - headerLayoutGuide.layoutFrame.height
        }
        """)
        // The main screen is not the view's window: the frame stays unconverted.
        XCTAssertTrue(analysis.boundValue("onScreen")?.has([.screenSpace, .mainScreen]) ?? false)
        XCTAssertNotNil(analysis.boundValue("onScreen")?.screenAPI, "the screen API reaches the frame through the local")
        XCTAssertTrue(analysis.boundValue("inView")?.has([.screenSpace, .viewGeometry]) ?? false)
        XCTAssertTrue(analysis.boundValue("padded")?.has(.safeArea) ?? false, "project names that say safe area count")
        XCTAssertFalse(analysis.boundValue("plain")?.has(.safeArea) ?? true)
        // Before iOS 11 the safe area was the view controller's top and bottom layout guides.
        XCTAssertTrue(analysis.boundValue("belowBars")?.has(.safeArea) ?? false, "topLayoutGuide is the safe area")
        XCTAssertFalse(analysis.boundValue("belowHeader")?.has(.safeArea) ?? true, "a layout guide of the app's is not")
    }

    func testAccessorsAndWrapperPropertiesAcrossFiles() {
        let extensionFile = """
        extension Notification {
            var keyboardEndFrame: CGRect? {
                (userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? NSValue)?.cgRectValue
            }
        }
        struct KeyboardInfo {
            let endFrame: CGRect
            init(_ note: Notification) {
                endFrame = (note.userInfo![UIResponder.keyboardFrameEndUserInfoKey] as! NSValue).cgRectValue
            }
        }
        """
        let facts = collectFacts(Lexer.tokenize(SourceFile(path: "Ext.swift", text: extensionFile)))
        XCTAssertEqual(facts.keyboardAccessors["keyboardEndFrame"], .frameEnd)
        XCTAssertEqual(facts.keyboardFrameProperties["endFrame"], .frameEnd)
        XCTAssertTrue(facts.keyboardHeightAccessors.isEmpty, "a frame accessor is not a height accessor")
        let heightFacts = collectFacts(Lexer.tokenize(SourceFile(path: "H.swift", text: """
        func keyboardHeight(_ n: Notification) -> CGFloat {
            let value = n.userInfo![UIResponder.keyboardFrameEndUserInfoKey] as! NSValue
            return value.cgRectValue.height
        }
        func convertedHeight(_ n: Notification, in view: UIView) -> CGFloat {
            let value = n.userInfo![UIResponder.keyboardFrameEndUserInfoKey] as! NSValue
            return view.convert(value.cgRectValue, from: nil).height
        }
        """)))
        XCTAssertEqual(heightFacts.keyboardHeightAccessors, ["keyboardHeight"])
        let project = ProjectFacts(merging: [facts])
        let analysis = analyze("""
        final class Screen: UIViewController {
            @objc func keyboardWillShow(_ note: Notification) {
                let frame = note.keyboardEndFrame ?? .zero
                let info = KeyboardInfo(note)
                let height = info.endFrame.height
            }
        }
        """, project: project)
        XCTAssertTrue(analysis.boundValue("frame")?.has(.frameEnd) ?? false)
        XCTAssertTrue(analysis.boundValue("height")?.has(.screenSpace) ?? false)
    }

    func testTypedMessageAndHelperCallbackValues() {
        let analysis = analyze("""
        func observe() {
            token = NotificationCenter.default.addObserver(of: screen, for: .keyboardWillShow) { message in
                let frame = message.endFrame
                let duration = message.animationDuration
            }
        }
        func keyboardWillChangeFrame(beginFrame: CGRect, endFrame: CGRect, duration: TimeInterval) {
            let h = endFrame.height
            let b = beginFrame
        }
        """)
        func value(_ name: String) -> KeyboardValue? { analysis.boundValue(name) }
        XCTAssertTrue(value("frame")?.has(.frameEnd) ?? false)
        XCTAssertTrue(value("duration")?.has(.duration) ?? false)
        XCTAssertTrue(value("h")?.has([.frameEnd, .height]) ?? false)
        XCTAssertTrue(value("b")?.has(.frameBegin) ?? false)
    }

    func testKeyboardLayoutGuideUseAndShadowing() {
        func facts(_ path: String, _ code: String) -> FileFacts {
            collectFacts(Lexer.tokenize(SourceFile(path: path, text: code)))
        }
        let uses = facts("A.swift", """
        class Pinned: UIViewController {
            func viewDidLoad() { bar.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true }
        }
        class Reader: UIViewController {
            func read() { print(view.keyboardLayoutGuide.layoutFrame) }
        }
        class HomeMade: UIView {
            let keyboardLayoutGuide = UILayoutGuide()
            func pin() { x.bottomAnchor.constraint(equalTo: keyboardLayoutGuide.topAnchor).isActive = true }
        }
        class HomeMadeChild: HomeMade {
            func more() { keyboardLayoutGuide.topAnchor.constraint(equalTo: y.bottomAnchor).isActive = true }
        }
        """)
        let extensionFile = facts("B.swift", "extension Pinned { func more() {} }")
        let project = ProjectFacts(merging: [uses, extensionFile])
        XCTAssertTrue(project.usesKeyboardLayoutGuide("Pinned"))
        XCTAssertFalse(project.usesKeyboardLayoutGuide("Reader"))
        XCTAssertFalse(project.usesKeyboardLayoutGuide("HomeMade"))
        XCTAssertFalse(project.usesKeyboardLayoutGuide("HomeMadeChild"))
        XCTAssertEqual(project.types["Pinned"]?.paths, ["A.swift", "B.swift"])
        let shadowing = facts("C.swift", "extension UIView { var keyboardLayoutGuide: UILayoutGuide { guide } }")
        XCTAssertFalse(ProjectFacts(merging: [uses, shadowing]).usesKeyboardLayoutGuide("Pinned"))
        let imported = facts("D.swift", "import KeyboardLayoutGuide\nclass V: UIViewController { func f() { a.topAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor) } }")
        XCTAssertFalse(ProjectFacts(merging: [imported]).usesKeyboardLayoutGuide("V"))
    }

    func testAccessoryTraitsOfTypes() {
        let facts = collectFacts(Lexer.tokenize(SourceFile(path: "Chat.swift", text: """
        final class ChatViewController: UIViewController {
            override var inputAccessoryView: UIView? { bar }
        }
        extension ChatViewController {
            override var canBecomeFirstResponder: Bool { true }
        }
        final class Plain: UIViewController {
            override var canBecomeFirstResponder: Bool { false }
        }
        """)))
        let project = ProjectFacts(merging: [facts])
        XCTAssertTrue(project.types["ChatViewController"]?.overridesInputAccessoryView ?? false)
        XCTAssertTrue(project.types["ChatViewController"]?.canBecomeFirstResponder ?? false)
        XCTAssertFalse(project.types["Plain"]?.canBecomeFirstResponder ?? true)
        XCTAssertEqual(project.types["ChatViewController"]?.superclass, "UIViewController")
    }

    func testKeyboardManagerSwitchesAndAccessoryTypes() {
        let facts = collectFacts(Lexer.tokenize(SourceFile(path: "App.swift", text: """
        func setUp() {
            IQKeyboardManager.shared.enable = true
            IQKeyboardManager.shared.disabledDistanceHandlingClasses.append(ChatViewController.self)
            field.inputAccessoryView = ComposeBar(frame: .zero)
        }
        """)))
        XCTAssertEqual(facts.keyboardManagerSwitches.map(\.isEnabled), [true])
        XCTAssertEqual(facts.keyboardManagerExcludedTypes, ["ChatViewController"])
        XCTAssertEqual(facts.accessoryViewTypes, ["ComposeBar"])
        XCTAssertTrue(ProjectFacts(merging: [facts]).enablesKeyboardManager)
    }
}
