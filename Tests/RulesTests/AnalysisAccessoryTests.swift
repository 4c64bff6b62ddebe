import XCTest
import Lexer
@testable import Rules

final class AnalysisAccessoryTests: XCTestCase {
    /// Facts of several files merged as the driver does, and the analysis of the first.
    func project(_ files: [(String, String)]) -> (FileAnalysis, ProjectFacts) {
        let sources = files.map { Lexer.tokenize(SourceFile(path: $0.0, text: $0.1)) }
        let facts = ProjectFacts(merging: sources.map(collectFacts))
        return (FileAnalysis(sources[0], project: facts), facts)
    }

    func testOverridesAndWhatTheirGettersReturn() {
        let analysis = analyze("""
        final class ChatViewController: UIViewController {
            private lazy var composer: ComposerBar = { ComposerBar() }()
            override var inputAccessoryView: UIView? { composer }
            override var inputAccessoryViewController: UIInputViewController? {
                get { return self.captionController! }
                set {}
            }
            var inputAccessoryViewStyle: Int { 0 }
        }
        """)
        let overrides = analysis.accessoryOverrides
        XCTAssertEqual(overrides.count, 2)
        XCTAssertFalse(overrides[0].isViewController)
        XCTAssertTrue(overrides[1].isViewController)
        XCTAssertFalse(overrides[0].isSettable)
        XCTAssertTrue(overrides[1].isSettable)
        XCTAssertEqual(overrides.map { $0.returned.map(analysis.text) }, [["composer"], ["self.captionController!"]])
        let sources = analysis.accessorySources(of: overrides[0].returned[0])
        guard case .property(let property) = sources.first?.kind else { return XCTFail("\(sources)") }
        XCTAssertEqual(analysis.outline[property].name, "composer")
        XCTAssertEqual(analysis.viewTypeName(ofProperty: property), "ComposerBar")
    }

    func testSourcesFollowLocalsHelpersAndCoalescing() {
        let analysis = analyze("""
        final class NotesViewController: UIViewController {
            private var cached: FormatBar?
            override var inputAccessoryView: UIView? {
                return cached ?? makeBar()
            }
            private func makeBar() -> UIView {
                let bar = FormatBar(style: .compact)
                return bar as UIView
            }
            func configure(field: UITextField) {
                if let other = field.inputAccessoryView { print(other) }
                field.inputAccessoryView = nil
            }
        }
        """)
        let returned = analysis.accessoryOverrides[0].returned[0]
        let sources = analysis.accessorySources(of: returned)
        XCTAssertEqual(sources.count, 2)
        let kinds = sources.map { source -> String in
            switch source.kind {
            case .property(let property): "property \(analysis.outline[property].name)"
            case .construction: "new \(analysis.source.text(at: source.token)) via \(source.helpers.count) helper"
            case .nothing: "nil"
            case .undeclaredName: "name"
            case .unresolved: "?"
            }
        }
        XCTAssertEqual(Set(kinds), ["property cached", "new FormatBar via 1 helper"])
        let constructed = sources.first { if case .construction = $0.kind { true } else { false } }!
        XCTAssertEqual(constructed.locals.map { analysis.source.text(at: $0) }, ["bar"])
        XCTAssertEqual(analysis.accessoryAssignments.count, 1)
        XCTAssertEqual(analysis.accessorySources(of: analysis.accessoryAssignments[0].rhs).map(\.kind), [.nothing])
    }

    func testTernariesAndInheritedPropertiesResolveAcrossFiles() {
        let (analysis, facts) = project([
            ("Support.swift", """
            final class SupportViewController: BaseChatViewController {
                override var inputAccessoryView: UIView? { isClosed ? nil : messageBar }
            }
            """),
            ("Base.swift", """
            class BaseChatViewController: UIViewController {
                let messageBar: MessageBar
                lazy var header = HeaderView()
            }
            """),
        ])
        let sources = analysis.accessorySources(of: analysis.accessoryOverrides[0].returned[0])
        XCTAssertEqual(sources.map(\.kind), [.undeclaredName, .nothing])
        XCTAssertEqual(facts.accessories.accessoryUses.count, 0)
        XCTAssertEqual(facts.accessories.inheritedAccessoryUses.map(\.property), ["messageBar"])
        XCTAssertEqual(facts.accessories.propertyTypes["BaseChatViewController"], ["messageBar": "MessageBar", "header": "HeaderView"])
        let uses = facts.accessoryUses()
        XCTAssertEqual(uses.map(\.typeName), ["MessageBar"])
        XCTAssertEqual(uses.first?.location.path, "Support.swift")
    }

    func testComputedPropertiesAreFollowedToWhatTheyReturn() {
        let analysis = analyze("""
        final class DateViewController: UIViewController {
            private let storedBar = DoneBar()
            private var fresh: UIView { let bar = DoneBar(); return bar }
            private var shared: UIView { storedBar }
            private var loop: UIView { loop }
            override var inputAccessoryView: UIView? { fresh }
            func a() -> UIView { shared }
            func b() -> UIView { loop }
        }
        """)
        let fresh = analysis.accessorySources(of: analysis.accessoryOverrides[0].returned[0])
        guard case .construction = fresh.first?.kind else { return XCTFail("\(fresh)") }
        XCTAssertEqual(fresh.first?.locals.map { analysis.source.text(at: $0) }, ["bar"])
        let sharedUse = analysis.index(of: "shared", occurrence: 1)!
        guard case .property(let property) = analysis.accessorySources(of: sharedUse..<(sharedUse + 1)).first?.kind
        else { return XCTFail() }
        XCTAssertEqual(analysis.outline[property].name, "storedBar")
        let loopUse = analysis.index(of: "loop", occurrence: 2)!
        let loop = analysis.accessorySources(of: loopUse..<(loopUse + 1))
        XCTAssertEqual(loop.count, 1, "a getter that reads itself is followed once, then named")
        guard case .property = loop.first?.kind else { return XCTFail("\(loop)") }
    }

    func testConditionBindingsAreVisibleOnlyInTheirBody() {
        let analysis = analyze("""
        final class V: UIViewController {
            var bar: UIView?
            func f() {
                if let bar { print(bar) }
                use(bar)
                guard let bar else { return }
                use(bar)
            }
        }
        """)
        let uses = (0..<4).compactMap { analysis.index(of: "bar", occurrence: $0 + 1) }
        XCTAssertNotNil(analysis.binding(referencedBy: uses[1]), "inside the if body")
        XCTAssertNil(analysis.binding(referencedBy: uses[2]), "after the if statement")
        let afterGuard = analysis.index(of: "bar", occurrence: 5)!
        XCTAssertNotNil(analysis.binding(referencedBy: afterGuard), "after guard let")
    }

    func testAddSubviewOfTheSameViewOnly() {
        let analysis = analyze("""
        final class OverlayViewController: UIViewController {
            private let inputBar = InputBar()
            private let header = HeaderView()
            override var inputAccessoryView: UIView? { inputBar }
            override func viewDidLoad() {
                view.addSubview(header)
                view.addSubview(self.inputBar)
                let inputBar = InputBar()
                view.addSubview(inputBar)
            }
        }
        """)
        let source = analysis.accessorySources(of: analysis.accessoryOverrides[0].returned[0])[0]
        let found = analysis.addSubviewCalls(of: source)
        XCTAssertEqual(found.count, 1)
        XCTAssertEqual(analysis.text(analysis.calls[found[0]].arguments[0].value), "self.inputBar")
    }

    func testResponderFactsAcrossFilesAndSuperclasses() {
        let (_, facts) = project([
            ("Chat.swift", """
            final class ChatViewController: BaseViewController {
                override var inputAccessoryView: UIView? { composer }
                lazy var composer = ComposerBar()
            }
            extension ChatViewController: UITextViewDelegate {}
            """),
            ("Base.swift", """
            class BaseViewController: UIViewController {
                override var canBecomeFirstResponder: Bool { return true }
                override func viewWillDisappear(_ animated: Bool) {
                    super.viewWillDisappear(animated)
                    endEditingSession()
                }
                private func endEditingSession() { self.resignFirstResponder() }
            }
            final class Plain: UIView {
                override var canBecomeFirstResponder: Bool { false }
            }
            final class Sometimes: UIView {
                override var canBecomeFirstResponder: Bool { isEnabled }
            }
            """),
            ("ComposerBar.swift", """
            final class ComposerBar: UIView {
                override init(frame: CGRect) {
                    super.init(frame: frame)
                    autoresizingMask = [.flexibleWidth, .flexibleHeight]
                }
            }
            final class Holder {
                let field = UITextField()
                func f() {
                    let bar = GrowingBar()
                    bar.translatesAutoresizingMaskIntoConstraints = false
                    field.inputAccessoryView = bar
                }
            }
            """),
        ])
        XCTAssertEqual(facts.types["ChatViewController"]?.superclass, "BaseViewController")
        XCTAssertEqual(facts.rootClass(of: "ChatViewController"), "UIViewController")
        XCTAssertTrue(facts.isViewController("ChatViewController"))
        XCTAssertEqual(facts.firstResponderAnswer(for: "ChatViewController"), .yes)
        XCTAssertEqual(facts.firstResponderOverride(for: "ChatViewController")?.location?.path, "Base.swift",
                       "inherited from the superclass in another file")
        XCTAssertEqual(facts.firstResponderAnswer(for: "Plain"), .no)
        XCTAssertEqual(facts.firstResponderAnswer(for: "Sometimes"), .depends)
        XCTAssertNil(facts.firstResponderAnswer(for: "ComposerBar"))
        XCTAssertTrue(facts.resignsOnDisappear("ChatViewController"))
        XCTAssertFalse(facts.resignsOnDisappear("Plain"))
        XCTAssertEqual(Set(facts.accessories.accessoryUses.map(\.typeName)), ["ComposerBar", "GrowingBar"])
        XCTAssertEqual(facts.accessories.selfSizingTypes, ["ComposerBar"])
        XCTAssertEqual(facts.accessories.typesSizedWhereCreated, ["GrowingBar"])
        XCTAssertEqual(facts.declaredLineage(of: "ChatViewController"), ["ChatViewController", "BaseViewController"])
        XCTAssertEqual(facts.declaredLineage(of: "UIView"), [])
    }

    func testExtensionFirstMergeKeepsTheSuperclassFirst() {
        let extensionFirst = collectFacts(Lexer.tokenize(SourceFile(path: "A.swift", text: "extension Chat: UITextViewDelegate {}")))
        let declaration = collectFacts(Lexer.tokenize(SourceFile(path: "B.swift", text: "final class Chat: BaseController {}")))
        let facts = ProjectFacts(merging: [extensionFirst, declaration])
        XCTAssertEqual(facts.types["Chat"]?.superclass, "BaseController")
        XCTAssertEqual(facts.superclasses(of: "Chat"), ["BaseController"])
    }

    /// `accessoryAssignments` answers files without the accessory names at once (from their
    /// catalogue markers when the model knows them): the same assignments as looking through
    /// every assignment's target.
    func testAccessoryAssignmentsEqualThoseOfEveryTarget() {
        let codes = [
            "class A { func f() { field.inputAccessoryView = bar; other.inputView = nil; x = 1 } }",
            "class B { func f() { inputAccessoryViewController = c; self.view.inputAccessoryView = makeBar() } }",
            "class C { func f() { field.inputView = picker; count += 1; items[0] = 2 } }",
            "class D { func f() { a.`inputAccessoryView` = b; a.inputAccessoryView += b; accessory = inputAccessoryView } }",
            "class E { let x = 1 }",
        ]
        var found = 0
        for code in codes {
            let source = Lexer.tokenize(SourceFile(path: "A.swift", text: code))
            let expected = FileAnalysis(source).assignments.filter { assignment in
                guard !assignment.isCompound, let last = ExpressionBounds.chainNames(source, assignment.lhs).last else { return false }
                return source.isWord(last, "inputAccessoryView") || source.isWord(last, "inputAccessoryViewController")
            }.map(\.lhs)
            found += expected.count
            let markers = FileChecker.catalogueMarkers.present(in: source.file.bytes)
            for analysis in [FileAnalysis(source), FileAnalysis(FileModel(source, catalogueMarkers: markers))] {
                XCTAssertEqual(analysis.accessoryAssignments.map(\.lhs), expected, code)
            }
        }
        XCTAssertGreaterThanOrEqual(found, 3)
    }

    func testIndentationOfALine() {
        let analysis = analyze("class A {\n\t  override var x: Int { 1 }\n}\n")
        XCTAssertEqual(analysis.indentation(ofLineAt: analysis.index(of: "override")!), "\t  ")
        XCTAssertEqual(analysis.indentation(ofLineAt: analysis.index(of: "class")!), "")
    }
}
