import Foundation
import XCTest
@testable import KBLint

final class GitRepositoryTests: XCTestCase {
    let environment = ProcessInfo.processInfo.environment

    func testStagedFilesAreTheIndexVersionsUnderTheirWorkTreePaths() throws {
        let sandbox = try GitSandbox()
        try sandbox.write("Sources/Chat Screen/Ünïcode 表.swift", "let staged = 1\n")
        try sandbox.write("Sources/Old Name.swift", "let renamed = 1\nlet more = 2\nlet lines = 3\n")
        try sandbox.write("Sources/Deleted.swift", "let gone = 1\n")
        try sandbox.write("Sources/Untouched.swift", "let same = 1\n")
        try sandbox.git("add", ".")
        try sandbox.git("commit", "-q", "-m", "base")

        try sandbox.write("Sources/Chat Screen/Ünïcode 表.swift", "let staged = 2\n")
        try sandbox.git("add", "Sources/Chat Screen/Ünïcode 表.swift")
        try sandbox.write("Sources/Chat Screen/Ünïcode 表.swift", "let workingTree = 3\n")
        try sandbox.git("mv", "Sources/Old Name.swift", "Sources/New\tName.swift")
        try sandbox.git("rm", "-q", "Sources/Deleted.swift")
        try sandbox.write("Sources/Added\nwith newline.swift", "let added = 1\n")
        try sandbox.write("Sources/NotStaged.swift", "let notStaged = 1\n")
        try sandbox.git("add", "Sources/Added\nwith newline.swift")
        try FileManager.default.createSymbolicLink(
            atPath: sandbox.path + "/Sources/Link.swift", withDestinationPath: "Untouched.swift")
        try sandbox.git("add", "Sources/Link.swift")

        let repository = try GitRepository(containing: sandbox.path + "/Sources/Chat Screen", environment: environment)
        XCTAssertEqual(repository.topLevel, sandbox.path)
        let staged = try repository.stagedFiles()
        XCTAssertEqual(staged.map(\.path).sorted(), [
            sandbox.path + "/Sources/Added\nwith newline.swift",
            sandbox.path + "/Sources/Chat Screen/Ünïcode 表.swift",
            sandbox.path + "/Sources/New\tName.swift",
        ])
        let contents = try repository.contents(ofBlobs: staged.compactMap(\.blob))
        let byPath = Dictionary(uniqueKeysWithValues: staged.map { ($0.path, String(decoding: contents[$0.blob!]!, as: UTF8.self)) })
        XCTAssertEqual(byPath[sandbox.path + "/Sources/Chat Screen/Ünïcode 表.swift"], "let staged = 2\n")
        XCTAssertEqual(byPath[sandbox.path + "/Sources/New\tName.swift"], "let renamed = 1\nlet more = 2\nlet lines = 3\n")
    }

    func testPathsKeepTheSpellingOfTheDirectoryThroughSymlinks() throws {
        let sandbox = try GitSandbox()
        try sandbox.write("Sources/App.swift", "let a = 1\n")
        try sandbox.git("add", ".")
        let links = try TemporaryDirectory()
        let link = links.path + "/linked repo"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: sandbox.path)
        let repository = try GitRepository(containing: link + "/Sources", environment: environment)
        XCTAssertEqual(repository.topLevel, link)
        XCTAssertEqual(try repository.stagedFiles().map(\.path), [link + "/Sources/App.swift"])
    }

    func testStagedFilesBeforeTheFirstCommitAndWithNothingStaged() throws {
        let sandbox = try GitSandbox()
        let repository = try GitRepository(containing: sandbox.path, environment: environment)
        XCTAssertEqual(try repository.stagedFiles(), [])
        XCTAssertEqual(try repository.contents(ofBlobs: []), [:])
        try sandbox.write("First.swift", "let first = 1\n")
        try sandbox.git("add", "First.swift")
        XCTAssertEqual(try repository.stagedFiles().map(\.path), [sandbox.path + "/First.swift"])
    }

    /// git runs with kblint's environment, so inside a hook it reads the index git names in
    /// `GIT_INDEX_FILE` (a temporary one for `git commit -a` or `git commit <path>`).
    func testGitSeesTheIndexNamedInKBLintsEnvironment() throws {
        let sandbox = try GitSandbox()
        try sandbox.write("Default.swift", "let a = 1\n")
        try sandbox.write("Other.swift", "let b = 1\n")
        try sandbox.git("add", "Default.swift")
        let alternate = sandbox.path + "/.git/alternate-index"
        let result = try ChildProcess(
            executable: GitSandbox.gitPath, arguments: ["add", "Other.swift"], directory: sandbox.path,
            environment: GitSandbox.environment.merging(["GIT_INDEX_FILE": alternate]) { $1 }
        ).run()
        XCTAssertEqual(result.status, 0, result.errorText)

        let plain = try GitRepository(containing: sandbox.path, environment: environment)
        XCTAssertEqual(try plain.stagedFiles().map(\.path), [sandbox.path + "/Default.swift"])
        let hooked = try GitRepository(
            containing: sandbox.path, environment: environment.merging(["GIT_INDEX_FILE": alternate]) { $1 })
        XCTAssertEqual(try hooked.stagedFiles().map(\.path), [sandbox.path + "/Other.swift"])
    }

    func testManyLargeBlobsDoNotDeadlockThePipes() throws {
        let sandbox = try GitSandbox()
        let line = String(repeating: "let value = \"keyboard\" // padding padding padding\n", count: 4_000)
        for index in 0..<12 { try sandbox.write("File\(index).swift", "// \(index)\n" + line) }
        try sandbox.git("add", ".")
        let repository = try GitRepository(containing: sandbox.path, environment: environment)
        let staged = try repository.stagedFiles()
        XCTAssertEqual(staged.count, 12)
        let contents = try repository.contents(ofBlobs: staged.compactMap(\.blob))
        XCTAssertEqual(contents.count, 12)
        XCTAssertTrue(contents.values.allSatisfy { $0.count > 200_000 })
        XCTAssertEqual(Set(contents.values.map { String(decoding: $0.prefix(5), as: UTF8.self) }).count, 12)
    }

    func testChangedFilesSinceARevisionCountFromTheMergeBase() throws {
        let sandbox = try GitSandbox()
        try sandbox.write("A.swift", "let a = 1\n")
        try sandbox.write("B.swift", "let b = 1\n")
        try sandbox.git("add", ".")
        try sandbox.git("commit", "-q", "-m", "base")
        try sandbox.git("checkout", "-q", "-b", "feature")
        try sandbox.write("A.swift", "let a = 2\n")
        try sandbox.write("C d.swift", "let c = 1\n")
        try sandbox.git("add", ".")
        try sandbox.git("commit", "-q", "-m", "feature work")
        // main moves on after the branch point: its change is not the pull request's.
        try sandbox.git("checkout", "-q", "main")
        try sandbox.write("B.swift", "let b = 2\n")
        try sandbox.git("commit", "-q", "-am", "main work")
        try sandbox.git("checkout", "-q", "feature")
        try sandbox.write("E.swift", "let uncommittedButTracked = 1\n")
        try sandbox.git("add", "E.swift")

        let repository = try GitRepository(containing: sandbox.path, environment: environment)
        XCTAssertEqual(try repository.changedFiles(since: "main").map(\.path).sorted(),
                       ["A.swift", "C d.swift", "E.swift"].map { sandbox.path + "/" + $0 })
        XCTAssertEqual(try repository.changedFiles(since: "HEAD").map(\.path), [sandbox.path + "/E.swift"])
        XCTAssertThrowsError(try repository.changedFiles(since: "no-such-branch")) { error in
            XCTAssertEqual(error as? GitError, .unknownRevision("no-such-branch"))
        }
        XCTAssertThrowsError(try repository.changedFiles(since: "--output=/tmp/x")) { error in
            XCTAssertEqual(error as? GitError, .unknownRevision("--output=/tmp/x"))
        }
    }

    func testHooksDirectoryHonoursCoreHooksPath() throws {
        let sandbox = try GitSandbox()
        try FileManager.default.createDirectory(atPath: sandbox.path + "/sub", withIntermediateDirectories: true)
        let repository = try GitRepository(containing: sandbox.path + "/sub", environment: environment)
        XCTAssertEqual(try repository.hooksDirectory(), sandbox.path + "/.git/hooks")
        try sandbox.git("config", "core.hooksPath", "tools/git hooks")
        XCTAssertEqual(try repository.hooksDirectory(), sandbox.path + "/tools/git hooks")
    }

    func testNotARepositoryAndMissingGitAreClearErrors() throws {
        let folder = try TemporaryDirectory()
        XCTAssertThrowsError(try GitRepository(containing: folder.path, environment: environment)) { error in
            guard case .notARepository(let directory, _)? = error as? GitError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(directory, folder.path)
            XCTAssertTrue(String(describing: error).contains("is not inside a git work tree"))
        }
        XCTAssertThrowsError(try GitRepository(containing: folder.path, environment: ["PATH": folder.path])) { error in
            XCTAssertEqual(error as? GitError, .gitNotFound)
        }
        XCTAssertThrowsError(try GitRepository(containing: folder.path, environment: [:])) { error in
            XCTAssertEqual(error as? GitError, .gitNotFound)
        }
    }
}
