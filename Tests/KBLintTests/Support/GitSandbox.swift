import Foundation
import XCTest
@testable import KBLint

/// A real git repository in a temporary folder, isolated from the user's git configuration,
/// for tests of `--staged`, `--since` and the hooks.
final class GitSandbox {
    let folder: TemporaryDirectory
    var path: String { folder.path }
    /// Makes git ignore ~/.gitconfig and /etc/gitconfig and commit without asking who.
    static let environment = [
        "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null",
        "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.com",
        "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.com",
    ]

    init(branch: String = "main") throws {
        folder = try TemporaryDirectory()
        try git("init", "-q", "-b", branch)
    }

    static var gitPath: String {
        get throws {
            try XCTUnwrap(ChildProcess.locate("git", environment: ProcessInfo.processInfo.environment), "tests need git")
        }
    }

    /// Runs git in `directory` (default: the root); fails the test on a non-zero exit.
    @discardableResult
    func git(_ arguments: String..., in directory: String? = nil) throws -> String {
        let result = try ChildProcess(
            executable: GitSandbox.gitPath, arguments: arguments, directory: directory ?? path,
            environment: GitSandbox.environment
        ).run()
        guard result.status == 0 else {
            throw GitSandboxError(message: "git \(arguments.joined(separator: " ")): \(result.errorText)")
        }
        return String(decoding: result.output, as: UTF8.self)
    }

    @discardableResult
    func write(_ relative: String, _ text: String) throws -> String {
        try folder.write(relative, text)
    }
}

struct GitSandboxError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
