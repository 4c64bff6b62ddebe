import XCTest
@testable import Rules

/// `NameHashTable` places keys by their own bits: it (and the groups and chains built on it)
/// must answer exactly as `Dictionary` and `Set` do, whatever the keys (real name hashes, keys that collide in their high or low
/// bits, many keys that make it grow).
final class NameHashTableTests: XCTestCase {
    /// A deterministic generator, so that a failure can be replayed.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state
        }
    }

    /// Key families: name hashes, keys differing only in low bits, keys differing only in
    /// high bits (the same first slot), and random ones.
    func keys(_ family: Int, _ count: Int, _ generator: inout Generator) -> [UInt64] {
        (0..<count).map { index -> UInt64 in
            switch family {
            case 0: return NameHash.of("name\(index % 97)")
            case 1: return UInt64(index % 61)
            case 2: return UInt64(index % 53) << 40
            default: return generator.next() % 200
            }
        }
    }

    func testAgreesWithDictionaryAndSet() {
        var generator = Generator(state: 11)
        for family in 0..<4 {
            for count in [0, 1, 2, 7, 8, 9, 31, 200, 1000] {
                let inserted = keys(family, count, &generator)
                var table = NameHashTable<Int>()
                var exchanged = NameHashTable<Int>()
                var dictionary: [UInt64: Int] = [:]
                var set = NameHashTable<Void>()
                var plainSet = Set<UInt64>()
                var grouped = NameHashTable<[Int]>()
                var plainGroups: [UInt64: [Int]] = [:]
                // Room made up front, for all keys and for fewer (it grows past that).
                var reserved = NameHashTable<Int>(minimumCapacity: count)
                var underReserved = NameHashTable<Int>(minimumCapacity: count / 3)
                // Each key's first position, added by the one-probe lookup.
                var firsts = NameHashTable<Int>()
                var plainFirsts: [UInt64: Int] = [:]
                for (position, key) in inserted.enumerated() {
                    XCTAssertEqual(firsts.value(for: key, addingIfAbsent: position), plainFirsts[key] ?? position)
                    if plainFirsts[key] == nil { plainFirsts[key] = position }
                    XCTAssertEqual(exchanged.exchangeValue(position, for: key), dictionary[key])
                    table.setValue(position, for: key)
                    reserved.setValue(position, for: key)
                    underReserved.setValue(position, for: key)
                    dictionary[key] = position
                    XCTAssertEqual(set.insert(key), plainSet.insert(key).inserted)
                    grouped.modify(key, default: []) { $0.append(position) }
                    plainGroups[key, default: []].append(position)
                }
                XCTAssertEqual(table.count, dictionary.count)
                XCTAssertEqual(set.count, plainSet.count)
                XCTAssertEqual(Set(table.keys), Set(dictionary.keys))
                let groups = NameGroups(grouping: inserted.count) { inserted[$0] }
                let chains = NameChains(chaining: inserted.count) { inserted[$0] }
                // Every third index without a key: in no chain.
                let sparseChains = NameChains(chaining: inserted.count) { $0 % 3 == 0 ? nil : inserted[$0] }
                // Present keys and absent ones (other keys of every family).
                let asked = inserted + keys((family + 1) % 4, 50, &generator) + keys((family + 2) % 4, 50, &generator)
                for key in asked {
                    XCTAssertEqual(table[key], dictionary[key], "family \(family), count \(count), key \(key)")
                    XCTAssertEqual(exchanged[key], dictionary[key])
                    XCTAssertEqual(reserved[key], dictionary[key])
                    XCTAssertEqual(underReserved[key], dictionary[key])
                    XCTAssertEqual(firsts[key], plainFirsts[key])
                    XCTAssertEqual(table.contains(key), dictionary[key] != nil)
                    XCTAssertEqual(set.contains(key), plainSet.contains(key))
                    XCTAssertEqual(grouped[key], plainGroups[key])
                    XCTAssertEqual(groups[key].map(Array.init), plainGroups[key])
                    XCTAssertEqual(Array(chains[key]), plainGroups[key] ?? [])
                    XCTAssertEqual(chains[key].isEmpty, plainGroups[key] == nil)
                    XCTAssertEqual(chains[key].first, plainGroups[key]?.first)
                    XCTAssertEqual(Array(sparseChains[key]), (plainGroups[key] ?? []).filter { $0 % 3 != 0 })
                    // A group is a slice of one array: searched in its own indices.
                    if let group = groups[key] {
                        for bound in [-1, 0, count / 2, count] + group.map({ $0 + 1 }) {
                            XCTAssertEqual(firstIndex(in: group, atOrAfter: bound) { $0 },
                                           group.firstIndex { $0 >= bound } ?? group.endIndex)
                        }
                    }
                }
            }
        }
    }

    func testKeepsInsertionOrder() {
        var table = NameHashTable<String>()
        let names = (0..<100).map { "member\($0)" }
        for name in names { table.setValue(name, for: NameHash.of(name)) }
        table.setValue("again", for: NameHash.of("member3"))
        XCTAssertEqual(table.keys, names.map { NameHash.of($0) })
        XCTAssertEqual(table.values[3], "again")
        XCTAssertTrue(NameHashTable<Int>().isEmpty)
        XCTAssertNil(NameHashTable<Int>()[0])
    }
}
