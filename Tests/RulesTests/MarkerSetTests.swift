import Foundation
@testable import Rules
import XCTest

final class MarkerSetTests: XCTestCase {
    static let markers: [StaticString] = RuleRegistry.all.flatMap { $0.requiredMarkers } + [Suppression.marker]
        + FactScope.projectWideMarkers + ["ab", "b", "abab"]
    static let set = MarkerSet(markers)

    func assertAgreesWithOneByOneSearch(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
        let set = Self.set
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

    /// The scan reads six runs of three bytes per step and the last few bytes one by one: each
    /// marker is found at every offset and right at the end, and a marker cut short is not.
    func testEveryMarkerAtEveryOffset() {
        for marker in Self.markers {
            let bit = Self.set.mask(of: [marker])
            let text = Array(UnsafeBufferPointer(start: marker.utf8Start, count: marker.utf8CodeUnitCount))
            for before in 0..<14 {
                for after in [0, 1, 2, 7, 8] {
                    let padded = Array(repeating: UInt8(ascii: "."), count: before) + text
                        + Array(repeating: UInt8(ascii: "."), count: after)
                    XCTAssertTrue(Self.set.present(in: padded).intersects(bit), "\(marker) \(before) \(after)")
                    XCTAssertFalse(Self.set.present(in: Array(padded.dropLast(after + 1))).intersects(bit), "\(marker)")
                    XCTAssertFalse(Self.set.present(in: Array(padded.dropFirst(before + 1))).intersects(bit), "\(marker)")
                }
            }
        }
    }

    /// Markers may share the run the scan finds them by, or the table slot it hashes to.
    func testMarkersSharingARun() {
        let markers: [StaticString] = ["QZJone", "QZJtwo", "xQZJ", "QZJ", "QZJQZJ"]
        let set = MarkerSet(markers)
        for text in ["QZJtwo", "xQZJ", "QZJ", "QZJon", "QZJQZ", "..QZJQZJ..", "QZJone QZJtwo xQZJ"] {
            let present = set.present(in: Array(text.utf8))
            for marker in markers {
                let expected = Array(text.utf8).withUnsafeBufferPointer { ByteSearch.contains(marker, in: $0) }
                XCTAssertEqual(set.mask(of: [marker]).intersects(present), expected, "\(marker) in \(text)")
            }
        }
    }

    func testMaskOfUnknownMarkersIsEmpty() {
        let set = MarkerSet(["one", "two", "one"])
        XCTAssertEqual(set.mask(of: ["three"]).bits, 0)
        XCTAssertEqual(set.mask(of: ["one", "two"]).bits, 0b11)
    }
}
