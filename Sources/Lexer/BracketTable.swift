/// The code view (tokens without comments) and, for each of its tokens, the index of its
/// partner bracket. Built with one stack; a closer that does not match the innermost opener
/// closes the nearest matching one below it (the openers in between stay unpartnered), so
/// a stray bracket costs one pair, not the rest of the file.
struct BracketTable {
    var code: [Token] = []
    var partner: [Int32] = []

    init(tokens: [Token]) {
        code.reserveCapacity(tokens.count)
        for token in tokens where !token.kind.isComment { code.append(token) }
        partner = [Int32](repeating: -1, count: code.count)
        var stack: [Int32] = []
        // How many openers of each family are on the stack, so that a closer without a
        // matching opener is rejected without searching.
        var openCounts = [Int](repeating: 0, count: 5)
        for index in code.indices {
            let kind = code[index].kind
            if let family = Self.openerFamily(kind) {
                stack.append(Int32(index))
                openCounts[family] += 1
            } else if let family = Self.closerFamily(kind), openCounts[family] > 0 {
                while let top = stack.popLast() {
                    let topFamily = Self.openerFamily(code[Int(top)].kind) ?? 0
                    openCounts[topFamily] -= 1
                    if topFamily == family {
                        partner[Int(top)] = Int32(index)
                        partner[index] = top
                        break
                    }
                }
            }
        }
    }

    static func openerFamily(_ kind: TokenKind) -> Int? {
        switch kind {
        case .leftParen: 0
        case .leftSquare: 1
        case .leftBrace: 2
        case .leftAngle: 3
        case .stringInterpolationStart: 4
        default: nil
        }
    }

    static func closerFamily(_ kind: TokenKind) -> Int? {
        switch kind {
        case .rightParen: 0
        case .rightSquare: 1
        case .rightBrace: 2
        case .rightAngle: 3
        case .stringInterpolationEnd: 4
        default: nil
        }
    }
}
