import Foundation

/// A program run to completion with its output captured: how kblint asks git questions.
/// Standard input is written and standard error read on other threads while standard output
/// is read here, so a child that fills one pipe while kblint waits on another cannot
/// deadlock (a `git cat-file --batch` of many blobs does exactly that).
struct ChildProcess: Sendable {
    struct Result: Sendable {
        let status: Int32
        let output: [UInt8]
        let errorOutput: [UInt8]

        var errorText: String {
            String(decoding: errorOutput, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    /// Why the program could not be started.
    struct LaunchError: Error, CustomStringConvertible {
        let executable: String
        let reason: String
        var description: String { "cannot run \(executable): \(reason)" }
    }

    let executable: String
    let arguments: [String]
    let directory: String
    var input: [UInt8] = []
    /// Variables set on top of `baseEnvironment`.
    var environment: [String: String] = [:]
    /// The environment the child starts from; nil: this process's. It must carry what git
    /// is given inside a hook (`GIT_INDEX_FILE`, `GIT_DIR`), so kblint passes its own on.
    var baseEnvironment: [String: String]? = nil

    func run() throws(LaunchError) -> Result {
        // Writing to a child that has exited must not kill kblint.
        signal(SIGPIPE, SIG_IGN)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        if baseEnvironment != nil || !environment.isEmpty {
            process.environment = (baseEnvironment ?? ProcessInfo.processInfo.environment).merging(environment) { $1 }
        }
        let inputPipe = Pipe(), outputPipe = Pipe(), errorPipe = Pipe()
        process.standardInput = inputPipe
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        do {
            try process.run()
        } catch {
            throw LaunchError(executable: executable, reason: error.localizedDescription)
        }
        let group = DispatchGroup()
        let errorBytes = CapturedBytes()
        let input = Data(self.input)
        let inputHandle = inputPipe.fileHandleForWriting
        DispatchQueue.global().async(group: group) {
            // A child that exits without reading all of it closes the pipe; the write then
            // fails (SIGPIPE is ignored below), which is fine: its exit status tells.
            try? inputHandle.write(contentsOf: input)
            try? inputHandle.close()
        }
        let errorHandle = errorPipe.fileHandleForReading
        DispatchQueue.global().async(group: group) {
            errorBytes.store(errorHandle.readDataToEndOfFile())
        }
        let output = outputPipe.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: [UInt8](output), errorOutput: [UInt8](errorBytes.data))
    }

    /// The absolute path of `name` in the `PATH` of `environment`, or nil.
    static func locate(_ name: String, environment: [String: String]) -> String? {
        guard let searchPath = environment["PATH"] else { return nil }
        for folder in searchPath.split(separator: ":") where folder.hasPrefix("/") {
            let candidate = folder + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate),
               (try? FileSystem.status(of: candidate))?.kind == .regular {
                return candidate
            }
        }
        return nil
    }
}

/// Bytes handed from a reading thread to the waiting one; the lock makes the hand-over safe
/// under strict concurrency.
private final class CapturedBytes: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = Data()

    func store(_ data: Data) {
        lock.lock()
        stored = data
        lock.unlock()
    }

    var data: Data {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
