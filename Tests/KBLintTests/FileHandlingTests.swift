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
}
