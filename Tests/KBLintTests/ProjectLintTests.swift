import XCTest
@testable import KBLint
import Rules

/// The entry point every mode (and an editor's server) lints through: some files reported,
/// the facts of the whole project, in-memory contents in place of files on disk.
final class ProjectLintTests: XCTestCase {
    func findings(
        _ file: String, in folder: TemporaryDirectory, text: String? = nil, contents: [String: [UInt8]] = [:],
        withProject: Bool = true
    ) throws -> [String] {
        let resolver = try ConfigurationResolver(explicitConfigPath: nil, knownRules: RuleRegistry.all.map { $0.metadata }, currentDirectory: folder.path)
        let rules = RuleRegistry.all.map { rule in
            RuleSelection(rule: rule, severity: nil, options: Dictionary(
                uniqueKeysWithValues: rule.metadata.options.map { ($0.name, $0.defaultValue) }))
        }
        let driver = LintDriver(jobs: 2, fixMode: .report, knownRuleIDs: Set(RuleRegistry.all.map { $0.metadata.id }),
                                closeMatches: { _, _ in [] }, progressSink: nil)
        let absolute = folder.path + "/" + file
        let input = LintInput(target: LintTarget(path: file, absolutePath: absolute),
                              plan: FilePlan(rules: rules, deploymentTarget: nil), preloaded: text.map { Array($0.utf8) })
        let root = ProjectRoot.find(containing: [absolute], fileSystem: DiskFileSystem())
        XCTAssertEqual(root, folder.path)
        let outcome = ProjectLint(driver: driver, resolver: resolver).lint([input], projectRoot: withProject ? root : nil, contents: contents)
        XCTAssertEqual(outcome.files.count, 1)
        return outcome.files[0].findings.map(\.ruleID)
    }

    func testOneFileWithTheProjectsFactsAndInMemoryContents() throws {
        let folder = try TemporaryDirectory()
        try FactScopeTests.writeProjectWithFactsInPlainFiles(folder)
        try folder.write("Package.swift", "// swift-tools-version:6.0\n")
        let form = "Screens/AddressFormViewController.swift"
        XCTAssertEqual(try findings(form, in: folder), ["keyboard_insets_in_table_view_controller"])
        // Alone, the file does not know its superclass chain.
        XCTAssertEqual(try findings(form, in: folder, withProject: false), [])
        // An unsaved buffer of the superclass's file replaces the file on disk.
        let base = folder.path + "/Base/FormTableViewController.swift"
        XCTAssertEqual(try findings(form, in: folder, contents: [base: Array("class FormTableViewController: UIViewController {}\n".utf8)]), [])
        // The checked file's own buffer is linted, not its saved version.
        let saved = try folder.text(form)
        XCTAssertEqual(try findings(form, in: folder, text: saved.replacingOccurrences(of: "contentOffset", with: "alpha")), [])
    }
}
