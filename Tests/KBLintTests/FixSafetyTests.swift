import Foundation
import XCTest
@testable import Lexer
import Rules

/// `--fix` must never damage a file. On a copy of a corpus of real Swift, with each file
/// given one rule's correction example, `--fix` must change each file exactly at the fix
/// site, leave files that still lex as well as before, and a second `--fix` must change
/// nothing. A write that fails (full disk, read-only folder) must leave the original intact.
///
/// The corpus is this repository's own Swift files; set KBLINT_FIX_CORPUS to a folder to run
/// the same checks on any other (Benchmarks/corpus-check.sh does, on the package mirror).
final class FixSafetyTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: BinaryHarness.executable.path),
                          "kblint executable not built next to the tests")
    }

    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The corpus files (relative paths) and their bytes.
    func corpusFiles() throws -> [(path: String, bytes: [UInt8])] {
        let roots: [URL]
        if let custom = ProcessInfo.processInfo.environment["KBLINT_FIX_CORPUS"], !custom.isEmpty {
            roots = [URL(fileURLWithPath: custom)]
        } else {
            roots = ["Sources", "Tests"].map { Self.repositoryRoot.appendingPathComponent($0) }
        }
        var files: [(String, [UInt8])] = []
        for root in roots {
            guard let walker = FileManager.default.enumerator(
                at: root, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles]) else { continue }
            for case let url as URL in walker where url.pathExtension == "swift" {
                // Fixture projects are deliberately broken or fixable already.
                guard !url.path.contains("/Fixtures/"),
                      (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
                let relative = root.lastPathComponent + "/" + String(url.path.dropFirst(root.path.count + 1))
                files.append((relative, [UInt8](try Data(contentsOf: url))))
            }
        }
        return files.sorted { $0.0 < $1.0 }
    }

    /// Corrections of the safe fixes `--fix` applies under the default configuration, by rule.
    static let corrections: [RuleCorrection] = RuleRegistry.all.filter { $0.metadata.fixAvailability == .safe && !$0.metadata.isOptIn }.flatMap { rule in
        rule.metadata.corrections.filter { $0.options.isEmpty }
    }

    /// Lexing health: tokens that are not Swift, and constructs left open.
    func damage(_ bytes: [UInt8]) -> Int {
        Lexer.tokenize(SourceFile(path: "x.swift", bytes: bytes)).tokens.reduce(0) { count, token in
            count + (token.kind == .unknown || token.isUnterminated ? 1 : 0)
        }
    }

    func testFixChangesOnlyTheFixSitesAndIsIdempotent() throws {
        let corrections = Self.corrections
        try XCTSkipIf(corrections.isEmpty, "no rule has a correction example")
        let corpus = try corpusFiles()
        XCTAssertGreaterThan(corpus.count, 20)
        let folder = try TemporaryDirectory()
        var expected: [String: [UInt8]] = [:]
        var injected: [String: [UInt8]] = [:]
        for (index, file) in corpus.enumerated() {
            let correction = corrections[index % corrections.count]
            var original = file.bytes
            if let last = original.last, last != 0x0A { original.append(0x0A) }
            // `before` may carry `↓` marks like a triggering example; they are not code.
            let before = correction.before.replacingOccurrences(of: "↓", with: "")
            injected[file.path] = original + Array("\n\(before)\n".utf8)
            expected[file.path] = original + Array("\n\(correction.after)\n".utf8)
            try folder.write(file.path, bytes: injected[file.path]!)
        }
        try folder.write(".kblint.yml", "# every rule at its defaults\n")

        let first = try BoundedRun.run(["--fix", "--reporter", "summary", "."], in: folder.path, seconds: 300)
        XCTAssertNotEqual(first.status, 2, first.standardError)
        XCTAssertFalse(first.standardError.contains("Fatal error"), first.standardError)
        var mismatches: [String] = []
        for file in corpus {
            let fixed = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder.path + "/" + file.path)))
            if fixed != expected[file.path] {
                mismatches.append(file.path)
                continue
            }
            XCTAssertLessThanOrEqual(damage(fixed), damage(injected[file.path]!), "\(file.path) lexes worse after the fix")
        }
        XCTAssertEqual(mismatches, [], "files that differ from original + corrected example:\n\(first.standardError)")
        XCTAssertTrue(first.standardError.contains("Fixed \(corpus.count) finding"), first.standardError)

        let second = try BoundedRun.run(["--fix", "--reporter", "summary", "."], in: folder.path, seconds: 300)
        XCTAssertTrue(second.standardError.contains("Fixed 0 findings in 0 files."), second.standardError)
        for file in corpus {
            let again = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder.path + "/" + file.path)))
            XCTAssertEqual(again, expected[file.path], "the second --fix changed \(file.path)")
        }
    }

    /// A file with one safe fix, and the folder listing before the run.
    func fixableProject() throws -> (folder: TemporaryDirectory, path: String, original: [UInt8]) {
        let correction = try XCTUnwrap(Self.corrections.first)
        let folder = try TemporaryDirectory()
        let code = correction.before.replacingOccurrences(of: "↓", with: "") + "\n"
        let path = try folder.write("App/Fixable.swift", code)
        return (folder, path, Array(code.utf8))
    }

    func assertUntouched(_ project: (folder: TemporaryDirectory, path: String, original: [UInt8]), _ run: BoundedRun.Result,
                         file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(run.status, 2, run.standardError, file: file, line: line)
        XCTAssertTrue(run.standardError.contains("App/Fixable.swift: cannot"), run.standardError, file: file, line: line)
        XCTAssertEqual([UInt8](try Data(contentsOf: URL(fileURLWithPath: project.path))), project.original,
                       "the original file changed", file: file, line: line)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: project.folder.path + "/App"), ["Fixable.swift"],
                       "a temporary file was left behind", file: file, line: line)
    }

    /// A full disk, simulated with a file-size limit of zero: every write of the temporary
    /// file fails (EFBIG), as it would with ENOSPC.
    func testFailingWriteLeavesTheOriginalIntact() throws {
        let project = try fixableProject()
        let command = "trap '' XFSZ; ulimit -f 0; exec \"$0\" --fix --reporter summary App"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command, BinaryHarness.executable.path]
        process.currentDirectoryURL = URL(fileURLWithPath: project.folder.path)
        let error = Pipe()
        process.standardError = error
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try assertUntouched(project, BoundedRun.Result(status: process.terminationStatus, standardOutput: "", standardError: message))
        XCTAssertTrue(message.contains("File too large"), message)
    }

    func testReadOnlyFolderLeavesTheOriginalIntact() throws {
        let project = try fixableProject()
        let app = project.folder.path + "/App"
        chmod(app, 0o555)
        defer { chmod(app, 0o755) }
        let probe = app + "/probe"
        if FileManager.default.createFile(atPath: probe, contents: nil) {
            unlink(probe)
            throw XCTSkip("running as root: a read-only folder is still writable (the failing-write test covers this path)")
        }
        let run = try BoundedRun.run(["--fix", "--reporter", "summary", "App"], in: project.folder.path)
        try assertUntouched(project, run)
    }
}
