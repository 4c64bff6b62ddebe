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
/// Each pattern (marker or keyword) is found through a window of `stride` overlapping
/// two-byte runs, the window with the rarest letters (`ab`, `bc`, `cd` and `de` of
/// `abcde`): wherever the pattern lies, one of those runs starts at a multiple of `stride`.
/// So the pass looks up only one run in `stride`, in a 128 KB table indexed by the two bytes
/// themselves (no hash to compute): a run no pattern uses (nearly all) costs a 16-bit load,
/// a table load and a branch. A keyword counts only where a byte that cannot continue a word
/// follows it, so its window may end with the run of its last byte and any such byte: that
/// makes `enum` as long as the window needs. A run a pattern uses is checked against eight
/// bytes around it in one word (where its patterns agree; two words when they form two sets
/// that agree on more), and only then leads to the places a pattern may start, each checked
/// against the pattern's first eight bytes in one word before the whole pattern is compared.
/// Markers shorter than a window are searched on their own (none of the catalogue's are).
/// The same pass ors the file's words together to tell whether it is all ASCII, which saves
/// most files a separate UTF-8 validation.
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

    /// The distance between the runs the scan looks up, and the runs in a pattern's window.
    static let stride = 4

    /// Where a pattern may start when one of the runs of its window starts at a given offset.
    private struct Candidate: Sendable {
        let text: StaticString
        /// Where the run starts in `text`; the run of a keyword's last byte starts at its last
        /// byte.
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
    /// Markers shorter than a window: searched on their own.
    private let shortMarkers: [Int]
    /// The candidates, those of each group together.
    private let candidates: [Candidate]
    /// Per run of two bytes (the first in the low byte): the index + 1 of its group, 0 for
    /// none. A group is the candidates of one or more runs (those of a keyword's last byte
    /// share one).
    private let runs: [UInt16]
    /// Group `g`'s candidates are `candidates[groupStarts[g]..<groupStarts[g + 1]]`.
    private let groupStarts: [Int]
    /// Per group, what the bytes around its run must hold for one of its candidates to match
    /// there: a run whose bytes differ is passed over without looking at the candidates.
    private let filters: [RunFilter]

    /// Eight bytes starting `before` bytes before a run, as a little-endian word, in the
    /// places `mask` covers.
    private struct AgreedBytes {
        var mask: UInt64 = 0
        var bytes: UInt64 = 0
        var before = 0

        /// The bytes all of `candidates` (of one run) name, at the place around the run where
        /// they name the most.
        init(_ candidates: [Candidate]) {
            for before in 0..<8 {
                var mask: UInt64 = ~0, bytes: UInt64 = 0
                for (place, candidate) in candidates.enumerated() {
                    for offset in 0..<8 {
                        let shift = UInt64(8 * offset)
                        let index = candidate.runOffset - before + offset
                        guard index >= 0, index < candidate.text.utf8CodeUnitCount else {
                            mask &= ~(0xFF << shift)
                            continue
                        }
                        let byte = UInt64(candidate.text.utf8Start[index])
                        if place == 0 {
                            bytes |= byte << shift
                        } else if (bytes >> shift) & 0xFF != byte {
                            mask &= ~(0xFF << shift)
                        }
                    }
                }
                if mask.nonzeroBitCount > self.mask.nonzeroBitCount {
                    self.mask = mask
                    self.bytes = bytes & mask
                    self.before = before
                }
            }
        }

        /// Whether the bytes around the run at `offset` of `base[0..<count]` hold them (or
        /// lie partly outside the bytes: the runs near the edges).
        @inline(__always)
        func admit(_ base: UnsafePointer<UInt8>, _ count: Int, runAt offset: Int) -> Bool {
            let start = offset &- before
            guard start >= 0, start &+ 8 <= count else { return true }
            return UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self).littleEndian & mask == bytes
        }
    }

    /// The bytes of a run's candidates split in two sets, each with the bytes its candidates
    /// agree on: candidates of different patterns seldom agree beyond the run itself.
    private struct RunFilter {
        let first: AgreedBytes
        let second: AgreedBytes

        /// The split whose sets agree on the most bytes (the fewer of the two; a set of
        /// candidates too large to try every split agrees as one).
        init(_ candidates: [Candidate]) {
            guard candidates.count > 1, candidates.count <= 12 else {
                first = AgreedBytes(candidates)
                second = first
                return
            }
            var best: (first: AgreedBytes, second: AgreedBytes)?
            func agreement(_ split: (first: AgreedBytes, second: AgreedBytes)) -> Int {
                min(split.first.mask.nonzeroBitCount, split.second.mask.nonzeroBitCount)
            }
            // The first candidate in the first set, each other one in either.
            for choice in 0..<(1 << (candidates.count - 1)) {
                let inSecond = candidates.indices.map { $0 > 0 && choice & (1 << ($0 - 1)) != 0 }
                let firstSet = candidates.indices.filter { !inSecond[$0] }.map { candidates[$0] }
                let secondSet = candidates.indices.filter { inSecond[$0] }.map { candidates[$0] }
                let split = (first: AgreedBytes(firstSet), second: AgreedBytes(secondSet.isEmpty ? firstSet : secondSet))
                if best.map({ agreement(split) > agreement($0) }) ?? true { best = split }
            }
            first = best!.first
            second = best!.second
        }
    }

    /// `markers`: at most 64 distinct strings.
    public init(_ markers: [StaticString]) {
        var distinct: [StaticString] = []
        for text in markers where text.utf8CodeUnitCount > 0 && !distinct.contains(where: { Self.same($0, text) }) {
            distinct.append(text)
        }
        precondition(distinct.count <= 64, "a marker set holds at most 64 markers")
        var patterns: [(text: StaticString, bit: UInt64, isKeyword: Bool)] = []
        var shortMarkers: [Int] = []
        for (index, text) in distinct.enumerated() {
            if text.utf8CodeUnitCount <= Self.stride {
                shortMarkers.append(index)
            } else {
                patterns.append((text, 1 << UInt64(index), false))
            }
        }
        patterns += DeclarationScan.keywords.map { ($0, 0, true) }
        let nonWordBytes = (0...255).filter { !DeclarationScan.isWordByte(UInt8($0)) }
        // The candidates of each run, then one group per distinct list of them.
        var allCandidates: [Candidate] = []
        var candidatesByRun: [Int: [Int]] = [:]
        for (text, bit, isKeyword) in patterns {
            let bytes = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
            let window = ByteSearch.rarestRunWindow(in: bytes, runs: Self.stride, followedByNonWord: isKeyword)
            for runOffset in window..<(window + Self.stride) {
                let first = Int(bytes[runOffset])
                let seconds = runOffset + 1 < bytes.count ? [Int(bytes[runOffset + 1])] : nonWordBytes
                allCandidates.append(Candidate(text, runOffset: runOffset, bit: bit))
                for second in seconds { candidatesByRun[first | second << 8, default: []].append(allCandidates.count - 1) }
            }
        }
        var runs = [UInt16](repeating: 0, count: 1 << 16)
        var groups: [[Int]] = []
        var groupOfCandidates: [[Int]: Int] = [:]
        for (run, members) in candidatesByRun.sorted(by: { $0.key < $1.key }) {
            let group = groupOfCandidates[members] ?? {
                groups.append(members)
                groupOfCandidates[members] = groups.count - 1
                return groups.count - 1
            }()
            runs[run] = UInt16(group + 1)
        }
        self.markers = distinct
        self.shortMarkers = shortMarkers
        self.candidates = groups.flatMap { $0.map { allCandidates[$0] } }
        self.runs = runs
        self.groupStarts = groups.reduce(into: [0]) { $0.append($0.last! + $1.count) }
        filters = groups.map { RunFilter($0.map { allCandidates[$0] }) }
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
            guard let base = buffer.baseAddress else { return state.result(isASCII: true) }
            let isASCII = runs.withUnsafeBufferPointer { runs in
                filters.withUnsafeBufferPointer { filters in
                    scanRuns(base, buffer.count, runs: runs.baseAddress!, filters: filters.baseAddress!, &state)
                }
            }
            return state.result(isASCII: isASCII)
        }
    }

    /// Looks the runs at the multiples of `stride` in `base[0..<count]` up and visits the
    /// groups of those a pattern uses where their filters admit the bytes around them;
    /// returns whether every byte is below 0x80.
    private func scanRuns(
        _ base: UnsafePointer<UInt8>, _ count: Int, runs: UnsafePointer<UInt16>, filters: UnsafePointer<RunFilter>,
        _ state: inout ScanState
    ) -> Bool {
        /// The run at `offset` (inside the bytes), whose filter words may reach outside them.
        func lookUpNearTheEdges(_ offset: Int, _ state: inout ScanState) {
            let found = runs[Int(UnsafeRawPointer(base + offset).loadUnaligned(as: UInt16.self).littleEndian)]
            guard found != 0 else { return }
            let filter = filters[Int(found) &- 1]
            guard filter.first.admit(base, count, runAt: offset) || filter.second.admit(base, count, runAt: offset) else { return }
            state.visit(groupAt: Int(found) &- 1, runAt: offset, in: self)
        }
        var allBytes: UInt64 = 0
        var index = 0
        while index < Self.edge {
            if index &+ 1 < count { lookUpNearTheEdges(index, &state) }
            index &+= Self.stride
        }
        for offset in 0..<min(Self.edge, count) { allBytes |= UInt64(base[offset]) }
        while Self.nextAdmittedRun(base, count, runs, filters, from: &index, allBytes: &allBytes) {
            let found = runs[Int(UnsafeRawPointer(base + index).loadUnaligned(as: UInt16.self).littleEndian)]
            state.visit(groupAt: Int(found) &- 1, runAt: index, in: self)
            index &+= Self.stride
        }
        for offset in Swift.stride(from: index, to: count, by: 1) { allBytes |= UInt64(base[offset]) }
        while index &+ 1 < count {
            lookUpNearTheEdges(index, &state)
            index &+= Self.stride
        }
        return allBytes & 0x8080_8080_8080_8080 == 0
    }

    /// How far from either end of the bytes the filter words of every run lie inside them.
    private static let edge = 8

    /// Moves `index` (a multiple of `stride`, at least `edge`) to the next run a filter
    /// admits and returns true, or to where the runs near the end start and returns false;
    /// ors the words of the bytes it passes (and perhaps a few more) into `allBytes`. Apart
    /// from the visits and without calls, so that the loop keeps every value in a register.
    @inline(never)
    private static func nextAdmittedRun(
        _ base: UnsafePointer<UInt8>, _ count: Int, _ runs: UnsafePointer<UInt16>, _ filters: UnsafePointer<RunFilter>,
        from index: inout Int, allBytes: inout UInt64
    ) -> Bool {
        @inline(__always) func word(at offset: Int) -> UInt64 {
            UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self).littleEndian
        }
        /// Whether a pattern uses the run at `offset` and its filter admits the bytes around
        /// it, which lie inside the bytes.
        @inline(__always) func admits(_ offset: Int) -> Bool {
            let found = runs[Int(UnsafeRawPointer(base + offset).loadUnaligned(as: UInt16.self).littleEndian)]
            guard found != 0 else { return false }
            let filter = filters[Int(found) &- 1]
            return word(at: offset &- filter.first.before) & filter.first.mask == filter.first.bytes
                || word(at: offset &- filter.second.before) & filter.second.mask == filter.second.bytes
        }
        var position = index
        // Sixteen bytes per step: their words or'ed together, four runs looked up. The last
        // run of a step and the eight bytes after it end before the runs near the end.
        var words = allBytes
        defer { allBytes = words }
        while position &+ 16 &+ edge <= count {
            words |= word(at: position) | word(at: position &+ 8)
            if admits(position) {
                index = position
                return true
            }
            if admits(position &+ 4) {
                index = position &+ 4
                return true
            }
            if admits(position &+ 8) {
                index = position &+ 8
                return true
            }
            if admits(position &+ 12) {
                index = position &+ 12
                return true
            }
            position &+= 16
        }
        index = position
        return false
    }

    /// What a scan has found so far. Its updates live apart from the loop over the bytes,
    /// which they would otherwise crowd out of registers.
    private struct ScanState {
        var found: UInt64 = 0
        var collectingDeclarations: Bool
        var declarations: DeclarationScan

        init(_ buffer: UnsafeBufferPointer<UInt8>, collectingDeclarations: Bool) {
            declarations = DeclarationScan(buffer)
            self.collectingDeclarations = collectingDeclarations
        }

        func result(isASCII: Bool) -> Scan {
            Scan(markers: Mask(bits: found), declaredTypeNames: collectingDeclarations ? declarations.names : nil,
                 declarationNames: collectingDeclarations ? declarations.declarationNames : nil, isASCII: isASCII)
        }

        /// The candidates of a group whose run starts at `run`. Each place a pattern starts
        /// is reached once: through whichever run of its window starts at a multiple of
        /// `stride`.
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
