import Foundation
import XCTest

/// Start-up is part of every editor save and commit hook: loading Foundation (and ICU with
/// it) was most of the time kblint took on one small file. Only the files allowed below may
/// import it; the tests may.
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
            for line in text.split(separator: "\n") where line.hasPrefix("import Foundation") || line.hasPrefix("@_exported import Foundation") {
                offenders.append(url.lastPathComponent)
            }
        }
        XCTAssertGreaterThan(checked, 20)
        // The git integration (child processes) and the baseline reader still use Foundation;
        // no other file may add it. Moving these to POSIX spawn and our own JSON reader
        // would take Foundation out of the executable again.
        let allowed: Set<String> = ["ChildProcess.swift", "GitRepository.swift", "BaselineFile.swift"]
        XCTAssertEqual(offenders.filter { !allowed.contains($0) }, [], "use the POSIX wrappers in FileSystem instead")
    }
}
