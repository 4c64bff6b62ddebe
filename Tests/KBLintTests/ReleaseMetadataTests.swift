import Foundation
import XCTest
@testable import KBLint

/// `ProjectInfo` holds the one version and home page: the binary, SARIF, the release script,
/// CHANGELOG.md and the README's install lines must all say the same. A failure names the
/// lines to update after changing `ProjectInfo`.
final class ReleaseMetadataTests: XCTestCase {
    static let root = PluginPackageTests.repositoryRoot
    let version = ProjectInfo.version
    let home = ProjectInfo.home

    func file(_ relative: String) throws -> String {
        try String(contentsOfFile: Self.root + "/" + relative, encoding: .utf8)
    }

    func testSARIFNamesTheVersionAndHome() throws {
        let tree = try TemporaryDirectory()
        try tree.write("Chat.swift", "// kblint:disable:next some_rule\nlet inset = 0\n")
        let sarif = runTool(["--reporter", "sarif", "Chat.swift"], in: tree.path).standardOutput
        XCTAssertTrue(sarif.contains("\"version\": \"\(version)\",\n          \"informationUri\": \"\(home)\""), sarif)
        XCTAssertTrue(sarif.contains("\"helpUri\": \"\(home)/blob/main/Rules.md#"), sarif)
    }

    func testChangelogHasTheVersionInKeepAChangelogForm() throws {
        let changelog = try file("CHANGELOG.md")
        XCTAssertTrue(changelog.hasPrefix("# Changelog\n"))
        XCTAssertTrue(changelog.contains("keepachangelog.com"))
        let headings = try regexMatches(#"^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$"#, in: changelog)
        XCTAssertEqual(headings.first?[1], "Unreleased", "CHANGELOG.md starts with an Unreleased section")
        XCTAssertEqual(headings.dropFirst().first?[1], version,
                       "the newest release in CHANGELOG.md is ProjectInfo.version")
        XCTAssertFalse(headings.dropFirst().first?[2].isEmpty ?? true, "a released version has its date")
        XCTAssertTrue(changelog.contains("\n[Unreleased]: \(home)/compare/v\(version)...HEAD\n"), changelog)
        XCTAssertTrue(changelog.contains("\n[\(version)]: \(home)/releases/tag/v\(version)\n"), changelog)
    }

    /// Tags, download URLs, repositories and package versions in README.md; a stale one is
    /// reported with its line.
    func testReadmeNamesTheVersionAndHome() throws {
        let readme = try file("README.md")
        let homePath = String(home.split(separator: "/").suffix(2).joined(separator: "/"))
        let owner = String(homePath.split(separator: "/")[0])
        var stale: [String] = []
        func expect(_ pattern: String, _ expected: [String]...) throws {
            let found = try regexMatches(pattern, in: readme)
            XCTAssertFalse(found.isEmpty, "README.md mentions nothing like \(pattern)")
            for match in found where !expected.contains(Array(match.dropFirst())) { stale.append(match[0]) }
        }
        try expect(#"rev: v(\S+)"#, [version])
        try expect(#"uses: ([\w.-]+/kblint[\w.-]*)@v(\S+)"#, [homePath, version])
        try expect(#"\.package\(url: "(\S+)", from: "(\S+)"\)"#, [home, version], [ProjectInfo.pluginsHome, version])
        try expect(#"releases/download/v([^/]+)/"#, [version])
        try expect(#"kblint-(\d[\w.]*)-(?:x86_64|aarch64|universal)"#, [version])
        try expect(#"mint install ([\w.-]+/[\w.-]+)@v(\S+)"#, [homePath, version])
        try expect(#"brew install ([\w.-]+)/kblint/kblint"#, [owner])
        try expect(#"git clone (https://\S+) "#, [home])
        // Any other link to a kblint repository is the home or the plugin package.
        for match in try regexMatches(#"https://github\.com/[\w.-]+/(?:homebrew-)?kblint[\w.-]*"#, in: readme)
        where ![home, ProjectInfo.pluginsHome].contains(match[0]) {
            stale.append(match[0])
        }
        XCTAssertEqual(stale, [], "README.md disagrees with ProjectInfo (\(version), \(home))")
    }

    /// Each way to install is at most three lines.
    func testInstallSnippetsAreShort() throws {
        let readme = try file("README.md")
        let install = try XCTUnwrap(readme.components(separatedBy: "\n## Install\n").dropFirst().first?
            .components(separatedBy: "\n## ").first)
        let blocks = install.components(separatedBy: "```").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        XCTAssertEqual(blocks.count, 6, "Homebrew, binary, Mint, plugin package, Run Script, source")
        for block in blocks {
            let lines = block.split(separator: "\n").dropFirst() // the language tag
            XCTAssertLessThanOrEqual(lines.count, 3, block)
        }
    }

    func testReleaseScriptReadsTheVersionFromProjectInfo() throws {
        let run = try ChildProcess(
            executable: "/bin/bash", arguments: [Self.root + "/Scripts/release.sh", "--allow-dirty", "9.9.9"],
            directory: Self.root
        ).run()
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.errorText, "release: Sources/KBLint/ProjectInfo.swift says \(version), not 9.9.9")
    }

    /// The README's Run Script phase, as Xcode runs it: findings in the `xcode` form with
    /// kblint in PATH, a warning without it.
    func testXcodeRunScriptLintsSRCROOT() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: BinaryHarness.executable.path))
        let readme = try file("README.md")
        let script = try XCTUnwrap(try regexMatches(#"```sh\n(export PATH=.*\nif command -v kblint.*\n)```"#, in: readme).first?[1])
        let project = try TemporaryDirectory()
        let source = try project.write("App/Chat.swift", "// kblint:disable:next some_rule\nlet inset = 0\n")
        let tools = try TemporaryDirectory()
        try FileManager.default.createSymbolicLink(atPath: tools.path + "/kblint", withDestinationPath: BinaryHarness.executable.path)
        func runScript(path: String) throws -> String {
            let run = try ChildProcess(
                executable: "/bin/bash", arguments: ["-c", script], directory: project.path,
                environment: ["SRCROOT": project.path, "PATH": path, "HOME": project.path]
            ).run()
            XCTAssertEqual(run.status, 0, run.errorText)
            return String(decoding: run.output, as: UTF8.self)
        }
        XCTAssertTrue(try runScript(path: tools.path + ":/usr/bin:/bin")
            .hasPrefix("\(source):1:24: warning: 'some_rule' is not a kblint rule id"))
        XCTAssertEqual(try runScript(path: "/usr/bin:/bin"), "warning: kblint is not installed\n")
    }
}

/// Every match of `pattern` (`^`/`$` at lines) in `text`, as the match and its capture groups.
func regexMatches(_ pattern: String, in text: String) throws -> [[String]] {
    let expression = try NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
    return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
        (0..<match.numberOfRanges).map { index in
            Range(match.range(at: index), in: text).map { String(text[$0]) } ?? ""
        }
    }
}
