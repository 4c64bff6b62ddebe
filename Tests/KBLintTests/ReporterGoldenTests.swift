import Foundation
import XCTest
@testable import KBLint

/// Each reporter's output for `ReportSamples` must equal its golden file byte for byte.
/// After an intended format change, regenerate with `KBLINT_RECORD_GOLDENS=1 swift test
/// --filter KBLintTests.ReporterGoldenTests` and review the diff.
final class ReporterGoldenTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Reporters")

    static func fileName(for kind: ReporterKind) -> String {
        switch kind {
        case .pretty: "pretty.txt"
        case .xcode: "xcode.txt"
        case .github: "github.txt"
        case .sarif: "sarif.sarif"
        case .json: "json.json"
        case .checkstyle: "checkstyle.xml"
        case .junit: "junit.xml"
        case .codeclimate: "codeclimate.json"
        case .summary: "summary.txt"
        }
    }

    func assertGolden(_ kind: ReporterKind, file: StaticString = #filePath, line: UInt = #line) throws {
        let output = kind.reporter.render(ReportSamples.report())
        let url = Self.fixtures.appendingPathComponent(Self.fileName(for: kind))
        if ProcessInfo.processInfo.environment["KBLINT_RECORD_GOLDENS"] == "1" {
            try FileManager.default.createDirectory(at: Self.fixtures, withIntermediateDirectories: true)
            try Data(output.utf8).write(to: url)
            return
        }
        let expected = try String(decoding: Data(contentsOf: url), as: UTF8.self)
        XCTAssertEqual(output, expected, "\(kind.rawValue) differs from \(url.lastPathComponent)", file: file, line: line)
    }

    func testPretty() throws { try assertGolden(.pretty) }
    func testXcode() throws { try assertGolden(.xcode) }
    func testGitHub() throws { try assertGolden(.github) }
    func testSARIF() throws { try assertGolden(.sarif) }
    func testJSON() throws { try assertGolden(.json) }
    func testCheckstyle() throws { try assertGolden(.checkstyle) }
    func testJUnit() throws { try assertGolden(.junit) }
    func testCodeClimate() throws { try assertGolden(.codeclimate) }
    func testSummary() throws { try assertGolden(.summary) }

    func testEveryKindHasAGoldenFile() {
        for kind in ReporterKind.allCases {
            let url = Self.fixtures.appendingPathComponent(Self.fileName(for: kind))
            XCTAssertTrue(FileManager.default.fileExists(atPath: url.path), url.lastPathComponent)
        }
    }

    func testOutputDoesNotDependOnInputOrder() {
        let sample = ReportSamples.report()
        let reversed = LintReport(
            findings: sample.findings.reversed(), rules: sample.rules.reversed(),
            filesLinted: sample.filesLinted, toolVersion: sample.toolVersion, settings: sample.settings)
        for kind in ReporterKind.allCases {
            XCTAssertEqual(kind.reporter.render(reversed), kind.reporter.render(sample), kind.rawValue)
        }
    }
}
