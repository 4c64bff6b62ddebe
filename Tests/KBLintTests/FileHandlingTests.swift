import Foundation
import XCTest
@testable import KBLint
@testable import Rules

/// How files, standard input, configuration files and report destinations are read and
/// written when they are large, strange or dangerous.
final class FileHandlingTests: XCTestCase {
    func runBinary(_ command: String, in directory: String) throws -> (status: Int32, standardError: String) {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: BinaryHarness.executable.path),
                          "kblint executable not built next to the tests")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command, BinaryHarness.executable.path]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let error = Pipe()
        process.standardError = error
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, message)
    }

    // MARK: Standard input

    func testStandardInputIsCappedWithAClearError() throws {
        signal(SIGPIPE, SIG_IGN)
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        let writer = ends[1]
        DispatchQueue.global().async {
            let chunk = [UInt8](repeating: 0x20, count: 64 * 1024)
            for _ in 0..<64 where chunk.withUnsafeBytes({ write(writer, $0.baseAddress, $0.count) }) > 0 {}
            close(writer)
        }
        defer { close(ends[0]) }
        XCTAssertThrowsError(try FileSystem.readAll(descriptor: ends[0], name: "<stdin>", limit: 1 << 20)) { error in
            XCTAssertEqual("\(error)", "<stdin>: larger than 1 MB, the limit for one source file; nothing linted")
        }
        XCTAssertEqual(FileSystem.maximumFileSize, 256 << 20)
    }

    /// The reproduction: endless input ended in an allocation abort.
    func testEndlessStandardInputIsAnError() throws {
        let run = try runBinary("yes | \"$0\" --use-stdin", in: NSTemporaryDirectory())
        XCTAssertEqual(run.status, 2, run.standardError)
        XCTAssertTrue(run.standardError.contains("larger than 256 MB"), run.standardError)
    }

    // MARK: Configuration files

    /// The reproduction: a 10 MB `.kblint.yml` took 0.7–1.5 GB.
    func testConfigurationFilesAreCappedAtOneMegabyte() throws {
        let tree = try TemporaryDirectory()
        try tree.write("A.swift", "let a = 1\n")
        try tree.write(".kblint.yml", "excluded:\n" + String(repeating: "  - Pods/**\n", count: 1 << 17))
        let run = runTool(["."], in: tree.path)
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.standardError.contains(".kblint.yml: error: larger than 1 MB"), run.standardError)
        let explicit = runTool(["--config", ".kblint.yml", "A.swift"], in: tree.path)
        XCTAssertTrue(explicit.standardError.contains(".kblint.yml: error: larger than 1 MB"), explicit.standardError)
    }

    func testConfigurationPathThatIsAFIFOFolderOrDeviceIsAnError() throws {
        let tree = try TemporaryDirectory()
        try tree.write("A.swift", "let a = 1\n")
        XCTAssertEqual(mkfifo(tree.path + "/fifo.yml", 0o644), 0)
        try FileManager.default.createDirectory(atPath: tree.path + "/folder.yml", withIntermediateDirectories: false)
        for (path, reason) in [("fifo.yml", "is a FIFO, device or socket"), ("folder.yml", "is a folder"),
                               ("/dev/null", "is a FIFO, device or socket")] {
            let run = runTool(["--config", path, "A.swift"], in: tree.path)
            XCTAssertEqual(run.status, 2, path)
            XCTAssertTrue(run.standardError.contains("\(path): error: \(reason), not a configuration file"), run.standardError)
        }
        try FileManager.default.createDirectory(atPath: tree.path + "/Sub/.kblint.yml", withIntermediateDirectories: true)
        try tree.write("Sub/B.swift", "let b = 1\n")
        let nested = runTool(["Sub"], in: tree.path)
        XCTAssertEqual(nested.status, 2)
        XCTAssertTrue(nested.standardError.contains("Sub/.kblint.yml: error: is a folder, not a configuration file"), nested.standardError)
    }

    // MARK: Small things

    func testNoSummaryLineBeforeAFatalError() throws {
        let tree = try TemporaryDirectory()
        try tree.write("A.swift", "let a = 1\n")
        try tree.write(".kblint.yml", "unknown_key: 1\n")
        let run = runTool(["."], in: tree.path)
        XCTAssertEqual(run.status, 2)
        XCTAssertFalse(run.standardError.contains("No problems found"), run.standardError)
        XCTAssertFalse(run.standardOutput.contains("No problems found"), run.standardOutput)
    }

    func testAHugeUnknownKeyIsNotEchoedInFull() throws {
        let tree = try TemporaryDirectory()
        try tree.write("A.swift", "let a = 1\n")
        try tree.write(".kblint.yml", String(repeating: "k", count: 500_000) + ": 1\n")
        let run = runTool(["."], in: tree.path)
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.standardError.contains("unknown key '\(String(repeating: "k", count: 80))…' (500000 characters)"),
                      String(run.standardError.prefix(300)))
        XCTAssertLessThan(run.standardError.utf8.count, 1000)
    }

    func testErrorsShowPathsRelativeToTheCurrentDirectory() throws {
        try XCTSkipIf(geteuid() == 0, "root lists any folder")
        let tree = try TemporaryDirectory()
        try tree.write("App/Locked/A.swift", "let a = 1\n")
        XCTAssertEqual(chmod(tree.path + "/App/Locked", 0o000), 0)
        defer { chmod(tree.path + "/App/Locked", 0o755) }
        let run = runTool(["App"], in: tree.path)
        XCTAssertTrue(run.standardError.contains("kblint: error: App/Locked: cannot list"), run.standardError)
        XCTAssertFalse(run.standardError.contains(tree.path), run.standardError)
    }

    func testFileListFromStandardInput() throws {
        let tree = try TemporaryDirectory()
        try tree.write("A.swift", "let a = 1\n")
        let run = try runBinary("printf 'A.swift\\n' | \"$0\" --file-list /dev/stdin --reporter xcode", in: tree.path)
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertTrue(run.standardError.contains("in 1 file"), run.standardError)
        try tree.write("list.txt", "A.swift\n")
        XCTAssertTrue(runTool(["--file-list", "list.txt"], in: tree.path).standardError.contains("in 1 file"))
        let folder = runTool(["--file-list", "."], in: tree.path)
        XCTAssertTrue(folder.standardError.contains(".: is a directory"), folder.standardError)
    }

    // MARK: --diff

    /// Runs `tool arguments…` in `directory` with `input`; its exit status.
    func apply(_ tool: String, _ arguments: [String], in directory: String, input: String) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let pipe = Pipe()
        process.standardInput = pipe
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        pipe.fileHandleForWriting.write(Data(input.utf8))
        try pipe.fileHandleForWriting.close()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// The reproduction: `patch -p1` failed on a path with spaces.
    func testDiffOfPathsWithSpacesAndQuotesAppliesWithPatchAndGitApply() throws {
        let names = ["My Dir/A b.swift", "Quote \"x\".swift", "Back\\slash.swift"]
        for tool in ["patch", "git"] {
            let tree = try TemporaryDirectory()
            for name in names { try tree.write(name, "let forbidden = 1\n") }
            let run = runTool(["--diff", "."], in: tree.path)
            XCTAssertEqual(run.status, 1, run.standardError)
            XCTAssertTrue(run.standardOutput.contains("--- a/My Dir/A b.swift\t\n+++ b/My Dir/A b.swift\t\n"), run.standardOutput)
            XCTAssertTrue(run.standardOutput.contains("--- \"a/Quote \\\"x\\\".swift\"\n"), run.standardOutput)
            let status = tool == "patch"
                ? try apply("patch", ["-s", "-p1"], in: tree.path, input: run.standardOutput)
                : try apply("git", ["apply", "--unsafe-paths", "-"], in: tree.path, input: run.standardOutput)
            XCTAssertEqual(status, 0, "\(tool) rejected:\n\(run.standardOutput)")
            for name in names { XCTAssertEqual(try tree.text(name), "let allowed = 1\n", "\(tool): \(name)") }
        }
    }

    // MARK: --output

    /// The reproduction: `--output a.swift` overwrote the file being linted, and a dangling
    /// symlink was followed to create a file elsewhere.
    func testOutputNeverOverwritesAnInputNorFollowsADanglingLink() throws {
        let tree = try TemporaryDirectory()
        try tree.write("a.swift", "let forbidden = 1\n")
        let overwrite = runTool(["--reporter", "json", "--output", "a.swift", "."], in: tree.path)
        XCTAssertEqual(overwrite.status, 2)
        XCTAssertTrue(overwrite.standardError.contains("a.swift: is a file being linted; not overwritten"), overwrite.standardError)
        XCTAssertEqual(try tree.text("a.swift"), "let forbidden = 1\n")

        try FileManager.default.createSymbolicLink(atPath: tree.path + "/dangling.json", withDestinationPath: tree.path + "/elsewhere.json")
        let dangling = runTool(["--reporter", "json", "--output", "dangling.json", "a.swift"], in: tree.path)
        XCTAssertEqual(dangling.status, 2)
        XCTAssertTrue(dangling.standardError.contains("dangling.json: is a symbolic link to a missing file"), dangling.standardError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tree.path + "/elsewhere.json"))

        try FileManager.default.createDirectory(atPath: tree.path + "/folder", withIntermediateDirectories: false)
        XCTAssertTrue(runTool(["--output", "folder", "a.swift"], in: tree.path).standardError.contains("folder: is a folder"))
    }

    func testOutputReplacesReportsAtomicallyThroughLinksToRegularFilesAndWritesToDevices() throws {
        let tree = try TemporaryDirectory()
        try tree.write("a.swift", "let forbidden = 1\n")
        let report = try tree.write("reports/report.json", "old report, longer than the new one would be if it were truncated\n")
        XCTAssertEqual(chmod(report, 0o640), 0)
        try FileManager.default.createSymbolicLink(atPath: tree.path + "/latest.json", withDestinationPath: "reports/report.json")
        let run = runTool(["--reporter", "json", "--output", "latest.json", "a.swift"], in: tree.path)
        XCTAssertEqual(run.status, 0, run.standardError)
        let written = try tree.text("reports/report.json")
        XCTAssertTrue(written.hasPrefix("{"), written)
        XCTAssertTrue(FileSystem.isSymbolicLink(tree.path + "/latest.json"), "the link stays a link")
        XCTAssertEqual(try FileSystem.status(of: report).permissions, 0o640)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tree.path + "/reports"), ["report.json"])
        let device = runTool(["--reporter", "json", "--output", "/dev/null", "a.swift"], in: tree.path)
        XCTAssertEqual(device.status, 0, device.standardError)
        let fresh = runTool(["--reporter", "sarif", "--output", "new.sarif", "a.swift"], in: tree.path)
        XCTAssertEqual(fresh.status, 0, fresh.standardError)
        XCTAssertTrue(try tree.text("new.sarif").contains("\"version\""))
    }
}
