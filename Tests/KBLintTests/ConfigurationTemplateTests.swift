import XCTest
import Rules
@testable import KBLint

final class ConfigurationTemplateTests: XCTestCase {
    private let rules = ConfigurationTestRules.all

    func testTheTemplateIsAValidConfigurationThatNamesTheDetectedTarget() throws {
        let target = DetectedDeploymentTarget(version: OSVersion(15, 4), source: "/p/Package.swift", origin: .packageSwift)
        let text = ConfigurationTemplate.render(deploymentTarget: target, rules: rules, directory: "/p")
        XCTAssertTrue(text.contains("# iOS deployment target. Detected: iOS 15.4 from Package.swift."), text)
        XCTAssertTrue(text.contains("# deployment_target: \"15.4\""))
        XCTAssertTrue(text.contains("#   - content_inset_adjustment_never  # s"))
        XCTAssertTrue(text.contains("#     check_fallbacks: false  # s"))
        let file = try ConfigurationFile.parse(Array(text.utf8), path: "/p/.kblint.yml", knownRules: rules)
        XCTAssertEqual(file.excluded.map(\.pattern), [".build", "Pods", "Carthage", "DerivedData"])
        XCTAssertNil(file.deploymentTarget, "the detected target stays in the project file; the template only shows it")
        for key in ConfigurationFile.keys {
            XCTAssertTrue(text.contains("\n# \(key):") || text.contains("\n\(key):"), "\(key) is not shown")
        }
    }

    func testUncommentedExamplesAreValidToo() throws {
        let text = ConfigurationTemplate.render(deploymentTarget: nil, rules: rules, directory: "/p")
        XCTAssertTrue(text.contains("None was found"))
        // Uncomment every example ("# key:" and its indented "#   …" lines) except only_rules,
        // which cannot stand next to opt_in_rules and disabled_rules.
        var uncommented: [String] = []
        var inExample = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if let key = ConfigurationFile.keys.first(where: { line.hasPrefix("# \($0):") }), key != "only_rules" {
                inExample = true
                uncommented.append(String(line.dropFirst(2)))
            } else if inExample, line.hasPrefix("#  ") {
                uncommented.append(String(line.dropFirst(2)).replacingOccurrences(of: "rule_id", with: "keyboard_curve_unshifted"))
            } else {
                inExample = false
                uncommented.append(String(line))
            }
        }
        let file = try ConfigurationFile.parse(Array(uncommented.joined(separator: "\n").utf8), path: "/p/.kblint.yml", knownRules: rules)
        XCTAssertEqual(file.deploymentTarget, OSVersion(15))
        XCTAssertEqual(file.disabledRules, ["keyboard_curve_unshifted"])
        XCTAssertEqual(file.optInRules, ["content_inset_adjustment_never"])
        XCTAssertNil(file.onlyRules)
        XCTAssertEqual(file.rules["keyboard_duration_hardcoded"]?.options["tolerance"], .double(0.5))
        XCTAssertEqual(file.rules["keyboard_duration_hardcoded"]?.options["label"], .string("none"))
        XCTAssertEqual(file.reporter, "pretty")
        XCTAssertEqual(file.strict, false)
        XCTAssertEqual(file.baseline, "/p/kblint-baseline.json")
    }

    func testOptionLiteralsReadBackAsTheSameType() throws {
        let values: [OptionValue] = [.bool(true), .int(-3), .double(2), .double(0.25), .string("a \"b\" \\ c\n\u{1}")]
        for value in values {
            let node = try YAMLReader.read("v: \(ConfigurationTemplate.yamlLiteral(value))", path: "t")
            let scalar = try XCTUnwrap(node?.mapping?.first?.value.scalar)
            switch value {
            case .bool(let expected): XCTAssertEqual(scalar.bool, expected)
            case .int(let expected): XCTAssertEqual(scalar.int, expected)
            case .double(let expected): XCTAssertEqual(scalar.double, expected)
            case .string(let expected): XCTAssertEqual(scalar.text, expected)
            }
        }
    }

    func testWritingNeverReplacesAnExistingFile() throws {
        let directory = try ConfigurationFixtureDirectory()
        let path = try ConfigurationTemplate.write("strict: true\n", inDirectory: directory.path)
        XCTAssertEqual(path, directory.absolute(".kblint.yml"))
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "strict: true\n")
        XCTAssertThrowsError(try ConfigurationTemplate.write("strict: false\n", inDirectory: directory.path)) { error in
            XCTAssertEqual("\(error)", "\(path): error: already exists; kblint init never overwrites it")
        }
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "strict: true\n")
    }
}
