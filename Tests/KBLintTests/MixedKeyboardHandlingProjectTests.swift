import Foundation
import XCTest

/// The built binary on Fixtures/MixedKeyboardHandlingProject: IQKeyboardManager is enabled in the
/// app delegate, two screens in other files use the keyboard layout guide and one of them is
/// excluded through `disabledDistanceHandlingClasses`; the other inherits an inset-changing
/// keyboard handler from a base class in a third file. Only the cross-file pass of the real
/// driver (facts of every file, then rules) connects them.
final class MixedKeyboardHandlingProjectTests: XCTestCase {
    static let rule = "keyboard_guide_with_keyboard_manager"

    override func setUpWithError() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: BinaryHarness.executable.path),
                          "kblint executable not built next to the tests")
    }

    struct Reported: Equatable {
        let path: String
        let line: Int
        let relatedPaths: [String]
    }

    func lint(_ project: TemporaryDirectory, rule: String = rule) throws -> [Reported] {
        let run = try BinaryHarness.run(["--only", rule, "--reporter", "json", "--quiet"], in: project.path)
        XCTAssertLessThanOrEqual(run.status, 1, run.standardError)
        let object = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any]
        let diagnostics = try XCTUnwrap(object?["diagnostics"] as? [[String: Any]])
        return diagnostics.map { diagnostic in
            XCTAssertEqual(diagnostic["rule"] as? String, rule)
            let related = (diagnostic["related"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
            return Reported(path: diagnostic["path"] as? String ?? "", line: diagnostic["line"] as? Int ?? 0,
                            relatedPaths: related)
        }
    }

    func testOnlyTheScreenThatIsNotExcludedIsReportedWithTheEnablingLine() throws {
        let project = try BinaryHarness.copyFixture("MixedKeyboardHandlingProject")
        XCTAssertEqual(try lint(project), [
            Reported(path: "App/ConversationViewController.swift", line: 13, relatedPaths: ["App/AppDelegate.swift"]),
        ])
    }

    func testDroppingTheExclusionReportsTheOtherScreenToo() throws {
        let project = try BinaryHarness.copyFixture("MixedKeyboardHandlingProject")
        let delegate = try project.text("App/AppDelegate.swift")
        try project.write("App/AppDelegate.swift", delegate.replacingOccurrences(
            of: "IQKeyboardManager.shared.disabledDistanceHandlingClasses.append(ProfileEditorViewController.self)\n",
            with: ""))
        XCTAssertEqual(try lint(project).map(\.path), [
            "App/ConversationViewController.swift", "App/ProfileEditorViewController.swift",
        ])
    }

    func testAProjectThatNeverEnablesTheLibraryIsSilent() throws {
        let project = try BinaryHarness.copyFixture("MixedKeyboardHandlingProject")
        let delegate = try project.text("App/AppDelegate.swift")
        try project.write("App/AppDelegate.swift", delegate.replacingOccurrences(
            of: "isEnabled = true", with: "isEnabled = false"))
        XCTAssertEqual(try lint(project), [])
    }

    func testABaseClassHandlerMeetsTheGuideOfASubclassInAnotherFile() throws {
        let project = try BinaryHarness.copyFixture("MixedKeyboardHandlingProject")
        XCTAssertEqual(try lint(project, rule: "keyboard_guide_with_inset_edits"), [
            Reported(path: "App/KeyboardAwareViewController.swift", line: 16,
                     relatedPaths: ["App/ConversationViewController.swift"]),
        ])
    }
}
