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

    func testOtherPathsAreStandardized() {
        XCTAssertEqual(LexicalPath.absolute("/a//b/", relativeTo: "/x"), "/a/b")
        XCTAssertEqual(LexicalPath.absolute("/a/./b/../c", relativeTo: "/x"), "/a/c")
        XCTAssertEqual(LexicalPath.absolute("b/./c", relativeTo: "/x/y"), "/x/y/b/c")
        XCTAssertEqual(LexicalPath.absolute("../../..", relativeTo: "/x"), "/")
        XCTAssertEqual(LexicalPath.absolute("/..", relativeTo: "/x"), "/")
    }
}
