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
/// Each pattern (marker or keyword) is found through one of its two-byte runs, the one with
/// the rarest letters. The pass looks every run of two bytes of the file up in a 64 KB table
/// indexed by the two bytes themselves (no hash to compute): a run no pattern uses (nearly
/// all) costs a 16-bit load, a byte load and an `or`, eight at a time with one branch per
/// eight. A run a pattern uses is checked against the byte after it, then against whole
/// patterns. The same pass notes whether the file is all ASCII, which saves most files a
/// separate UTF-8 validation.
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

    private struct Pattern: Sendable {
        let text: StaticString
        /// Where its two-byte run starts in it.
        let anchor: Int
        /// The marker's bit; 0 for a declaration keyword.
        let bit: UInt64

        func byte(at offset: Int) -> UInt8 { text.utf8Start[offset] }
    }

    /// Bit `i` of a mask is `markers[i]`.
    private let markers: [StaticString]
    /// Markers of one byte, searched on their own (none of the catalogue's).
    private let shortMarkers: [Int]
    /// The patterns, those of each group together.
    private let patterns: [Pattern]
    /// Per run of two bytes (the first in the low byte): the index + 1 of its group, 0 for
    /// none. A group is the patterns that share their run.
    private let runs: [UInt8]
    /// Group `g`'s patterns are `patterns[groupStarts[g]..<groupStarts[g + 1]]`.
    private let groupStarts: [Int]
    /// Four words (256 bits) per group: the bytes that may follow its run, those after the
    /// run in its patterns (every byte when a pattern ends with the run). A run followed by
    /// another byte is passed over without looking at the patterns.
    private let followers: [UInt64]

    /// `markers`: at most 64 distinct strings.
    public init(_ markers: [StaticString]) {
        var distinct: [StaticString] = []
        for text in markers where text.utf8CodeUnitCount > 0 && !distinct.contains(where: { Self.same($0, text) }) {
            distinct.append(text)
        }
        precondition(distinct.count <= 64, "a marker set holds at most 64 markers")
        var patterns: [Pattern] = []
        var shortMarkers: [Int] = []
        for (index, text) in distinct.enumerated() {
            if text.utf8CodeUnitCount < 2 {
                shortMarkers.append(index)
            } else {
                patterns.append(Self.pattern(text, bit: 1 << UInt64(index)))
            }
        }
        patterns += DeclarationScan.keywords.map { Self.pattern($0, bit: 0) }
        // With the keywords, fewer than 255 patterns: a group's number fits a byte.
        var runs = [UInt8](repeating: 0, count: 1 << 16)
        var groups: [[Pattern]] = []
        for pattern in patterns {
            let slot = Int(pattern.byte(at: pattern.anchor)) | Int(pattern.byte(at: pattern.anchor + 1)) << 8
            if runs[slot] == 0 {
                groups.append([])
                runs[slot] = UInt8(groups.count)
            }
            groups[Int(runs[slot]) - 1].append(pattern)
        }
        var followers = [UInt64](repeating: 0, count: 4 * groups.count)
        for (group, members) in groups.enumerated() {
            for pattern in members {
                guard pattern.anchor + 2 < pattern.text.utf8CodeUnitCount else {
                    for word in 0..<4 { followers[4 * group + word] = ~0 }
                    continue
                }
                let next = pattern.byte(at: pattern.anchor + 2)
                followers[4 * group + Int(next >> 6)] |= 1 << UInt64(next & 63)
            }
        }
        self.markers = distinct
        self.shortMarkers = shortMarkers
        self.patterns = groups.flatMap { $0 }
        self.runs = runs
        self.groupStarts = groups.reduce(into: [0]) { $0.append($0.last! + $1.count) }
        self.followers = followers
    }

    /// A pattern found through its rarest run of two bytes; one with a byte after it when the
    /// pattern is longer, so that `followers` can tell runs apart.
    private static func pattern(_ text: StaticString, bit: UInt64) -> Pattern {
        let length = text.utf8CodeUnitCount
        let searched = UnsafeBufferPointer(start: text.utf8Start, count: length > 2 ? length - 1 : length)
        return Pattern(text: text, anchor: ByteSearch.rarestRunPosition(in: searched, length: 2), bit: bit)
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
            let highBits = runs.withUnsafeBufferPointer { table in
                followers.withUnsafeBufferPointer { followers in
                    scanRuns(base, buffer.count, table: table.baseAddress!, followers: followers.baseAddress!, &state)
                }
            }
            return state.result(isASCII: highBits & 0x8080 == 0)
        }
    }

    /// Looks every run of two bytes of `base[0..<count]` up in `table` and visits the groups
    /// of those a pattern uses; returns the bytes or'ed together (two at a time: test the low
    /// byte's and the high byte's top bits). Apart from `scan`, with plain values only, so
    /// that the loop keeps them in registers.
    private func scanRuns(
        _ base: UnsafePointer<UInt8>, _ count: Int, table: UnsafePointer<UInt8>, followers: UnsafePointer<UInt64>,
        _ state: inout ScanState
    ) -> UInt64 {
        @inline(__always) func run(at offset: Int) -> Int {
            Int(UnsafeRawPointer(base + offset).loadUnaligned(as: UInt16.self).littleEndian)
        }
        @inline(__always) func group(at offset: Int) -> UInt8 { table[run(at: offset)] }
        /// Visits the groups of the runs at `runs` unless the byte after a run rules its group
        /// out. Out of line: the loop's registers stay free for the loop.
        @inline(never) func visitGroups(_ runs: Range<Int>, _ state: inout ScanState) {
            for run in runs {
                let found = group(at: run)
                guard found != 0 else { continue }
                let index = Int(found) - 1
                if run + 2 < count {
                    let next = base[run + 2]
                    guard followers[4 * index + Int(next >> 6)] & (1 << UInt64(next & 63)) != 0 else { continue }
                }
                state.visit(groupAt: index, runAt: run, in: self)
            }
        }
        var highBits = 0
        var index = 0
        // Eight runs per step, each a 16-bit load (the runs at even offsets also give the
        // bytes for `highBits`); the last one ends at `index + 8`.
        while index &+ 8 < count {
            let run0 = run(at: index), run2 = run(at: index &+ 2), run4 = run(at: index &+ 4), run6 = run(at: index &+ 6)
            highBits |= run0 | run2 | run4 | run6
            var groups = table[run0] | table[run2] | table[run4] | table[run6]
            groups |= group(at: index &+ 1)
            groups |= group(at: index &+ 3)
            groups |= group(at: index &+ 5)
            groups |= group(at: index &+ 7)
            if groups != 0 { visitGroups(index..<(index &+ 8), &state) }
            index &+= 8
        }
        for last in index..<count { highBits |= Int(base[last]) }
        if index + 1 < count { visitGroups(index..<(count - 1), &state) }
        return UInt64(highBits)
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

        /// The patterns of a group whose run may start at `run`.
        @inline(never)
        mutating func visit(groupAt group: Int, runAt run: Int, in set: MarkerSet) {
            let bytes = declarations.bytes
            for index in set.groupStarts[group]..<set.groupStarts[group + 1] {
                let pattern = set.patterns[index]
                let start = run - pattern.anchor
                guard start >= 0 else { continue }
                let length = pattern.text.utf8CodeUnitCount
                if pattern.bit == 0 {
                    // A keyword starts a word; its declaration is read when the word is the
                    // keyword. The keyword's own run is the only one that leads here, so each
                    // declaration is read once.
                    if collectingDeclarations, start == 0 || !DeclarationScan.isWordByte(bytes[start - 1]),
                       start + length <= bytes.count, memcmp(bytes.baseAddress! + start, pattern.text.utf8Start, length) == 0,
                       !declarations.readDeclaration(at: start) {
                        collectingDeclarations = false
                    }
                } else if found & pattern.bit == 0 {
                    if start + length <= bytes.count, memcmp(bytes.baseAddress! + start, pattern.text.utf8Start, length) == 0 {
                        found |= pattern.bit
                    }
                }
            }
        }
    }

    private static func same(_ left: StaticString, _ right: StaticString) -> Bool {
        left.utf8CodeUnitCount == right.utf8CodeUnitCount
            && memcmp(left.utf8Start, right.utf8Start, left.utf8CodeUnitCount) == 0
    }
}
