import Foundation
import XCTest
@testable import KBLint

final class FileDiscoveryTests: XCTestCase {
    func testFindsSwiftFilesSortedSkippingHiddenAndBuildFolders() throws {
        let tree = try TemporaryDirectory()
        for path in ["b/Z.swift", "b/a.swift", "A.swift", "notes.txt", ".hidden/H.swift", ".build/B.swift",
                     "Pods/P.swift", "Carthage/C.swift", "DerivedData/D.swift", "sub/.Dot.swift"] {
            try tree.write(path, "let x = 1\n")
        }
        let discovery = FileDiscovery(currentDirectory: tree.path)
        let (targets, errors) = discovery.discover(["."])
        XCTAssertEqual(errors, [])
        XCTAssertEqual(targets.map(\.path), ["A.swift", "b/Z.swift", "b/a.swift"])
    }

    /// A folder's entries come in the order of their bytes: capitals first, a name before the
    /// longer names it starts, punctuation by its code.
    func testListingsAreSortedByTheBytesOfTheNames() throws {
        let tree = try TemporaryDirectory()
        let names = ["b", "B", "a.swift", "a", "ab", "A_", "a-", "ViewController+Keyboard.swift", "ViewController.swift"]
        for name in names { try tree.write(name, "") }
        let listed = try FileSystem.contentsOfDirectory(tree.path).entries.map(\.name)
        XCTAssertEqual(listed, ["A_", "B", "ViewController+Keyboard.swift", "ViewController.swift", "a", "a-", "a.swift", "ab", "b"])
        XCTAssertEqual(listed, names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }

    /// Names that share their first 16 bytes or more (which the listing compares first),
    /// names ending within them, and names that are not ASCII, against a plain byte sort.
    func testListingsOfRandomNamesAreSortedByTheirBytes() throws {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["ViewController", "ViewControllerKeyboard", "a", "A", "_", "-", "+", ".swift", "é", "e\u{301}", "Ω", "0", "z"]
        for _ in 0..<5 {
            let tree = try TemporaryDirectory()
            var names: Set<String> = []
            while names.count < 40 {
                let count = Int.random(in: 1...4, using: &generator)
                names.insert((0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined())
            }
            for name in names { try tree.write(name, "") }
            let listed = try FileSystem.contentsOfDirectory(tree.path).entries.map(\.name)
            XCTAssertEqual(listed.map { Array($0.utf8) }, names.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) })
        }
    }

    /// The byte test the walk and the deployment-target detection ask of names, against the
    /// bytes compared one by one, on names built from pieces that are and are not ASCII
    /// (small and heap-allocated strings both).
    func testFileNameSuffixesAreTheNamesLastBytes() {
        var generator = SystemRandomNumberGenerator()
        let pieces = [".swift", "swift", ".xcodeproj", ".xcconfig", "Package", "é", "e\u{301}", "Ω", "a", ".", "t", "ViewControllerKeyboard"]
        func plainlyEnds(_ name: String, _ suffix: String) -> Bool {
            Array(name.utf8).reversed().starts(with: Array(suffix.utf8).reversed())
        }
        for _ in 0..<2_000 {
            let name = (0..<Int.random(in: 0...4, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            XCTAssertEqual(name.hasFileNameSuffix(".swift"), plainlyEnds(name, ".swift"), name)
            XCTAssertEqual(name.hasFileNameSuffix(".xcodeproj"), plainlyEnds(name, ".xcodeproj"), name)
            XCTAssertEqual(name.hasFileNameSuffix(".xcconfig"), plainlyEnds(name, ".xcconfig"), name)
            XCTAssertTrue(name.hasFileNameSuffix(""))
        }
        XCTAssertTrue("A.swift".hasFileNameSuffix(".swift"))
        XCTAssertFalse("swift".hasFileNameSuffix(".swift"))
        XCTAssertFalse("A.swift\u{301}".hasFileNameSuffix(".swift"))
    }

    func testSymlinkLoopsAreWalkedOnceAndMissingPathsAreErrors() throws {
        let tree = try TemporaryDirectory()
        try tree.write("src/A.swift", "")
        try FileManager.default.createSymbolicLink(atPath: tree.path + "/src/loop", withDestinationPath: tree.path + "/src")
        try FileManager.default.createSymbolicLink(atPath: tree.path + "/src/dangling", withDestinationPath: tree.path + "/nowhere")
        let discovery = FileDiscovery(currentDirectory: tree.path)
        let (targets, errors) = discovery.discover(["src", "missing", "src/A.swift"])
        XCTAssertEqual(targets.map(\.path), ["src/A.swift"])
        XCTAssertEqual(errors.map(\.path), ["missing"])
    }

    func testExcludedAppliesToDiscoveredFilesAndToNamedOnesOnlyWhenForced() throws {
        let tree = try TemporaryDirectory()
        try tree.write("Generated/G.swift", "")
        try tree.write("App/A.swift", "")
        var discovery = FileDiscovery(currentDirectory: tree.path)
        discovery.exclusion = { _ in { path, _ in path.hasSuffix("/Generated") || path.contains("/Generated/") } }
        XCTAssertEqual(discovery.discover(["."]).targets.map(\.path), ["App/A.swift"])
        XCTAssertEqual(discovery.discover(["Generated/G.swift"]).targets.map(\.path), ["Generated/G.swift"])
        discovery.forceExclude = true
        XCTAssertEqual(discovery.discover(["Generated/G.swift"]).targets.map(\.path), [])
    }

    func testPathsOutsideTheCurrentDirectoryStayAbsolute() throws {
        let tree = try TemporaryDirectory()
        let outside = try TemporaryDirectory()
        try outside.write("O.swift", "")
        let targets = FileDiscovery(currentDirectory: tree.path).discover([outside.path + "/./O.swift"]).targets
        XCTAssertEqual(targets.map(\.path), [outside.path + "/O.swift"])
    }
}

final class FileSystemTests: XCTestCase {
    func testReadRefusesFIFOsAndFoldersWithoutBlocking() throws {
        let tree = try TemporaryDirectory()
        let fifo = tree.path + "/pipe.swift"
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        XCTAssertThrowsError(try FileSystem.readFile(fifo)) { error in
            XCTAssertTrue("\(error)".contains("not a regular file"), "\(error)")
        }
        XCTAssertThrowsError(try FileSystem.readFile(tree.path))
        XCTAssertThrowsError(try FileSystem.readFile(tree.path + "/missing.swift"))
    }

    func testAtomicReplaceKeepsPermissionsAndLinks() throws {
        let tree = try TemporaryDirectory()
        let file = try tree.write("A.swift", "old\n")
        XCTAssertEqual(chmod(file, 0o640), 0)
        try FileManager.default.createSymbolicLink(atPath: tree.path + "/Link.swift", withDestinationPath: file)
        try FileSystem.replaceAtomically(tree.path + "/Link.swift", with: Array("new\n".utf8), permissions: 0o640)
        XCTAssertEqual(try tree.text("A.swift"), "new\n")
        XCTAssertTrue(FileSystem.isSymbolicLink(tree.path + "/Link.swift"))
        XCTAssertEqual(try FileSystem.status(of: file).permissions, 0o640)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: tree.path).filter { $0.contains("kblint-") }
        XCTAssertEqual(leftovers, [])
    }
}
