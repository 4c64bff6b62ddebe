/// The code view (tokens without comments and without the `#if` branches an iOS build never
/// compiles, see `ConditionalCompilation`) and, for each of its tokens, the index of its
/// partner bracket. Built with one stack; a closer that does not match the innermost opener
/// closes the nearest matching one below it (the openers in between stay unpartnered), so
/// a stray bracket costs one pair, not the rest of the file.
struct BracketTable {
    var code: [Token] = []
    var partner: [Int32] = []

    /// `live`, when given, says for each token whether an iOS build compiles it.
    init(tokens: [Token], live: [Bool]? = nil) {
        code = tokens.withUnsafeBufferPointer { all in
            [Token](unsafeUninitializedCapacity: all.count) { buffer, initialized in
                var count = 0
                for (index, token) in all.enumerated() where !token.kind.isComment && live?[index] ?? true {
                    buffer.initializeElement(at: count, to: token)
                    count += 1
                }
                initialized = count
            }
        }
        partner = [Int32](repeating: -1, count: code.count)
        code.withUnsafeBufferPointer { code in
            partner.withUnsafeMutableBufferPointer { partner in
                Self.family.withUnsafeBufferPointer { family in
                    Self.pair(code, family: family, into: partner)
                }
            }
        }
    }

    private static func pair(
        _ code: UnsafeBufferPointer<Token>, family: UnsafeBufferPointer<Int8>,
        into partner: UnsafeMutableBufferPointer<Int32>
    ) {
        var stack: [Int32] = []
        // How many openers of each family are on the stack, so that a closer without a
        // matching opener is rejected without searching.
        var openCounts = (0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &openCounts) { raw in
            let counts = raw.bindMemory(to: Int.self)
            for index in 0..<code.count {
                let kindFamily = family[Int(code[index].kind.rawValue)]
                if kindFamily == 0 { continue }
                if kindFamily > 0 {
                    stack.append(Int32(truncatingIfNeeded: index))
                    counts[Int(kindFamily) - 1] += 1
                    continue
                }
                let wanted = Int(-kindFamily) - 1
                guard counts[wanted] > 0 else { continue }
                while let top = stack.popLast() {
                    let topFamily = Int(family[Int(code[Int(top)].kind.rawValue)]) - 1
                    counts[topFamily] -= 1
                    if topFamily == wanted {
                        partner[Int(top)] = Int32(truncatingIfNeeded: index)
                        partner[index] = top
                        break
                    }
                }
            }
        }
    }

    /// Per token kind (by raw value): +n opens bracket family n, -n closes it, 0 neither.
    static let family: [Int8] = TokenKind.allCases.map { kind in
        switch kind {
        case .leftParen: 1
        case .rightParen: -1
        case .leftSquare: 2
        case .rightSquare: -2
        case .leftBrace: 3
        case .rightBrace: -3
        case .leftAngle: 4
        case .rightAngle: -4
        case .stringInterpolationStart: 5
        case .stringInterpolationEnd: -5
        default: 0
        }
    }
}
