import Foundation
import XCTest
import Lexer
@testable import Rules

/// Guards on the catalogue as a whole: every rule file is registered and documented in its
/// category folder, declared fix availability is what the rules emit, and the messages of
/// every example are snapshotted.
final class RuleCatalogueTests: XCTestCase {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let catalogue = repositoryRoot.appendingPathComponent("Sources/Rules/Catalog")
    /// After an intended change of messages, regenerate with
    /// `KBLINT_RECORD_SNAPSHOTS=1 swift test --filter RuleCatalogueTests` and review the diff.
    static let messagesSnapshot = repositoryRoot.appendingPathComponent("Tests/RulesTests/Snapshots/RuleMessages.txt")

    /// The folder under `Catalog/` that holds a category's rules.
    static func folder(of category: RuleCategory) -> String {
        category.rawValue.split(separator: " ").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// The rule types declared under `Catalog/`, by the folder that holds them.
    static func declaredRules() throws -> [(folder: String, type: String)] {
        var found: [(String, String)] = []
        let manager = FileManager.default
        for folder in try manager.contentsOfDirectory(atPath: catalogue.path).sorted() {
            let url = catalogue.appendingPathComponent(folder)
            var isFolder: ObjCBool = false
            guard manager.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue else { continue }
            for file in try manager.contentsOfDirectory(atPath: url.path).sorted() where file.hasSuffix(".swift") {
                let text = try String(contentsOf: url.appendingPathComponent(file), encoding: .utf8)
                for line in text.split(separator: "\n") where line.hasPrefix("public struct ") && line.contains(": Rule") {
                    let name = line.dropFirst("public struct ".count).prefix { $0 != ":" && $0 != " " }
                    found.append((folder, String(name)))
                }
            }
        }
        return found
    }

    func testEveryRuleUnderCatalogIsRegisteredDocumentedAndInItsCategoryFolder() throws {
        let declared = try Self.declaredRules()
        XCTAssertFalse(declared.isEmpty, "no rule found under \(Self.catalogue.path)")
        let registered = Dictionary(uniqueKeysWithValues: RuleRegistry.all.map { (String(describing: $0), $0) })
        let rulesDocument = try String(contentsOf: Self.repositoryRoot.appendingPathComponent("Rules.md"), encoding: .utf8)
        for (folder, type) in declared {
            guard let rule = registered[type] else {
                XCTFail("\(type) in Catalog/\(folder) is not in RuleRegistry.all")
                continue
            }
            XCTAssertEqual(Self.folder(of: rule.metadata.category), folder,
                           "\(rule.metadata.id) is in Catalog/\(folder) but its category is \(rule.metadata.category.rawValue)")
            XCTAssertTrue(rulesDocument.contains("\n### \(rule.metadata.id)\n"), "\(rule.metadata.id) is missing from Rules.md")
        }
        XCTAssertEqual(Set(declared.map(\.type)), Set(registered.keys), "registered rules without a file under Catalog/")
    }

    /// The fixes a rule's examples produce: what `fixAvailability` must declare.
    func testDeclaredFixAvailabilityMatchesTheFixesTheExamplesProduce() {
        for rule in RuleRegistry.all {
            let metadata = rule.metadata
            var emitted = Set<FixApplicability>()
            let examples = metadata.triggering.map { (RuleExamplesTests.stripMarkers($0.code).code, $0.files, $0.options, $0.deploymentTarget) }
                + metadata.corrections.map { (RuleExamplesTests.stripMarkers($0.before).code, [:], $0.options, nil) }
            for (code, files, options, target) in examples {
                let found = RuleExamplesTests.diagnostics(rule, code: code, files: files, options: options, deploymentTarget: target)
                emitted.formUnion(found.compactMap(\.fix?.applicability))
            }
            switch metadata.fixAvailability {
            case .none:
                XCTAssertTrue(emitted.isEmpty, "\(metadata.id) declares no fix but emits \(emitted.map(\.rawValue).sorted())")
            case .safe:
                XCTAssertEqual(emitted, [.safe], "\(metadata.id) declares safe fixes")
            case .unsafe:
                XCTAssertTrue(emitted.contains(.unsafe), "\(metadata.id) declares unsafe fixes but emits \(emitted.map(\.rawValue).sorted())")
            }
            XCTAssertEqual(metadata.fixAvailability != .none, !metadata.corrections.isEmpty,
                           "\(metadata.id): a rule with a fix shows it with corrections, and only such a rule has them")
        }
    }

    /// A rule without a fix says why in its documentation; a rule with one has no such reason.
    func testEveryRuleWithoutAFixSaysWhy() {
        for metadata in RuleRegistry.all.map({ $0.metadata }) + EngineDiagnostics.all {
            if metadata.fixAvailability == .none {
                let reason = metadata.noFixReason ?? ""
                XCTAssertFalse(reason.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty,
                               "\(metadata.id) has no fix: its metadata must say why in noFixReason")
            } else {
                XCTAssertNil(metadata.noFixReason, "\(metadata.id) has a fix but a reason for having none")
            }
        }
    }

    /// Every message of every triggering example, as `id #example line:column message`: a
    /// change of wording or position shows up here as a reviewable diff.
    func testMessagesOfTheExamplesMatchTheSnapshot() throws {
        var lines: [String] = []
        for rule in RuleRegistry.all {
            let metadata = rule.metadata
            for (number, example) in metadata.triggering.enumerated() {
                let code = RuleExamplesTests.stripMarkers(example.code).code
                let file = SourceFile(path: "Example.swift", text: code)
                let found = RuleExamplesTests.diagnostics(rule, code: code, files: example.files, options: example.options,
                                                          deploymentTarget: example.deploymentTarget)
                for diagnostic in found.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
                    let location = file.location(of: diagnostic.range.lowerBound)
                    lines.append("\(metadata.id) #\(number + 1) \(location.line):\(location.column) \(diagnostic.message)")
                }
            }
        }
        let snapshot = lines.joined(separator: "\n") + "\n"
        if ProcessInfo.processInfo.environment["KBLINT_RECORD_SNAPSHOTS"] == "1" {
            try snapshot.write(to: Self.messagesSnapshot, atomically: true, encoding: .utf8)
            return
        }
        let recorded = try String(contentsOf: Self.messagesSnapshot, encoding: .utf8)
        XCTAssertEqual(snapshot, recorded, """
            The messages of the rules' examples changed. If intended, regenerate with \
            KBLINT_RECORD_SNAPSHOTS=1 swift test --filter RuleCatalogueTests and review the diff.
            """)
    }
}
