/// A table keyed by name hashes (`NameHash`, FNV-1a) that places each key by its own bits
/// (open addressing, linear probing). `Dictionary` and `Set` hash every key again with
/// SipHash on each insert and lookup; these keys are hashes already, asked about for most
/// names of a file. Entries keep their insertion order; none is ever removed.
struct NameHashTable<Value> {
    /// Per slot: the entry index + 1, 0 for an empty slot. Empty until the first insert (or a
    /// reserved capacity); then a power of two with more than twice as many slots as entries,
    /// so that every probe reaches an empty slot.
    private var slots: [Int32] = []
    /// The keys in insertion order.
    private(set) var keys: [UInt64] = []
    /// The values, in the order of `keys`.
    private(set) var values: [Value] = []

    init() {}

    /// An empty table with room for `count` keys: adding that many rebuilds nothing. For
    /// tables whose key count is known up to few duplicates (declarations by name).
    init(minimumCapacity count: Int) {
        guard count > 0 else { return }
        var slotCount = 16
        while slotCount <= count * 2 { slotCount *= 2 }
        slots = [Int32](repeating: 0, count: slotCount)
        keys.reserveCapacity(count)
        values.reserveCapacity(count)
    }

    var isEmpty: Bool { keys.isEmpty }
    var count: Int { keys.count }

    subscript(key: UInt64) -> Value? {
        entry(of: key).map { values[$0] }
    }

    func contains(_ key: UInt64) -> Bool {
        entry(of: key) != nil
    }

    /// Sets the value of `key`, adding the key when it is new.
    mutating func setValue(_ value: Value, for key: UInt64) {
        switch probe(key) {
        case .found(let entry): values[entry] = value
        case .vacant(let slot): insert(key, value, at: slot)
        }
    }

    /// Changes the value of `key` in place, starting from `defaultValue` when the key is new.
    mutating func modify(_ key: UInt64, default defaultValue: @autoclosure () -> Value, _ change: (inout Value) -> Void) {
        let entry: Int
        switch probe(key) {
        case .found(let existing):
            entry = existing
        case .vacant(let slot):
            insert(key, defaultValue(), at: slot)
            entry = keys.count - 1
        }
        change(&values[entry])
    }

    /// Sets the value of `key` to `value`, adding the key when it is new; the value it had
    /// before (nil when new): one probe where a lookup followed by a store would take two.
    mutating func exchangeValue(_ value: Value, for key: UInt64) -> Value? {
        switch probe(key) {
        case .found(let entry):
            defer { values[entry] = value }
            return values[entry]
        case .vacant(let slot):
            insert(key, value, at: slot)
            return nil
        }
    }

    /// The value of `key`, after adding the key with `value` when it is new: one probe where
    /// a lookup followed by an insert would take two.
    mutating func value(for key: UInt64, addingIfAbsent value: Value) -> Value {
        switch probe(key) {
        case .found(let entry):
            return values[entry]
        case .vacant(let slot):
            insert(key, value, at: slot)
            return value
        }
    }

    /// The first slot to probe for `key` in a table of `mask + 1` slots: the key's high bits
    /// after a multiplication (Fibonacci hashing), as FNV-1a's low bits vary little between
    /// similar names.
    private static func firstSlot(_ key: UInt64, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    private func entry(of key: UInt64) -> Int? {
        if case .found(let entry) = probe(key) { return entry }
        return nil
    }

    /// Where a probe for a key ends: at its entry, or at the empty slot where it would be
    /// placed (-1 while the table has no slots).
    private enum ProbeEnd {
        case found(entry: Int)
        case vacant(slot: Int)
    }

    private func probe(_ key: UInt64) -> ProbeEnd {
        guard !slots.isEmpty else { return .vacant(slot: -1) }
        let mask = slots.count - 1
        var slot = Self.firstSlot(key, mask)
        while true {
            let stored = Int(slots[slot])
            if stored == 0 { return .vacant(slot: slot) }
            if keys[stored - 1] == key { return .found(entry: stored - 1) }
            slot = (slot + 1) & mask
        }
    }

    /// Adds `key`, which is not in the table, whose probe ended at empty slot `slot`: it goes
    /// there unless the table would then be half full (then it grows first).
    private mutating func insert(_ key: UInt64, _ value: Value, at slot: Int) {
        guard slot >= 0, (keys.count + 1) * 2 < slots.count else {
            appendGrowing(key, value)
            return
        }
        keys.append(key)
        values.append(value)
        slots[slot] = Int32(truncatingIfNeeded: keys.count)
    }

    /// Adds `key`, which is not in the table, and rebuilds the slots at twice the size (at
    /// least 16): every entry is placed again.
    private mutating func appendGrowing(_ key: UInt64, _ value: Value) {
        keys.append(key)
        values.append(value)
        slots = [Int32](repeating: 0, count: max(16, slots.count * 2))
        for entry in keys.indices { place(entry) }
    }

    private mutating func place(_ entry: Int) {
        let mask = slots.count - 1
        var slot = Self.firstSlot(keys[entry], mask)
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(truncatingIfNeeded: entry + 1)
    }
}

extension NameHashTable: Sendable where Value: Sendable {}

extension NameHashTable {
    /// The value of a name declared in an owner, for tables keyed by `Outline.OwnedName.key`.
    subscript(name: Outline.OwnedName) -> Value? {
        self[name.key]
    }
}

extension NameHashTable where Value == Void {
    /// Adds `key`; whether it was new.
    @discardableResult
    mutating func insert(_ key: UInt64) -> Bool {
        guard case .vacant(let slot) = probe(key) else { return false }
        insert(key, (), at: slot)
        return true
    }
}

/// Indices grouped by a name hash, each group in increasing order, all groups in one
/// array rather than an array per group. For tables with a group for most names of a file
/// (calls by callee name, local bindings by name).
struct NameGroups: Sendable {
    /// Per key: its group's number, groups numbered in the order their keys first come.
    private let groupOfKey: NameHashTable<Int32>
    /// Group `g` is `members[starts[g]..<starts[g + 1]]`.
    private let starts: [Int32]
    private let members: [Int]

    /// The indices `0..<count` grouped by `key(index)`; `key` is asked once per index.
    init(grouping count: Int, by key: (Int) -> UInt64) {
        // Room for half as many keys as indices: names mostly recur (calls of a file by
        // callee), so this rebuilds at most once without holding much unused room.
        var groupOfKey = NameHashTable<Int32>(minimumCapacity: count / 2)
        var groupOfIndex = [Int32](repeating: 0, count: count)
        // One size per key: the same room as the keys.
        var sizes: [Int32] = []
        sizes.reserveCapacity(count / 2)
        for index in 0..<count {
            let group = groupOfKey.value(for: key(index), addingIfAbsent: Int32(truncatingIfNeeded: sizes.count))
            if Int(group) == sizes.count { sizes.append(1) } else { sizes[Int(group)] += 1 }
            groupOfIndex[index] = group
        }
        var starts = [Int32](repeating: 0, count: sizes.count + 1)
        for group in sizes.indices { starts[group + 1] = starts[group] + sizes[group] }
        // Each index goes to the next free place of its group, in increasing order.
        var nextPlace = starts
        var members = [Int](repeating: 0, count: count)
        for index in 0..<count {
            let group = Int(groupOfIndex[index])
            members[Int(nextPlace[group])] = index
            nextPlace[group] += 1
        }
        self.groupOfKey = groupOfKey
        self.starts = starts
        self.members = members
    }

    /// The indices whose key is `key`, in increasing order; nil when none.
    subscript(key: UInt64) -> ArraySlice<Int>? {
        groupOfKey[key].map { group in members[Int(starts[Int(group)])..<Int(starts[Int(group) + 1])] }
    }
}

/// Indices chained by a name hash: per key its first index, per index the next one of the
/// same key. For declarations by name, where most names have one declaration: a chain costs
/// no array of its own, where a table of arrays would allocate one per name.
struct NameChains: Sendable {
    /// Per key: the first index of its chain.
    private let firstOfKey: NameHashTable<Int32>
    /// Per index: the next index of the same key, -1 at the end of a chain (and for indices
    /// without a key). Always greater than the index itself.
    private let next: [Int32]

    /// No chains.
    init() {
        firstOfKey = NameHashTable()
        next = []
    }

    /// The indices `0..<count` chained by `key(index)`, each chain in increasing order; indices
    /// whose key is nil are in no chain. `key` is asked once per index.
    init(chaining count: Int, by key: (Int) -> UInt64?) {
        var firstOfKey = NameHashTable<Int32>(minimumCapacity: count)
        var next = [Int32](repeating: -1, count: count)
        // Backwards, so that each index goes in front of the later ones of its key.
        for index in stride(from: count - 1, through: 0, by: -1) {
            guard let key = key(index) else { continue }
            if let later = firstOfKey.exchangeValue(Int32(truncatingIfNeeded: index), for: key) {
                next[index] = later
            }
        }
        self.firstOfKey = firstOfKey
        self.next = next
    }

    /// The indices whose key is `key`, in increasing order (empty when none).
    subscript(key: UInt64) -> Chain {
        Chain(next: next, startIndex: firstOfKey[key].map { Int($0) } ?? Chain.end)
    }

    /// The indices of one key: a collection whose positions are the indices themselves, so
    /// that walking it allocates nothing.
    struct Chain: Collection, Sendable {
        fileprivate static let end = Int.max
        fileprivate let next: [Int32]
        let startIndex: Int
        var endIndex: Int { Self.end }

        func index(after position: Int) -> Int {
            let following = next[position]
            return following < 0 ? Self.end : Int(following)
        }

        subscript(position: Int) -> Int { position }
    }
}
