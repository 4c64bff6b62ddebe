import XCTest
import Lexer
@testable import Rules

final class FileCheckerModelTests: XCTestCase {
    static let allRules = FileChecker(rules: RuleRegistry.all.map { ConfiguredRule($0) }, deploymentTarget: nil)

    /// A model that knows which catalogue markers its bytes hold spares the check its own
    /// scan: the findings are those of a check without a model. The model's markers count
    /// only for exactly the bytes it was built from.
    /// The pre-checks that read the scan's markers instead of searching the bytes ask only
    /// about markers the catalogue scan finds: one it lacked would never be present.
    func testMarkerPreChecksAskOnlyForCatalogueMarkers() {
        for markers in [AccessoryFacts.markers, [Suppression.marker, Suppression.swiftLintMarker]] {
            XCTAssertEqual(FileChecker.catalogueMarkers.mask(of: markers).bits.nonzeroBitCount, markers.count)
        }
    }

    func testAModelsMarkersCountForItsOwnBytesOnly() throws {
        // The first example of each rule that needs no options, target or other files.
        let sources = RuleRegistry.all.compactMap { rule in
            rule.metadata.triggering.first { $0.options.isEmpty && $0.deploymentTarget == nil && $0.files.isEmpty }
                .map { $0.code.replacingOccurrences(of: "↓", with: "") }
        }
        var checkedWithFindings = 0
        for code in sources {
            let file = SourceFile(path: "A.swift", bytes: Array(code.utf8))
            let plain = Self.allRules.check(file, project: .empty)
            if !plain.isEmpty { checkedWithFindings += 1 }
            let markers = FileChecker.catalogueMarkers.present(in: file.bytes)
            let model = FileModel(Lexer.tokenize(file), catalogueMarkers: markers)
            XCTAssertEqual(Self.allRules.check(file, project: .empty, model: model), plain, code)
            // Markers that say nothing silence the check of those same bytes: they are used.
            let silent = FileModel(Lexer.tokenize(file), catalogueMarkers: MarkerSet.Mask(bits: 0))
            XCTAssertEqual(Self.allRules.check(file, project: .empty, model: silent).filter { $0.ruleID != "invalid_utf8" }, [], code)
            // Another file's model (other bytes) is not used, nor are its markers.
            let other = SourceFile(path: "A.swift", bytes: Array((code + "\n").utf8))
            let otherModel = FileModel(Lexer.tokenize(other), catalogueMarkers: MarkerSet.Mask(bits: 0))
            XCTAssertEqual(Self.allRules.check(file, project: .empty, model: otherModel), plain, code)
        }
        XCTAssertGreaterThan(checkedWithFindings, 30)
    }
}
