/// Which files hold each name, for the few names a lookup round asks about among the names
/// of thousands of files: every (name, file) pair, sorted by name and then file, found by
/// binary search. Built with one sort, where a table of per-name arrays hashed every
/// occurrence and allocated an array per name.
struct NameOccurrences: Sendable {
    private let names: [UInt64]
    private let files: [Int32]

    /// `namesOfFiles`: each file's index (below 2^31) with the names it holds.
    init(_ namesOfFiles: [(file: Int, names: [UInt64])]) {
        var pairs: [(name: UInt64, file: Int32)] = []
        pairs.reserveCapacity(namesOfFiles.reduce(0) { $0 + $1.names.count })
        for (file, names) in namesOfFiles {
            for name in names { pairs.append((name, Int32(file))) }
        }
        pairs.sort { $0.name != $1.name ? $0.name < $1.name : $0.file < $1.file }
        names = pairs.map(\.name)
        files = pairs.map(\.file)
    }

    /// The files holding `name`, in increasing order, each once per time it was listed.
    func files(holding name: UInt64) -> some Collection<Int> {
        var low = 0, high = names.count
        while low < high {
            let middle = (low + high) / 2
            if names[middle] < name { low = middle + 1 } else { high = middle }
        }
        var end = low
        while end < names.count, names[end] == name { end += 1 }
        return files[low..<end].lazy.map { Int($0) }
    }
}
