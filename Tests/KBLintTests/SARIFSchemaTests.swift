import Foundation
import XCTest
@testable import KBLint

/// Runs `.ci/validate-sarif.py` on the SARIF of `ReportSamples`. Skipped where python3, its
/// `jsonschema` package or the official schema file is missing (set `KBLINT_SARIF_SCHEMA`
/// to the schema's path when it is elsewhere than `../shared/schemas/` next to the checkout).
final class SARIFSchemaTests: XCTestCase {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func schemaPath() throws -> String {
        var candidates: [String] = []
        if let configured = ProcessInfo.processInfo.environment["KBLINT_SARIF_SCHEMA"] {
            candidates.append(configured)
        }
        // The checkout's sibling `shared/`; a git worktree one level further down sees it
        // two levels up.
        for parents in ["..", "../.."] {
            candidates.append(Self.repositoryRoot
                .appendingPathComponent(parents + "/shared/schemas/sarif-schema-2.1.0.json")
                .standardizedFileURL.path)
        }
        guard let found = candidates.first(where: FileManager.default.fileExists(atPath:)) else {
            throw XCTSkip("SARIF schema not found at \(candidates)")
        }
        return found
    }

    /// Exit status and standard error of `python3 arguments…`.
    static func runPython(_ arguments: [String]) throws -> (status: Int32, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let errorPipe = Pipe()
        process.standardError = errorPipe
        process.standardOutput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw XCTSkip("python3 cannot be started: \(error)")
        }
        let errors = String(decoding: errorPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, errors)
    }

    static func validate(_ sarif: String) throws -> (status: Int32, errors: String) {
        let schema = try schemaPath()
        if try runPython(["-c", "import jsonschema"]).status != 0 {
            throw XCTSkip("python3 or its jsonschema package is not installed")
        }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("kblint-sarif-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("report.sarif")
        try Data(sarif.utf8).write(to: report)
        let script = Self.repositoryRoot.appendingPathComponent(".ci/validate-sarif.py").path
        return try runPython([script, report.path, schema])
    }

    func testSampleReportIsValidSARIF() throws {
        let result = try Self.validate(SARIFReporter().render(ReportSamples.report()))
        XCTAssertEqual(result.status, 0, result.errors)
    }

    func testValidatorRejectsABrokenReport() throws {
        let broken = SARIFReporter().render(ReportSamples.report())
            .replacingOccurrences(of: "\"level\": \"note\"", with: "\"level\": \"info\"")
        let result = try Self.validate(broken)
        XCTAssertEqual(result.status, 1, result.errors)
        XCTAssertTrue(result.errors.contains("'info' is not one of"), result.errors)
    }
}
