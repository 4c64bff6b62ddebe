import Foundation
import XCTest
import Rules
@testable import KBLint

final class ConfigurationResolverTests: XCTestCase {
    private let rules = ConfigurationTestRules.all

    private func resolver(
        _ directory: ConfigurationFixtureDirectory, config: String? = nil, overrides: RuleOverrides = RuleOverrides(),
        fileSystem: any ConfigurationFileSystem = DiskFileSystem()
    ) throws -> ConfigurationResolver {
        try ConfigurationResolver(
            explicitConfigPath: config, knownRules: rules, overrides: overrides,
            currentDirectory: directory.path, fileSystem: fileSystem)
    }

    func testWithoutConfigurationFilesEverythingIsDefault() throws {
        let directory = try ConfigurationFixtureDirectory(files: ["Sources/A.swift": ""])
        let configuration = try resolver(directory).configuration(forFileAt: "Sources/A.swift")
        XCTAssertEqual(configuration.files, [])
        XCTAssertNil(configuration.deploymentTarget)
        XCTAssertTrue(configuration.isEnabled(ConfigurationTestRules.keyboardDuration))
    }

    func testTheNearestFileAppliesOnTopOfTheOnesAbove() throws {
        let directory = try ConfigurationFixtureDirectory(files: [
            ".kblint.yml": "excluded: [Pods]\ndisabled_rules: [keyboard_curve_unshifted]\nstrict: true\n",
            "Feature/.kblint.yml": "excluded: [Generated]\nstrict: false\nopt_in_rules: [content_inset_adjustment_never]\n",
        ])
        let resolver = try resolver(directory)
        let top = try resolver.configuration(forFileAt: "App/A.swift")
        XCTAssertEqual(top.files, [directory.absolute(".kblint.yml")])
        XCTAssertTrue(top.strict)
        XCTAssertFalse(top.isEnabled(ConfigurationTestRules.contentInsetNever))

        let nested = try resolver.configuration(forFileAt: directory.absolute("Feature/Deep/B.swift"))
        XCTAssertEqual(nested.files, [directory.absolute(".kblint.yml"), directory.absolute("Feature/.kblint.yml")])
        XCTAssertFalse(nested.strict)
        XCTAssertFalse(nested.isEnabled(ConfigurationTestRules.curveUnshifted))
        XCTAssertTrue(nested.isEnabled(ConfigurationTestRules.contentInsetNever))
        XCTAssertFalse(nested.shouldLint(directory.absolute("Pods/X.swift")))
        XCTAssertFalse(nested.shouldLint(directory.absolute("Feature/Generated/X.swift")))
        XCTAssertTrue(nested.shouldLint(directory.absolute("Generated/X.swift")), "patterns are relative to their own file")
    }

    func testAnExplicitFileIsTheOnlyOneThatApplies() throws {
        let directory = try ConfigurationFixtureDirectory(files: [
            ".kblint.yml": "strict: true\n",
            "ci/kblint-ci.yml": "excluded: [../Vendor]\nreporter: json\n",
        ])
        let resolver = try resolver(directory, config: "ci/kblint-ci.yml")
        let configuration = try resolver.configuration(forFileAt: "Sources/A.swift")
        XCTAssertEqual(configuration.files, [directory.absolute("ci/kblint-ci.yml")])
        XCTAssertFalse(configuration.strict)
        XCTAssertEqual(configuration.reporter, "json")
        XCTAssertFalse(configuration.shouldLint(directory.absolute("Vendor/X.swift")))
    }

    func testMissingOrBrokenExplicitFilesFailAtOnce() throws {
        let directory = try ConfigurationFixtureDirectory(files: ["bad.yml": "strict: maybe\n"])
        XCTAssertThrowsError(try resolver(directory, config: "missing.yml")) { error in
            XCTAssertEqual("\(error)", "missing.yml: error: cannot read the configuration file")
        }
        XCTAssertThrowsError(try resolver(directory, config: "bad.yml")) { error in
            XCTAssertEqual("\(error)", "bad.yml:1:9: error: 'strict' must be true or false, found the text 'maybe'")
        }
    }

    func testABrokenNestedFileFailsOnlyTheFilesBelowIt() throws {
        let directory = try ConfigurationFixtureDirectory(files: ["Broken/.kblint.yml": "exclude: [x]\n"])
        let counting = CountingFileSystem()
        let resolver = try resolver(directory, fileSystem: counting)
        for _ in 0..<3 {
            XCTAssertThrowsError(try resolver.configuration(forFileAt: "Broken/Sub/A.swift")) { error in
                XCTAssertEqual("\(error)", "Broken/.kblint.yml:1:1: error: unknown key 'exclude'; did you mean 'excluded'?")
            }
        }
        XCTAssertNoThrow(try resolver.configuration(forFileAt: "Fine/A.swift"))
        XCTAssertEqual(counting.reads(of: directory.absolute("Broken/.kblint.yml")), 1)
    }

    func testLookupsAreCachedPerFolder() throws {
        let directory = try ConfigurationFixtureDirectory(files: [".kblint.yml": "strict: true\n", "Package.swift": ".iOS(.v15)"])
        let counting = CountingFileSystem()
        let resolver = try resolver(directory, fileSystem: counting)
        for index in 0..<2_000 {
            _ = try resolver.configuration(forFileAt: "Sources/Module\(index % 10)/File\(index).swift")
        }
        XCTAssertEqual(counting.reads(of: directory.absolute(".kblint.yml")), 1)
        XCTAssertEqual(counting.reads(of: directory.absolute("Package.swift")), 1)
        XCTAssertEqual(counting.listingCount(of: directory.path), 1)
        XCTAssertEqual(counting.listingCount(of: directory.absolute("Sources/Module3")), 1)
    }

    func testConcurrentLookupsAgree() throws {
        let directory = try ConfigurationFixtureDirectory(files: [
            ".kblint.yml": "strict: true\n", "A/.kblint.yml": "strict: false\n", "A/Podfile": "platform :ios, '13.0'\n",
        ])
        let resolver = try resolver(directory)
        let paths = (0..<400).map { $0 % 2 == 0 ? "A/Sub\($0 % 7)/F\($0).swift" : "B/Sub\($0 % 7)/F\($0).swift" }
        let results = ResultsBox(count: paths.count)
        DispatchQueue.concurrentPerform(iterations: paths.count) { index in
            let configuration = try? resolver.configuration(forFileAt: paths[index])
            results.set(index, configuration.map { "\($0.strict) \($0.deploymentTarget?.version.description ?? "-")" })
        }
        for (index, path) in paths.enumerated() {
            XCTAssertEqual(results.get(index), path.hasPrefix("A/") ? "false 13.0" : "true -")
        }
    }

    func testCommandLineOverridesApplyToEveryFile() throws {
        let directory = try ConfigurationFixtureDirectory(files: ["Sub/.kblint.yml": "disabled_rules: [keyboard_curve_unshifted]\n"])
        let resolver = try resolver(directory, overrides: RuleOverrides(enabled: ["keyboard_curve_unshifted"]))
        XCTAssertTrue(try resolver.configuration(forFileAt: "Sub/A.swift").isEnabled(ConfigurationTestRules.curveUnshifted))
        XCTAssertThrowsError(try self.resolver(directory, overrides: RuleOverrides(only: ["nope"])))
    }

    func testConfiguredDeploymentTargetWinsOverProjectFiles() throws {
        let directory = try ConfigurationFixtureDirectory(files: [
            ".kblint.yml": "deployment_target: 16.0\n",
            "Package.swift": "platforms: [.iOS(.v15)]",
        ])
        let target = try resolver(directory).configuration(forFileAt: "Sources/A.swift").deploymentTarget
        XCTAssertEqual(target, DetectedDeploymentTarget(
            version: OSVersion(16), source: directory.absolute(".kblint.yml"), origin: .configuration))
    }

    func testDeploymentTargetComesFromTheNearestProjectFile() throws {
        let directory = try ConfigurationFixtureDirectory(files: [
            "Package.swift": "let package = Package(\n  platforms: [\n    .iOS(.v15_4), .macOS(.v12)\n  ]\n)\n",
            "App/App.xcodeproj/project.pbxproj": """
                IPHONEOS_DEPLOYMENT_TARGET = 14.0;
                IPHONEOS_DEPLOYMENT_TARGET = 13.2;
                IPHONEOS_DEPLOYMENT_TARGET = "16.0";
                """,
            "App/Other.xcodeproj/project.pbxproj": "IPHONEOS_DEPLOYMENT_TARGET = 15.0;",
            "Legacy/Podfile": "# platform :ios, '9.0'\nplatform :ios, '12.0'\n",
            "Tool/Package.swift": "platforms: [.macOS(.v13)]",
            "Tool/Podfile": "platform :ios, \"11.0\"",
            "Mac/Package.swift": "platforms: [.macOS(.v13)]",
        ])
        let resolver = try resolver(directory)
        func target(_ path: String) throws -> DetectedDeploymentTarget? {
            try resolver.configuration(forFileAt: path).deploymentTarget
        }
        XCTAssertEqual(try target("Sources/Kit/A.swift"), DetectedDeploymentTarget(
            version: OSVersion(15, 4), source: directory.absolute("Package.swift"), origin: .packageSwift))
        XCTAssertEqual(try target("App/Screens/B.swift"), DetectedDeploymentTarget(
            version: OSVersion(13, 2), source: directory.absolute("App/App.xcodeproj/project.pbxproj"), origin: .xcodeProject))
        XCTAssertEqual(try target("Legacy/C.swift"), DetectedDeploymentTarget(
            version: OSVersion(12), source: directory.absolute("Legacy/Podfile"), origin: .podfile))
        XCTAssertEqual(try target("Tool/D.swift")?.origin, .podfile, "a manifest without iOS does not count")
        XCTAssertEqual(try target("Mac/E.swift")?.source, directory.absolute("Package.swift"), "the search goes on upward")
        XCTAssertEqual(resolver.detectedDeploymentTarget(inDirectory: "Legacy")?.version, OSVersion(12))
        XCTAssertEqual(
            try target("Sources/Kit/A.swift")?.description,
            "iOS 15.4 (from \(directory.absolute("Package.swift")))")
        XCTAssertEqual(
            try target("App/Screens/B.swift")?.description,
            "iOS 13.2 (from IPHONEOS_DEPLOYMENT_TARGET in \(directory.absolute("App/App.xcodeproj/project.pbxproj")))")
    }
}

/// Results written from concurrent iterations, each to its own slot.
private final class ResultsBox: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [String?]
    init(count: Int) { values = Array(repeating: nil, count: count) }
    private func locked<Value>(_ body: () -> Value) -> Value {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
    func set(_ index: Int, _ value: String?) { locked { values[index] = value } }
    func get(_ index: Int) -> String? { locked { values[index] } }
}
