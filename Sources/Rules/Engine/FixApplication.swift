/// Applying the fixes rules attach to their diagnostics, in memory: the one place that does
/// it (`FileChecker.fix` runs the rounds; writing the result is the tool's job).
public enum FixApplication {
    /// Whether a fix may be applied under the user's choice of `--fix` / `--unsafe-fixes`.
    public static func isApplicable(_ fix: Fix, includingUnsafe: Bool) -> Bool {
        fix.applicability == .safe || includingUnsafe
    }

    /// The fixes to apply together: whole fixes (all of their edits or none), in source
    /// order, skipping any fix that overlaps one already taken or has a range outside the
    /// file. Two insertions at the same offset also count as overlapping: their order would
    /// be arbitrary.
    public static func compatibleFixes(_ fixes: [Fix], fileSize: Int) -> [Fix] {
        compatibleFixIndices(fixes, fileSize: fileSize).map { fixes[$0] }
    }

    /// The indices into `fixes` of `compatibleFixes`, in source order.
    public static func compatibleFixIndices(_ fixes: [Fix], fileSize: Int) -> [Int] {
        let ordered = fixes.enumerated().sorted { lhs, rhs in
            let left = lhs.element.edits.map(\.range.lowerBound).min() ?? 0
            let right = rhs.element.edits.map(\.range.lowerBound).min() ?? 0
            return (left, lhs.offset) < (right, rhs.offset)
        }
        var taken: [Range<Int>] = []
        var chosen: [Int] = []
        for (index, fix) in ordered {
            let ranges = fix.edits.map(\.range)
            guard !ranges.isEmpty,
                  ranges.allSatisfy({ $0.lowerBound >= 0 && $0.upperBound <= fileSize }),
                  !hasOverlap(ranges + taken)
            else { continue }
            taken += ranges
            chosen.append(index)
        }
        return chosen
    }

    /// `bytes` with `edits` applied (edits must not overlap). Replacement text gets the line
    /// ending of the line it goes into, so a CRLF or CR file keeps its endings, and a file
    /// that mixes them gets the ending of the lines around each edit.
    public static func apply(_ edits: [Edit], to bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var cursor = 0
        for edit in edits.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            result.append(contentsOf: bytes[cursor..<edit.range.lowerBound])
            let lineEnding = LineEnding.around(edit.range.lowerBound, in: bytes)
            result.append(contentsOf: lineEnding.convert(Array(edit.replacement.utf8)))
            cursor = edit.range.upperBound
        }
        result.append(contentsOf: bytes[cursor...])
        return result
    }

    private static func hasOverlap(_ ranges: [Range<Int>]) -> Bool {
        let sorted = ranges.sorted { ($0.lowerBound, $0.upperBound) < ($1.lowerBound, $1.upperBound) }
        for (left, right) in zip(sorted, sorted.dropFirst()) {
            if right.lowerBound < left.upperBound || right.lowerBound == left.lowerBound { return true }
        }
        return false
    }
}

/// A line terminator, so that inserted lines match the lines around them.
public enum LineEnding: Equatable, Sendable {
    case lf, crlf, cr

    /// The ending of the line holding `offset`; for the last line, which may have none, the
    /// ending of the line before it; LF in a file of one line.
    public static func around(_ offset: Int, in bytes: [UInt8]) -> LineEnding {
        var index = min(max(offset, 0), bytes.count)
        while index < bytes.count {
            switch bytes[index] {
            case 0x0A: return .lf
            case 0x0D: return index + 1 < bytes.count && bytes[index + 1] == 0x0A ? .crlf : .cr
            default: index += 1
            }
        }
        index = min(max(offset, 0), bytes.count) - 1
        while index >= 0 {
            switch bytes[index] {
            case 0x0A: return index > 0 && bytes[index - 1] == 0x0D ? .crlf : .lf
            case 0x0D: return .cr
            default: index -= 1
            }
        }
        return .lf
    }

    /// `text` (whose lines end in LF or CRLF) with this ending.
    public func convert(_ text: [UInt8]) -> [UInt8] {
        guard self != .lf || text.contains(0x0D), text.contains(0x0A) else { return text }
        var result: [UInt8] = []
        result.reserveCapacity(text.count + 8)
        for (index, byte) in text.enumerated() {
            if byte == 0x0D, index + 1 < text.count, text[index + 1] == 0x0A { continue }
            guard byte == 0x0A else {
                result.append(byte)
                continue
            }
            switch self {
            case .lf: result.append(0x0A)
            case .crlf: result += [0x0D, 0x0A]
            case .cr: result.append(0x0D)
            }
        }
        return result
    }
}
