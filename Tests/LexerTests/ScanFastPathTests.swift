import XCTest
@testable import Lexer

/// The one-pass bracket table against the plain two-pass way it replaces.
final class ScanFastPathTests: XCTestCase {
    func testOnePassBracketTableMatchesFilterThenPair() {
        var generator = SystemRandomNumberGenerator()
        let kinds: [TokenKind] = [.leftParen, .rightParen, .leftSquare, .rightSquare, .leftBrace, .rightBrace,
                                  .leftAngle, .rightAngle, .stringInterpolationStart, .stringInterpolationEnd,
                                  .identifier, .commentLine, .commentBlock]
        for _ in 0..<2000 {
            let count = Int.random(in: 0...30, using: &generator)
            let tokens = (0..<count).map { Token(kind: kinds.randomElement(using: &generator)!, start: $0, end: $0 + 1) }
            let live: [Bool]? = Bool.random(using: &generator) ? tokens.map { _ in Bool.random(using: &generator) } : nil
            let table = BracketTable(tokens: tokens, live: live)
            let expected = plainBracketTable(tokens, live: live)
            XCTAssertEqual(table.code, expected.code)
            XCTAssertEqual(table.partner, expected.partner, "\(tokens.map(\.kind)) live \(String(describing: live))")
        }
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
