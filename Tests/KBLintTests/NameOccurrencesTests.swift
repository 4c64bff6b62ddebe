import XCTest
@testable import KBLint

final class NameOccurrencesTests: XCTestCase {
    /// The sorted pairs answer as a table of each name's files in file order would, for names
    /// held by no file, one file and many, including the smallest and largest names.
    func testFilesHoldingANameAreThoseOfAPlainTable() {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<20 {
            let vocabulary: [UInt64] = [0, .max, 1, .max - 1] + (0..<(round * 5 + 1)).map { _ in UInt64.random(in: 0 ... .max, using: &generator) }
            var namesOfFiles: [(file: Int, names: [UInt64])] = []
            var plain: [UInt64: [Int]] = [:]
            // Files in increasing order, some holding no name and some left out.
            for file in (0..<(round * 7)) where Bool.random(using: &generator) {
                let names = Array(Set((0..<Int.random(in: 0...6, using: &generator)).map { _ in vocabulary.randomElement(using: &generator)! }))
                namesOfFiles.append((file, names))
            }
            for (file, names) in namesOfFiles {
                for name in names { plain[name, default: []].append(file) }
            }
            let occurrences = NameOccurrences(namesOfFiles)
            for name in vocabulary + [42, 7] {
                XCTAssertEqual(Array(occurrences.files(holding: name)), plain[name] ?? [], "round \(round), name \(name)")
            }
        }
        XCTAssertTrue(Array(NameOccurrences([]).files(holding: 3)).isEmpty)
    }
}
