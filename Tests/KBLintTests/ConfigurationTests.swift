import XCTest
import Rules
@testable import KBLint

final class ConfigurationTests: XCTestCase {
    private let defaultRule = ConfigurationTestRules.keyboardDuration
    private let optInRule = ConfigurationTestRules.contentInsetNever
    private let otherRule = ConfigurationTestRules.curveUnshifted

    private func file(_ text: String, at path: String = "/p/.kblint.yml") throws -> ConfigurationFile {
        try ConfigurationFile.parse(Array(text.utf8), path: path, knownRules: ConfigurationTestRules.all)
    }

    private func configuration(_ texts: String...) throws -> Configuration {
        var configuration = Configuration()
        for (depth, text) in texts.enumerated() {
            let folder = "/p" + String(repeating: "/n", count: depth)
            configuration = configuration.merging(try file(text, at: folder + "/.kblint.yml"))
        }
        return configuration
    }

    private func enabledIDs(_ configuration: Configuration) -> [String] {
        ConfigurationTestRules.all.filter(configuration.isEnabled).map(\.id)
            + (configuration.isEnabled(ruleID: "superfluous_disable_command") ? ["superfluous_disable_command"] : [])
    }

    func testDefaults() {
        let configuration = Configuration()
        XCTAssertEqual(enabledIDs(configuration), [defaultRule.id, otherRule.id, "superfluous_disable_command"])
        XCTAssertEqual(configuration.severity(for: defaultRule), .warning)
        XCTAssertEqual(configuration.options(for: defaultRule), [
            "check_fallbacks": .bool(false), "maximum_count": .int(3), "tolerance": .double(0.5), "label": .string("none"),
        ])
        XCTAssertFalse(configuration.strict)
        XCTAssertTrue(configuration.shouldLint("/anything.swift"))
    }

    func testDisabledRulesAndSeverityOff() throws {
        XCTAssertEqual(enabledIDs(try configuration("disabled_rules: [keyboard_duration_hardcoded]")), [otherRule.id, "superfluous_disable_command"])
        XCTAssertEqual(enabledIDs(try configuration("rules: {keyboard_curve_unshifted: off, superfluous_disable_command: off}")), [defaultRule.id])
    }

    func testOptInRulesNeedToBeAskedFor() throws {
        XCTAssertTrue(try configuration("opt_in_rules: [content_inset_adjustment_never]").isEnabled(optInRule))
        XCTAssertTrue(try configuration("rules: {content_inset_adjustment_never: {severity: warning}}").isEnabled(optInRule))
        XCTAssertFalse(try configuration("rules: {content_inset_adjustment_never: {severity: off}}").isEnabled(optInRule))
        XCTAssertFalse(try configuration("rules: {content_inset_adjustment_never: }").isEnabled(optInRule))
        XCTAssertFalse(try configuration(
            "opt_in_rules: [content_inset_adjustment_never]\ndisabled_rules: [content_inset_adjustment_never]").isEnabled(optInRule))
    }

    func testOnlyRulesRunsExactlyThose() throws {
        let only = try configuration("only_rules: [content_inset_adjustment_never]")
        XCTAssertEqual(enabledIDs(only), [optInRule.id])
        XCTAssertEqual(enabledIDs(try configuration(
            "only_rules: [content_inset_adjustment_never, keyboard_curve_unshifted]\nrules: {keyboard_curve_unshifted: off}")), [optInRule.id])
    }

    func testSeverityAndOptionsOverlay() throws {
        let configuration = try self.configuration("""
        rules:
          keyboard_duration_hardcoded: {severity: error, check_fallbacks: true, tolerance: 2}
        """)
        XCTAssertEqual(configuration.severity(for: defaultRule), .error)
        XCTAssertEqual(configuration.severity(for: otherRule), .error)
        XCTAssertEqual(configuration.severity(forRuleID: "superfluous_disable_command", defaultSeverity: .warning), .warning)
        XCTAssertEqual(configuration.options(for: defaultRule), [
            "check_fallbacks": .bool(true), "maximum_count": .int(3), "tolerance": .double(2), "label": .string("none"),
        ])
    }

    func testNestedFilesOverrideScalarsAndAddToLists() throws {
        let configuration = try self.configuration(
            """
            deployment_target: 14.0
            reporter: json
            strict: true
            included: [Sources]
            excluded: [Pods]
            disabled_rules: [keyboard_curve_unshifted]
            rules: {keyboard_duration_hardcoded: {severity: error, check_fallbacks: true}}
            """,
            """
            deployment_target: "16.0"
            strict: false
            included: [App]
            excluded: [Generated]
            disabled_rules: [keyboard_duration_hardcoded]
            opt_in_rules: [content_inset_adjustment_never]
            rules: {keyboard_duration_hardcoded: {tolerance: 1.5}}
            """)
        XCTAssertEqual(configuration.files, ["/p/.kblint.yml", "/p/n/.kblint.yml"])
        XCTAssertEqual(configuration.deploymentTarget, DetectedDeploymentTarget(
            version: OSVersion(16), source: "/p/n/.kblint.yml", origin: .configuration))
        XCTAssertEqual(configuration.reporter, "json")
        XCTAssertFalse(configuration.strict)
        XCTAssertEqual(configuration.included.map(\.pattern), ["App"])
        XCTAssertEqual(configuration.excluded.map { $0.baseDirectory + "/" + $0.pattern }, ["/p/Pods", "/p/n/Generated"])
        XCTAssertEqual(enabledIDs(configuration), [optInRule.id, "superfluous_disable_command"])
        XCTAssertEqual(configuration.rules[defaultRule.id], RuleConfiguration(
            severity: .error, options: ["check_fallbacks": .bool(true), "tolerance": .double(1.5)]))
    }

    func testNestedFilesCanReEnableWhatTheParentTurnedOff() throws {
        let reEnabled = try configuration(
            "disabled_rules: [keyboard_curve_unshifted]\nrules: {content_inset_adjustment_never: off}",
            "opt_in_rules: [keyboard_curve_unshifted, content_inset_adjustment_never]")
        XCTAssertTrue(reEnabled.isEnabled(otherRule))
        XCTAssertTrue(reEnabled.isEnabled(optInRule))
        let disabledAgain = try configuration(
            "opt_in_rules: [content_inset_adjustment_never]", "disabled_rules: [content_inset_adjustment_never]")
        XCTAssertFalse(disabledAgain.isEnabled(optInRule))
    }

    func testNestedOnlyRules() throws {
        let inherited = try configuration(
            "only_rules: [keyboard_curve_unshifted, keyboard_duration_hardcoded]",
            "disabled_rules: [keyboard_duration_hardcoded]\nopt_in_rules: [content_inset_adjustment_never]")
        XCTAssertEqual(enabledIDs(inherited), [optInRule.id, otherRule.id])
        let replaced = try configuration("only_rules: [keyboard_curve_unshifted]", "only_rules: [keyboard_duration_hardcoded]")
        XCTAssertEqual(enabledIDs(replaced), [defaultRule.id])
    }

    func testCommandLineOverrides() throws {
        var configuration = try self.configuration(
            "disabled_rules: [keyboard_curve_unshifted]\nrules: {keyboard_duration_hardcoded: {severity: off, check_fallbacks: true}}")
        configuration.apply(RuleOverrides(enabled: ["keyboard_curve_unshifted", "keyboard_duration_hardcoded", optInRule.id]))
        XCTAssertEqual(enabledIDs(configuration), [defaultRule.id, optInRule.id, otherRule.id, "superfluous_disable_command"])
        XCTAssertEqual(configuration.options(for: defaultRule)["check_fallbacks"], .bool(true), "--enable keeps the options")
        configuration.apply(RuleOverrides(disabled: [optInRule.id, "superfluous_disable_command"]))
        XCTAssertEqual(enabledIDs(configuration), [defaultRule.id, otherRule.id])
        configuration.apply(RuleOverrides(only: [optInRule.id]))
        XCTAssertEqual(enabledIDs(configuration), [optInRule.id])
        configuration.apply(RuleOverrides(enabled: [otherRule.id]))
        XCTAssertEqual(enabledIDs(configuration), [optInRule.id, otherRule.id])
    }

    func testUnknownOverrideIDsAreRejected() {
        XCTAssertThrowsError(try RuleOverrides(disabled: ["keyboard_curve_unshift"]).validate(knownRuleIDs: ["keyboard_curve_unshifted"])) { error in
            XCTAssertEqual("\(error)", "error: unknown rule 'keyboard_curve_unshift' given to --disable; did you mean 'keyboard_curve_unshifted'?")
        }
        XCTAssertNoThrow(try RuleOverrides(enabled: ["a"], only: ["a"]).validate(knownRuleIDs: ["a"]))
    }

    func testIncludedAndExcludedDecideWhatIsLinted() throws {
        let configuration = try self.configuration("included: [Sources, 'Tools/*.swift']\nexcluded: ['**/Generated', Sources/Legacy]")
        XCTAssertTrue(configuration.shouldLint("/p/Sources/App/A.swift"))
        XCTAssertTrue(configuration.shouldLint("/p/Tools/run.swift"))
        XCTAssertFalse(configuration.shouldLint("/p/Tools/Sub/run.swift"))
        XCTAssertFalse(configuration.shouldLint("/p/Tests/A.swift"))
        XCTAssertFalse(configuration.shouldLint("/p/Sources/App/Generated/A.swift"))
        XCTAssertFalse(configuration.shouldLint("/p/Sources/Legacy/A.swift"))
        XCTAssertTrue(configuration.isExcluded("/p/Sources/Legacy"), "folders can be pruned before they are walked")
    }
}
