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
/// Each pattern (marker or keyword) is found through one of its three-byte runs, the one
/// with the rarest letters. The pass hashes every run of three bytes of the file into a
/// 64 KB table; runs no pattern uses (nearly all) cost a multiply, a load and an `or`, six
/// at a time from one 8-byte load, with one branch per six.
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
    }

    private struct Pattern: Sendable {
        let text: StaticString
        /// Where its three-byte run starts in it.
        let anchor: Int
        /// The marker's bit; 0 for a declaration keyword.
        let bit: UInt64
    }

    /// Bit `i` of a mask is `markers[i]`.
    private let markers: [StaticString]
    /// Markers under three bytes, searched on their own (none of the catalogue's).
    private let shortMarkers: [Int]
    private let patterns: [Pattern]
    /// Per hash of three bytes: the index + 1 of its group in `groups`, 0 for none.
    private let runs: [UInt8]
    /// Pattern indices per group of patterns whose runs share a hash.
    private let groups: [[Int]]

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
            if text.utf8CodeUnitCount < 3 {
                shortMarkers.append(index)
            } else {
                patterns.append(Self.pattern(text, bit: 1 << UInt64(index)))
            }
        }
        patterns += DeclarationScan.keywords.map { Self.pattern($0, bit: 0) }
        var runs = [UInt8](repeating: 0, count: 1 << 16)
        var groups: [[Int]] = []
        for (index, pattern) in patterns.enumerated() {
            let start = pattern.text.utf8Start + pattern.anchor
            let slot = Self.slot(UInt32(start[0]) | UInt32(start[1]) << 8 | UInt32(start[2]) << 16)
            if runs[slot] == 0 {
                groups.append([])
                runs[slot] = UInt8(groups.count)
            }
            groups[Int(runs[slot]) - 1].append(index)
        }
        self.markers = distinct
        self.shortMarkers = shortMarkers
        self.patterns = patterns
        self.runs = runs
        self.groups = groups
    }

    private static func pattern(_ text: StaticString, bit: UInt64) -> Pattern {
        Pattern(text: text, anchor: ByteSearch.rarestRunPosition(in: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)), bit: bit)
    }

    /// The table slot of three bytes, given as the low 24 bits of `run` (higher bits are
    /// ignored): the top 16 bits of a multiplicative hash.
    @inline(__always)
    private static func slot(_ run: UInt32) -> Int { Int(((run &<< 8) &* 0x9E37_79B1) &>> 16) }

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
            guard let base = buffer.baseAddress else { return state.result }
            let count = buffer.count
            runs.withUnsafeBufferPointer { table in
                let table = table.baseAddress!
                var index = 0
                while index + 8 <= count {
                    let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                    var groups = table[Self.slot(UInt32(truncatingIfNeeded: word))]
                    groups |= table[Self.slot(UInt32(truncatingIfNeeded: word &>> 8))]
                    groups |= table[Self.slot(UInt32(truncatingIfNeeded: word &>> 16))]
                    groups |= table[Self.slot(UInt32(truncatingIfNeeded: word &>> 24))]
                    groups |= table[Self.slot(UInt32(truncatingIfNeeded: word &>> 32))]
                    groups |= table[Self.slot(UInt32(truncatingIfNeeded: word &>> 40))]
                    if groups != 0 {
                        for offset in 0..<6 {
                            let group = table[Self.slot(UInt32(truncatingIfNeeded: word &>> UInt64(8 * offset)))]
                            if group != 0 { state.visit(groupAt: Int(group) - 1, runAt: index + offset, in: self) }
                        }
                    }
                    index += 6
                }
                while index + 3 <= count {
                    let run = UInt32(base[index]) | UInt32(base[index + 1]) << 8 | UInt32(base[index + 2]) << 16
                    let group = table[Self.slot(run)]
                    if group != 0 { state.visit(groupAt: Int(group) - 1, runAt: index, in: self) }
                    index += 1
                }
            }
            return state.result
        }
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

        var result: Scan {
            Scan(markers: Mask(bits: found), declaredTypeNames: collectingDeclarations ? declarations.names : nil,
                 declarationNames: collectingDeclarations ? declarations.declarationNames : nil)
        }

        /// The patterns of a group whose run may start at `run`.
        @inline(never)
        mutating func visit(groupAt group: Int, runAt run: Int, in set: MarkerSet) {
            let bytes = declarations.bytes
            for index in set.groups[group] {
                let pattern = set.patterns[index]
                let start = run - pattern.anchor
                guard start >= 0 else { continue }
                if pattern.bit == 0 {
                    // A keyword starts a word; its declaration is read when the word is the keyword.
                    if collectingDeclarations, start == 0 || !DeclarationScan.isWordByte(bytes[start - 1]),
                       !declarations.readDeclaration(at: start) {
                        collectingDeclarations = false
                    }
                } else if found & pattern.bit == 0 {
                    let length = pattern.text.utf8CodeUnitCount
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
