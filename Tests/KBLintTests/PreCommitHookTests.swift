import Foundation
import XCTest
@testable import KBLint

final class PreCommitHookTests: XCTestCase {
    let environment = ProcessInfo.processInfo.environment

    func testInstallsUpdatesAndRemovesOnlyItsOwnHook() throws {
        let sandbox = try GitSandbox()
        let repository = try GitRepository(containing: sandbox.path, environment: environment)
        let hook = sandbox.path + "/.git/hooks/pre-commit"

        XCTAssertEqual(try PreCommitHook.install(in: repository, kblint: "/opt/kb lint's/kblint", force: false),
                       .installed(path: hook))
        let script = try sandbox.folder.text(".git/hooks/pre-commit")
        XCTAssertTrue(script.hasPrefix("#!/bin/sh\n"))
        XCTAssertTrue(script.contains("kblint='/opt/kb lint'\\''s/kblint'\n"), script)
        XCTAssertTrue(script.contains("\"$kblint\" --staged --strict\n"))
        XCTAssertTrue(script.contains("exit \"$status\"\n"))
        XCTAssertEqual(try FileSystem.status(of: hook).permissions & 0o111, 0o111)

        XCTAssertEqual(try PreCommitHook.install(in: repository, kblint: "/usr/bin/kblint", force: false),
                       .updated(path: hook))
        XCTAssertTrue(try sandbox.folder.text(".git/hooks/pre-commit").contains("kblint='/usr/bin/kblint'"))
        XCTAssertEqual(try PreCommitHook.uninstall(in: repository), .removed(path: hook))
        XCTAssertNil(FileSystem.resolvedPath(hook))
        XCTAssertEqual(try PreCommitHook.uninstall(in: repository), .absent(path: hook))
    }

    func testLeavesForeignHooksAloneUnlessForced() throws {
        let sandbox = try GitSandbox()
        let repository = try GitRepository(containing: sandbox.path, environment: environment)
        let hook = sandbox.path + "/.git/hooks/pre-commit"
        let foreign = "#!/bin/sh\nmake lint\n"
        try sandbox.write(".git/hooks/pre-commit", foreign)
        XCTAssertEqual(chmod(hook, 0o755), 0)

        XCTAssertThrowsError(try PreCommitHook.install(in: repository, kblint: "/bin/kblint", force: false)) { error in
            XCTAssertEqual(error as? HookError, .notWrittenByKBLint(path: hook, action: "overwritten"))
            XCTAssertTrue(String(describing: error).contains("--force"))
        }
        XCTAssertThrowsError(try PreCommitHook.uninstall(in: repository)) { error in
            XCTAssertEqual(error as? HookError, .notWrittenByKBLint(path: hook, action: "removed"))
        }
        XCTAssertEqual(try sandbox.folder.text(".git/hooks/pre-commit"), foreign)

        XCTAssertEqual(try PreCommitHook.install(in: repository, kblint: "/bin/kblint", force: true),
                       .replaced(path: hook, backup: hook + ".kblint-backup"))
        XCTAssertTrue(PreCommitHook.isWrittenByKBLint(try sandbox.folder.read(".git/hooks/pre-commit")))
        // The replaced hook is kept, executable; a second backup never overwrites the first.
        XCTAssertEqual(try sandbox.folder.text(".git/hooks/pre-commit.kblint-backup"), foreign)
        XCTAssertEqual(try FileSystem.status(of: hook + ".kblint-backup").permissions, 0o755)
        try sandbox.write(".git/hooks/pre-commit", "#!/bin/sh\nmake other\n")
        XCTAssertEqual(try PreCommitHook.install(in: repository, kblint: "/bin/kblint", force: true),
                       .replaced(path: hook, backup: hook + ".kblint-backup.2"))
        XCTAssertEqual(try sandbox.folder.text(".git/hooks/pre-commit.kblint-backup"), foreign)
        XCTAssertEqual(try sandbox.folder.text(".git/hooks/pre-commit.kblint-backup.2"), "#!/bin/sh\nmake other\n")
    }

    func testHonoursCoreHooksPathAndCreatesTheFolder() throws {
        let sandbox = try GitSandbox()
        try sandbox.git("config", "core.hooksPath", ".githooks/ünï code")
        try FileManager.default.createDirectory(atPath: sandbox.path + "/App", withIntermediateDirectories: true)
        let repository = try GitRepository(containing: sandbox.path + "/App", environment: environment)
        let hook = sandbox.path + "/.githooks/ünï code/pre-commit"
        XCTAssertEqual(try PreCommitHook.install(in: repository, kblint: "/bin/kblint", force: false), .installed(path: hook))
        XCTAssertNotNil(FileSystem.resolvedPath(hook))
        XCTAssertNil(FileSystem.resolvedPath(sandbox.path + "/.git/hooks/pre-commit"))
    }

    /// git runs the hook on commit; it passes `--staged --strict` to kblint, found in PATH
    /// when the recorded path is gone, and a failing kblint stops the commit.
    func testGitRunsTheHookAndItsExitStatusDecidesTheCommit() throws {
        let sandbox = try GitSandbox()
        let bin = try TemporaryDirectory()
        let log = bin.path + "/arguments.log"
        let stub = try bin.write("kblint", "#!/bin/sh\necho \"$@\" >> '\(log)'\nexit ${STUB_STATUS:-0}\n")
        XCTAssertEqual(chmod(stub, 0o755), 0)
        let repository = try GitRepository(containing: sandbox.path, environment: environment)
        _ = try PreCommitHook.install(in: repository, kblint: bin.path + "/moved-away/kblint", force: false)
        try sandbox.write("A.swift", "let a = 1\n")
        try sandbox.git("add", "A.swift")

        let path = bin.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        let blocked = try ChildProcess(
            executable: GitSandbox.gitPath, arguments: ["commit", "-q", "-m", "blocked"], directory: sandbox.path,
            environment: GitSandbox.environment.merging(["PATH": path, "STUB_STATUS": "1"]) { $1 }
        ).run()
        XCTAssertNotEqual(blocked.status, 0)
        XCTAssertThrowsError(try sandbox.git("rev-parse", "--verify", "--quiet", "HEAD"))

        let passed = try ChildProcess(
            executable: GitSandbox.gitPath, arguments: ["commit", "-q", "-m", "passed"], directory: sandbox.path,
            environment: GitSandbox.environment.merging(["PATH": path]) { $1 }
        ).run()
        XCTAssertEqual(passed.status, 0, passed.errorText)
        XCTAssertEqual(try String(contentsOfFile: log, encoding: .utf8), "--staged --strict\n--staged --strict\n")
    }
}
