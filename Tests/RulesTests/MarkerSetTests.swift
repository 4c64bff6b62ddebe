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

    /// The scan reads the runs near the ends of the file on their own and the others sixteen
    /// bytes per step: each marker is found at every offset and right at the end, and a
    /// marker cut short is not.
    func testEveryMarkerAtEveryOffset() {
        for marker in Self.markers {
            let bit = Self.set.mask(of: [marker])
            let text = Array(UnsafeBufferPointer(start: marker.utf8Start, count: marker.utf8CodeUnitCount))
            for before in 0..<34 {
                for after in [0, 1, 2, 7, 8, 15, 16, 17] {
                    let padded = Array(repeating: UInt8(ascii: "."), count: before) + text
                        + Array(repeating: UInt8(ascii: "."), count: after)
                    XCTAssertTrue(Self.set.present(in: padded).intersects(bit), "\(marker) \(before) \(after)")
                    XCTAssertFalse(Self.set.present(in: Array(padded.dropLast(after + 1))).intersects(bit), "\(marker)")
                    XCTAssertFalse(Self.set.present(in: Array(padded.dropFirst(before + 1))).intersects(bit), "\(marker)")
                }
            }
        }
    }

    /// Random text over the markers' letters, a few other bytes and bytes beyond ASCII, of
    /// every length up to three steps of the scan: the same markers as one search each, and
    /// `isASCII` as a look at every byte.
    func testRandomTextAgreesWithPlainSearches() {
        let alphabet = Array("eyboardinputAcesObsrvkl:wftSafAL .\n".utf8) + [0x80, 0xC3, 0xA9, 0xFF, 0x00]
        var state: UInt64 = 11
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        for length in 0..<50 {
            for _ in 0..<60 {
                var bytes = (0..<length).map { _ in alphabet[next(alphabet.count)] }
                if length > 0, next(2) == 0 {
                    // A whole marker somewhere, perhaps cut by the end.
                    let marker = Self.markers[next(Self.markers.count)]
                    let at = next(length)
                    for offset in 0..<marker.utf8CodeUnitCount where at + offset < length {
                        bytes[at + offset] = marker.utf8Start[offset]
                    }
                }
                assertAgreesWithOneByOneSearch(bytes)
                XCTAssertEqual(Self.set.scan(bytes, collectingDeclarations: false).isASCII, bytes.allSatisfy { $0 < 0x80 })
            }
        }
    }

    /// A byte beyond ASCII is seen wherever it is: in a step's first or second word, or in
    /// the bytes after the last step.
    func testEveryNonASCIIByteIsSeen() {
        for length in 1..<40 {
            for position in 0..<length {
                var bytes = Array(repeating: UInt8(ascii: "a"), count: length)
                bytes[position] = 0x80
                XCTAssertFalse(Self.set.scan(bytes, collectingDeclarations: true).isASCII, "\(position) of \(length)")
            }
            XCTAssertTrue(Self.set.scan(Array(repeating: 0x7F, count: length), collectingDeclarations: true).isASCII)
        }
        XCTAssertTrue(Self.set.scan([], collectingDeclarations: true).isASCII)
    }

    /// Markers may share the runs the scan finds them by, and a marker may use one run twice.
    func testMarkersSharingARun() {
        let markers: [StaticString] = ["QZJone", "QZJtwo", "xQZJ", "QZJ", "QZJQZJ", "ZZZ", "ZZZZZ", "JZJZJ"]
        let set = MarkerSet(markers)
        for text in ["QZJtwo", "xQZJ", "QZJ", "QZJon", "QZJQZ", "..QZJQZJ..", "QZJone QZJtwo xQZJ", "ZZ", "ZZZ", ".ZZZ",
                     "ZZZZ", ".ZZZZZ", "JZJZ", ".JZJZJ", "ZJZJZJ"] {
            let present = set.present(in: Array(text.utf8))
            for marker in markers {
                let expected = Array(text.utf8).withUnsafeBufferPointer { ByteSearch.contains(marker, in: $0) }
                XCTAssertEqual(set.mask(of: [marker]).intersects(present), expected, "\(marker) in \(text)")
            }
        }
    }

    /// What a scan must find, the plain way: each marker searched at every offset, each
    /// keyword that starts a word read where it starts, in order, and every byte looked at.
    func referenceScan(_ bytes: [UInt8], collectingDeclarations: Bool) -> MarkerSet.Scan {
        var found: UInt64 = 0
        for marker in Self.markers {
            let needle = Array(UnsafeBufferPointer(start: marker.utf8Start, count: marker.utf8CodeUnitCount))
            if needle.count <= bytes.count,
               (0...(bytes.count - needle.count)).contains(where: { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }) {
                found |= Self.set.mask(of: [marker]).bits
            }
        }
        var names: [UInt64]?, declarationNames: [UInt64]?
        if collectingDeclarations {
            bytes.withUnsafeBufferPointer { buffer in
                var declarations = DeclarationScan(buffer)
                var complete = true
                for start in buffer.indices where start == 0 || !DeclarationScan.isWordByte(buffer[start - 1]) {
                    let startsKeyword = DeclarationScan.keywords.contains { keyword in
                        let length = keyword.utf8CodeUnitCount
                        return start + length <= buffer.count
                            && (0..<length).allSatisfy { buffer[start + $0] == keyword.utf8Start[$0] }
                    }
                    if startsKeyword, !declarations.readDeclaration(at: start) {
                        complete = false
                        break
                    }
                }
                if complete {
                    names = declarations.names
                    declarationNames = declarations.declarationNames
                }
            }
        }
        return MarkerSet.Scan(markers: MarkerSet.Mask(bits: found), declaredTypeNames: names,
                              declarationNames: declarationNames, isASCII: bytes.allSatisfy { $0 < 0x80 })
    }

    /// Random text made of the pieces scans trip over (markers, keywords, cut markers,
    /// comments, strings, raw strings, `#if`, backticks, dots, imports, bytes beyond ASCII and
    /// invalid UTF-8), of every length up to several steps of the scan, and pasted at every
    /// alignment: the fast scan finds exactly what the plain one does.
    func testRandomSourcesAgreeWithAPlainScan() {
        var pieces: [[UInt8]] = [
            "class", "struct", "enum", "extension", "protocol", "actor", "import", "subclass", "enumerate",
            " ", "  ", "\n", "\t", "\r\n", ".", ":", "{", "}", "(", "<T>", "`", "``", "_", "$0", "1",
            "//", "/*", "*/", "\"", "\"\"\"", "#\"", "\"#", "#if DEBUG", "#endif", "x", "Name", "Outer", "ab",
            "kblint", "eyboar", "Keyboard", "safeAre",
        ].map { Array($0.utf8) }
        pieces += Self.markers.map { Array(UnsafeBufferPointer(start: $0.utf8Start, count: $0.utf8CodeUnitCount)) }
        pieces += [[0xC2, 0xA0], [0xEF, 0xBB, 0xBF], [0xC3, 0xA9], [0x80], [0xFF], [0xE2, 0x82], [0x00]]
        var generator = ByteScanTests.Generator(state: 29)
        for round in 0..<1500 {
            var bytes: [UInt8] = []
            let length = round % 5 == 0 ? 200 + generator.next(300) : generator.next(60)
            while bytes.count < length { bytes += pieces[generator.next(pieces.count)] }
            bytes = Array(repeating: UInt8(ascii: " "), count: generator.next(17)) + bytes.prefix(length)
            let collecting = generator.next(4) != 0
            let scan = Self.set.scan(bytes, collectingDeclarations: collecting)
            let expected = referenceScan(bytes, collectingDeclarations: collecting)
            let text = String(decoding: bytes, as: UTF8.self)
            XCTAssertEqual(scan.markers, expected.markers, text)
            XCTAssertEqual(scan.declaredTypeNames, expected.declaredTypeNames, text)
            XCTAssertEqual(scan.declarationNames, expected.declarationNames, text)
            XCTAssertEqual(scan.isASCII, expected.isASCII, text)
        }
    }

    func testMaskOfUnknownMarkersIsEmpty() {
        let set = MarkerSet(["one", "two", "one"])
        XCTAssertEqual(set.mask(of: ["three"]).bits, 0)
        XCTAssertEqual(set.mask(of: ["one", "two"]).bits, 0b11)
    }
}
