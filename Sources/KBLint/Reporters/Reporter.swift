import Lexer
import Rules

/// Turns the result of a run into the text of one output format. Reporters are pure: they
/// read only the report (which carries every per-run fact they need) and return the whole
/// output, ending with a newline unless it is empty; the caller decides where it goes.
protocol Reporter: Sendable {
    func render(_ report: LintReport) -> String
}

/// Per-run facts that change how findings are shown, passed in by the command line so that
/// reporters never read the environment themselves.
struct ReportSettings: Sendable, Hashable {
    /// ANSI colors in `pretty`; false when `NO_COLOR` is set or the output is not a terminal.
    var useColor: Bool
    /// The absolute folder the findings' relative paths start from (`ReportPathRoot`),
    /// without a trailing slash; SARIF's `SRCROOT`.
    var pathRoot: String
    /// `pretty` ends with the summary line unless `--quiet` asked for none.
    var showsSummaryLine = true

    init(useColor: Bool = false, pathRoot: String) {
        self.useColor = useColor
        self.pathRoot = pathRoot
    }
}

/// Everything a reporter may show about one run.
struct LintReport: Sendable {
    /// Sorted by path, line, column, rule id, end, then message, whatever order they were
    /// given in (so that findings at the same place have a fixed order too).
    let findings: [Finding]
    /// The enabled rules, sorted by id (SARIF lists them as `tool.driver.rules`).
    let rules: [RuleMetadata]
    let filesLinted: Int
    let toolVersion: String
    /// Each output may show the same report differently (colors, summary line).
    var settings: ReportSettings

    init(
        findings: [Finding], rules: [RuleMetadata], filesLinted: Int, toolVersion: String,
        settings: ReportSettings
    ) {
        self.findings = findings.sorted(by: LintReport.precedes)
        self.rules = rules.sorted { $0.id < $1.id }
        self.filesLinted = filesLinted
        self.toolVersion = toolVersion
        self.settings = settings
    }

    /// `FindingFingerprint` of each finding, in the same order; computed when asked for, as
    /// only some formats carry fingerprints.
    var fingerprints: [String] { FindingFingerprint.fingerprints(of: findings) }

    /// The order of every report.
    static func precedes(_ lhs: Finding, _ rhs: Finding) -> Bool {
        if lhs.path != rhs.path { return lhs.path < rhs.path }
        if lhs.start != rhs.start { return lhs.start < rhs.start }
        if lhs.ruleID != rhs.ruleID { return lhs.ruleID < rhs.ruleID }
        if lhs.end != rhs.end { return lhs.end < rhs.end }
        return lhs.message < rhs.message
    }

    func count(of severity: Severity) -> Int {
        findings.reduce(0) { $0 + ($1.severity == severity ? 1 : 0) }
    }

    /// Number of distinct files with at least one finding.
    var filesWithFindings: Int { Set(findings.map(\.path)).count }
}

/// The output formats, by the name `--reporter` takes.
enum ReporterKind: String, CaseIterable, Sendable {
    case pretty, xcode, github, sarif, json, checkstyle, junit, codeclimate, summary

    var reporter: any Reporter {
        switch self {
        case .pretty: PrettyReporter()
        case .xcode: XcodeReporter()
        case .github: GitHubReporter()
        case .sarif: SARIFReporter()
        case .json: JSONReporter()
        case .checkstyle: CheckstyleReporter()
        case .junit: JUnitReporter()
        case .codeclimate: CodeClimateReporter()
        case .summary: SummaryReporter()
        }
    }

    /// The reporter used without `--reporter`: annotations inside GitHub Actions (whose log is
    /// not a terminal), the readable form on a terminal, else the compiler-style lines that
    /// Xcode and editors parse. `githubActions` is whether `GITHUB_ACTIONS` equals `true`.
    static func defaultKind(githubActions: Bool, outputIsTerminal: Bool) -> ReporterKind {
        if githubActions { return .github }
        return outputIsTerminal ? .pretty : .xcode
    }
}

extension Severity {
    /// SARIF's and Xcode's word for the severity: they know error, warning and note.
    var compilerLevel: String {
        switch self {
        case .error: "error"
        case .warning: "warning"
        case .info: "note"
        }
    }
}
