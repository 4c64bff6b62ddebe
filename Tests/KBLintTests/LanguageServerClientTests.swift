import Foundation
import XCTest
@testable import KBLint

/// `kblint server` driven by real, independent LSP clients: Neovim's built-in client, set up
/// with README's own configuration, and the pytest-lsp suite in Tests/LSP. Without a client
/// installed a test skips, unless KBLINT_LSP_CLIENT_TESTS=1 (CI sets it): then it fails.
final class LanguageServerClientTests: XCTestCase {
    static let environment = ProcessInfo.processInfo.environment
    static let clientsRequired = environment["KBLINT_LSP_CLIENT_TESTS"] == "1"

    /// The path of `tool`, or a skip (a failure when clients are required).
    func locate(_ tool: String, installHint: String) throws -> String {
        if let path = ChildProcess.locate(tool, environment: Self.environment) { return path }
        if Self.clientsRequired { XCTFail("\(tool) is required (KBLINT_LSP_CLIENT_TESTS=1) but not installed: \(installHint)") }
        throw XCTSkip("\(tool) is not installed (\(installHint)); CI runs this test")
    }

    /// README's Neovim configuration for this Neovim: the `vim.lsp.config` one from 0.11 on,
    /// the `-- neovim-0.7` one before.
    static func neovimConfiguration(modern: Bool) throws -> String {
        let readme = try String(contentsOfFile: PluginPackageTests.repositoryRoot + "/README.md", encoding: .utf8)
        var blocks: [String] = []
        var rest = readme[...]
        while let start = rest.range(of: "```lua\n") {
            guard let end = rest.range(of: "```", range: start.upperBound..<rest.endIndex) else { break }
            blocks.append(String(rest[start.upperBound..<end.lowerBound]))
            rest = rest[end.upperBound...]
        }
        let block = blocks.first { modern ? $0.contains("vim.lsp.enable") : $0.hasPrefix("-- neovim-0.7") }
        return try XCTUnwrap(block, "README has the Neovim configuration")
    }

    func testNeovimWithTheREADMEConfiguration() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: BinaryHarness.executable.path))
        let nvim = try locate("nvim", installHint: "apt-get install neovim")
        let version = try run(nvim, ["--version"], in: FileManager.default.temporaryDirectory.path).output
        let modern = !version.contains("NVIM v0.") || Self.minorVersion(version) >= 11
        let project = try TemporaryDirectory()
        try project.write("App/Chat.swift", Self.chat)
        try project.write("init.lua", try Self.neovimConfiguration(modern: modern))
        try project.write("test.lua", Self.neovimScript)
        let result = try run(nvim, ["--headless", "-n", "-i", "NONE", "-u", project.path + "/init.lua", "-c", "luafile " + project.path + "/test.lua"],
                             in: project.path, environment: ["HOME": project.path, "XDG_CONFIG_HOME": project.path + "/config",
                                                             "XDG_DATA_HOME": project.path + "/data", "XDG_STATE_HOME": project.path + "/state"])
        let report = (try? project.text("report.txt")) ?? "(no report; nvim said: \(result.output))"
        XCTAssertEqual(report, """
            opened: keyboard_curve_unshifted,keyboard_duration_hardcoded
            source: kblint
            quick fix: kblint (keyboard_curve_unshifted)
            fixed: keyboard_duration_hardcoded
            line: let options = UIView.AnimationOptions(rawValue: curve << 16)
            edited: keyboard_curve_unshifted,keyboard_duration_hardcoded
            fix all: keyboard_duration_hardcoded
            hover: true

            """, result.output)
    }

    func testPytestLSPSuite() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: BinaryHarness.executable.path))
        let python = try locate("python3", installHint: "install Python 3")
        let check = try run(python, ["-c", "import pytest_lsp"], in: PluginPackageTests.repositoryRoot)
        if check.status != 0 {
            if Self.clientsRequired { XCTFail("pytest-lsp is required (KBLINT_LSP_CLIENT_TESTS=1): pip install pytest-lsp") }
            throw XCTSkip("pytest-lsp is not installed (pip install pytest-lsp); CI runs this test")
        }
        let result = try run(python, ["-m", "pytest", "-q", "-p", "no:cacheprovider", "Tests/LSP"], in: PluginPackageTests.repositoryRoot,
                             environment: ["KBLINT": BinaryHarness.executable.path, "PYTHONDONTWRITEBYTECODE": "1"], seconds: 300)
        XCTAssertEqual(result.status, 0, result.output)
    }

    static func minorVersion(_ version: String) -> Int {
        guard let range = version.range(of: "NVIM v0.") else { return 0 }
        return Int(version[range.upperBound...].prefix { $0.isNumber }) ?? 0
    }

    /// Runs a client with a deadline, `kblint` in its PATH; standard output and error together.
    func run(_ executable: String, _ arguments: [String], in directory: String, environment: [String: String] = [:],
             seconds: Double = 120) throws -> (status: Int32, output: String) {
        var inherited = Self.environment
        inherited["PATH"] = BinaryHarness.productsDirectory.path + ":" + (inherited["PATH"] ?? "/usr/bin:/bin")
        let result = try BoundedRun.run(arguments, in: directory, seconds: seconds, executable: URL(fileURLWithPath: executable),
                                        environment: inherited.merging(environment) { $1 })
        return (result.status, result.standardOutput + result.standardError)
    }

    static let chat = """
        import UIKit

        final class ChatViewController: UIViewController {
            @objc func keyboardWillShow(_ notification: Notification) {
                let curve = notification.userInfo?[UIResponder.keyboardAnimationCurveUserInfoKey] as? UInt ?? 0
                let options = UIView.AnimationOptions(rawValue: curve)
                UIView.animate(withDuration: 0.25, delay: 0, options: options, animations: { self.view.layoutIfNeeded() })
            }
        }

        """

    /// Opens the file, waits for diagnostics, applies the preferred quick fix, edits the buffer
    /// back, applies fix-all, hovers; writes what it saw to report.txt and quits (which shuts
    /// the server down).
    static let neovimScript = #"""
        local report = {}
        local function record(line) table.insert(report, line) end
        local function finish()
          vim.fn.writefile(report, "report.txt")
          vim.cmd("qall!")
        end
        local function codes(buffer)
          local found = {}
          for _, d in ipairs(vim.diagnostic.get(buffer)) do table.insert(found, tostring(d.code)) end
          table.sort(found)
          return table.concat(found, ",")
        end
        local function wait_for(buffer, expected)
          vim.wait(20000, function() return codes(buffer) == expected end, 20)
          return codes(buffer)
        end
        local function actions(buffer, range, only, diagnostics)
          local params = {
            textDocument = { uri = vim.uri_from_bufnr(buffer) }, range = range,
            context = { diagnostics = diagnostics or {}, only = only },
          }
          local found = {}
          for _, response in pairs(vim.lsp.buf_request_sync(buffer, "textDocument/codeAction", params, 10000) or {}) do
            for _, action in ipairs(response.result or {}) do table.insert(found, action) end
          end
          return found
        end

        vim.cmd("edit App/Chat.swift")
        local buffer = vim.api.nvim_get_current_buf()
        record("opened: " .. wait_for(buffer, "keyboard_curve_unshifted,keyboard_duration_hardcoded"))
        local unshifted
        for _, d in ipairs(vim.diagnostic.get(buffer)) do
          if d.code == "keyboard_curve_unshifted" then unshifted = d end
        end
        if not unshifted then return finish() end
        record("source: " .. tostring(unshifted.source))
        local range = {
          start = { line = unshifted.lnum, character = unshifted.col },
          ["end"] = { line = unshifted.end_lnum, character = unshifted.end_col },
        }
        for _, action in ipairs(actions(buffer, range, { "quickfix" }, { unshifted.user_data.lsp })) do
          if action.isPreferred then
            record("quick fix: " .. action.title:match("^kblint %([%w_]+%)"))
            vim.lsp.util.apply_workspace_edit(action.edit, "utf-16")
          end
        end
        record("fixed: " .. wait_for(buffer, "keyboard_duration_hardcoded"))
        record("line: " .. vim.trim(vim.api.nvim_buf_get_lines(buffer, 5, 6, false)[1]))
        -- An edit in the buffer (sent incrementally): the curve is unshifted again.
        vim.api.nvim_buf_set_text(buffer, 5, 61, 5, 67, {})
        record("edited: " .. wait_for(buffer, "keyboard_curve_unshifted,keyboard_duration_hardcoded"))
        local whole = { start = { line = 0, character = 0 }, ["end"] = { line = 0, character = 0 } }
        for _, action in ipairs(actions(buffer, whole, { "source.fixAll.kblint" })) do
          vim.lsp.util.apply_workspace_edit(action.edit, "utf-16")
        end
        record("fix all: " .. wait_for(buffer, "keyboard_duration_hardcoded"))
        local hover = vim.lsp.buf_request_sync(buffer, "textDocument/hover", {
          textDocument = { uri = vim.uri_from_bufnr(buffer) }, position = { line = 6, character = 38 },
        }, 10000)
        local shown = false
        for _, response in pairs(hover or {}) do
          shown = shown or (response.result ~= nil and response.result.contents.value:find("keyboard_duration_hardcoded", 1, true) ~= nil)
        end
        record("hover: " .. tostring(shown))
        finish()
        """#
}
