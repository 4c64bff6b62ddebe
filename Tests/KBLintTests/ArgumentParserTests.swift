import XCTest
@testable import KBLint

final class ArgumentParserTests: XCTestCase {
    let spec = CommandSpec(
        name: "lint", summary: "Lint.", positionalUsage: "[PATH…]", positionalCount: 0...Int.max,
        options: [
            .flag("--strict", "Warnings fail."),
            .value("--reporter", "NAME", repeatable: true, "Output format."),
            .value("--config", "FILE", "Configuration file."),
        ])

    func testParsesFlagsValuesAndPositionalsInAnyOrder() throws {
        let parsed = try parseArguments(
            ["Sources", "--reporter", "github", "--strict", "--reporter=sarif", "--", "--odd-name.swift"],
            for: spec)
        XCTAssertEqual(parsed.flags, ["--strict"])
        XCTAssertEqual(parsed.all("--reporter"), ["github", "sarif"])
        XCTAssertEqual(parsed.positionals, ["Sources", "--odd-name.swift"])
    }

    func testUnknownOptionSuggestsTheClosestOne() {
        XCTAssertThrowsError(try parseArguments(["--stict"], for: spec)) { error in
            let message = (error as? UsageError)?.message ?? ""
            XCTAssertTrue(message.contains("unknown option '--stict'"), message)
            XCTAssertTrue(message.contains("did you mean '--strict'?"), message)
        }
    }

    func testMissingValueAndRepeatedSingleOptionAreErrors() {
        XCTAssertThrowsError(try parseArguments(["--config"], for: spec))
        XCTAssertThrowsError(try parseArguments(["--config", "a", "--config", "b"], for: spec))
        XCTAssertThrowsError(try parseArguments(["--strict=yes"], for: spec))
    }

    func testHelpIsAlwaysAccepted() throws {
        XCTAssertTrue(try parseArguments(["-h"], for: spec).wantsHelp)
        XCTAssertTrue(spec.helpText.contains("--reporter NAME"))
        XCTAssertTrue(spec.helpText.contains("(repeatable)"))
    }

    func testPositionalCountIsChecked() {
        let one = CommandSpec(name: "explain", summary: "", positionalUsage: "RULE", positionalCount: 1...1, options: [])
        XCTAssertThrowsError(try parseArguments([], for: one))
        XCTAssertThrowsError(try parseArguments(["a", "b"], for: one))
        XCTAssertNoThrow(try parseArguments(["a"], for: one))
    }
}
