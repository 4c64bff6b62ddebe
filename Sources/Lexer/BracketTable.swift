/// The code view (tokens without comments and without the `#if` branches an iOS build never
/// compiles, see `ConditionalCompilation`) and, for each of its tokens, the index of its
/// partner bracket. Built in one pass with one stack; a closer that does not match the
/// innermost opener closes the nearest matching one below it (the openers in between stay
/// unpartnered), so a stray bracket costs one pair, not the rest of the file.
struct BracketTable {
    var code: [Token] = []
    var partner: [Int32] = []
    /// The tokens left out of `code`, in order, and their indices among all tokens:
    /// `code` with these put back at their indices is every token (`SetAsideTokens`).
    var setAside = SetAsideTokens()

    /// `live`, when given, says for each token whether an iOS build compiles it.
    init(tokens all: UnsafeBufferPointer<Token>, live: [Bool]? = nil) {
        var partner: [Int32] = []
        var setAside = SetAsideTokens()
        code = [Token](unsafeUninitializedCapacity: all.count) { code, codeCount in
            partner = [Int32](unsafeUninitializedCapacity: all.count) { partner, partnerCount in
                if let live {
                    codeCount = Self.build(all, code: code, partner: partner, setAside: &setAside) { live[$0] }
                } else {
                    codeCount = Self.build(all, code: code, partner: partner, setAside: &setAside) { _ in true }
                }
                partnerCount = codeCount
            }
        }
        self.partner = partner
        self.setAside = setAside
    }

    /// Copies the code tokens of `all` (those that are no comment and `isLive`) into `code`,
    /// pairs their brackets into `partner` (-1 where there is no partner), collects the other
    /// tokens into `setAside` and returns how many code tokens there are. Both buffers hold at
    /// least `all.count` elements.
    ///
    /// Code tokens are copied a run at a time (a run ends at a token set aside), so that the
    /// loop only looks at each token's kind.
    @inline(__always)
    private static func build(
        _ all: UnsafeBufferPointer<Token>, code: UnsafeMutableBufferPointer<Token>,
        partner: UnsafeMutableBufferPointer<Int32>, setAside: inout SetAsideTokens, isLive: (Int) -> Bool
    ) -> Int {
        partner.initialize(repeating: -1)
        // Open brackets, innermost last, each as its code index times 8 plus its family
        // index; there are never more than tokens.
        let stack = UnsafeMutablePointer<Int>.allocate(capacity: max(all.count, 1))
        defer { stack.deallocate() }
        var stackCount = 0
        // How many openers of each family are on the stack, so that a closer without a
        // matching opener is rejected without searching.
        var openCounts = (0, 0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &openCounts) { raw in
            let counts = raw.bindMemory(to: Int.self)
            var count = 0
            // The tokens from `runStart` up to the current one are code tokens not copied yet.
            var runStart = 0
            func copyRun(upTo end: Int) {
                guard end > runStart, let source = all.baseAddress, let target = code.baseAddress else { return }
                (target + count).initialize(from: source + runStart, count: end - runStart)
                count += end - runStart
            }
            for index in 0..<all.count {
                let kind = all[index].kind
                guard !kind.isComment, isLive(index) else {
                    copyRun(upTo: index)
                    setAside.append(all[index], at: index)
                    runStart = index + 1
                    continue
                }
                let kindFamily = family(kind)
                if kindFamily == 0 { continue }
                let codeIndex = count + index - runStart
                if kindFamily > 0 {
                    stack[stackCount] = codeIndex << 3 | (kindFamily - 1)
                    stackCount += 1
                    counts[kindFamily - 1] += 1
                    continue
                }
                let wanted = -kindFamily - 1
                // A matching opener is on the stack, so the loop stops before it empties.
                guard counts[wanted] > 0 else { continue }
                while stackCount > 0 {
                    stackCount -= 1
                    let top = stack[stackCount] >> 3, topFamily = stack[stackCount] & 7
                    counts[topFamily] -= 1
                    if topFamily == wanted {
                        partner[top] = Int32(truncatingIfNeeded: codeIndex)
                        partner[codeIndex] = Int32(truncatingIfNeeded: top)
                        break
                    }
                }
            }
            copyRun(upTo: all.count)
            return count
        }
    }

    /// +n when `kind` opens bracket family n, -n when it closes it, 0 for neither.
    @inline(__always)
    static func family(_ kind: TokenKind) -> Int {
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

/// The tokens of a file that the code view leaves out (comments and the tokens of `#if`
/// branches an iOS build never compiles), each with its index among all the file's tokens.
/// Kept instead of a second copy of every token: `tokens(around:)` puts them back.
struct SetAsideTokens: Sendable {
    private(set) var tokens: [Token] = []
    /// Per token of `tokens`: its index among all tokens, ascending.
    private(set) var indices: [Int32] = []

    /// Adds `token`, the token at `index` among all tokens; indices only ever increase.
    mutating func append(_ token: Token, at index: Int) {
        tokens.append(token)
        indices.append(Int32(truncatingIfNeeded: index))
    }

    /// Every token: `code` with the set-aside tokens put back at their indices. `code` must be
    /// the code view these were set aside from.
    func tokens(around code: [Token]) -> [Token] {
        let total = code.count + tokens.count
        return [Token](unsafeUninitializedCapacity: total) { all, initialized in
            var codeIndex = 0, asideIndex = 0
            for index in 0..<total {
                if asideIndex < indices.count, Int(indices[asideIndex]) == index {
                    all.initializeElement(at: index, to: tokens[asideIndex])
                    asideIndex += 1
                } else {
                    all.initializeElement(at: index, to: code[codeIndex])
                    codeIndex += 1
                }
            }
            initialized = total
        }
    }
}
