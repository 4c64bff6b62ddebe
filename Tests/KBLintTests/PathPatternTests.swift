import XCTest
@testable import KBLint

final class PathPatternTests: XCTestCase {
    private func pattern(_ text: String, base: String = "/repo") throws -> PathPattern {
        try PathPattern(text, relativeTo: base)
    }

    func testLiteralPathsMatchThemselvesAndWhatIsUnderThem() throws {
        let pods = try pattern("Pods")
        XCTAssertTrue(pods.matches("/repo/Pods"))
        XCTAssertFalse(pods.matches("/repo/Pods/A.swift"))
        XCTAssertTrue(pods.matchesItselfOrAncestor(of: "/repo/Pods/A/B.swift"))
        XCTAssertFalse(pods.matchesItselfOrAncestor(of: "/repo/PodsExtra/B.swift"))
        XCTAssertFalse(pods.matchesItselfOrAncestor(of: "/repo/Sources/Pods.swift"))
        XCTAssertFalse(pods.matchesItselfOrAncestor(of: "/other/Pods/A.swift"))
        XCTAssertTrue(try pattern("./Pods/").matches("/repo/Pods"))
        XCTAssertTrue(try pattern("../shared/x.swift").matches("/shared/x.swift"))
        XCTAssertTrue(try pattern("/abs/path").matches("/abs/path"))
    }

    func testStarStaysWithinOneComponent() throws {
        let swiftFiles = try pattern("Sources/*.swift")
        XCTAssertTrue(swiftFiles.matches("/repo/Sources/A.swift"))
        XCTAssertTrue(swiftFiles.matches("/repo/Sources/.swift"))
        XCTAssertFalse(swiftFiles.matches("/repo/Sources/Sub/A.swift"))
        XCTAssertFalse(swiftFiles.matches("/repo/Sources/A.swiftx"))
        XCTAssertTrue(try pattern("*Tests").matches("/repo/AppTests"))
        XCTAssertTrue(try pattern("a*b*c").matches("/repo/aXbYbZc"))
        XCTAssertFalse(try pattern("a*b*c").matches("/repo/aXbYbZ"))
    }

    func testDoubleStarSpansAnyNumberOfFolders() throws {
        let generated = try pattern("**/Generated")
        XCTAssertTrue(generated.matches("/repo/Generated"))
        XCTAssertTrue(generated.matches("/repo/a/b/c/Generated"))
        XCTAssertTrue(generated.matchesItselfOrAncestor(of: "/repo/a/Generated/X.swift"))
        XCTAssertFalse(generated.matchesItselfOrAncestor(of: "/elsewhere/Generated/X.swift"))
        let nested = try pattern("Sources/**/*.generated.swift")
        XCTAssertTrue(nested.matches("/repo/Sources/A.generated.swift"))
        XCTAssertTrue(nested.matches("/repo/Sources/x/y/A.generated.swift"))
        XCTAssertFalse(nested.matches("/repo/Sources/x/y/A.swift"))
        XCTAssertTrue(try pattern("a/**/b/**/c").matches("/repo/a/x/b/y/b/z/c"))
        XCTAssertFalse(try pattern("a/**/b/**/c").matches("/repo/a/x/c"))
        XCTAssertTrue(try pattern("**").matchesItselfOrAncestor(of: "/repo/anything/at/all"))
    }

    func testQuestionMarkClassesAndEscapes() throws {
        XCTAssertTrue(try pattern("file?.swift").matches("/repo/file1.swift"))
        XCTAssertTrue(try pattern("file?.swift").matches("/repo/fileé.swift"), "? is one character, not one byte")
        XCTAssertFalse(try pattern("file?.swift").matches("/repo/file.swift"))
        XCTAssertTrue(try pattern("[A-C]*.swift").matches("/repo/Bravo.swift"))
        XCTAssertFalse(try pattern("[A-C]*.swift").matches("/repo/Delta.swift"))
        XCTAssertTrue(try pattern("[!A-C]*.swift").matches("/repo/Delta.swift"))
        XCTAssertTrue(try pattern("[]]x").matches("/repo/]x"))
        XCTAssertTrue(try pattern("a\\*b").matches("/repo/a*b"))
        XCTAssertFalse(try pattern("a\\*b").matches("/repo/axb"))
        XCTAssertThrowsError(try pattern("[abc"))
        XCTAssertThrowsError(try pattern("[z-a]"))
    }

    func testSearchRootIsTheLiteralPrefix() throws {
        XCTAssertEqual(try pattern("Sources/App/**/*.swift").searchRoot, "/repo/Sources/App")
        XCTAssertEqual(try pattern("Sources").searchRoot, "/repo/Sources")
        XCTAssertEqual(try pattern("*/x").searchRoot, "/repo")
    }

    func testPathologicalPatternsFinishQuickly() throws {
        let manyStars = try pattern(String(repeating: "a*", count: 200) + "b")
        let name = "/repo/" + String(repeating: "a", count: 5_000)
        XCTAssertFalse(manyStars.matches(name))
        let manyDoubleStars = try pattern(Array(repeating: "**/a", count: 100).joined(separator: "/") + "/b")
        XCTAssertFalse(manyDoubleStars.matches("/repo/" + Array(repeating: "a", count: 2_000).joined(separator: "/")))
    }

    func testLexicalPaths() {
        XCTAssertEqual(LexicalPath.absolute("b/../c/./d//e", relativeTo: "/a"), "/a/c/d/e")
        XCTAssertEqual(LexicalPath.absolute("../../..", relativeTo: "/a"), "/")
        XCTAssertEqual(LexicalPath.parent(of: "/a/b"), "/a")
        XCTAssertEqual(LexicalPath.parent(of: "/a"), "/")
        XCTAssertNil(LexicalPath.parent(of: "/"))
        XCTAssertEqual(LexicalPath.display("/a/b/c", relativeTo: "/a"), "b/c")
        XCTAssertEqual(LexicalPath.display("/ab/c", relativeTo: "/a"), "/ab/c")
    }
}
