import XCTest
import Lexer
import Rules
@testable import KBLint

/// Rules that exist only for configuration tests, so the tests do not depend on the catalogue.
enum ConfigurationTestRules {
    static let keyboardDuration = RuleMetadata(
        id: "keyboard_duration_hardcoded", category: .animation, defaultSeverity: .warning,
        summary: "s", rationale: "r", fix: "f",
        options: [
            RuleOption(name: "check_fallbacks", defaultValue: .bool(false), summary: "s"),
            RuleOption(name: "maximum_count", defaultValue: .int(3), summary: "s"),
            RuleOption(name: "tolerance", defaultValue: .double(0.5), summary: "s"),
            RuleOption(name: "label", defaultValue: .string("none"), summary: "s"),
        ],
        triggering: [], nonTriggering: [])
    static let contentInsetNever = RuleMetadata(
        id: "content_inset_adjustment_never", category: .geometry, defaultSeverity: .info, isOptIn: true,
        summary: "s", rationale: "r", fix: "f", triggering: [], nonTriggering: [])
    static let curveUnshifted = RuleMetadata(
        id: "keyboard_curve_unshifted", category: .animation, defaultSeverity: .error,
        summary: "s", rationale: "r", fix: "f", triggering: [], nonTriggering: [])
    static let all = [keyboardDuration, contentInsetNever, curveUnshifted]
}

final class ConfigurationFileTests: XCTestCase {
    private func parse(_ text: String, reporters: [String] = []) throws(ConfigurationError) -> ConfigurationFile {
        try ConfigurationFile.parse(
            Array(text.utf8), path: "/project/.kblint.yml", displayPath: ".kblint.yml",
            knownRules: ConfigurationTestRules.all, knownReporters: reporters)
    }

    private func parseError(_ text: String, reporters: [String] = [], line: UInt = #line) -> String {
        do {
            _ = try parse(text, reporters: reporters)
            XCTFail("expected an error", line: line)
            return ""
        } catch {
            return error.description
        }
    }

    func testEveryKeyIsRead() throws {
        let file = try parse("""
        included: [Sources]
        excluded:
          - Pods
          - "**/Generated"
        deployment_target: 15.4
        disabled_rules: [keyboard_curve_unshifted]
        opt_in_rules: [content_inset_adjustment_never]
        rules:
          keyboard_duration_hardcoded:
            severity: error
            check_fallbacks: true
            maximum_count: 5
            tolerance: 1
            label: fast
          superfluous_disable_command: off
        reporter: json
        strict: true
        baseline: ../baselines/kblint.json
        """)
        XCTAssertEqual(file.included?.map(\.pattern), ["Sources"])
        XCTAssertEqual(file.excluded.map(\.pattern), ["Pods", "**/Generated"])
        XCTAssertEqual(file.excluded.first?.baseDirectory, "/project")
        XCTAssertEqual(file.deploymentTarget, OSVersion(15, 4))
        XCTAssertEqual(file.disabledRules, ["keyboard_curve_unshifted"])
        XCTAssertEqual(file.optInRules, ["content_inset_adjustment_never"])
        XCTAssertNil(file.onlyRules)
        XCTAssertEqual(file.rules["keyboard_duration_hardcoded"], RuleConfiguration(
            severity: .error,
            options: ["check_fallbacks": .bool(true), "maximum_count": .int(5), "tolerance": .double(1), "label": .string("fast")]))
        XCTAssertEqual(file.rules["superfluous_disable_command"]?.severity, .off)
        XCTAssertEqual(file.reporter, "json")
        XCTAssertEqual(file.strict, true)
        XCTAssertEqual(file.baseline, "/baselines/kblint.json")
    }

    func testEmptyFilesAndEmptyValuesSetNothing() throws {
        let empty = try parse("# nothing yet\n")
        XCTAssertNil(empty.included)
        XCTAssertNil(empty.deploymentTarget)
        let blank = try parse("included:\nexcluded:\ndisabled_rules:\n  # - keyboard_curve_unshifted\nrules:\nstrict:\n")
        XCTAssertNil(blank.included)
        XCTAssertEqual(blank.excluded, [])
        XCTAssertEqual(blank.disabledRules, [])
        XCTAssertNil(blank.strict)
    }

    func testDeploymentTargetAcceptsNumbersAndStrings() throws {
        XCTAssertEqual(try parse("deployment_target: 15.0").deploymentTarget, OSVersion(15, 0))
        XCTAssertEqual(try parse("deployment_target: 15").deploymentTarget, OSVersion(15))
        XCTAssertEqual(try parse("deployment_target: '15.4'").deploymentTarget, OSVersion(15, 4))
        XCTAssertEqual(try parse("deployment_target: 15.10").deploymentTarget, OSVersion(15, 10), "not read as 15.1")
        XCTAssertEqual(try parse("deployment_target: 16.4.1").deploymentTarget, OSVersion(16, 4, 1))
        XCTAssertEqual(
            parseError("deployment_target: latest"),
            ".kblint.yml:1:20: error: 'deployment_target' must be an iOS version such as 15.4, found the text 'latest'")
        XCTAssertTrue(parseError("deployment_target: true").contains("found 'true'"))
    }

    func testUnknownKeysAndRulesSuggestCloseNames() {
        XCTAssertEqual(parseError("strict: true\nexclude: [Pods]"), ".kblint.yml:2:1: error: unknown key 'exclude'; did you mean 'excluded'?")
        XCTAssertEqual(parseError("colour: red"), ".kblint.yml:1:1: error: unknown key 'colour'")
        XCTAssertEqual(
            parseError("disabled_rules:\n  - keyboard_curve_unshfited"),
            ".kblint.yml:2:5: error: unknown rule 'keyboard_curve_unshfited'; did you mean 'keyboard_curve_unshifted'?")
        XCTAssertEqual(
            parseError("rules:\n  keyboard_duraton_hardcoded: {severity: error}"),
            ".kblint.yml:2:3: error: unknown rule 'keyboard_duraton_hardcoded'; did you mean 'keyboard_duration_hardcoded'?")
        XCTAssertEqual(
            parseError("only_rules: [superfluous_disable_comand]"),
            ".kblint.yml:1:14: error: unknown rule 'superfluous_disable_comand'; did you mean 'superfluous_disable_command'?")
    }

    func testRuleOptionsAreCheckedByNameAndType() {
        XCTAssertEqual(
            parseError("rules:\n  keyboard_duration_hardcoded:\n    check_fallback: true"),
            ".kblint.yml:3:5: error: unknown option 'check_fallback' for 'keyboard_duration_hardcoded'; did you mean 'check_fallbacks'?")
        XCTAssertEqual(
            parseError("rules:\n  keyboard_duration_hardcoded: {check_fallbacks: yes}"),
            ".kblint.yml:2:50: error: option 'check_fallbacks' of 'keyboard_duration_hardcoded' must be true or false, found the text 'yes'; write true")
        XCTAssertTrue(parseError("rules: {keyboard_duration_hardcoded: {maximum_count: 2.5}}").contains("must be an integer, found the number 2.5"))
        XCTAssertTrue(parseError("rules: {keyboard_duration_hardcoded: {tolerance: [1]}}").contains("must be a number, found a list"))
        XCTAssertTrue(parseError("rules: {keyboard_duration_hardcoded: {label: false}}").contains("must be text, found 'false'"))
        XCTAssertEqual(
            parseError("rules: {keyboard_curve_unshifted: {limit: 1}}"),
            ".kblint.yml:1:36: error: unknown option 'limit': 'keyboard_curve_unshifted' only takes 'severity'")
        XCTAssertTrue(parseError("rules: {keyboard_duration_hardcoded: {zzz: 1}}").contains(
            "(expected one of: severity, check_fallbacks, maximum_count, tolerance, label)"))
    }

    func testSeverityValues() throws {
        XCTAssertEqual(try parse("rules: {keyboard_curve_unshifted: {severity: info}}").rules["keyboard_curve_unshifted"]?.severity, .info)
        XCTAssertEqual(try parse("rules: {keyboard_curve_unshifted: warning}").rules["keyboard_curve_unshifted"]?.severity, .warning)
        XCTAssertEqual(
            parseError("rules: {keyboard_curve_unshifted: {severity: eror}}"),
            ".kblint.yml:1:46: error: severity must be one of error, warning, info, off, found the text 'eror'; did you mean 'error'?")
        XCTAssertTrue(parseError("rules: {keyboard_curve_unshifted: {severity: false}}").contains("write 'off'"))
        XCTAssertTrue(parseError("rules: {keyboard_curve_unshifted: [error]}").contains("must be a mapping such as {severity: warning}"))
    }

    func testWrongTypesNameWhatWasFound() {
        XCTAssertEqual(parseError("strict: yes"), ".kblint.yml:1:9: error: 'strict' must be true or false, found the text 'yes'; write true")
        XCTAssertEqual(parseError("excluded: {a: b}"), ".kblint.yml:1:11: error: 'excluded' must be a list of path or globs, found a mapping")
        XCTAssertEqual(parseError("disabled_rules: [true]"), ".kblint.yml:1:18: error: 'disabled_rules' must be a list of rule ids, found 'true'")
        XCTAssertEqual(parseError("rules: [a]"), ".kblint.yml:1:8: error: 'rules' must map rule ids to their settings, found a list")
        XCTAssertEqual(parseError("- a"), ".kblint.yml:1:1: error: a configuration file must be a mapping of keys such as 'excluded:', found a list")
        XCTAssertEqual(parseError("excluded: ['Sources/[ab']"), ".kblint.yml:1:12: error: invalid glob 'Sources/[ab': '[' starts a character class that is never closed with ']'")
        XCTAssertTrue(parseError("baseline: [a]").contains("'baseline' must be a file path, found a list"))
    }

    func testReporterNamesAreCheckedWhenKnown() throws {
        XCTAssertEqual(try parse("reporter: anything").reporter, "anything")
        XCTAssertEqual(
            parseError("reporter: jsno", reporters: ["text", "json", "sarif"]),
            ".kblint.yml:1:11: error: unknown reporter 'jsno'; did you mean 'json'?")
        XCTAssertEqual(
            parseError("reporter: xml", reporters: ["text", "json"]),
            ".kblint.yml:1:11: error: unknown reporter 'xml' (expected one of: text, json)")
    }

    func testEveryProblemOfAFileIsReportedAtOnceWithSuggestedValues() {
        let description = parseError("""
            exclude: [Pods]
            disabled_rules: [keyboard_curve_unshfited, no_such_rule]
            strict: yes
            reporter: Pretty
            rules:
              keyboard_duration_hardcoded:
                severity: warn
                check_fallbacks: on
                maximum_count: 3
              content_inset_adjustment_never: Error
            excluded: ["[a-"]
            """, reporters: ["pretty", "xcode"])
        XCTAssertEqual(description.split(separator: "\n"), [
            ".kblint.yml:1:1: error: unknown key 'exclude'; did you mean 'excluded'?",
            ".kblint.yml:2:18: error: unknown rule 'keyboard_curve_unshfited'; did you mean 'keyboard_curve_unshifted'?",
            ".kblint.yml:2:44: error: unknown rule 'no_such_rule'",
            ".kblint.yml:3:9: error: 'strict' must be true or false, found the text 'yes'; write true",
            ".kblint.yml:4:11: error: unknown reporter 'Pretty'; did you mean 'pretty'?",
            ".kblint.yml:7:15: error: severity must be one of error, warning, info, off, found the text 'warn'; did you mean 'warning'?",
            ".kblint.yml:8:22: error: option 'check_fallbacks' of 'keyboard_duration_hardcoded' must be true or false, found the text 'on'; write true",
            ".kblint.yml:10:35: error: severity must be one of error, warning, info, off, found the text 'Error'; did you mean 'error'?",
        ].map { Substring($0) } + description.split(separator: "\n").suffix(1))
        XCTAssertTrue(description.split(separator: "\n").last?.hasPrefix(".kblint.yml:11:12: error: invalid glob '[a-'") ?? false, description)
    }

    func testOnlyRulesStandsAlone() {
        XCTAssertEqual(
            parseError("opt_in_rules: [content_inset_adjustment_never]\nonly_rules: [keyboard_curve_unshifted]"),
            ".kblint.yml:2:1: error: 'only_rules' cannot be combined with 'opt_in_rules' in the same file: it lists exactly the rules that run")
    }

    func testYAMLErrorsNameTheDisplayPath() {
        XCTAssertEqual(parseError("a: [1"), ".kblint.yml:1:4: error: '[' is never closed")
    }

    /// Mutations of a valid file end in a configuration or a printable error, never a trap.
    func testMutatedConfigurationsNeverTrap() {
        let seed = Array("""
        included: [Sources]
        excluded: ["**/Gen", Pods]
        deployment_target: 15.4
        opt_in_rules: [content_inset_adjustment_never]
        rules:
          keyboard_duration_hardcoded: {severity: error, check_fallbacks: true, tolerance: 1}
        strict: false
        baseline: b.json
        """.utf8)
        let alphabet = Array("-:#[]{},'\"\\ \n*?!_.0123456789abcdefghijklmnopqrstuvwxyz".utf8)
        var state: UInt64 = 7
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        var outcomes: Set<String> = []
        for _ in 0..<2_000 {
            var bytes = seed
            for _ in 0..<(next() % 3 + 1) {
                let position = next() % (bytes.count + 1)
                let byte = alphabet[next() % alphabet.count]
                if position < bytes.count, next() % 2 == 0 { bytes[position] = byte } else { bytes.insert(byte, at: position) }
            }
            do {
                _ = try ConfigurationFile.parse(bytes, path: "/p/.kblint.yml", displayPath: "f.yml", knownRules: ConfigurationTestRules.all)
                outcomes.insert("parsed")
            } catch {
                XCTAssertTrue(error.description.hasPrefix("f.yml:"), error.description)
                outcomes.insert("error")
            }
        }
        XCTAssertEqual(outcomes, ["parsed", "error"], "mutations should produce both outcomes")
    }
}
