import XCTest
@testable import KBLint

/// `LexicalPath.absolute` returns standardized paths unchanged without splitting them (a
/// fast path discovery relies on); everything else is still standardized.
final class LexicalPathTests: XCTestCase {
    func testStandardizedPathsAreRecognised() {
        for path in ["/", "/a", "/a/b.swift", "/.hidden/x", "/a/..b/c", "/a/.b", "/a/b..", "/é/ü.swift"] {
            XCTAssertTrue(LexicalPath.isStandardizedAbsolute(path), path)
            XCTAssertEqual(LexicalPath.absolute(path, relativeTo: "/elsewhere"), path)
        }
        for path in ["", "a", "a/b", "//a", "/a//b", "/a/", "/a/.", "/a/./b", "/a/..", "/a/../b", "/.", "/.."] {
            XCTAssertFalse(LexicalPath.isStandardizedAbsolute(path), path)
        }
    }

    /// Discovery's same-folder test against the folders' bytes compared whole, on random
    /// paths from a few shared folder names (some not ASCII, one long enough to be stored
    /// out of line).
    func testSameFolderIsTheFolderSpelledWithTheSameBytes() {
        var generator = SystemRandomNumberGenerator()
        let names = ["a", "b", "é", "e\u{301}", "Sources", "ViewControllersAndTheirKeyboardHandling", "x.swift"]
        func randomPath() -> String {
            "/" + (0..<Int.random(in: 1...4, using: &generator)).map { _ in names.randomElement(using: &generator)! }.joined(separator: "/")
        }
        func folderBytes(_ path: String) -> [UInt8] { Array(LexicalPath.parent(of: path)!.utf8) }
        for _ in 0..<3_000 {
            let path = randomPath(), folder = LexicalPath.parent(of: path)!
            let other = Bool.random(using: &generator) ? randomPath() : (folder == "/" ? "" : folder) + "/y.swift"
            XCTAssertEqual(LexicalPath.areInSameFolder(path, other), folderBytes(path) == folderBytes(other), "\(path) \(other)")
        }
    }

    func testOtherPathsAreStandardized() {
        XCTAssertEqual(LexicalPath.absolute("/a//b/", relativeTo: "/x"), "/a/b")
        XCTAssertEqual(LexicalPath.absolute("/a/./b/../c", relativeTo: "/x"), "/a/c")
        XCTAssertEqual(LexicalPath.absolute("b/./c", relativeTo: "/x/y"), "/x/y/b/c")
        XCTAssertEqual(LexicalPath.absolute("../../..", relativeTo: "/x"), "/")
        XCTAssertEqual(LexicalPath.absolute("/..", relativeTo: "/x"), "/")
    }
}
