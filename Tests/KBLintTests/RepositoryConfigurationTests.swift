import XCTest
import Rules
@testable import KBLint

/// The repository's own `.kblint.yml` is the documented reference of every key: it must
/// stay valid and mention them all.
final class RepositoryConfigurationTests: XCTestCase {
    private var repositoryRoot: String {
        var path = LexicalPath.absolute(#filePath, relativeTo: "/")
        for _ in 0..<3 { path = LexicalPath.parent(of: path) ?? "/" }
        return path
    }

    func testTheRepositoryConfigurationIsValidAndDocumentsEveryKey() throws {
        let path = LexicalPath.appending(Configuration.fileName, to: repositoryRoot)
        let bytes = try XCTUnwrap(DiskFileSystem().contentsOfFile(atPath: path), "missing \(path)")
        let file = try ConfigurationFile.parse(bytes, path: path, knownRules: RuleRegistry.all.map { $0.metadata })
        XCTAssertTrue(Configuration().merging(file).isExcluded(LexicalPath.appending(".build/debug/x.swift", to: repositoryRoot)))
        let text = String(decoding: bytes, as: UTF8.self)
        for key in ConfigurationFile.keys {
            XCTAssertTrue(text.contains("\n# \(key):") || text.contains("\n\(key):"), "\(key) is not documented")
        }
    }

    func testTheReadmeExampleIsAValidConfiguration() throws {
        let readme = String(decoding: try XCTUnwrap(DiskFileSystem().contentsOfFile(
            atPath: LexicalPath.appending("README.md", to: repositoryRoot))), as: UTF8.self)
        let section = try XCTUnwrap(readme.range(of: "## Configuration"), "README has no Configuration section")
        let start = try XCTUnwrap(readme.range(of: "```yaml\n", range: section.upperBound..<readme.endIndex))
        let end = try XCTUnwrap(readme.range(of: "```", range: start.upperBound..<readme.endIndex))
        let example = String(readme[start.upperBound..<end.lowerBound])
        func rule(_ id: String, optIn: Bool = false) -> RuleMetadata {
            RuleMetadata(id: id, category: .observers, defaultSeverity: .warning, isOptIn: optIn,
                         summary: "", rationale: "", fix: "", triggering: [], nonTriggering: [])
        }
        let rules = [
            ConfigurationTestRules.keyboardDuration, rule("keyboard_hide_not_handled"),
            rule("content_inset_adjustment_never", optIn: true), rule("keyboard_guide_availability"),
        ]
        let file = try ConfigurationFile.parse(Array(example.utf8), path: "/p/.kblint.yml", knownRules: rules)
        let configuration = Configuration().merging(file)
        XCTAssertEqual(configuration.deploymentTarget?.version, OSVersion(15, 4))
        XCTAssertFalse(configuration.isEnabled(rules[1]))
        XCTAssertTrue(configuration.isEnabled(rules[2]))
        XCTAssertFalse(configuration.isEnabled(rules[3]))
        XCTAssertEqual(configuration.options(for: rules[0])["check_fallbacks"], .bool(true))
        XCTAssertEqual(configuration.reporter, "sarif")
        XCTAssertTrue(configuration.strict)
    }
}
