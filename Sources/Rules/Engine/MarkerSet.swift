#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Which of many byte strings a file contains, found in one pass per distinct anchor byte.
/// The driver asks every file about every rule's markers, suppression comments and
/// project-wide facts: searched one by one, markers that share an anchor (`addObserver` and
/// `removeObserver` on `O`) made `memchr` stop at the same bytes again and again.
public struct MarkerSet: Sendable {
    /// A set of markers as bits (up to 64 markers).
    public struct Mask: Sendable, Hashable {
        public var bits: UInt64
        public func intersects(_ other: Mask) -> Bool { bits & other.bits != 0 }
    }

    private struct Marker: Sendable {
        let text: StaticString
        let anchor: Int
        /// A byte next to the anchor and its offset from it: compared before the whole
        /// marker, it turns away nearly every false hit without a call.
        let neighbour: (offset: Int, byte: UInt8)
    }

    private let markers: [Marker]
    /// Marker indices by anchor byte.
    private let groups: [(byte: UInt8, markers: [Int])]

    /// `markers`: at most 64 distinct strings.
    public init(_ markers: [StaticString]) {
        var distinct: [Marker] = []
        for text in markers where !distinct.contains(where: { Self.same($0.text, text) }) {
            let pattern = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
            let anchor = ByteSearch.rarestPosition(in: pattern)
            let offset = anchor + 1 < pattern.count ? 1 : (anchor > 0 ? -1 : 0)
            distinct.append(Marker(text: text, anchor: anchor, neighbour: (offset, pattern[anchor + offset])))
        }
        precondition(distinct.count <= 64, "a marker set holds at most 64 markers")
        self.markers = distinct
        var groups: [(byte: UInt8, markers: [Int])] = []
        for (index, marker) in distinct.enumerated() {
            let byte = marker.text.utf8Start[marker.anchor]
            if let group = groups.firstIndex(where: { $0.byte == byte }) {
                groups[group].markers.append(index)
            } else {
                groups.append((byte, [index]))
            }
        }
        self.groups = groups
    }

    /// The bits of `markers` (those of this set).
    public func mask(of markers: [StaticString]) -> Mask {
        var bits: UInt64 = 0
        for text in markers {
            if let index = self.markers.firstIndex(where: { Self.same($0.text, text) }) { bits |= 1 << UInt64(index) }
        }
        return Mask(bits: bits)
    }

    /// The markers `bytes` contains.
    public func present(in bytes: [UInt8]) -> Mask {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return Mask(bits: 0) }
            let count = buffer.count
            var found: UInt64 = 0
            for group in groups {
                var missing = group.markers
                var position = 0
                while !missing.isEmpty, position < count,
                      let hit = memchr(base + position, Int32(group.byte), count - position) {
                    let offset = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    var index = 0
                    while index < missing.count {
                        let marker = markers[missing[index]]
                        let start = offset - marker.anchor
                        let length = marker.text.utf8CodeUnitCount
                        if start >= 0, start + length <= count, base[offset + marker.neighbour.offset] == marker.neighbour.byte,
                           memcmp(base + start, marker.text.utf8Start, length) == 0 {
                            found |= 1 << UInt64(missing[index])
                            missing.swapAt(index, missing.count - 1)
                            missing.removeLast()
                        } else {
                            index += 1
                        }
                    }
                    position = offset + 1
                }
            }
            return Mask(bits: found)
        }
    }

    private static func same(_ left: StaticString, _ right: StaticString) -> Bool {
        left.utf8CodeUnitCount == right.utf8CodeUnitCount
            && memcmp(left.utf8Start, right.utf8Start, left.utf8CodeUnitCount) == 0
    }
}
