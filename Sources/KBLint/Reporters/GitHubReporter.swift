import Rules

/// GitHub Actions workflow commands (`::warning file=…,line=…::message`) that the runner
/// turns into annotations on the changed lines, followed by the summary table because
/// GitHub shows only a few annotations per step and the log should still say everything.
///
/// Escaping follows the Actions toolkit: in the message `%`, CR and LF become `%25`, `%0D`,
/// `%0A`; property values additionally escape `:` and `,` as `%3A` and `%2C`. Columns are
/// UTF-16 code units and are given only for single-line ranges (the runner rejects columns
/// on multi-line ones); `endColumn` is exclusive, as in every other format (and in Ruff's
/// annotations).
struct GitHubReporter: Reporter {
    func render(_ report: LintReport) -> String {
        var output = ""
        for finding in report.findings {
            var properties = [("file", PathEncoding.display(finding.path))]
            properties.append(("line", String(finding.start.line)))
            properties.append(("endLine", String(finding.end.line)))
            if finding.start.line == finding.end.line {
                let column = ColumnConversion.utf16Column(finding.start.column, in: finding.lineText)
                let end = ColumnConversion.utf16Column(finding.end.column, in: finding.lineText)
                properties.append(("col", String(column)))
                properties.append(("endColumn", String(max(column, end))))
            }
            properties.append(("title", "kblint(\(finding.ruleID))"))
            var message = finding.message + "\n\nFix: " + finding.suggestion
            for related in finding.related {
                message += "\n\(PathEncoding.display(related.path)):\(related.start.line): \(related.message)"
            }
            output += "::\(command(for: finding.severity)) "
            output += properties.map { "\($0.0)=\(GitHubReporter.escapedProperty($0.1))" }
                .joined(separator: ",")
            output += "::\(GitHubReporter.escapedData(message))\n"
        }
        return output + SummaryReporter().render(report)
    }

    private func command(for severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .info: "notice"
        }
    }

    static func escapedData(_ text: String) -> String {
        escaped(text, isProperty: false)
    }

    static func escapedProperty(_ text: String) -> String {
        escaped(text, isProperty: true)
    }

    private static func escaped(_ text: String, isProperty: Bool) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": output += "%25"
            case "\r": output += "%0D"
            case "\n": output += "%0A"
            case ":" where isProperty: output += "%3A"
            case "," where isProperty: output += "%2C"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
