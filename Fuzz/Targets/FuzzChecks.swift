import Lexer

/// Checks shared by the fuzz targets. A broken invariant stops the process with a message,
/// which libFuzzer reports as a crash and saves the input for.
enum FuzzChecks {
    static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError("invariant broken: \(message())") }
    }

    /// The lexer's contract: non-empty tokens in order inside the file, only trivia between
    /// them (so tokens plus gaps rebuild the input), and a bracket table whose partners
    /// point at each other.
    static func checkTokens(_ source: TokenizedSource) {
        let bytes = source.file.bytes
        var previousEnd = 0
        for token in source.tokens {
            let start = Int(token.start), end = Int(token.end)
            require(previousEnd <= start, "token at \(start) starts before the previous one ends at \(previousEnd)")
            require(start < end, "empty token at \(start)")
            require(end <= bytes.count, "token ends at \(end), past the end of the file (\(bytes.count))")
            for offset in previousEnd..<start {
                require(isTrivia(bytes, at: offset), "byte \(bytes[offset]) at \(offset) belongs to no token")
            }
            previousEnd = end
        }
        for offset in previousEnd..<bytes.count {
            require(isTrivia(bytes, at: offset), "byte \(bytes[offset]) at \(offset) belongs to no token")
        }
        require(source.partner.count == source.code.count, "bracket table size differs from the code view")
        for (index, partner) in source.partner.enumerated() where partner >= 0 {
            require(Int(partner) < source.code.count, "partner of \(index) out of range")
            require(source.partner[Int(partner)] == Int32(index), "partner of \(index) does not point back")
        }
        require(source.code.allSatisfy { !$0.kind.isComment }, "a comment in the code view")
    }

    /// Whitespace, line breaks, a byte of a no-break space (U+00A0, which Swift's lexer skips
    /// like a space) and a byte of a leading byte-order mark.
    static func isTrivia(_ bytes: [UInt8], at offset: Int) -> Bool {
        switch bytes[offset] {
        case 0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C: return true
        case 0xC2 where offset + 1 < bytes.count && bytes[offset + 1] == 0xA0: return true
        case 0xA0 where offset > 0 && bytes[offset - 1] == 0xC2: return true
        default:
            let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
            return offset < 3 && bytes.count >= 3 && Array(bytes[0..<3]) == bom
        }
    }
}
