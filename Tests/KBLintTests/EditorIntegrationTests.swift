import Foundation
import XCTest
@testable import KBLint

/// The editor example of README's "Workflow integrations": the Vim snippet, taken from the
/// README itself, run in a real (headless) Vim on an unsaved buffer, fills the quickfix list
/// through `kblint --use-stdin --stdin-path`.
final class EditorIntegrationTests: XCTestCase {
    /// The first ```vim block of README.md.
    static func vimSnippet() throws -> String {
        let readme = try String(contentsOfFile: PluginPackageTests.repositoryRoot + "/README.md", encoding: .utf8)
        let start = try XCTUnwrap(readme.range(of: "```vim\n"), "README has a Vim example")
        let end = try XCTUnwrap(readme.range(of: "```", range: start.upperBound..<readme.endIndex))
        return String(readme[start.upperBound..<end.lowerBound])
    }

    func testVimSnippetLintsTheUnsavedBuffer() throws {
        let environment = ProcessInfo.processInfo.environment
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: BinaryHarness.executable.path))
        guard let vim = ChildProcess.locate("vim", environment: environment) else { throw XCTSkip("vim not installed") }
        let project = try TemporaryDirectory()
        try project.write("App/Chat View.swift", "let saved = 1\n")
        try project.write("App/.kblint.yml", "rules:\n  superfluous_disable_command:\n    severity: error\n")
        try project.write("swift.vim", try Self.vimSnippet())
        try project.write("test.vim", """
            source \(project.path)/swift.vim
            call setline(1, ['let unsaved = 1', '    // kblint:disable:next some_rule', 'let b = 2'])
            KBLint
            call writefile(map(getqflist(), {_, v -> fnamemodify(bufname(v.bufnr), ':p') . '|' . v.lnum . '|' . v.col . '|' . v.type . '|' . v.text}), '\(project.path)/quickfix.txt')
            qall!

            """)
        let path = BinaryHarness.productsDirectory.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        let result = try ChildProcess(
            executable: vim, arguments: ["-Nu", "NONE", "-i", "NONE", "-n", "-es", "-S", project.path + "/test.vim", "App/Chat View.swift"],
            directory: project.path, environment: ["PATH": path, "HOME": project.path]
        ).run()
        let quickfix = try project.text("quickfix.txt")
        XCTAssertEqual(quickfix, "\(project.path)/App/Chat View.swift|2|28|e|'some_rule' is not a kblint rule id (superfluous_disable_command)\n",
                       "vim exited \(result.status): \(result.errorText)")
        XCTAssertEqual(try project.text("App/Chat View.swift"), "let saved = 1\n", "the buffer was not saved")
    }
}
