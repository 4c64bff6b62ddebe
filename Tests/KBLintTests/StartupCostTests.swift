import Foundation
import XCTest

/// Start-up is part of every editor save and commit hook: loading Foundation (and ICU with
/// it) was most of the time kblint took on one small file. No shipped source may import it,
/// nor any of its parts (`FoundationEssentials`, `FoundationNetworking`, …); the tests may.
final class StartupCostTests: XCTestCase {
    func testShippedSourcesDoNotImportFoundation() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")
        let walker = try XCTUnwrap(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var offenders: [String] = []
        var checked = 0
        for case let url as URL in walker where url.pathExtension == "swift" {
            checked += 1
            let text = try String(contentsOf: url, encoding: .utf8)
            for line in text.split(separator: "\n") {
                if let module = Self.importedModule(String(line)), module.hasPrefix("Foundation") || module.hasPrefix("_Foundation") {
                    offenders.append("\(url.lastPathComponent): \(line)")
                }
            }
        }
        XCTAssertGreaterThan(checked, 20)
        XCTAssertEqual(offenders, [], "use the POSIX wrappers in FileSystem and ChildProcess instead")
    }

    func testImportSpellingsAreRecognized() {
        XCTAssertEqual(Self.importedModule("import Foundation"), "Foundation")
        XCTAssertEqual(Self.importedModule("@_exported import FoundationEssentials"), "FoundationEssentials")
        XCTAssertEqual(Self.importedModule("@preconcurrency internal import Foundation"), "Foundation")
        XCTAssertEqual(Self.importedModule("import struct Foundation.URL"), "Foundation")
        XCTAssertEqual(Self.importedModule("  import Glibc"), "Glibc")
        XCTAssertNil(Self.importedModule("// import Foundation is not allowed"))
        XCTAssertNil(Self.importedModule("let important = 1"))
    }

    /// The module an `import` declaration on `line` imports (attributes, access level and
    /// declaration kind skipped), or nil when the line is not one.
    static func importedModule(_ line: String) -> String? {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let importIndex = words.firstIndex(of: "import"),
              words[..<importIndex].allSatisfy({ $0.hasPrefix("@") || accessLevels.contains(String($0)) })
        else { return nil }
        let rest = words[(importIndex + 1)...].drop { declarationKinds.contains(String($0)) }
        return rest.first.map { String($0.split(separator: ".")[0]) }
    }

    private static let accessLevels: Set<String> = ["public", "package", "internal", "fileprivate", "private"]
    private static let declarationKinds: Set<String> = ["typealias", "struct", "class", "enum", "protocol", "let", "var", "func"]
}
