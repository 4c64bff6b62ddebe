#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Substring search over raw bytes for the pre-checks that run on every file. A loop
/// anchored on the needle's first byte was the largest single cost of a run, because
/// markers such as `eyboard` start with the most common letter of source code. Instead the
/// search jumps with `memchr` (vectorised in every C library) to the needle's rarest byte
/// and compares the rest around it.
enum ByteSearch {
    static func contains(_ needle: StaticString, in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        let length = needle.utf8CodeUnitCount
        guard length > 0, let base = haystack.baseAddress, haystack.count >= length else { return false }
        let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: length)
        let anchor = rarestPosition(in: pattern)
        let anchorByte = Int32(pattern[anchor])
        // The anchor of a match lies in anchor..<(count - length + anchor + 1).
        var position = anchor
        let end = haystack.count - length + anchor + 1
        while position < end {
            guard let found = memchr(base + position, anchorByte, end - position) else { return false }
            let hit = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            let start = hit - anchor
            if memcmp(base + start, pattern.baseAddress!, length) == 0 { return true }
            position = hit + 1
        }
        return false
    }

    /// Letters from rarest to most common, as counted over 87 MB of Swift from public
    /// packages.
    private static let lettersByRarity: StaticString = "YZJQjKzWHGXVUBqLMDORkFNAPIECTxvwSbyghmpfcdulsinarote"

    /// Per byte value: its place in `lettersByRarity`, 100 for any other byte. Every search
    /// ranks its needle's bytes, so the rank is one load.
    private static let rarityByByte: [UInt8] = {
        var table = [UInt8](repeating: 100, count: 256)
        for place in 0..<lettersByRarity.utf8CodeUnitCount { table[Int(lettersByRarity.utf8Start[place])] = UInt8(place) }
        return table
    }()

    static func rarestPosition(in pattern: UnsafeBufferPointer<UInt8>) -> Int {
        let rarity = rarityByByte
        var best = 0
        for index in pattern.indices where rarity[Int(pattern[index])] < rarity[Int(pattern[best])] { best = index }
        return best
    }

    /// Where the window of `runs` overlapping two-byte runs with the rarest letters starts
    /// (each byte counted once per run it is in). The runs are those of `pattern` and, when
    /// `followedByNonWord`, the run of its last byte and the byte after it, which is no
    /// letter; there are at least `runs` of them.
    static func rarestRunWindow(in pattern: UnsafeBufferPointer<UInt8>, runs: Int, followedByNonWord: Bool) -> Int {
        let rarity = rarityByByte
        func rank(_ index: Int) -> Int { index < pattern.count ? Int(rarity[Int(pattern[index])]) : 100 }
        func score(_ start: Int) -> Int { (start..<(start + runs)).reduce(0) { $0 + rank($1) + rank($1 + 1) } }
        let runCount = pattern.count - (followedByNonWord ? 0 : 1)
        precondition(runCount >= runs, "a pattern needs at least \(runs) two-byte runs")
        var best = 0
        for start in 0...(runCount - runs) where score(start) < score(best) { best = start }
        return best
    }
}
