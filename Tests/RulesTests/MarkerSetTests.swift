import Foundation
@testable import Rules
import XCTest

final class MarkerSetTests: XCTestCase {
    static let markers: [StaticString] = RuleRegistry.all.flatMap { $0.requiredMarkers } + [Suppression.marker]
        + FactScope.projectWideMarkers + ["ab", "b", "abab"]

    func assertAgreesWithOneByOneSearch(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
        let set = MarkerSet(Self.markers)
        let present = set.present(in: bytes)
        for marker in Self.markers {
            let expected = bytes.withUnsafeBufferPointer { ByteSearch.contains(marker, in: $0) }
            XCTAssertEqual(set.mask(of: [marker]).intersects(present), expected, "\(marker)", file: file, line: line)
        }
    }

    func testEdgesOfTheBuffer() {
        for text in ["", "a", "b", "ab", "aab", "abab", "kblint:", "xkblint:", "kblint", "eyboard", "Keyboard!",
                     "addObserver removeObserver", "removeObserve", "UIVisualEffectVie", "inputAccessoryView"] {
            assertAgreesWithOneByOneSearch(Array(text.utf8))
        }
    }

    func testSourcesOfTheRepository() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var count = 0
        for folder in ["Tests", "Examples", "Sources/Rules/Catalog"] {
            let files = FileManager.default.enumerator(atPath: root.path + "/" + folder)?.compactMap { $0 as? String } ?? []
            for path in files where path.hasSuffix(".swift") {
                guard let data = FileManager.default.contents(atPath: root.path + "/" + folder + "/" + path) else { continue }
                assertAgreesWithOneByOneSearch(Array(data))
                count += 1
            }
        }
        XCTAssertGreaterThan(count, 100)
    }

    func testMaskOfUnknownMarkersIsEmpty() {
        let set = MarkerSet(["one", "two", "one"])
        XCTAssertEqual(set.mask(of: ["three"]).bits, 0)
        XCTAssertEqual(set.mask(of: ["one", "two"]).bits, 0b11)
    }
}
