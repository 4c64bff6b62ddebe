import Foundation
import XCTest
@testable import KBLint
import Rules

/// Pass 1 analyses only the files rules check or that hold project-wide facts, and
/// analyses more when a rule looks up a type declared elsewhere (`FactScope`). Every
/// finding must be the one analysing every file gives.
final class FactScopeTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").path
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples").path

    /// Facts that only marker-free files hold: a superclass chain, a singleton declared in an
    /// class, each in a file without a keyboard word.
    static func writeProjectWithFactsInPlainFiles(_ folder: TemporaryDirectory) throws {
        try folder.write("Screens/AddressFormViewController.swift", """
            import Combine
            import UIKit

            final class AddressFormViewController: FormTableViewController {
                private var bag = Set<AnyCancellable>()
                func bind() {
                    NotificationCenter.default.publisher(for: UIResponder.keyboardWillShowNotification)
                        .sink { [weak self] _ in self?.tableView.contentOffset = CGPoint(x: 0, y: 120) }
                        .store(in: &bag)
                }
            }
            """)
        try folder.write("Base/FormTableViewController.swift", """
            import UIKit

            /// Forms share their cells.
            class FormTableViewController: BaseTableViewController {
                var rows: [String] = []
            }
            """)
        try folder.write("Base/BaseTableViewController.swift", """
            import UIKit

            class BaseTableViewController: UITableViewController {}
            """)
        try folder.write("Services/InsetTracker.swift", """
            final class InsetTracker {
                static let shared = InsetTracker()
            }
            """)
        try folder.write("Services/InsetTracker+Observing.swift", """
            import UIKit

            extension InsetTracker {
                func start() {
                    NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillShowNotification, object: nil, queue: .main) { _ in }
                }
            }
            """)
        // Neither file has keyboard words: pass 2 checks both, pass 1 analyses neither.
        try folder.write("Settings/SettingsViewController.swift", """
            import UIKit

            final class SettingsViewController: UIViewController {
                private var token: NSObjectProtocol?
                override func viewDidLoad() {
                    super.viewDidLoad()
                    token = NotificationCenter.default.addObserver(forName: UserDefaults.didChangeNotification, object: nil, queue: .main) { [weak self] _ in self?.reload() }
                }
                func reload() {}
            }
            """)
        try folder.write("Settings/SettingsViewController+Teardown.swift", """
            import UIKit

            extension SettingsViewController {
                func stopObserving() {
                    NotificationCenter.default.removeObserver(token as Any)
                }
            }
            """)
        for index in 0..<20 {
            try folder.write("Model/Model\(index).swift", "struct Model\(index) { var name = \"\" }\n")
        }
    }

    /// Every rule with its default options.
    static let everyRule = FilePlan(rules: RuleRegistry.all.map { rule in
        RuleSelection(rule: rule, severity: nil, options: Dictionary(
            uniqueKeysWithValues: rule.metadata.options.map { ($0.name, $0.defaultValue) }))
    }, deploymentTarget: nil)

    static func driver(_ analysingEveryFile: Bool, retainingModelBytes retained: Int = 1 << 20, holdingBytes held: Int = 1 << 20) -> LintDriver {
        var driver = LintDriver(jobs: 2, fixMode: .report, knownRuleIDs: Set(RuleRegistry.all.map { $0.metadata.id }),
                                closeMatches: { _, _ in [] }, progressSink: nil)
        driver.analysesEveryFile = analysingEveryFile
        driver.retainedModelBytes = retained
        driver.heldBytesForAnalysis = held
        return driver
    }

    func findings(
        under folder: String, analysingEveryFile: Bool, retainingModelBytes retained: Int = 1 << 20, holdingBytes held: Int = 1 << 20
    ) -> [String] {
        let (targets, errors) = FileDiscovery(currentDirectory: folder).discover([folder])
        XCTAssertEqual(errors.count, 0)
        let outcome = Self.driver(analysingEveryFile, retainingModelBytes: retained, holdingBytes: held)
            .run(targets.map { LintInput(target: $0, plan: Self.everyRule) })
        return outcome.files.flatMap(\.findings).map { "\($0.path):\($0.range) \($0.ruleID): \($0.message)" }
    }

    func testFactsInFilesWithoutKeyboardWordsReachTheRules() throws {
        let folder = try TemporaryDirectory()
        try Self.writeProjectWithFactsInPlainFiles(folder)
        let selected = findings(under: folder.path, analysingEveryFile: false)
        XCTAssertEqual(selected, findings(under: folder.path, analysingEveryFile: true))
        // The table view controller is known through two plain files; the tracker is a
        // singleton declared in a plain file, so its discarded token is not reported.
        XCTAssertTrue(selected.contains { $0.contains("keyboard_insets_in_table_view_controller") }, "\(selected)")
        XCTAssertFalse(selected.contains { $0.contains("InsetTracker") }, "\(selected)")
        // The token is removed in the other file of the type.
        XCTAssertFalse(selected.contains { $0.contains("SettingsViewController") }, "\(selected)")
    }

    /// Findings of the files whose names end with `reportedSuffix`, every rule on, the
    /// folder's other files read for their facts only (a run on one file of a project).
    func findings(under folder: String, reporting reportedSuffix: String, analysingEveryFile: Bool) -> [String] {
        let (targets, _) = FileDiscovery(currentDirectory: folder).discover([folder])
        let reported = targets.filter { $0.path.hasSuffix(reportedSuffix) }
        let others = targets.filter { !$0.path.hasSuffix(reportedSuffix) }
        let outcome = Self.driver(analysingEveryFile).run(reported.map { LintInput(target: $0, plan: Self.everyRule) },
                                                          factSources: others.map { FactSource(target: $0) })
        return outcome.files.flatMap(\.findings).map { "\($0.ruleID): \($0.message)" }
    }

    /// A scroll view class and the code owning its instances sit in different files: the
    /// owner's file, read for its facts only, says that it builds the insets from the safe
    /// area (`contentInset` and `safeArea` together) or turns the adjustment off.
    func testOwnersOfScrollViewClassesInOtherFilesReachTheRules() throws {
        let folder = try TemporaryDirectory()
        try folder.write("Views/StoryPager.swift", """
            import UIKit

            final class StoryPager: UIScrollView {
                override init(frame: CGRect) {
                    super.init(frame: frame)
                    contentInsetAdjustmentBehavior = .never
                }
                required init?(coder: NSCoder) { fatalError() }
                var pageHeight: CGFloat { bounds.height - contentInset.top }
            }
            """)
        try folder.write("Views/NotesTextView.swift", """
            import UIKit

            final class NotesTextView: UITextView {
                var visibleHeight: CGFloat { bounds.height - contentInset.bottom }
            }
            """)
        try folder.write("Screens/StoryViewController.swift", """
            import UIKit

            final class StoryViewController: UIViewController {
                private let pager = StoryPager(frame: .zero)
                override func viewSafeAreaInsetsDidChange() {
                    super.viewSafeAreaInsetsDidChange()
                    pager.contentInset.bottom = view.safeAreaInsets.bottom
                }
            }
            """)
        try folder.write("Screens/NotesViewController.swift", """
            import UIKit

            final class NotesViewController: UIViewController {
                private let notes = NotesTextView()
                override func viewDidLoad() {
                    super.viewDidLoad()
                    notes.contentInsetAdjustmentBehavior = .never
                }
            }
            """)
        for suffix in ["StoryPager.swift", "NotesTextView.swift"] {
            let selected = findings(under: folder.path, reporting: suffix, analysingEveryFile: false)
            XCTAssertEqual(selected, findings(under: folder.path, reporting: suffix, analysingEveryFile: true), suffix)
            XCTAssertEqual(selected, [], suffix)
        }

        // Every spelling of the safe area marks the owner's file: here the one before iOS 11,
        // in a file without the word `safeArea`.
        try folder.write("Screens/StoryViewController.swift", """
            import UIKit

            final class StoryViewController: UIViewController {
                private let pager = StoryPager(frame: .zero)
                override func viewDidLayoutSubviews() {
                    super.viewDidLayoutSubviews()
                    pager.contentInset.bottom = bottomLayoutGuide.length
                }
            }
            """)
        let legacy = findings(under: folder.path, reporting: "StoryPager.swift", analysingEveryFile: false)
        XCTAssertEqual(legacy, findings(under: folder.path, reporting: "StoryPager.swift", analysingEveryFile: true))
        XCTAssertEqual(legacy, [])

        // Without the owner's safe-area insets the class's `.never` is reported.
        try folder.write("Screens/StoryViewController.swift", """
            import UIKit

            final class StoryViewController: UIViewController {
                private let pager = StoryPager(frame: .zero)
                override func viewDidLoad() {
                    super.viewDidLoad()
                    pager.contentInset.bottom = 12
                }
            }
            """)
        let selected = findings(under: folder.path, reporting: "StoryPager.swift", analysingEveryFile: false)
        XCTAssertEqual(selected, findings(under: folder.path, reporting: "StoryPager.swift", analysingEveryFile: true))
        XCTAssertEqual(selected.map { $0.prefix { $0 != ":" } }, ["content_inset_adjustment_never"])
    }

    /// A superclass walk asks only what declarations say, so files that merely extend a type
    /// are left out, except where one decides which type a name means: here `View` is a type
    /// the project only extends, not the nested `Design.View` table view controller, so the
    /// screen is no table view controller.
    func testExtensionsDecideWhichTypeASuperclassNameMeans() throws {
        let folder = try TemporaryDirectory()
        try folder.write("Screens/ComposeScreen.swift", """
            import UIKit

            final class ComposeScreen: View {
                let tableView = UITableView()
                @objc func keyboardWillShow(_ note: Notification) {
                    let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect ?? .zero
                    tableView.contentInset.bottom = frame.height
                }
            }
            """)
        try folder.write("Design/Design.swift", """
            import UIKit

            enum Design {
                class View: UITableViewController {}
            }
            """)
        // Only a comment says `extension View` here; the next file does extend it.
        try folder.write("Design/Notes.swift", """
            // extension View holds the tints.
            struct Notes {}
            """)
        try folder.write("Design/View+Tint.swift", """
            import UIKit

            extension View {
                func tinted() -> Self { self }
            }
            """)
        let selected = findings(under: folder.path, reporting: "ComposeScreen.swift", analysingEveryFile: false)
        XCTAssertEqual(selected, findings(under: folder.path, reporting: "ComposeScreen.swift", analysingEveryFile: true))
        XCTAssertFalse(selected.contains { $0.hasPrefix("keyboard_insets_in_table_view_controller") }, "\(selected)")
    }

    /// The facts of a nested type (`Settings.Screen`) can only come from files that name
    /// every component of its name: files declaring other types named `Screen` are not
    /// analysed for it.
    func testANestedTypeIsLookedUpInTheFilesNamingEveryComponent() throws {
        let folder = try TemporaryDirectory()
        try folder.write("Settings/Settings+Screen.swift", """
            import UIKit

            enum Settings {}

            extension Settings {
                final class Screen: UIViewController {
                    private var token: NSObjectProtocol?
                    override func viewDidLoad() {
                        super.viewDidLoad()
                        token = NotificationCenter.default.addObserver(forName: UserDefaults.didChangeNotification, object: nil, queue: .main) { [weak self] _ in self?.reload() }
                    }
                    func reload() {}
                }
            }
            """)
        try folder.write("Settings/Screen+Teardown.swift", """
            import UIKit

            extension Settings.Screen {
                func stopObserving() {
                    NotificationCenter.default.removeObserver(token as Any)
                }
            }
            """)
        // Names both components, holds no word a rule or project-wide fact needs: analysed
        // for the lookups alone.
        try folder.write("Settings/Screen+Layout.swift", """
            import UIKit

            extension Settings.Screen {
                var margin: CGFloat { 16 }
            }
            """)
        for index in 0..<6 {
            try folder.write("Other/Other\(index).swift", "enum Other\(index) {\n    struct Screen { var name = \"\" }\n}\n")
        }
        let selected = findings(under: folder.path, analysingEveryFile: false)
        XCTAssertEqual(selected, findings(under: folder.path, analysingEveryFile: true))
        // The token is removed in the other file of the type.
        XCTAssertFalse(selected.contains { $0.contains("Screen") }, "\(selected)")
        let (targets, _) = FileDiscovery(currentDirectory: folder.path).discover([folder.path])
        let outcome = Self.driver(false).run(targets.map { LintInput(target: $0, plan: Self.everyRule) })
        // The analysis of the checked `Settings.Screen` looks the type up (the lifecycle
        // phases other files give its methods): the driver foresees that lookup and analyses
        // the file naming both components before the checks, so no check runs again; the six
        // files declaring another `Screen` are not analysed.
        XCTAssertEqual(outcome.work, LintDriver.Work(analysed: 3, checked: 2, analysedForLookups: 0, checkedAgain: 0))
    }

    func testFixtureProjectsGetTheSameFindings() {
        for project in ["Project", "Accessories", "MixedKeyboardHandlingProject"] {
            let folder = Self.fixtures + "/" + project
            let selected = findings(under: folder, analysingEveryFile: false)
            XCTAssertFalse(selected.isEmpty, project)
            XCTAssertEqual(selected, findings(under: folder, analysingEveryFile: true), project)
        }
        XCTAssertEqual(findings(under: Self.examples, analysingEveryFile: false),
                       findings(under: Self.examples, analysingEveryFile: true))
    }

    /// Pass 2 checks a file with the model pass 1 built when the budget kept it, and builds
    /// the model again when not: the findings are the same either way, and whichever part
    /// of the project the budget covers; so are they whichever files pass 1 holds between
    /// reading and analysing them.
    func testModelsKeptFromPassOneGiveTheFindingsOfModelsBuiltAgain() {
        for folder in ["Project", "Accessories", "MixedKeyboardHandlingProject"].map({ Self.fixtures + "/" + $0 }) + [Self.examples] {
            let rebuilt = findings(under: folder, analysingEveryFile: false, retainingModelBytes: 0)
            XCTAssertFalse(rebuilt.isEmpty, folder)
            XCTAssertEqual(findings(under: folder, analysingEveryFile: false, retainingModelBytes: .max), rebuilt, folder)
            XCTAssertEqual(findings(under: folder, analysingEveryFile: false, retainingModelBytes: 4096), rebuilt, folder)
            // Files pass 1 does not hold between reading and analysing them are read again.
            XCTAssertEqual(findings(under: folder, analysingEveryFile: false, holdingBytes: 0), rebuilt, folder)
            XCTAssertEqual(findings(under: folder, analysingEveryFile: false, holdingBytes: 4096), rebuilt, folder)
        }
    }

    /// The declarations of the superclasses a check walks up are analysed level by level
    /// after the checks; a superclass declared in a file of the same level is not analysed
    /// again in the next.
    func testEachSuperclassFileIsAnalysedOnce() throws {
        let folder = try TemporaryDirectory()
        // Both tokens are never removed here: the rule walks up each class's superclasses to
        // see whether one removes it.
        try folder.write("Screens.swift", """
            import UIKit

            final class ChatScreen: FormScreen {
                var token: NSObjectProtocol?
                override func viewDidLoad() {
                    super.viewDidLoad()
                    token = NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillShowNotification, object: nil, queue: .main) { _ in }
                }
            }

            final class SettingsScreen: BaseScreen {
                var token: NSObjectProtocol?
                override func viewDidLoad() {
                    super.viewDidLoad()
                    token = NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillHideNotification, object: nil, queue: .main) { _ in }
                }
            }
            """)
        try folder.write("Base/A.swift", "import UIKit\n\nclass FormScreen: BaseScreen {}\n\nclass HelpScreen: ModalScreen {}\n")
        try folder.write("Base/B.swift", "import UIKit\n\nclass BaseScreen: UIViewController {}\n")
        try folder.write("Base/C.swift", "import UIKit\n\nclass ModalScreen: UIViewController {}\n")
        let selected = findings(under: folder.path, analysingEveryFile: false)
        XCTAssertEqual(selected, findings(under: folder.path, analysingEveryFile: true))
        let (targets, _) = FileDiscovery(currentDirectory: folder.path).discover([folder.path])
        let outcome = Self.driver(false).run(targets.map { LintInput(target: $0, plan: Self.everyRule) })
        // A.swift and B.swift in one level (B.swift is not analysed again for `FormScreen`'s
        // superclass). C.swift declares the superclass of another type of A.swift, which no
        // check looked up: not analysed.
        XCTAssertEqual(outcome.work, LintDriver.Work(analysed: 1, checked: 1, analysedForLookups: 2, checkedAgain: 1))
    }

    /// A kept model is of the bytes pass 1 read: a file edited between the passes is checked
    /// as it is now, as when no model was kept.
    func testAFileEditedBetweenThePassesIsCheckedFromItsNewBytes() throws {
        let folder = try TemporaryDirectory()
        let path = try folder.write("Chat.swift", FixReliabilityTests.chat)
        let fixed = FixReliabilityTests.chat.replacingOccurrences(
            of: "    override var inputAccessoryView",
            with: "    override var canBecomeFirstResponder: Bool { true }\n    override var inputAccessoryView")
        func ruleIDs(editing: Bool, retainingModelBytes retained: Int) throws -> [String] {
            try Data(FixReliabilityTests.chat.utf8).write(to: URL(fileURLWithPath: path))
            var driver = Self.driver(false, retainingModelBytes: retained)
            if editing { driver.betweenPasses = { try? Data(fixed.utf8).write(to: URL(fileURLWithPath: path)) } }
            let outcome = driver.run([LintInput(target: LintTarget(path: "Chat.swift", absolutePath: path), plan: Self.everyRule)])
            return outcome.files.flatMap(\.findings).map(\.ruleID)
        }
        let unedited = try ruleIDs(editing: false, retainingModelBytes: .max)
        XCTAssertEqual(unedited, [AccessoryMissingCanBecomeFirstResponder.metadata.id])
        let edited = try ruleIDs(editing: true, retainingModelBytes: 0)
        XCTAssertNotEqual(edited, unedited)
        XCTAssertEqual(try ruleIDs(editing: true, retainingModelBytes: .max), edited)
    }
}
