import Foundation
import XCTest
@testable import KBLint

final class ChildProcessTests: XCTestCase {
    /// `script` run by `/bin/sh` in `directory` (default: the root).
    func shell(_ script: String, in directory: String = "/", input: [UInt8] = []) -> ChildProcess {
        ChildProcess(executable: "/bin/sh", arguments: ["-c", script], directory: directory, input: input)
    }

    struct Deadlocked: Error {}

    /// Runs `child` on another thread, so that a deadlock fails the test instead of hanging it.
    func runWithDeadline(_ child: ChildProcess, seconds: Double = 60) throws -> ChildProcess.Result {
        nonisolated(unsafe) var outcome: Result<ChildProcess.Result, ChildProcess.LaunchError>?
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            outcome = Result { () throws(ChildProcess.LaunchError) in try child.run() }
            finished.signal()
        }
        guard finished.wait(timeout: .now() + seconds) == .success, let outcome else { throw Deadlocked() }
        return try outcome.get()
    }

    func testExitStatusAndSignals() throws {
        let success = try shell("exit 0").run()
        XCTAssertEqual(success.termination, .exited(code: 0))
        XCTAssertEqual(success.status, 0)

        let failure = try shell("echo ' went wrong \n' >&2; exit 3").run()
        XCTAssertEqual(failure.termination, .exited(code: 3))
        XCTAssertEqual(failure.errorText, "went wrong")
        XCTAssertEqual(failure.diagnosis, "went wrong")

        let killed = try shell("kill -TERM $$").run()
        XCTAssertEqual(killed.termination, .killed(signal: SIGTERM))
        XCTAssertEqual(killed.status, 128 + SIGTERM)
        XCTAssertEqual(killed.diagnosis, "killed by signal \(SIGTERM)")
    }

    func testLargeOutputAndErrorAtOnceDoNotDeadlock() throws {
        // Each stream alone overfills a pipe many times, in both orders, while the other waits.
        let errorFirst = try runWithDeadline(shell("head -c 3000000 /dev/zero | tr '\\0' e >&2; head -c 2000000 /dev/zero | tr '\\0' o"))
        XCTAssertEqual(errorFirst.status, 0)
        XCTAssertEqual(errorFirst.errorOutput, [UInt8](repeating: UInt8(ascii: "e"), count: 3_000_000))
        XCTAssertEqual(errorFirst.output, [UInt8](repeating: UInt8(ascii: "o"), count: 2_000_000))

        let interleaved = try runWithDeadline(shell("for i in 1 2 3 4 5 6 7 8; do head -c 200000 /dev/zero | tr '\\0' o; head -c 200000 /dev/zero | tr '\\0' e >&2; done"))
        XCTAssertEqual(interleaved.output.count, 1_600_000)
        XCTAssertEqual(interleaved.errorOutput.count, 1_600_000)
    }

    func testLargeInputIsWrittenWhileOutputIsRead() throws {
        // `tee` echoes its input to both streams as it reads it: writing all of the input
        // before reading would block on full pipes.
        let input = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 % 251) }
        let echoed = try runWithDeadline(ChildProcess(executable: "/bin/sh", arguments: ["-c", "tee /dev/stderr"], directory: "/", input: input))
        XCTAssertEqual(echoed.status, 0, echoed.errorText)
        XCTAssertEqual(echoed.output, input)
        XCTAssertEqual(echoed.errorOutput, input)

        // A child that exits without reading is no error of kblint's: its status tells.
        let ignoring = try runWithDeadline(shell("exit 4", input: input))
        XCTAssertEqual(ignoring.status, 4)
    }

    func testStandardInputIsEmptyWithoutInput() throws {
        XCTAssertEqual(try runWithDeadline(shell("wc -c")).output.filter { $0 != UInt8(ascii: " ") }, Array("0\n".utf8))
    }

    func testMissingOrUnrunnableExecutableIsALaunchError() throws {
        let folder = try TemporaryDirectory()
        let missing = folder.path + "/no-such-program"
        XCTAssertThrowsError(try ChildProcess(executable: missing, arguments: [], directory: "/").run()) { error in
            XCTAssertEqual("\(error)", "cannot run \(missing): No such file or directory")
        }
        let notExecutable = try folder.write("script.sh", "#!/bin/sh\nexit 0\n")
        // Without any x bit, not even root may run it.
        XCTAssertThrowsError(try ChildProcess(executable: notExecutable, arguments: [], directory: "/").run()) { error in
            XCTAssertEqual("\(error)", "cannot run \(notExecutable): Permission denied")
        }
        XCTAssertThrowsError(try ChildProcess(executable: folder.path, arguments: [], directory: "/").run())
    }

    func testWorkingDirectory() throws {
        let folder = try TemporaryDirectory()
        let inner = try folder.write("Sub Folder/ünï/file", "")
        let directory = (inner as NSString).deletingLastPathComponent
        let result = try ChildProcess(executable: "/bin/pwd", arguments: ["-P"], directory: directory).run()
        XCTAssertEqual(String(decoding: result.output, as: UTF8.self), directory + "\n")

        let missing = folder.path + "/missing"
        XCTAssertThrowsError(try ChildProcess(executable: "/bin/pwd", arguments: [], directory: missing).run()) { error in
            XCTAssertEqual("\(error)", "cannot run /bin/pwd: its working directory \(missing) is not a folder")
        }
    }

    func testEnvironmentIsInheritedOrReplaced() throws {
        func variables(_ child: ChildProcess) throws -> Set<String> {
            Set(String(decoding: try child.run().output, as: UTF8.self).split(separator: "\n").map(String.init))
        }
        let env = "/usr/bin/env"
        let own = ProcessInfo.processInfo.environment
        let inherited = try variables(ChildProcess(executable: env, arguments: [], directory: "/"))
        XCTAssertTrue(inherited.contains("PATH=" + (own["PATH"] ?? "")), "\(inherited)")

        let added = try variables(ChildProcess(executable: env, arguments: [], directory: "/", environment: ["KBLINT_TEST": "a=b c"]))
        XCTAssertTrue(added.contains("KBLINT_TEST=a=b c"))
        XCTAssertTrue(added.contains("PATH=" + (own["PATH"] ?? "")))

        let replaced = try variables(ChildProcess(
            executable: env, arguments: [], directory: "/", environment: ["B": "2", "A": "0"], baseEnvironment: ["A": "1"]))
        XCTAssertEqual(replaced, ["A=0", "B=2"])
    }

    #if os(Linux)
    /// The pipes' other ends are closed on `exec`: the child holds each of its pipes once, as
    /// a standard stream. (A leaked write end of its own input would also keep it waiting
    /// for the end of the input forever.)
    func testPipesDoNotLeakIntoTheChild() throws {
        let listing = try runWithDeadline(shell("cat >/dev/null; ls -l /proc/$$/fd", input: Array("input".utf8)))
        let targets = String(decoding: listing.output, as: UTF8.self).split(separator: "\n").compactMap { line -> (String, String)? in
            let parts = line.components(separatedBy: " -> ")
            guard parts.count == 2, let descriptor = parts[0].split(separator: " ").last else { return nil }
            return (String(descriptor), parts[1])
        }
        let standard = targets.filter { ["0", "1", "2"].contains($0.0) }
        XCTAssertEqual(Set(standard.map(\.1)).count, 3, "\(targets)")
        XCTAssertTrue(standard.allSatisfy { $0.1.hasPrefix("pipe:") }, "\(targets)")
        let others = targets.filter { !["0", "1", "2"].contains($0.0) && standard.map(\.1).contains($0.1) }
        XCTAssertTrue(others.isEmpty, "\(targets)")
    }
    #endif

    func testLocateFindsExecutableFilesInPath() throws {
        let folder = try TemporaryDirectory()
        try folder.write("bin/tool", "")
        try folder.write("exec/tool", "#!/bin/sh\n")
        XCTAssertEqual(chmod(folder.path + "/exec/tool", 0o755), 0)
        try FileManager.default.createDirectory(atPath: folder.path + "/dir/tool", withIntermediateDirectories: true)
        let path = ["relative", folder.path + "/dir", folder.path + "/bin", folder.path + "/exec"].joined(separator: ":")
        XCTAssertEqual(ChildProcess.locate("tool", environment: ["PATH": path]), folder.path + "/exec/tool")
        XCTAssertNil(ChildProcess.locate("tool", environment: [:]))
    }
}
