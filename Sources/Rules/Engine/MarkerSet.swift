#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Which of many byte strings a file contains, and the names after its declaration
/// keywords, found in one pass over its bytes. The driver asks every file about every rule's
/// markers, suppression comments and project-wide facts, and pass 1 needs the type names of
/// the files it does not analyse: a search per marker and a scan for keywords read each
/// file many times, and were most of a run's time.
///
/// Each pattern (marker or keyword) is found through a pair of overlapping two-byte runs, the
/// pair with the rarest letters (`ab` and `bc` of `abc`): wherever the pattern lies, one of
/// the two runs starts at an even offset. So the pass looks up only the runs at even offsets,
/// in a 64 KB table indexed by the two bytes themselves (no hash to compute): a run no
/// pattern uses (nearly all) costs a 16-bit load and a byte load or'ed into the others of its
/// step, eight runs (sixteen bytes) with one branch. A run a pattern uses is checked against
/// the byte after it, then leads to the places a pattern may start, each checked against the
/// pattern's first eight bytes in one word before the whole pattern is compared. The same pass
/// notes whether the file is all ASCII, which saves most files a separate UTF-8 validation:
/// until it has seen a byte beyond ASCII it reads a second table that also marks the runs
/// holding one.
public struct MarkerSet: Sendable {
    /// A set of markers as bits (up to 64 markers).
    public struct Mask: Sendable, Hashable {
        public var bits: UInt64
        public init(bits: UInt64) { self.bits = bits }
        public func intersects(_ other: Mask) -> Bool { bits & other.bits != 0 }
    }

    /// What one pass over a file found.
    public struct Scan: Sendable {
        public var markers: Mask
        /// See `FactScope.declaredTypeNames(in:)`; nil when not asked for or when a name is
        /// not plain ASCII.
        public var declaredTypeNames: [UInt64]?
        /// Those of `declaredTypeNames` that may name a type's declaration or a nested type:
        /// all but the name of a plain `extension Name` and the outer names of a dotted
        /// `extension Outer.Name` (see `DeclarationScan.declarationNames`). Nil exactly when
        /// `declaredTypeNames` is.
        public var declarationNames: [UInt64]?
        /// Whether every byte is below 0x80 (then the bytes are valid UTF-8).
        public var isASCII: Bool
    }

    /// Where a pattern may start when one of its two runs starts at a given offset.
    private struct Candidate: Sendable {
        let text: StaticString
        /// Where the run starts in `text`.
        let runOffset: Int
        /// The marker's bit; 0 for a declaration keyword.
        let bit: UInt64
        /// The first eight bytes of `text` (fewer when it is shorter) as a little-endian word,
        /// and the mask of those bytes.
        let prefix: UInt64
        let prefixMask: UInt64

        init(_ text: StaticString, runOffset: Int, bit: UInt64) {
            self.text = text
            self.runOffset = runOffset
            self.bit = bit
            var prefix: UInt64 = 0
            for offset in 0..<min(8, text.utf8CodeUnitCount) { prefix |= UInt64(text.utf8Start[offset]) << UInt64(8 * offset) }
            self.prefix = prefix
            prefixMask = text.utf8CodeUnitCount >= 8 ? ~0 : (1 << UInt64(8 * text.utf8CodeUnitCount)) - 1
        }
    }

    /// Bit `i` of a mask is `markers[i]`.
    private let markers: [StaticString]
    /// Markers under three bytes, which have no pair of runs: searched on their own (none of
    /// the catalogue's).
    private let shortMarkers: [Int]
    /// The candidates, those of each group together.
    private let candidates: [Candidate]
    /// Per run of two bytes (the first in the low byte): the index + 1 of its group, 0 for
    /// none. A group is the candidates of one run.
    private let runs: [UInt8]
    /// `runs`, with `beyondASCII` for the other runs that hold a byte of 0x80 or more.
    private let runsMarkingBeyondASCII: [UInt8]
    private static let beyondASCII: UInt8 = 0xFF
    /// Group `g`'s candidates are `candidates[groupStarts[g]..<groupStarts[g + 1]]`.
    private let groupStarts: [Int]
    /// Four words (256 bits) per group: the bytes that may follow its run, those after the
    /// run in its patterns (every byte when a pattern ends with the run). A run followed by
    /// another byte is passed over without looking at the candidates.
    private let followers: [UInt64]

    /// `markers`: at most 64 distinct strings.
    public init(_ markers: [StaticString]) {
        var distinct: [StaticString] = []
        for text in markers where text.utf8CodeUnitCount > 0 && !distinct.contains(where: { Self.same($0, text) }) {
            distinct.append(text)
        }
        precondition(distinct.count <= 64, "a marker set holds at most 64 markers")
        var patterns: [(text: StaticString, bit: UInt64)] = []
        var shortMarkers: [Int] = []
        for (index, text) in distinct.enumerated() {
            if text.utf8CodeUnitCount < 3 {
                shortMarkers.append(index)
            } else {
                patterns.append((text, 1 << UInt64(index)))
            }
        }
        patterns += DeclarationScan.keywords.map { ($0, 0) }
        // Two runs for each of at most 70 patterns (with the keywords): a group's number fits
        // a byte, below `beyondASCII`.
        var runs = [UInt8](repeating: 0, count: 1 << 16)
        var groups: [[Candidate]] = []
        for (text, bit) in patterns {
            let pair = ByteSearch.rarestRunPairPosition(in: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
            for runOffset in [pair, pair + 1] {
                let slot = Int(text.utf8Start[runOffset]) | Int(text.utf8Start[runOffset + 1]) << 8
                if runs[slot] == 0 {
                    groups.append([])
                    runs[slot] = UInt8(groups.count)
                }
                groups[Int(runs[slot]) - 1].append(Candidate(text, runOffset: runOffset, bit: bit))
            }
        }
        var followers = [UInt64](repeating: 0, count: 4 * groups.count)
        for (group, members) in groups.enumerated() {
            for candidate in members {
                guard candidate.runOffset + 2 < candidate.text.utf8CodeUnitCount else {
                    for word in 0..<4 { followers[4 * group + word] = ~0 }
                    continue
                }
                let next = candidate.text.utf8Start[candidate.runOffset + 2]
                followers[4 * group + Int(next >> 6)] |= 1 << UInt64(next & 63)
            }
        }
        self.markers = distinct
        self.shortMarkers = shortMarkers
        self.candidates = groups.flatMap { $0 }
        self.runs = runs
        runsMarkingBeyondASCII = runs.indices.map { $0 & 0x8080 != 0 && runs[$0] == 0 ? Self.beyondASCII : runs[$0] }
        self.groupStarts = groups.reduce(into: [0]) { $0.append($0.last! + $1.count) }
        self.followers = followers
    }

    /// The bits of `markers` (those of this set).
    public func mask(of markers: [StaticString]) -> Mask {
        var bits: UInt64 = 0
        for text in markers {
            if let index = self.markers.firstIndex(where: { Self.same($0, text) }) { bits |= 1 << UInt64(index) }
        }
        return Mask(bits: bits)
    }

    /// The markers `bytes` contains.
    public func present(in bytes: [UInt8]) -> Mask {
        scan(bytes, collectingDeclarations: false).markers
    }

    /// The markers `bytes` contains and, when asked, the names after its declaration keywords.
    public func scan(_ bytes: [UInt8], collectingDeclarations: Bool) -> Scan {
        bytes.withUnsafeBufferPointer { buffer in
            var state = ScanState(buffer, collectingDeclarations: collectingDeclarations)
            for index in shortMarkers where ByteSearch.contains(markers[index], in: buffer) {
                state.found |= 1 << UInt64(index)
            }
            guard let base = buffer.baseAddress else { return state.result() }
            runs.withUnsafeBufferPointer { runs in
                runsMarkingBeyondASCII.withUnsafeBufferPointer { marking in
                    followers.withUnsafeBufferPointer { followers in
                        scanRuns(base, buffer.count, runs: runs.baseAddress!, marking: marking.baseAddress!,
                                 followers: followers.baseAddress!, &state)
                    }
                }
            }
            return state.result()
        }
    }

    /// Looks the runs of two bytes at even offsets of `base[0..<count]` up and visits the
    /// groups of those a pattern uses, and notes a byte beyond ASCII. Apart from `scan`, with
    /// plain values only, so that the loop keeps them in registers.
    private func scanRuns(
        _ base: UnsafePointer<UInt8>, _ count: Int, runs: UnsafePointer<UInt8>, marking: UnsafePointer<UInt8>,
        followers: UnsafePointer<UInt64>, _ state: inout ScanState
    ) {
        @inline(__always) func run(at offset: Int) -> Int {
            Int(UnsafeRawPointer(base + offset).loadUnaligned(as: UInt16.self).littleEndian)
        }
        /// Notes a byte beyond ASCII in the run at `offset` (inside the bytes), and visits its
        /// group unless the byte after it rules the group out.
        @inline(__always) func visitGroup(at offset: Int, _ state: inout ScanState) {
            let run = run(at: offset)
            if run & 0x8080 != 0 { state.isASCII = false }
            let found = runs[run]
            guard found != 0 else { return }
            let index = Int(found) &- 1
            if offset &+ 2 < count {
                let next = base[offset &+ 2]
                guard followers[4 &* index &+ Int(next >> 6)] & (1 &<< UInt64(next & 63)) != 0 else { return }
            }
            state.visit(groupAt: index, runAt: offset, in: self)
        }
        /// The four runs at the even offsets of the eight bytes at `start`.
        @inline(__always) func visitGroups(at start: Int, _ state: inout ScanState) {
            for run in 0..<4 { visitGroup(at: start &+ 2 &* run, &state) }
        }
        // Until a byte beyond ASCII turns up, the runs holding one are marked too.
        var table = marking
        var index = 0
        // Sixteen bytes per step: each run a 16-bit load, its group a byte load.
        while index &+ 16 <= count {
            let low = table[run(at: index)] | table[run(at: index &+ 2)] | table[run(at: index &+ 4)] | table[run(at: index &+ 6)]
            let high = table[run(at: index &+ 8)] | table[run(at: index &+ 10)] | table[run(at: index &+ 12)]
                | table[run(at: index &+ 14)]
            if low | high != 0 {
                if low != 0 { visitGroups(at: index, &state) }
                if high != 0 { visitGroups(at: index &+ 8, &state) }
                if !state.isASCII { table = runs }
            }
            index &+= 16
        }
        while index &+ 1 < count {
            visitGroup(at: index, &state)
            index &+= 2
        }
        if index < count, base[index] >= 0x80 { state.isASCII = false }
    }

    /// What a scan has found so far. Its updates live apart from the loop over the bytes,
    /// which they would otherwise crowd out of registers.
    private struct ScanState {
        var found: UInt64 = 0
        var isASCII = true
        var collectingDeclarations: Bool
        var declarations: DeclarationScan

        init(_ buffer: UnsafeBufferPointer<UInt8>, collectingDeclarations: Bool) {
            declarations = DeclarationScan(buffer)
            self.collectingDeclarations = collectingDeclarations
        }

        func result() -> Scan {
            Scan(markers: Mask(bits: found), declaredTypeNames: collectingDeclarations ? declarations.names : nil,
                 declarationNames: collectingDeclarations ? declarations.declarationNames : nil, isASCII: isASCII)
        }

        /// The candidates of a group whose run starts at `run`. Each place a pattern starts
        /// is reached once: through whichever of its two runs starts at an even offset.
        @inline(never)
        mutating func visit(groupAt group: Int, runAt run: Int, in set: MarkerSet) {
            let bytes = declarations.bytes
            let base = bytes.baseAddress!
            for index in set.groupStarts[group]..<set.groupStarts[group + 1] {
                let candidate = set.candidates[index]
                if candidate.bit == 0 ? !collectingDeclarations : found & candidate.bit != 0 { continue }
                let start = run - candidate.runOffset
                let length = candidate.text.utf8CodeUnitCount
                guard start >= 0, start + length <= bytes.count else { continue }
                if start + 8 <= bytes.count {
                    let word = UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self).littleEndian
                    guard word & candidate.prefixMask == candidate.prefix else { continue }
                }
                guard memcmp(base + start, candidate.text.utf8Start, length) == 0 else { continue }
                if candidate.bit != 0 {
                    found |= candidate.bit
                } else if start == 0 || !DeclarationScan.isWordByte(bytes[start - 1]), !declarations.readDeclaration(at: start) {
                    // A keyword starts a word; its declaration is read when the word is the
                    // keyword.
                    collectingDeclarations = false
                }
            }
        }
    }

    private static func same(_ left: StaticString, _ right: StaticString) -> Bool {
        left.utf8CodeUnitCount == right.utf8CodeUnitCount
            && memcmp(left.utf8Start, right.utf8Start, left.utf8CodeUnitCount) == 0
    }
}
