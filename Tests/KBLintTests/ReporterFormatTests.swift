import Foundation
import Lexer
import Rules
import XCTest
@testable import KBLint

/// The escaping, conversions and choices each format relies on, checked on their own.
final class ReporterFormatTests: XCTestCase {
    func testDefaultReporterKind() {
        XCTAssertEqual(ReporterKind.defaultKind(githubActions: true, outputIsTerminal: true), .github)
        XCTAssertEqual(ReporterKind.defaultKind(githubActions: true, outputIsTerminal: false), .github)
        XCTAssertEqual(ReporterKind.defaultKind(githubActions: false, outputIsTerminal: true), .pretty)
        XCTAssertEqual(ReporterKind.defaultKind(githubActions: false, outputIsTerminal: false), .xcode)
    }

    func testReporterNames() {
        XCTAssertEqual(ReporterKind.allCases.map(\.rawValue),
                       ["pretty", "xcode", "github", "sarif", "json", "checkstyle", "junit", "codeclimate", "summary"])
        XCTAssertEqual(ReporterKind(rawValue: "sarif"), .sarif)
    }

    func testJSONStringEscaping() {
        XCTAssertEqual(JSONValue.quoted("a\"b\\c"), #""a\"b\\c""#)
        XCTAssertEqual(JSONValue.quoted("\n\r\t\u{08}\u{0C}"), #""\n\r\t\b\f""#)
        XCTAssertEqual(JSONValue.quoted("\u{00}\u{1F}\u{7F}"), "\"\\u0000\\u001F\u{7F}\"")
        XCTAssertEqual(JSONValue.quoted("título ⌨️ <&>/"), "\"título ⌨️ <&>/\"")
    }

    func testJSONLayout() {
        let value = JSONValue.object([("b", 1), ("a", [true, .null]), ("e", .array([])), ("o", .object([]))])
        XCTAssertEqual(value.rendered(), """
            {
              "b": 1,
              "a": [
                true,
                null
              ],
              "e": [],
              "o": {}
            }
            """)
    }

    func testXMLEscaping() {
        XCTAssertEqual(XMLText.escaped("<a href=\"x\">&'</a>"), "&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;")
        XCTAssertEqual(XMLText.escaped("a\nb\tc\r\u{01}"), "a&#10;b&#9;c&#13;\u{FFFD}")
        XCTAssertEqual(XMLText.escapedContent("a\nb\tc\r<"), "a\nb\tc&#13;&lt;")
    }

    func testGitHubEscaping() {
        XCTAssertEqual(GitHubReporter.escapedData("100% a:b,c\r\n"), "100%25 a:b,c%0D%0A")
        XCTAssertEqual(GitHubReporter.escapedProperty("100% a:b,c\r\n"), "100%25 a%3Ab%2Cc%0D%0A")
    }

    func testUTF16Columns() {
        let line = "é😀x"  // é: 2 bytes, 1 unit; 😀: 4 bytes, 2 units
        XCTAssertEqual(ColumnConversion.utf16Column(1, in: line), 1)
        XCTAssertEqual(ColumnConversion.utf16Column(3, in: line), 2)
        XCTAssertEqual(ColumnConversion.utf16Column(7, in: line), 4)
        XCTAssertEqual(ColumnConversion.utf16Column(8, in: line), 5)
        XCTAssertEqual(ColumnConversion.utf16Column(9, in: line), 6)
        XCTAssertEqual(ColumnConversion.utf16Column(5, in: line), 2, "inside 😀 maps to its column")
    }

    func testSARIFPercentEncoding() {
        XCTAssertEqual(SARIFReporter.percentEncoded("Sources/My App/Ñ+x:y.swift"), "Sources/My%20App/%C3%91+x%3Ay.swift")
        XCTAssertEqual(SARIFReporter.fileURI(directory: "/Users/dev"), "file:///Users/dev/")
    }

    func testReportPathsStartAtTheRepositoryElseTheWorkspaceElseTheCurrentFolder() throws {
        let folder = try TemporaryDirectory()
        try folder.write("repo/.git/HEAD", "ref: refs/heads/main\n")
        try folder.write("repo/App/Chat.swift", "")
        try folder.write("plain/Chat.swift", "")
        XCTAssertEqual(ReportPathRoot.find(currentDirectory: folder.path + "/repo/App", environment: [:]), folder.path + "/repo")
        XCTAssertEqual(ReportPathRoot.find(currentDirectory: folder.path + "/repo/App", environment: ["GITHUB_WORKSPACE": "/elsewhere"]),
                       folder.path + "/repo")
        XCTAssertEqual(ReportPathRoot.find(currentDirectory: folder.path + "/plain", environment: ["GITHUB_WORKSPACE": folder.path]), folder.path)
        XCTAssertEqual(ReportPathRoot.find(currentDirectory: folder.path + "/plain", environment: [:]), folder.path + "/plain")

        // Paths and related paths move to the root; files outside it stay absolute.
        let finding = ReportSamples.findings[0]
        let shown = finding.shown(relativeTo: "/Users/dev", currentDirectory: ReportSamples.currentDirectory)
        XCTAssertEqual(shown.path, "Chat App/" + finding.path)
        XCTAssertEqual(shown.related.map(\.path), finding.related.map { $0.path.hasPrefix("/") ? $0.path : "Chat App/" + $0.path })
        let output = GitHubReporter().render(ReportSamples.report(settings: ReportSettings(pathRoot: "/Users/dev")))
        XCTAssertTrue(output.contains("file=/opt/shared/Generated/Keyboard+Frame.swift,"), output)
    }

    func testPrettyColorsOnlyWhenAsked() {
        let plain = PrettyReporter().render(ReportSamples.report())
        XCTAssertFalse(plain.contains("\u{1B}["))
        let colored = PrettyReporter().render(ReportSamples.report(settings: ReportSettings(
            useColor: true, pathRoot: ReportSamples.currentDirectory)))
        XCTAssertTrue(colored.contains("\u{1B}[31m\u{1B}[1merror:\u{1B}[0m"), colored)
    }

    func testPrettyDoesNotPassEscapeSequencesFromTheSource() {
        let file = SourceFile(path: "A.swift", text: "let s = \"\u{1B}[2J\"; x = 1\n")
        let diagnostic = Diagnostic(
            ruleID: "r", severity: .warning, message: "m\u{1B}]0;t", range: 16..<17, suggestion: "s")
        let finding = Finding(diagnostic: diagnostic, lines: LineTexts(file), path: "A.swift", absolutePath: "/A.swift")
        let output = PrettyReporter().render(LintReport(
            findings: [finding], rules: [], filesLinted: 1, toolVersion: "1",
            settings: ReportSettings(pathRoot: "/")))
        XCTAssertFalse(output.contains("\u{1B}"), output)
        XCTAssertTrue(output.contains("let s = \"\u{FFFD}[2J\"; x = 1\n   |                 ^\n"), output)
    }

    func testSARIFOmitsRuleIndexForRulesNotListed() {
        let sample = ReportSamples.report()
        let withoutFrameRule = LintReport(
            findings: sample.findings, rules: sample.rules.filter { $0.id != "sample_unconverted_frame" },
            filesLinted: 7, toolVersion: "1", settings: sample.settings)
        let output = SARIFReporter().render(withoutFrameRule)
        XCTAssertEqual(output.components(separatedBy: "\"ruleIndex\"").count - 1, 3, output)
        XCTAssertTrue(output.contains("\"ruleId\": \"sample_unconverted_frame\",\n          \"level\""), output)
    }

    func testXcodeMakesRelatedPathsAbsolute() {
        let output = XcodeReporter().render(ReportSamples.report(settings: ReportSettings(pathRoot: "/")))
        XCTAssertTrue(output.contains("\n/Sources/Keyboard Helpers/KeyboardObserver.swift:4:41: note: the duration is hard-coded here\n"), output)
    }

    func testEmptyReports() {
        let empty = LintReport(
            findings: [], rules: ReportSamples.rules, filesLinted: 1, toolVersion: "1",
            settings: ReportSettings(pathRoot: "/tmp"))
        XCTAssertEqual(SummaryReporter().render(empty), "No problems found in 1 file.\n")
        XCTAssertEqual(XcodeReporter().render(empty), "")
        XCTAssertEqual(CodeClimateReporter().render(empty), "[]\n")
        XCTAssertEqual(JSONReporter().render(empty), "{\n  \"version\": 1,\n  \"diagnostics\": []\n}\n")
        XCTAssertTrue(JUnitReporter().render(empty).contains("failures=\"0\""))
        XCTAssertEqual(CheckstyleReporter().render(empty),
                       "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<checkstyle version=\"4.3\">\n</checkstyle>\n")
    }

    func testResolvedPositionsOfAMultiLineFinding() throws {
        let finding = try XCTUnwrap(ReportSamples.findings.first { $0.ruleID == "sample_hardcoded_duration" })
        XCTAssertEqual(finding.start, SourceLocation(line: 7, column: 9))
        XCTAssertEqual(finding.end.line, 8)
        XCTAssertEqual(finding.endLineText, "                       animations: { self.view.layoutIfNeeded() })")
        XCTAssertEqual(finding.resolvedEdits.map(\.start), [SourceLocation(line: 7, column: 38)])
        XCTAssertEqual(finding.related.map(\.path), ["Sources/Keyboard Helpers/KeyboardObserver.swift"])
    }
}
