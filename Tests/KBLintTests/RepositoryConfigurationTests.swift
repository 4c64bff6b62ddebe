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
}
