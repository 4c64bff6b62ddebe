import XCTest
import Lexer
@testable import Rules

/// The pass-1 fact collectors skip work whose result cannot matter; each test compares the
/// shortcut against the plain computation on varied code.
final class FactShortcutTests: XCTestCase {
    func testViewTypeNamesMatchFollowingEveryInitializer() {
        let analysis = FileAnalysis(Lexer.tokenize(SourceFile(path: "Views.swift", text: """
        final class Screen: UIViewController {
            var count = 0
            var missing: UIView? = nil
            var flag = true
            var title = ""
            var inset: CGFloat = .zero
            var list = [1, 2]
            let bar = ComposerBar()
            let other = Bar.init(frame: .zero)
            lazy var configured: UIToolbar = { let bar = UIToolbar(); return bar }()
            lazy var alias = bar
            var typed: ChatBar! = makeBar()
            var annotated: Module.Bar?
            var wrapped = (Bar())
            var forced = self.bar
            func makeBar() -> ChatBar { ChatBar() }
        }
        """)))
        let outline = analysis.outline
        XCTAssertGreaterThan(outline.propertyIDs.count, 10)
        for id in outline.propertyIDs {
            let property = outline[id]
            var expected: String?
            if let initializer = property.initializer {
                for found in analysis.accessorySources(of: initializer) {
                    if case .construction = found.kind {
                        expected = analysis.source.text(at: found.token)
                        break
                    }
                }
            }
            XCTAssertEqual(analysis.viewTypeName(ofProperty: id), expected ?? analysis.annotatedTypeName(property.type),
                           property.name)
        }
    }

    /// The class property tables, gathered per run of one class, are those of recording
    /// every property into the project-wide table one by one, on every rule example and on
    /// generated files whose classes, extensions, nested and same-named types interleave.
    func testPropertyTypesMatchRecordingEachPropertyInTurn() {
        func plainPropertyTypes(_ analysis: FileAnalysis) -> [String: [String: String]] {
            let outline = analysis.outline
            var tables: [String: [String: String]] = [:]
            for (id, property) in zip(outline.propertyIDs, outline.properties) where !property.isStatic {
                guard let owner = property.owner, outline[owner].kind == .class,
                      let name = analysis.viewTypeName(ofProperty: id) else { continue }
                tables[outline[owner].simpleName, default: [:]][property.name] = name
            }
            return tables
        }
        var sources = RuleRegistry.all.flatMap { rule in
            (rule.metadata.triggering + rule.metadata.nonTriggering).map { $0.code.replacingOccurrences(of: "↓", with: "") }
        }
        let members = [
            "var bar = ChatBar()", "let label: UILabel", "static var shared = Screen()", "var count = 0",
            "lazy var tool: UIToolbar = { UIToolbar() }()", "var bar: UIView?", "class var style = Style()",
            "let label = Label.init(frame: .zero)", "var title = \"\"",
        ]
        let openings = ["class Screen {", "final class Other: Screen {", "struct Model {", "extension Screen {",
                        "class Screen: UIView {", "enum Kind {", "class Inner {"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var text = ""
            var depth = 0
            for _ in 0..<Int.random(in: 1...24, using: &generator) {
                switch Int.random(in: 0..<4, using: &generator) {
                case 0 where depth < 3:
                    text += openings.randomElement(using: &generator)! + "\n"
                    depth += 1
                case 1 where depth > 0:
                    text += "}\n"
                    depth -= 1
                default:
                    text += members.randomElement(using: &generator)! + "\n"
                }
            }
            sources.append(text + String(repeating: "}\n", count: depth))
        }
        var recorded = 0
        for code in sources {
            let analysis = FileAnalysis(Lexer.tokenize(SourceFile(path: "A.swift", text: code)))
            let expected = plainPropertyTypes(analysis)
            recorded += expected.values.reduce(0) { $0 + $1.count }
            XCTAssertEqual(AccessoryFacts.propertyTypes(analysis), expected, code)
            XCTAssertEqual(AccessoryFacts(analysis).propertyTypes, expected, code)
        }
        XCTAssertGreaterThan(recorded, 200)
    }

    func testSelfSizingSettingsMatchReadingEveryChain() {
        let analysis = FileAnalysis(Lexer.tokenize(SourceFile(path: "Sizing.swift", text: """
        func setUp() {
            bar.autoresizingMask = [.flexibleWidth, .flexibleHeight]
            bar.autoresizingMask = .flexibleWidth
            self.allowsSelfSizing = true
            allowsSelfSizing = false
            view.translatesAutoresizingMaskIntoConstraints = false
            bar.autoresizingMask.insert(.flexibleHeight)
            table[autoresizingMask] = .flexibleHeight
            bar.autoresizingMask! = .flexibleHeight
            bar.height = 44
            bar.autoresizingMask += .flexibleHeight
        }
        """)))
        let source = analysis.source
        XCTAssertGreaterThan(analysis.assignments.count, 8)
        var recognised = 0
        for assignment in analysis.assignments {
            var expected = false
            if !assignment.isCompound, let last = analysis.chainNames(assignment.lhs).last {
                if source.isWord(last, "autoresizingMask") {
                    expected = assignment.rhs.contains { source.isWord($0, "flexibleHeight") }
                } else if source.isWord(last, "allowsSelfSizing") {
                    expected = assignment.rhs.count == 1 && source.isWord(assignment.rhs.lowerBound, "true")
                } else if source.isWord(last, "translatesAutoresizingMaskIntoConstraints") {
                    expected = assignment.rhs.count == 1 && source.isWord(assignment.rhs.lowerBound, "false")
                }
            }
            if expected { recognised += 1 }
            XCTAssertEqual(analysis.isSelfSizingSetting(assignment), expected, source.text(spanning: assignment.lhs))
        }
        XCTAssertGreaterThanOrEqual(recognised, 3)
    }

    /// Type facts of a file equal a full scan of every type body for the safe area and the
    /// guide, whatever the byte pre-checks let the collector skip.
    func testTypeFactsMatchFullTypeBodyScans() {
        let samples = [
            "class A: UIView { func f() { keyboardLayoutGuide.topAnchor.constraint(equalTo: x).isActive = true } }",
            "class A: UIView { let inset = safeAreaInsets.bottom }\nextension A { func g() {} }",
            "class A: UIViewController { func f() { let guide = view.keyboardLayoutGuide\n guide.followsUndockedKeyboard = true } }",
            "import KeyboardLayoutGuide\nclass A: UIView { func f() { _ = keyboardLayoutGuide.topAnchor } }",
            "class Keyboard { let height = 0 }\nstruct B { let a = bottomLayoutGuide.length }",
            "class A { func f() { _ = safeAreaLayoutGuide } }\nclass A {}",
            "",
        ]
        for sample in samples {
            let source = Lexer.tokenize(SourceFile(path: "A.swift", text: sample))
            let fileIndex = FileIndex(source)
            var facts = FileFacts(path: "A.swift")
            FactCollector.collectTypes(fileIndex, into: &facts)
            let importsGuidePackage = sample.contains("import KeyboardLayoutGuide")
            let full = FactCollector.scanTypeBodies(
                source, fileIndex.outline, mayNameSafeArea: true,
                aliases: importsGuidePackage ? nil : KeyboardLayoutGuideAliases(fileIndex))
            var expected: [String: (safeArea: Bool, uses: [Range<Int>], undocked: Int)] = [:]
            for (position, type) in fileIndex.outline.types.enumerated() {
                let known = expected[type.qualifiedName] ?? (false, [], 0)
                expected[type.qualifiedName] = (
                    known.safeArea || full.mentionsSafeArea[position],
                    known.uses + full.guideUses[position].map(\.range),
                    known.undocked + full.followsUndocked[position].count)
            }
            var firstAppearances: [String] = []
            for type in fileIndex.outline.types where !firstAppearances.contains(type.qualifiedName) {
                firstAppearances.append(type.qualifiedName)
            }
            XCTAssertEqual(facts.types.map(\.name), firstAppearances, sample)
            for type in facts.types {
                XCTAssertEqual(type.mentionsSafeArea, expected[type.name]?.safeArea, sample)
                XCTAssertEqual(type.keyboardLayoutGuideUses.map(\.range), expected[type.name]?.uses, sample)
                XCTAssertEqual(type.followsUndockedKeyboard.count, expected[type.name]?.undocked, sample)
            }
        }
    }

    /// The byte pre-checks read off a scan's catalogue markers answer as a search of the bytes
    /// does, and every marker they use is a catalogue marker (else they would always search).
    func testCatalogueMarkerChecksMatchSearchingTheBytes() {
        let checks = [
            CatalogueMarkerCheck(KeyboardVocabulary.safeAreaMarkers), CatalogueMarkerCheck(["disabledDistanceHandlingClasses"]),
            CatalogueMarkerCheck(["removeObserver"]), CatalogueMarkerCheck(AccessoryFacts.markers),
        ]
        let samples = [
            "", "let a = view.safeAreaInsets.bottom", "additionalSafeAreaInsets = .zero", "let g = topLayoutGuide",
            "x.bottomLayoutGuide.length", "IQKeyboardManager.shared.disabledDistanceHandlingClasses = [A.self]",
            "NotificationCenter.default.removeObserver(self)", "// removeObserver in a comment",
            "override var canBecomeFirstResponder: Bool { true }", "bar.autoresizingMask = .flexibleHeight",
            "let s = \"inputAccessoryView\"", "v.translatesAutoresizingMaskIntoConstraints = false", "safe area",
        ]
        for check in checks { XCTAssertNotNil(check.mask, "\(check.markers)") }
        var found = 0
        for sample in samples {
            let bytes = Array(sample.utf8)
            let present = FileChecker.catalogueMarkers.present(in: bytes)
            for check in checks {
                let searched = KeyboardVocabulary.mayContain(check.markers, in: bytes)
                XCTAssertEqual(check.mayBeIn(bytes, present: present), searched, sample)
                XCTAssertEqual(check.mayBeIn(bytes, present: nil), searched, sample)
                if searched { found += 1 }
            }
        }
        XCTAssertGreaterThanOrEqual(found, 10)
        XCTAssertNil(CatalogueMarkerCheck(["noSuchCatalogueMarkerAnywhere"]).mask)
    }

    /// The assignments the left-hand-side token tests pass over are none that gathering their
    /// chain's names would keep: inset setups, keyboard manager switches and accessory views.
    func testAssignmentTokenTestsKeepEveryAssignmentTheChainsWould() {
        let text = """
        final class Screen: UIViewController {
            func setUp() {
                tableView.contentInsetAdjustmentBehavior = .never
                self.contentInsetAdjustmentBehavior = .never
                collection.contentInset.bottom = view.safeAreaInsets.bottom
                scrollView.contentInset = UIEdgeInsets(top: 0, left: 0, bottom: safeAreaInsets.bottom, right: 0)
                self.list[contentInset].x = 1
                IQKeyboardManager.shared.enable = true
                IQKeyboardManager.shared().isEnabled = false
                field.inputAccessoryView = ChatBar()
                self.inputAccessoryView = nil
                frame.origin.y = 0
                count += 1
                (a, b) = (1, 2)
                contentInsetValue = 3
            }
        }
        """
        let fileIndex = FileIndex(Lexer.tokenize(SourceFile(path: "A.swift", text: text)))
        let source = fileIndex.source
        var kept = (inset: 0, fact: 0)
        XCTAssertGreaterThan(fileIndex.assignments.count, 10)
        for assignment in fileIndex.assignments {
            let names = ExpressionBounds.chainNames(source, assignment.lhs)
            let withoutSelf = names.filter { !source.isWord($0, "self") }
            let insetNamed = withoutSelf.last.map { source.isWord($0, "contentInsetAdjustmentBehavior") } == true
                || withoutSelf.contains { source.isWord($0, "contentInset") }
            let factNamed = names.contains { source.isWord($0, "IQKeyboardManager") }
                || names.last.map { source.isWord($0, "inputAccessoryView") } == true
            if insetNamed {
                kept.inset += 1
                XCTAssertTrue(ScrollViewInsetSetup.writesInsetName(assignment.lhs, in: source), source.text(spanning: assignment.lhs))
            }
            if factNamed {
                kept.fact += 1
                XCTAssertTrue(FactCollector.mayNameSwitchOrAccessory(assignment.lhs, source), source.text(spanning: assignment.lhs))
            }
        }
        XCTAssertEqual(kept.inset, 4)
        XCTAssertEqual(kept.fact, 4)
        let setups = ScrollViewInsetSetup.find(source, fileIndex.outline, fileIndex.assignments, fileIndex.constants)
        XCTAssertEqual(setups.filter { $0.kind == .adjustmentNever }.count, 2)
        XCTAssertEqual(setups.filter { $0.kind == .insetFromSafeArea }.count, 2)
    }
}
