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

    /// A search jumps to its needle's rarest letter (the first of equals); anything but a
    /// letter counts as more common than every letter.
    func testSearchesAnchorOnTheRarestLetter() {
        func rarest(_ text: String) -> Int {
            Array(text.utf8).withUnsafeBufferPointer { ByteSearch.rarestPosition(in: $0) }
        }
        func rarestWindow(_ text: String, runs: Int = 2, followedByNonWord: Bool = false) -> Int {
            Array(text.utf8).withUnsafeBufferPointer {
                ByteSearch.rarestRunWindow(in: $0, runs: runs, followedByNonWord: followedByNonWord)
            }
        }
        XCTAssertEqual(rarest("eyboard"), 2)
        XCTAssertEqual(rarest("inputAccessory"), 5)
        XCTAssertEqual(rarest("Zz"), 0)
        XCTAssertEqual(rarest("eet"), 2)
        XCTAssertEqual(rarest("e:"), 0)
        XCTAssertEqual(rarestWindow("topLayoutGuide"), 8)
        XCTAssertEqual(rarestWindow("eeeYe"), 2)
        XCTAssertEqual(rarestWindow("eeeYe", runs: 4), 0)
        XCTAssertEqual(rarestWindow("eeeeYe", runs: 4), 1)
        XCTAssertEqual(rarestWindow("enum", runs: 4, followedByNonWord: true), 0)
        XCTAssertEqual(rarestWindow("class", runs: 4, followedByNonWord: true), 0)
        XCTAssertEqual(rarestWindow("xclass", runs: 4, followedByNonWord: true), 0)
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

    /// Names made of random pieces, tokenized as one file.
    func randomNames(_ pieces: [String], count: Int, seed: UInt64) -> TokenizedSource {
        var generator = Generator(state: seed)
        let names = (0..<count).map { _ in
            "n" + (0...generator.next(4)).map { _ in pieces[generator.next(pieces.count)] }.joined()
        }
        return Lexer.tokenize(SourceFile(path: "Names.swift", text: names.joined(separator: " ") + " if in for `for`"))
    }

    func testWordListAgreesWithALinearSearch() {
        let words: [StaticString] = ["nif", "nin", "nfor", "nfore", "nx", "nxy", "nif", "nforx", "if", "for", "`for`"]
        let list = WordList(words)
        let source = randomNames(["if", "in", "for", "e", "x", "y", ""], count: 3000, seed: 11)
        for index in -1...source.code.count {
            XCTAssertEqual(source.wordIndex(index, in: list), source.wordIndex(index, in: words), source.text(at: index))
        }
    }

    /// Words longer than the packed head (eight bytes), sharing it or differing after it,
    /// next to short ones of the same first bytes; each word is also written once.
    func testWordListAgreesWithALinearSearchPastEightBytes() {
        let words: [StaticString] = [
            "nabcdefgh", "nabcdefg", "nabcdefghi", "nabcdefgi", "nabcdefghij", "nabcdefghik", "na", "nabcdefghik",
        ]
        let list = WordList(words)
        var generator = Generator(state: 23)
        let pieces = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "bcdefg", "hi"]
        let names = (0..<4000).map { _ in
            "n" + (0...generator.next(4)).map { _ in pieces[generator.next(pieces.count)] }.joined()
        } + words.map { "\($0)" }
        let source = Lexer.tokenize(SourceFile(path: "Names.swift", text: names.joined(separator: " ")))
        var found = Set<Int>()
        for index in -1...source.code.count {
            let expected = source.wordIndex(index, in: words)
            XCTAssertEqual(source.wordIndex(index, in: list), expected, source.text(at: index))
            if let expected { found.insert(expected) }
        }
        XCTAssertEqual(found, [0, 1, 2, 3, 4, 5, 6])
    }

    /// The head read in one load (where eight bytes lie in the buffer) is the head packed
    /// byte by byte, at every start and length, the last bytes of the buffer included.
    func testPackedHeadAgreesWithPackingByteByByte() {
        var generator = Generator(state: 31)
        for _ in 0..<200 {
            let bytes = (0..<generator.next(24)).map { _ in UInt8(truncatingIfNeeded: generator.next(256)) }
            bytes.withUnsafeBufferPointer { buffer in
                for start in 0..<buffer.count {
                    for length in 0...(buffer.count - start) {
                        XCTAssertEqual(WordList.packedHead(buffer, start, length),
                                       WordList.packedHeadByBytes(buffer, start, length), "\(bytes) \(start) \(length)")
                    }
                }
            }
        }
    }

    /// `isWord` and `isToken` decide by length before comparing bytes: they agree with the
    /// byte comparison alone, for names and operators of every length around the words'.
    func testIsWordAndIsTokenAgreeWithTheByteComparison() {
        let source = randomNames(["if", "in", "for", "e", "x", "self", "init", ""], count: 2000, seed: 17)
        let words: [StaticString] = ["nif", "nin", "nfor", "nx", "nself", "ninit", "if", "in", "for", "`for`", "n", ""]
        var matched = 0
        for index in -1...source.code.count {
            let isName = source.kind(index) == .identifier || source.kind(index) == .keyword
            for word in words {
                let expected = isName && source.token(source.code[index], is: word)
                XCTAssertEqual(source.isWord(index, word), expected, "\(source.text(at: index)) \(word)")
                if expected { matched += 1 }
            }
        }
        XCTAssertGreaterThan(matched, 500)
        let operators = Lexer.tokenize(SourceFile(path: "Ops.swift", text: "a += b -= c + d == e != f ... g ..< h ?? i"))
        let spellings: [StaticString] = ["+=", "-=", "+", "==", "!=", "...", "..<", "??", "="]
        var operatorsMatched = 0
        for index in operators.code.indices where operators.kind(index) == .binaryOperator {
            for spelling in spellings {
                let expected = operators.token(operators.code[index], is: spelling)
                XCTAssertEqual(operators.isToken(index, .binaryOperator, spelling), expected,
                               "\(operators.text(at: index)) \(spelling)")
                if expected { operatorsMatched += 1 }
            }
        }
        XCTAssertGreaterThanOrEqual(operatorsMatched, 6)
    }

    func testNamePartsAgreeWithASearchPerPart() {
        let parts = KeyboardVocabulary.safeAreaMarkers
        let nameParts = NameParts(parts)
        let source = randomNames(
            ["safe", "Safe", "Area", "top", "bottom", "Layout", "Guide", "a", "e", "A", "G", "Are", "Guid"],
            count: 3000, seed: 5)
        var found = 0
        for index in -1...source.code.count {
            let expected = parts.contains { source.word(index, contains: $0) }
            XCTAssertEqual(source.word(index, containsAnyOf: nameParts), expected, source.text(at: index))
            if expected { found += 1 }
        }
        XCTAssertGreaterThan(found, 30)
    }
}
