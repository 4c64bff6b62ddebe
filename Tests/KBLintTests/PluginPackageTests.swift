import Foundation
import XCTest
@testable import KBLint

/// A real SwiftPM package that uses kblint's plugins (Fixtures/PluginPackage, copied to a
/// temporary folder with its dependency pointed at this repository), built with `swift build`
/// and linted with `swift package kblint`. Building kblint inside it takes a while, so the
/// test runs only with KBLINT_PLUGIN_TESTS=1 (as `.ci/run` does).
final class PluginPackageTests: XCTestCase {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    var swift = ""
    var package: TemporaryDirectory!

    override func setUpWithError() throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment["KBLINT_PLUGIN_TESTS"] == "1",
                          "set KBLINT_PLUGIN_TESTS=1 to build the plugin fixture package")
        swift = try XCTUnwrap(ChildProcess.locate("swift", environment: ProcessInfo.processInfo.environment),
                              "swift not found in PATH")
        package = try BinaryHarness.copyFixture("PluginPackage")
        let manifest = package.path + "/Package.swift"
        let text = try String(contentsOfFile: manifest, encoding: .utf8)
        XCTAssertTrue(text.contains("path: \"../../../..\""))
        try text.replacingOccurrences(of: "path: \"../../../..\"", with: "path: \"\(Self.repositoryRoot)\"")
            .write(toFile: manifest, atomically: true, encoding: .utf8)
    }

    /// `swift arguments…` in the fixture package; standard output and error together.
    func swiftCommand(_ arguments: String...) throws -> (status: Int32, output: String) {
        let result = try ChildProcess(executable: swift, arguments: arguments, directory: package.path).run()
        return (result.status, String(decoding: result.output, as: UTF8.self) + String(decoding: result.errorOutput, as: UTF8.self))
    }

    /// One package for both plugins, so kblint is built once.
    func testPluginsInARealPackage() throws {
        try checkCommandPluginLintsThePackageOrNamedTargets()
        try checkBuildToolPluginReportsFindingsAsCompilerDiagnostics()
    }

    func checkBuildToolPluginReportsFindingsAsCompilerDiagnostics() throws {
        let source = package.path + "/Sources/ChatKeyboard/Chat Keyboard.swift"
        let diagnostic = "\(source):6:28: warning: 'some_rule' is not a kblint rule id (superfluous_disable_command)"

        // Generated code under an excluded folder is not linted, though the plugin names files.
        try package.write("Sources/ChatKeyboard/Generated/Strings.swift", "// kblint:disable:next generated_rule\nlet strings = 1\n")
        try package.write(".kblint.yml", "excluded: [Sources/ChatKeyboard/Generated]\n")
        let build = try swiftCommand("build")
        XCTAssertEqual(build.status, 0, build.output)
        XCTAssertTrue(build.output.contains(diagnostic), build.output)
        XCTAssertFalse(build.output.contains("generated_rule"), build.output)

        // An error-severity finding fails the build; the configuration is an input of the lint
        // (its folder is: replacing the file, as editors save, reruns the lint).
        try FileManager.default.removeItem(atPath: package.path + "/.kblint.yml")
        try package.write(".kblint.yml", "excluded: [Sources/ChatKeyboard/Generated]\nrules:\n  superfluous_disable_command:\n    severity: error\n")
        let failing = try swiftCommand("build")
        XCTAssertNotEqual(failing.status, 0, failing.output)
        XCTAssertTrue(failing.output.contains("\(source):6:28: error: 'some_rule' is not a kblint rule id"), failing.output)

        // Fixed: the build passes again.
        try package.write("Sources/ChatKeyboard/Chat Keyboard.swift", "public struct ChatKeyboard {}\n")
        let fixed = try swiftCommand("build")
        XCTAssertEqual(fixed.status, 0, fixed.output)
        XCTAssertFalse(fixed.output.contains("superfluous_disable_command"), fixed.output)

        // Removing the configuration does not leave the build waiting for a missing input.
        try FileManager.default.removeItem(atPath: package.path + "/.kblint.yml")
        let unconfigured = try swiftCommand("build")
        XCTAssertEqual(unconfigured.status, 0, unconfigured.output)
    }

    func checkCommandPluginLintsThePackageOrNamedTargets() throws {
        let source = package.path + "/Sources/ChatKeyboard/Chat Keyboard.swift"
        let whole = try swiftCommand("package", "kblint", "--", "--reporter", "xcode")
        XCTAssertEqual(whole.status, 0, whole.output)
        XCTAssertTrue(whole.output.contains("\(source):6:28: warning: 'some_rule' is not a kblint rule id"), whole.output)

        let clean = try swiftCommand("package", "kblint", "--target", "Clean", "--", "--reporter", "xcode", "--strict")
        XCTAssertEqual(clean.status, 0, clean.output)
        XCTAssertFalse(clean.output.contains("superfluous_disable_command"), clean.output)

        let json = try swiftCommand("package", "kblint", "--target", "ChatKeyboard", "--", "--reporter", "json")
        XCTAssertTrue(json.output.contains("\"rule\": \"superfluous_disable_command\""), json.output)

        // `--target` names the target's files; `excluded` still applies to them.
        try package.write("Sources/ChatKeyboard/Generated/Strings.swift", "// kblint:disable:next generated_rule\nlet strings = 1\n")
        try package.write(".kblint.yml", "excluded: [Sources/ChatKeyboard/Generated]\n")
        let excluded = try swiftCommand("package", "kblint", "--target", "ChatKeyboard", "--", "--reporter", "xcode")
        XCTAssertTrue(excluded.output.contains("\(source):6:28: warning:"), excluded.output)
        XCTAssertFalse(excluded.output.contains("generated_rule"), excluded.output)

        let strict = try swiftCommand("package", "kblint", "--", "--strict", "--reporter", "xcode")
        XCTAssertNotEqual(strict.status, 0, "kblint's failure fails the command")
        XCTAssertTrue(strict.output.contains("kblint exited with status 1"), strict.output)
    }
}
