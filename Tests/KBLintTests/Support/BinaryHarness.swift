import Foundation
import XCTest

/// Runs the built `kblint` executable as users do, for end-to-end tests.
enum BinaryHarness {
    /// The folder holding the test bundle, where SwiftPM also puts the `kblint` executable.
    static var productsDirectory: URL {
        #if os(macOS)
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        return Bundle.main.bundleURL
        #else
        return Bundle.main.bundleURL
        #endif
    }

    static var executable: URL { productsDirectory.appendingPathComponent("kblint") }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// Runs `kblint arguments…` in `directory` with a minimal environment (so the CI's own
    /// variables cannot change the output) plus `environment`.
    static func run(
        _ arguments: [String], in directory: String, standardInput: [UInt8] = [],
        environment: [String: String] = [:]
    ) throws -> (status: Int32, standardOutput: String, standardError: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = ["PATH": "/usr/bin:/bin"].merging(environment) { $1 }
        let input = Pipe(), output = Pipe(), error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        input.fileHandleForWriting.write(Data(standardInput))
        try input.fileHandleForWriting.close()
        // Read both pipes to the end before waiting, so a large output cannot block the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var errorData = Data()
        group.enter()
        DispatchQueue.global().async {
            errorData = error.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outputData, as: UTF8.self),
                String(decoding: errorData, as: UTF8.self))
    }

    /// A copy of `Fixtures/<name>` in a fresh temporary folder (tests may change it, and the
    /// repository's own configuration excludes the fixtures folder).
    static func copyFixture(_ name: String) throws -> TemporaryDirectory {
        let copy = try TemporaryDirectory()
        let source = fixtures.appendingPathComponent(name)
        for item in try FileManager.default.contentsOfDirectory(atPath: source.path) {
            try FileManager.default.copyItem(atPath: source.appendingPathComponent(item).path,
                                             toPath: copy.path + "/" + item)
        }
        return copy
    }
}
