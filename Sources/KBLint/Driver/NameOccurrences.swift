/// Which files hold each name, for the few names a lookup round asks about among the names
/// of thousands of files. The (name, file) pairs are laid out bucket by bucket, a bucket per
/// name hash's high bits after a multiplication (FNV-1a's low bits vary little between
/// similar names), in two passes: no per-name array and no hashing beyond that
/// multiplication, where a table of per-name arrays cost ten times as much.
struct NameOccurrences: Sendable {
    /// Per bucket, the index of its first pair; one more entry marks the end of the last.
    private let bucketStarts: [Int32]
    private let names: [UInt64]
    private let files: [Int32]
    /// How far a product is shifted right to give its bucket.
    private let shift: UInt64

    /// `namesOfFiles`: each file's index (below 2^31, in increasing order) with the names it
    /// holds.
    init(_ namesOfFiles: [(file: Int, names: [UInt64])]) {
        let count = namesOfFiles.reduce(0) { $0 + $1.names.count }
        var bits: UInt64 = 0
        while 1 << bits < count { bits += 1 }
        let shift = 64 - bits
        var starts = [Int32](repeating: 0, count: (1 << Int(bits)) + 1)
        for (_, names) in namesOfFiles {
            for name in names { starts[Self.bucket(name, shift) + 1] += 1 }
        }
        for bucket in 1..<starts.count { starts[bucket] += starts[bucket - 1] }
        var next = starts
        var names = [UInt64](repeating: 0, count: count)
        var files = [Int32](repeating: 0, count: count)
        for (file, fileNames) in namesOfFiles {
            for name in fileNames {
                let bucket = Self.bucket(name, shift)
                let position = Int(next[bucket])
                names[position] = name
                files[position] = Int32(file)
                next[bucket] += 1
            }
        }
        self.bucketStarts = starts
        self.names = names
        self.files = files
        self.shift = shift
    }

    private static func bucket(_ name: UInt64, _ shift: UInt64) -> Int {
        Int(truncatingIfNeeded: (name &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The files holding `name`, in increasing order, each once per time it was listed.
    func files(holding name: UInt64) -> [Int] {
        let bucket = Self.bucket(name, shift)
        return (Int(bucketStarts[bucket])..<Int(bucketStarts[bucket + 1])).compactMap { names[$0] == name ? Int(files[$0]) : nil }
    }
}
