import XCTest
import Lexer
@testable import Rules

/// Pass 1 gathers a file's facts without finishing the analysis for rules
/// (`FileAnalysis.facts(of:)`): they must be the facts of a full analysis of the file alone.
final class FactCollectionTests: XCTestCase {
    func testFactsOfAModelAreThoseOfItsFullAnalysis() {
        var sources: [String] = []
        for rule in RuleRegistry.all {
            for example in rule.metadata.triggering + rule.metadata.nonTriggering {
                sources.append(example.code)
                sources += example.files.values
            }
        }
        XCTAssertGreaterThan(sources.count, 100)
        for (position, text) in sources.enumerated() {
            let file = SourceFile(path: "File\(position).swift", text: text.replacingOccurrences(of: "↓", with: ""))
            let collected = FileAnalysis.facts(of: FileModel(Lexer.tokenize(file)))
            let analysed = FileAnalysis(FileModel(Lexer.tokenize(file)), project: .empty).facts
            XCTAssertEqual(Self.canonical(collected), Self.canonical(analysed), "example \(position):\n\(text)")
        }
    }

    /// A description of `value` that lists the members of dictionaries and sets in sorted
    /// order, so that two equal values describe alike whatever their iteration order.
    static func canonical(_ value: Any) -> String {
        let mirror = Mirror(reflecting: value)
        if mirror.children.isEmpty { return String(reflecting: value) }
        let members = mirror.children.map { child in (child.label.map { $0 + ": " } ?? "") + canonical(child.value) }
        switch mirror.displayStyle {
        case .dictionary?, .set?: return "{" + members.sorted().joined(separator: ", ") + "}"
        default: return "\(mirror.subjectType)(" + members.joined(separator: ", ") + ")"
        }
    }
}
