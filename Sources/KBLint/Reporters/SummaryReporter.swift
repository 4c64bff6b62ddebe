import Rules

/// Counts per rule and severity as an aligned table, then the summary line. Also printed by
/// `github` after its annotations, because GitHub shows only a few annotations per step.
struct SummaryReporter: Reporter {
    func render(_ report: LintReport) -> String {
        guard !report.findings.isEmpty else { return SummaryReporter.summaryLine(report) + "\n" }
        let severities: [Severity] = [.error, .warning, .info]
        var counts: [String: [Severity: Int]] = [:]
        for finding in report.findings {
            counts[finding.ruleID, default: [:]][finding.severity, default: 0] += 1
        }
        var rows: [[String]] = [["rule", "error", "warning", "info", "total"]]
        for ruleID in counts.keys.sorted() {
            let perSeverity = counts[ruleID] ?? [:]
            let values = severities.map { perSeverity[$0] ?? 0 }
            rows.append([ruleID] + values.map(String.init) + [String(values.reduce(0, +))])
        }
        let totals = severities.map(report.count(of:))
        rows.append(["total"] + totals.map(String.init) + [String(report.findings.count)])

        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        var output = ""
        for (index, row) in rows.enumerated() {
            if index == rows.count - 1 {
                output += widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
                output += "\n"
            }
            let cells = row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + padding : padding + cell
            }
            output += cells.joined(separator: "  ") + "\n"
        }
        return output + "\n" + SummaryReporter.summaryLine(report) + "\n"
    }

    /// "Found 3 problems (1 error, 2 warnings) in 2 of 5 files." (severities without
    /// findings left out) or "No problems found in 5 files."
    static func summaryLine(_ report: LintReport) -> String {
        let files = counted(report.filesLinted, "file", "files")
        guard !report.findings.isEmpty else { return "No problems found in \(files)." }
        let parts = [(Severity.error, "errors"), (.warning, "warnings"), (.info, "infos")]
            .filter { report.count(of: $0.0) > 0 }
            .map { counted(report.count(of: $0.0), $0.0.rawValue, $0.1) }
        return "Found \(counted(report.findings.count, "problem", "problems"))"
            + " (\(parts.joined(separator: ", "))) in \(report.filesWithFindings) of \(files)."
    }

    static func counted(_ count: Int, _ singular: String, _ plural: String) -> String {
        "\(count) \(count == 1 ? singular : plural)"
    }
}
