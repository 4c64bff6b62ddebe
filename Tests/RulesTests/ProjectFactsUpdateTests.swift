import Lexer
import XCTest
@testable import Rules

/// `ProjectFacts.update(toMerge:)` against merging every file anew.
final class ProjectFactsUpdateTests: XCTestCase {
    /// Files whose facts overlap: a type declared in one file and extended in others, nested
    /// types sharing a simple name, a type declared twice, accessors, property types, first
    /// responder overrides and keyboard layout guide uses that more than one file holds.
    static let sources: [(path: String, code: String)] = [
        ("Base.swift", """
        class Base: UIViewController {
            let bar = InputBar()
            override var canBecomeFirstResponder: Bool { false }
        }
        """),
        ("BaseExtension.swift", """
        extension Base: UITableViewDelegate {
            static let duration = 0.3
            override var inputAccessoryView: UIView? { bar }
        }
        """),
        ("ChatList.swift", "enum Chat { class ListView: UIView { let header = HeaderView() } }"),
        ("FeedList.swift", "enum Feed { class ListView: UICollectionView {}\n struct Row {} }"),
        ("ChatListExtension.swift", "extension Chat.ListView: Themed { static let duration = 0.5 }"),
        ("BaseAgain.swift", """
        class Base: NSObject {
            override var canBecomeFirstResponder: Bool { true }
            let bar = OtherBar()
        }
        """),
        ("Keyboard.swift", """
        extension Notification {
            var keyboardFrame: CGRect? { (userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? NSValue)?.cgRectValue }
        }
        """),
        ("KeyboardAgain.swift", """
        extension Notification {
            var keyboardFrame: CGRect? { (userInfo?[UIResponder.keyboardFrameBeginUserInfoKey] as? NSValue)?.cgRectValue }
        }
        """),
        ("Other.swift", "class Other { class ListView: UITableView {} }\nextension Feed.ListView: Themed {}"),
        ("Guide.swift", """
        class GuideController: Base {
            override func viewDidLoad() {
                super.viewDidLoad()
                field.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                NotificationCenter.default.addObserver(self, selector: #selector(show), name: UIResponder.keyboardWillShowNotification, object: nil)
            }
        }
        """),
        ("Accessory.swift", """
        class Composer: UIView {
            let toolbar = UIToolbar()
            override var inputAccessoryView: UIView? { toolbar }
        }
        extension Chat.ListView { func reload() {} }
        """),
        ("Plain.swift", "struct Row {}\nstruct Plain {}"),
        ("Panel.swift", "class Panel: UIView { let header = HeaderView(); let footer = FooterView() }"),
        ("PanelAgain.swift", "class Panel: UIView { let header = OtherHeader(); var extra: ExtraView? }\nclass Lone { let view = LoneView() }"),
        ("PanelOnceMore.swift", "class Panel: UIView { var footer: OtherFooter!; let extra = UIView() }"),
    ]

    static let files: [FileFacts] = sources.map { collectFacts(Lexer.tokenize(SourceFile(path: $0.path, text: $0.code))) }

    func testUpdatingWithAddedFilesEqualsMergingAnew() {
        var generator = SystemRandomNumberGenerator()
        var updatedWithAdditions = 0
        for _ in 0..<300 {
            let all = Self.files.shuffled(using: &generator)
            let earlier = all.filter { _ in Bool.random(using: &generator) }
            var project = ProjectFacts(merging: earlier)
            project.update(toMerge: all)
            XCTAssertEqual(FactCollectionTests.canonical(project), FactCollectionTests.canonical(ProjectFacts(merging: all)), all.map(\.path).description)
            if earlier.count < all.count { updatedWithAdditions += 1 }
            // Updated again with more files, as a driver does round after round.
            let more = all + [Self.files[0]].map { FileFacts(copying: $0, path: "Copy.swift") }
            project.update(toMerge: more)
            XCTAssertEqual(FactCollectionTests.canonical(project), FactCollectionTests.canonical(ProjectFacts(merging: more)))
        }
        XCTAssertGreaterThan(updatedWithAdditions, 250)
    }

    /// Files the project does not hold in the same order, or at all, are merged anew.
    func testOtherFilesAreMergedAnew() {
        let files = Self.files
        for others in [Array(files.reversed()), Array(files.dropFirst()), files + [files[3]], [files[2], files[2]]] {
            var project = ProjectFacts(merging: files)
            project.update(toMerge: others)
            XCTAssertEqual(FactCollectionTests.canonical(project), FactCollectionTests.canonical(ProjectFacts(merging: others)))
        }
        var replaced = ProjectFacts(merging: files).replacing(files[1])
        replaced.update(toMerge: files + [files[0]].map { FileFacts(copying: $0, path: "Copy.swift") })
        XCTAssertEqual(FactCollectionTests.canonical(replaced), FactCollectionTests.canonical(ProjectFacts(merging: files + [FileFacts(copying: files[0], path: "Copy.swift")])))
    }

    /// Copies of a project share its tables: updating, including into, excluding from or
    /// replacing in one copy leaves every other as it was.
    func testChangingOneCopyLeavesTheOthersAsTheyWere() {
        let earlier = Array(Self.files.prefix(6)), added = Array(Self.files.dropFirst(6))
        let expected = FactCollectionTests.canonical(ProjectFacts(merging: earlier))
        let original = ProjectFacts(merging: earlier)
        var updated = original
        updated.update(toMerge: Self.files)
        let derived = [
            original.including(added[0]), original.excluding(earlier[1].path), original.replacing(added[4]),
            original.recordingTypeLookups(into: TypeLookups()),
        ]
        XCTAssertEqual(FactCollectionTests.canonical(original), expected)
        XCTAssertEqual(FactCollectionTests.canonical(updated), FactCollectionTests.canonical(ProjectFacts(merging: Self.files)))
        XCTAssertTrue(original.types.lookups == nil && derived[3].types.lookups != nil)
        XCTAssertTrue(derived[0].contains(path: added[0].path) && derived[2].contains(path: added[4].path))
        XCTAssertFalse(derived[1].contains(path: earlier[1].path))
        XCTAssertFalse(original.contains(path: added[0].path) || original.contains(path: added[4].path))
        XCTAssertTrue(original.contains(path: earlier[1].path))
        XCTAssertNotEqual(FactCollectionTests.canonical(updated), expected)
    }

    /// The sources hold what the test is about.
    func testSourcesOverlap() {
        let project = ProjectFacts(merging: Self.files)
        XCTAssertEqual(project.types.nestedBySimpleName["ListView"]?.count, 3)
        XCTAssertEqual(project.types["Base"]?.paths.count, 3)
        XCTAssertFalse(project.keyboardAccessors.isEmpty)
        XCTAssertFalse(project.accessories.propertyTypes.isEmpty)
        XCTAssertFalse(project.accessories.firstResponderAnswers.isEmpty)
        XCTAssertFalse(project.keyboardLayoutGuideUsers.isEmpty)
        // Files whose facts beyond types are property tables alone, one class among several
        // of them: an update adding only such files merges the tables alone again.
        let tablesAlone = Self.files.filter { $0.hasFactsBeyondTypes && !$0.hasFactsBesidesTypesAndPropertyTables }
        XCTAssertGreaterThanOrEqual(tablesAlone.filter { $0.accessories.propertyTypes["Panel"] != nil }.count, 3)
        XCTAssertEqual(project.accessories.propertyTypes["Panel"], ["header": "HeaderView", "footer": "FooterView", "extra": "ExtraView"])
    }

    /// Adding files that hold property tables alone, among files holding other facts beyond
    /// types, merges the tables as merging every file anew does, whatever the order.
    func testAddingPropertyTablesAloneEqualsMergingAnew() {
        let tablesAlone = Self.files.filter { $0.hasFactsBeyondTypes && !$0.hasFactsBesidesTypesAndPropertyTables }
        let others = Self.files.filter { !tablesAlone.map(\.path).contains($0.path) }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<100 {
            let all = Self.files.shuffled(using: &generator)
            let earlier = all.filter { file in others.contains { $0.path == file.path } || Bool.random(using: &generator) }
            var project = ProjectFacts(merging: earlier)
            project.update(toMerge: all)
            XCTAssertEqual(FactCollectionTests.canonical(project), FactCollectionTests.canonical(ProjectFacts(merging: all)), all.map(\.path).description)
            XCTAssertEqual(project.accessories.propertyTypes, ProjectFacts(merging: all).accessories.propertyTypes)
        }
    }
}

extension FileFacts {
    /// `file`'s facts as those of the file at `path`.
    init(copying file: FileFacts, path: String) {
        self.init(path: path)
        types = file.types.map { type in
            var copy = TypeFacts(name: type.name)
            copy.merge(type)
            copy.paths = [path]
            return copy
        }
    }
}
