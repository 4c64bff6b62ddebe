import XCTest
import Lexer
@testable import Rules

/// The byte-level pre-checks that every file goes through: they must agree with a plain
/// scan on every input, at every alignment.
final class ByteScanTests: XCTestCase {
    /// A deterministic generator, so that a failure can be replayed.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    func naiveContains(_ needle: [UInt8], in haystack: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }

    func testMarkerSearchAgreesWithAPlainScan() {
        let needles: [StaticString] = ["eyboard", "inputAccessory", "kblint:", "e", "safeArea", "ee"]
        let alphabet = Array("eyboardinputAcsfA: k".utf8)
        var generator = Generator(state: 7)
        for _ in 0..<3000 {
            let haystack = (0..<generator.next(40)).map { _ in alphabet[generator.next(alphabet.count)] }
            for needle in needles {
                let bytes = Array(UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount))
                let found = haystack.withUnsafeBufferPointer { ByteSearch.contains(needle, in: $0) }
                XCTAssertEqual(found, naiveContains(bytes, in: haystack),
                               "\(needle) in \(String(decoding: haystack, as: UTF8.self))")
            }
        }
    }

    func testMarkerAtTheEdgesOfTheFile() {
        XCTAssertTrue(KeyboardVocabulary.mayContain(["eyboard"], in: Array("eyboard".utf8)))
        XCTAssertTrue(KeyboardVocabulary.mayContain(["eyboard"], in: Array("let keyboard".utf8)))
        XCTAssertTrue(KeyboardVocabulary.mayContain(["eyboard"], in: Array("eyboardX".utf8)))
        XCTAssertFalse(KeyboardVocabulary.mayContain(["eyboard"], in: Array("eyboar".utf8)))
        XCTAssertFalse(KeyboardVocabulary.mayContain(["eyboard"], in: []))
        XCTAssertTrue(KeyboardVocabulary.mayContain(["nothing", "inputAccessory"], in: Array("x.inputAccessoryView".utf8)))
    }

    /// Reference: Swift's own UTF-8 decoder, which stops at the first ill-formed sequence.
    func referenceFirstInvalidOffset(_ bytes: [UInt8]) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    func testInvalidUTF8IsFoundAtEveryAlignment() {
        let bad: [[UInt8]] = [[0xFF], [0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0x80]]
        let good: [[UInt8]] = [Array("a".utf8), Array("é".utf8), Array("€".utf8), Array("😀".utf8)]
        var generator = Generator(state: 11)
        for _ in 0..<4000 {
            var bytes: [UInt8] = []
            for _ in 0..<generator.next(12) { bytes += good[generator.next(3) == 0 ? generator.next(good.count) : 0] }
            if generator.next(2) == 0 { bytes += bad[generator.next(bad.count)] }
            for _ in 0..<generator.next(12) { bytes += good[generator.next(good.count)] }
            XCTAssertEqual(UTF8Validation.firstInvalidOffset(bytes), referenceFirstInvalidOffset(bytes), "\(bytes)")
        }
    }

    func testLineStartsAtEveryAlignment() {
        var generator = Generator(state: 3)
        for _ in 0..<2000 {
            let bytes = (0..<generator.next(50)).map { _ in generator.next(4) == 0 ? UInt8(0x0A) : UInt8(ascii: "x") }
            var expected = [0]
            for (index, byte) in bytes.enumerated() where byte == 0x0A { expected.append(index + 1) }
            XCTAssertEqual(SourceFile(path: "a.swift", bytes: bytes).lineStarts, expected)
        }
    }
}
