import Foundation
import XCTest

/// Runs the built `kblint` with a deadline: a hang fails the test (and the child is killed)
/// instead of stalling the suite.
enum BoundedRun {
    struct Result {
        let status: Int32
        let standardOutput: String
        let standardError: String
    }

    struct Timeout: Error, CustomStringConvertible {
        let arguments: [String]
        let seconds: Double
        var description: String { "\(arguments.joined(separator: " ")) did not finish within \(seconds) s" }
    }

    /// Runs `executable` (default: the built kblint) with `environment` (default: a minimal PATH).
    static func run(
        _ arguments: [String], in directory: String, seconds: Double = 60,
        executable: URL = BinaryHarness.executable, environment: [String: String] = ["PATH": "/usr/bin:/bin"]
    ) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = environment
        let output = Pipe(), error = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = error
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        try process.run()
        // Drain both pipes while waiting, so a large output cannot block the child.
        let drained = DispatchGroup()
        nonisolated(unsafe) var outputData = Data(), errorData = Data()
        DispatchQueue.global().async(group: drained) { outputData = output.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: drained) { errorData = error.fileHandleForReading.readDataToEndOfFile() }
        if finished.wait(timeout: .now() + seconds) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            _ = finished.wait(timeout: .now() + 5)
            throw Timeout(arguments: [executable.lastPathComponent] + arguments, seconds: seconds)
        }
        drained.wait()
        return Result(status: process.terminationStatus,
                      standardOutput: String(decoding: outputData, as: UTF8.self),
                      standardError: String(decoding: errorData, as: UTF8.self))
    }
}
