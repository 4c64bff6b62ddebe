import Foundation
import XCTest
@testable import Lexer

/// Lexing must lose nothing: every `.swift` file of this repository, rebuilt from its tokens
/// and the trivia between them, must come back byte for byte.
final class RoundTripTests: XCTestCase {
    func testEveryRepositorySwiftFileRoundTrips() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        var files: [URL] = []
        for folder in ["Sources", "Tests", "Benchmarks", "Examples", "Plugins"] {
            let url = root.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(
                at: url, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles]) else { continue }
            for case let file as URL in walker where file.pathExtension == "swift" { files.append(file) }
        }
        files.append(root.appendingPathComponent("Package.swift"))
        XCTAssertGreaterThan(files.count, 10)
        for file in files {
            let bytes = [UInt8](try Data(contentsOf: file))
            assertRoundTrip(bytes)
        }
    }
}
