import XCTest
import Lexer
@testable import Rules

/// Runs every registered rule's own examples: the metadata is the specification and the
/// test at once.
final class RuleExamplesTests: XCTestCase {
    static let marker = "↓"

    /// The code without `↓` marks and the UTF-8 offsets the marks stood at.
    static func stripMarkers(_ code: String) -> (code: String, offsets: [Int]) {
        var offsets: [Int] = []
        var bytes: [UInt8] = []
        let markerBytes = Array(marker.utf8)
        let input = Array(code.utf8)
        var index = 0
        while index < input.count {
            if input[index...].starts(with: markerBytes) {
                offsets.append(bytes.count)
                index += markerBytes.count
            } else {
                bytes.append(input[index])
                index += 1
            }
        }
        return (String(decoding: bytes, as: UTF8.self), offsets)
    }

    /// The project of an example: `Example.swift` holding `code` and the other `files`.
    static func project(code: String, files: [String: String]) -> ProjectFacts {
        project(of: FileModel(Lexer.tokenize(SourceFile(path: "Example.swift", text: code))), files: files)
    }

    /// The project of an example: `Example.swift`, whose model is `model`, and the other `files`.
    static func project(of model: FileModel, files: [String: String]) -> ProjectFacts {
        var facts = [collectFacts(model)]
        for (path, text) in files.sorted(by: { $0.key < $1.key }) {
            facts.append(collectFacts(Lexer.tokenize(SourceFile(path: path, text: text))))
        }
        return ProjectFacts(merging: facts)
    }

    /// Checks `code` as `Example.swift` of a project that also holds `files`, through the
    /// pipeline the command line runs (byte pre-check and suppression comments included, and
    /// the file's model from collecting its facts bound to the project).
    static func diagnostics(
        _ rule: any Rule.Type, code: String, files: [String: String] = [:],
        options: [String: OptionValue] = [:], deploymentTarget: OSVersion? = nil
    ) -> [Diagnostic] {
        let checker = FileChecker(rules: [ConfiguredRule(rule, options: options)], deploymentTarget: deploymentTarget)
        let file = SourceFile(path: "Example.swift", text: code)
        let model = FileModel(Lexer.tokenize(file))
        return checker.check(file, project: project(of: model, files: files), model: model)
    }

    static func describe(_ diagnostics: [Diagnostic], in code: String) -> String {
        let file = SourceFile(path: "Example.swift", text: code)
        return diagnostics.map { diagnostic in
            let location = file.location(of: diagnostic.range.lowerBound)
            return "\(location.line):\(location.column) \(diagnostic.message)"
        }.joined(separator: "\n")
    }

    /// A model built from other bytes (the file changed since) is not used: the check builds
    /// the file's own.
    func testAModelOfOtherBytesIsNotUsed() {
        let rule = AccessoryMissingCanBecomeFirstResponder.self
        let code = Self.stripMarkers(rule.metadata.triggering[0].code).code
        let file = SourceFile(path: "Example.swift", text: code)
        let checker = FileChecker(rules: [ConfiguredRule(rule)], deploymentTarget: nil)
        let project = Self.project(code: code, files: [:])
        let expected = Self.describe(checker.check(file, project: project), in: code)
        XCTAssertFalse(expected.isEmpty)
        let stale = FileModel(Lexer.tokenize(SourceFile(path: "Example.swift", text: "import UIKit\n")))
        XCTAssertEqual(Self.describe(checker.check(file, project: project, model: stale), in: code), expected)
        // Bytes of the same length, none of them the same.
        let blank = String(repeating: " ", count: code.utf8.count)
        let sameLength = FileModel(Lexer.tokenize(SourceFile(path: "Example.swift", text: blank)))
        XCTAssertEqual(Self.describe(checker.check(file, project: project, model: sameLength), in: code), expected)
    }

    func testAModelIsTheFilesWhenBuiltFromItsPathAndBytes() {
        func model(_ path: String, _ text: String) -> FileModel { FileModel(Lexer.tokenize(SourceFile(path: path, text: text))) }
        let file = SourceFile(path: "A.swift", text: "let a = 1\n")
        XCTAssertNotNil(FileChecker.model(model("A.swift", "let a = 1\n"), ifBuiltFrom: file))
        XCTAssertNil(FileChecker.model(model("B.swift", "let a = 1\n"), ifBuiltFrom: file))
        XCTAssertNil(FileChecker.model(model("A.swift", "let b = 1\n"), ifBuiltFrom: file))
        XCTAssertNil(FileChecker.model(model("A.swift", "let a = 1\n\n"), ifBuiltFrom: file))
        XCTAssertNil(FileChecker.model(nil, ifBuiltFrom: file))
        XCTAssertNotNil(FileChecker.model(model("E.swift", ""), ifBuiltFrom: SourceFile(path: "E.swift", text: "")))
    }

    func testTriggeringExamplesReportExactlyAtTheirMarks() {
        for rule in RuleRegistry.all {
            let metadata = rule.metadata
            for example in metadata.triggering {
                let (code, offsets) = Self.stripMarkers(example.code)
                XCTAssertFalse(offsets.isEmpty, "\(metadata.id): triggering example without ↓\n\(example.code)")
                let found = Self.diagnostics(rule, code: code, files: example.files, options: example.options,
                                             deploymentTarget: example.deploymentTarget)
                XCTAssertEqual(found.map(\.range.lowerBound).sorted(), offsets.sorted(),
                               "\(metadata.id): diagnostics differ from ↓ marks in\n\(example.code)\nfound:\n"
                               + Self.describe(found, in: code))
                for diagnostic in found {
                    XCTAssertEqual(diagnostic.ruleID, metadata.id)
                    XCTAssertFalse(diagnostic.message.isEmpty, "\(metadata.id): empty message")
                    // Messages read as sentences in every reporter: a capital or a code span first.
                    let first = diagnostic.message.first
                    XCTAssertTrue(first == "`" || first?.isUppercase == true,
                                  "\(metadata.id): message starts in lower case: \(diagnostic.message)")
                    XCTAssertFalse(diagnostic.suggestion.isEmpty, "\(metadata.id): empty suggestion")
                    XCTAssertFalse(diagnostic.range.isEmpty, "\(metadata.id): empty range")
                }
            }
        }
    }

    func testNonTriggeringExamplesAreSilent() {
        for rule in RuleRegistry.all {
            let metadata = rule.metadata
            for example in metadata.nonTriggering {
                let found = Self.diagnostics(rule, code: example.code, files: example.files, options: example.options,
                                             deploymentTarget: example.deploymentTarget)
                XCTAssertTrue(found.isEmpty, "\(metadata.id): unexpected diagnostics in\n\(example.code)\nfound:\n"
                              + Self.describe(found, in: example.code))
            }
        }
    }

    func testCorrectionsApplyTheirFixes() {
        for rule in RuleRegistry.all {
            let metadata = rule.metadata
            for correction in metadata.corrections {
                let (code, _) = Self.stripMarkers(correction.before)
                let checker = FileChecker(rules: [ConfiguredRule(rule, options: correction.options)], deploymentTarget: nil)
                let fixed = checker.fix(SourceFile(path: "Example.swift", text: code),
                                        project: Self.project(code: code, files: [:]), includingUnsafe: true)
                XCTAssertGreaterThan(fixed.fixesApplied, 0, "\(metadata.id): correction without a fix\n\(correction.before)")
                XCTAssertEqual(String(decoding: fixed.bytes, as: UTF8.self), correction.after, "\(metadata.id)")
            }
        }
    }

    /// Triggering code inside a comment or a string literal is not code: silence.
    func testTriggeringExamplesInCommentsAndStringsAreSilent() {
        for rule in RuleRegistry.all {
            let metadata = rule.metadata
            for example in metadata.triggering {
                let (code, _) = Self.stripMarkers(example.code)
                let wrapped = [
                    "/*\n\(code)\n*/\n",
                    "let text = #\"\"\"\n\(code)\n\"\"\"#\n",
                ]
                for variant in wrapped {
                    let found = Self.diagnostics(rule, code: variant, files: example.files, options: example.options,
                                                 deploymentTarget: example.deploymentTarget)
                    XCTAssertTrue(found.isEmpty, "\(metadata.id): diagnostics inside a comment/string\n\(variant)")
                }
            }
        }
    }

    /// `// kblint:disable <id>` above a triggering example silences it, and the directive
    /// counts as used (no superfluous-disable report), where a plain comment line does not.
    func testTriggeringExamplesUnderADisableCommentAreSilent() {
        for rule in RuleRegistry.all {
            let metadata = rule.metadata
            for example in metadata.triggering {
                let (code, _) = Self.stripMarkers(example.code)
                let commented = Self.diagnostics(rule, code: "// A comment line.\n" + code, files: example.files,
                                                 options: example.options, deploymentTarget: example.deploymentTarget)
                XCTAssertFalse(commented.isEmpty, "\(metadata.id): the example no longer triggers after a comment line")
                let disabled = "// kblint:disable \(metadata.id)\n" + code
                let kept = Self.diagnostics(rule, code: disabled, files: example.files, options: example.options,
                                            deploymentTarget: example.deploymentTarget)
                XCTAssertTrue(kept.isEmpty, "\(metadata.id): diagnostics left under kblint:disable\n"
                              + Self.describe(kept, in: disabled))
            }
        }
    }

    func testEveryRuleHasCompleteMetadataAndEnoughExamples() {
        var ids = Set<String>()
        for rule in RuleRegistry.all {
            let metadata = rule.metadata
            XCTAssertTrue(ids.insert(metadata.id).inserted, "duplicate id \(metadata.id)")
            XCTAssertFalse(metadata.id.isEmpty)
            XCTAssertTrue(metadata.id.allSatisfy { $0.isLowercase || $0 == "_" }, metadata.id)
            XCTAssertGreaterThanOrEqual(metadata.triggering.count, 4, "\(metadata.id): fewer than 4 triggering examples")
            XCTAssertGreaterThanOrEqual(metadata.nonTriggering.count, 6, "\(metadata.id): fewer than 6 non-triggering examples")
            XCTAssertFalse(metadata.summary.isEmpty, metadata.id)
            XCTAssertFalse(metadata.summary.contains("\n"), "\(metadata.id): summary is one line")
            XCTAssertGreaterThan(metadata.rationale.count, 80, "\(metadata.id): rationale too short")
            XCTAssertFalse(metadata.fix.isEmpty, metadata.id)
            for option in metadata.options { XCTAssertFalse(option.summary.isEmpty, "\(metadata.id).\(option.name)") }
            XCTAssertNotNil(RuleRegistry.rule(withID: metadata.id))
        }
    }

    func testRulesAreSilentOnFilesWithoutKeyboardCode() {
        let plain = """
        final class ListViewController: UITableViewController {
            override func viewDidLoad() {
                super.viewDidLoad()
                UIView.animate(withDuration: 0.3) { self.view.layoutIfNeeded() }
            }
        }
        """
        for rule in RuleRegistry.all where rule.requiredMarkers.map({ "\($0)" }) == KeyboardVocabulary.keyboardMarkers.map({ "\($0)" }) {
            XCTAssertFalse(rule.mayTrigger(on: Array(plain.utf8)), rule.metadata.id)
            XCTAssertTrue(Self.diagnostics(rule, code: plain).isEmpty, rule.metadata.id)
        }
    }
}
