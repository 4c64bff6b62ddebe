import XCTest
@testable import Lexer

/// The word-at-a-time scans and the one-pass bracket table against the plain byte-by-byte
/// and two-pass ways they replace.
final class ScanFastPathTests: XCTestCase {
    /// Every byte value in every lane, next to neighbours of every class.
    func testIdentifierLanesMatchTheByteTable() {
        let neighbours: [UInt8] = [0x00, 0x20, 0x24, 0x2F, 0x30, 0x39, 0x3A, 0x40, 0x41, 0x5A, 0x5B, 0x5F,
                                   0x60, 0x61, 0x7A, 0x7B, 0x7F, 0x80, 0xC3, 0xFF]
        for lane in 0..<8 {
            for value in 0...255 {
                for neighbour in neighbours {
                    var bytes = [UInt8](repeating: neighbour, count: 8)
                    bytes[lane] = UInt8(value)
                    let word = bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
                    let lanes = CharacterClass.asciiIdentifierContinuationLanes(word)
                    for index in 0..<8 {
                        let expected = CharacterClass.isASCIIIdentifierContinuation(bytes[index])
                        XCTAssertEqual(lanes >> (8 * index + 7) & 1 == 1, expected, "\(bytes) lane \(index)")
                    }
                }
            }
        }
    }

    func testScansAgreeWithByteByByteScans() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("aZ_$09 \t.(é€😀".utf8) + [0x80, 0xFF, 0x00]
        for _ in 0..<3000 {
            let length = Int.random(in: 0...40, using: &generator)
            let bytes = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }
            bytes.withUnsafeBufferPointer { buffer in
                let pass = LexingPass(bytes: buffer)
                for start in 0...length {
                    XCTAssertEqual(pass.skipSpaces(from: start), plainSkipSpaces(buffer, from: start), "\(bytes) at \(start)")
                    XCTAssertEqual(pass.scanIdentifierContinuation(from: start), plainIdentifierEnd(buffer, from: start),
                                   "\(bytes) at \(start)")
                }
            }
        }
    }

    /// A line comment ends at the first CR or LF, wherever it falls in a word.
    func testLineCommentEndsAtTheFirstLineBreak() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = [0x61, 0x20, 0x0A, 0x0D, 0x0B, 0x8A, 0x8D, 0x00, 0xFF, 0x2F]
        for _ in 0..<3000 {
            let text = (0..<Int.random(in: 0...40, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let bytes = Array("//".utf8) + text
            let comment = Lexer.tokenize(SourceFile(path: "a.swift", bytes: bytes)).tokens[0]
            let expected = bytes.firstIndex { $0 == 0x0A || $0 == 0x0D } ?? bytes.count
            XCTAssertTrue(comment.kind.isComment, "\(bytes)")
            XCTAssertEqual(Int(comment.end), expected, "\(bytes)")
        }
    }

    func testOnePassBracketTableMatchesFilterThenPair() {
        var generator = SystemRandomNumberGenerator()
        let kinds: [TokenKind] = [.leftParen, .rightParen, .leftSquare, .rightSquare, .leftBrace, .rightBrace,
                                  .leftAngle, .rightAngle, .stringInterpolationStart, .stringInterpolationEnd,
                                  .identifier, .commentLine, .commentBlock]
        for _ in 0..<2000 {
            let count = Int.random(in: 0...30, using: &generator)
            let tokens = (0..<count).map { Token(kind: kinds.randomElement(using: &generator)!, start: $0, end: $0 + 1) }
            let live: [Bool]? = Bool.random(using: &generator) ? tokens.map { _ in Bool.random(using: &generator) } : nil
            let table = tokens.withUnsafeBufferPointer { BracketTable(tokens: $0, live: live) }
            let expected = plainBracketTable(tokens, live: live)
            XCTAssertEqual(table.code, expected.code)
            XCTAssertEqual(table.partner, expected.partner, "\(tokens.map(\.kind)) live \(String(describing: live))")
            XCTAssertEqual(table.setAside.tokens(around: table.code), tokens)
            let file = SourceFile(path: "a.swift", bytes: [UInt8](repeating: 0x20, count: count))
            XCTAssertEqual(TokenizedSource(file: file, brackets: table).tokens, tokens)
        }
    }

    private func plainSkipSpaces(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        while index < bytes.count, bytes[index] == 0x20 { index += 1 }
        return index
    }

    private func plainIdentifierEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        while index < bytes.count {
            let (scalar, length) = decodeScalar(bytes, at: index)
            guard length > 0, CharacterClass.isIdentifierContinuation(scalar) else { break }
            index += length
        }
        return index
    }

    /// Comments and dead tokens left out first, then the brackets paired with a stack; a
    /// closer pops openers until it finds one of its family, if any is open.
    private func plainBracketTable(_ tokens: [Token], live: [Bool]?) -> (code: [Token], partner: [Int32]) {
        let code = tokens.indices.filter { !tokens[$0].kind.isComment && (live?[$0] ?? true) }.map { tokens[$0] }
        var partner = [Int32](repeating: -1, count: code.count)
        var stack: [Int] = []
        for (index, token) in code.enumerated() {
            let family = BracketTable.family(token.kind)
            if family > 0 { stack.append(index) }
            guard family < 0, stack.contains(where: { BracketTable.family(code[$0].kind) == -family }) else { continue }
            while let top = stack.popLast() {
                if BracketTable.family(code[top].kind) == -family {
                    partner[top] = Int32(index)
                    partner[index] = Int32(top)
                    break
                }
            }
        }
        return (code, partner)
    }
}
