import Foundation
import XCTest

/// Runs the built `kblint` with a deadline: a hang fails the test (and the child is killed)
/// instead of stalling the suite.
enum BoundedRun {
    struct Result {
        let status: Int32
        let standardOutput: String
        let standardError: String
        /// Processor time (user and system) the child used: unlike wall-clock time, it does not
        /// grow when other work shares the machine.
        var processorSeconds: Double = 0
    }

    /// The wall-clock time after which a run counts as hung: far above what any run takes on
    /// a loaded machine, so that only a run that does not end reaches it. Tests that guard
    /// against slow analysis compare processor time instead (`processorSeconds`).
    static let hangSeconds: Double = 600

    /// Processor time of the children of this process that have ended and been waited for.
    static func childProcessorSeconds() -> Double {
        var usage = rusage()
        #if os(Linux)
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        #else
        getrusage(RUSAGE_CHILDREN, &usage)
        #endif
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    struct Timeout: Error, CustomStringConvertible {
        let arguments: [String]
        let seconds: Double
        var description: String { "\(arguments.joined(separator: " ")) did not finish within \(seconds) s" }
    }

    /// Runs `executable` (default: the built kblint) with `environment` (default: a minimal PATH).
    static func run(
        _ arguments: [String], in directory: String, seconds: Double = hangSeconds,
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
        let processorBefore = childProcessorSeconds()
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
                      standardError: String(decoding: errorData, as: UTF8.self),
                      processorSeconds: childProcessorSeconds() - processorBefore)
    }
}
