import Foundation
import XCTest
@testable import KBLint
import Lexer
@testable import Rules

/// `--staged` lints what the commit will contain: the configuration, the baseline and the
/// project files naming the deployment target come from the index too, not from the work
/// tree's unstaged edits.
final class StagedIndexTests: XCTestCase {
    static let finding = "// kblint:disable:next some_rule\nlet a = 1\n"

    override func setUpWithError() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: BinaryHarness.executable.path),
                          "kblint executable not built next to the tests")
    }

    func kblint(_ arguments: String..., in directory: String) throws -> (status: Int32, standardOutput: String, standardError: String) {
        try BinaryHarness.run(arguments, in: directory, environment: GitSandbox.environment)
    }

    func testConfigurationIsReadFromTheIndex() throws {
        let repository = try GitSandbox()
        try repository.write(".kblint.yml", "excluded: [Sources]\n")
        try repository.write("Sources/A.swift", Self.finding)
        try repository.git("add", ".")
        // Unstaged: the work tree's configuration would report the finding.
        try repository.write(".kblint.yml", "strict: true\n")
        let staged = try kblint("--staged", "--reporter", "xcode", in: repository.path)
        XCTAssertEqual(staged.status, 0, staged.standardError)
        XCTAssertEqual(staged.standardOutput, "")
        XCTAssertTrue(staged.standardError.contains("in 0 files"), staged.standardError)
        // Staged, the new configuration applies.
        try repository.git("add", ".kblint.yml")
        let again = try kblint("--staged", "--reporter", "xcode", in: repository.path)
        XCTAssertEqual(again.status, 1, again.standardError)
        XCTAssertTrue(again.standardOutput.contains("superfluous_disable_command"), again.standardOutput)
    }

    func testBaselineIsReadFromTheIndex() throws {
        let repository = try GitSandbox()
        try repository.write("Sources/A.swift", Self.finding)
        try repository.git("add", ".")
        XCTAssertEqual(try kblint("--write-baseline", "baseline.json", "--quiet", in: repository.path).status, 0)
        try repository.write(".kblint.yml", "baseline: baseline.json\nstrict: true\n")
        try repository.git("add", ".")
        // Unstaged: an empty baseline in the work tree would accept nothing.
        try repository.write("baseline.json", "{\"version\": 1, \"findings\": []}\n")
        let staged = try kblint("--staged", "--reporter", "xcode", in: repository.path)
        XCTAssertEqual(staged.status, 0, staged.standardOutput + staged.standardError)
        XCTAssertTrue(staged.standardError.contains("1 finding accepted by the baseline"), staged.standardError)
    }

    func testDeploymentTargetIsDetectedFromTheIndex() throws {
        let repository = try GitSandbox()
        let package = """
            // swift-tools-version:5.9
            import PackageDescription
            let package = Package(name: "App", platforms: [.iOS(.v17)], targets: [.target(name: "App")])

            """
        try repository.write("Package.swift", package)
        try repository.write("Sources/App/A.swift", Self.finding)
        try repository.git("add", ".")
        try repository.write("Package.swift", package.replacingOccurrences(of: ".v17", with: ".v13"))
        let staged = try kblint("--staged", "--timing", "--quiet", in: repository.path)
        XCTAssertTrue(staged.standardError.contains("deployment target: iOS 17"), staged.standardError)
        let workTree = try kblint("--timing", "--quiet", "Sources", in: repository.path)
        XCTAssertTrue(workTree.standardError.contains("deployment target: iOS 13"), workTree.standardError)
    }

    /// A related note in another file gets its line from that file as the index holds it.
    func testRelatedNotesInOtherFilesTakeTheirLinesFromTheIndex() throws {
        let repository = try GitSandbox()
        try repository.write("A.swift", "let related = 1\n")
        try repository.write("B.swift", "line 1\nline 2\nline 3\nline 4\nline 5\n")
        try repository.git("add", ".")
        // Unstaged: ten lines above, so byte 14 would fall on line 8.
        try repository.write("B.swift", String(repeating: "\n", count: 10) + "line 1\nline 2\nline 3\n")
        let run = runTool(["--staged", "--reporter", "xcode"], in: repository.path,
                          environment: ProcessInfo.processInfo.environment.merging(GitSandbox.environment) { $1 },
                          rules: [RelatedElsewhereRule.self])
        XCTAssertTrue(run.standardOutput.contains("B.swift:3:1: note: the other place"), run.standardOutput + run.standardError)
    }
}

/// Flags `related`, with a note at byte 14 of `B.swift` (the start of its third line in the
/// index).
private struct RelatedElsewhereRule: Rule {
    static let metadata = RuleMetadata(
        id: "test_related_elsewhere", category: .relatedPitfalls, defaultSeverity: .warning,
        summary: "Flags `related`.", rationale: "It is a test.", fix: "None.",
        triggering: [RuleExample("let ↓related = 1\n")], nonTriggering: [RuleExample("let other = 1\n")])

    func check(_ context: RuleContext) -> [Diagnostic] {
        context.source.code.filter { context.source.token($0, is: "related") }.map { token in
            Diagnostic(ruleID: Self.metadata.id, severity: .warning, message: "related", range: token.range, suggestion: "None.")
                .relating([RelatedLocation(path: "B.swift", range: 14..<15, message: "the other place")])
        }
    }

    static let requiredMarkers: [StaticString] = ["related"]
}
