/// Checkstyle XML, read by Jenkins (Warnings NG), reviewdog, Danger and many CI dashboards:
/// one `<file>` per file with findings, one `<error>` per finding. Columns are UTF-16 code
/// units, as the Java tools that read it count them; `source` is `kblint.<rule_id>`.
struct CheckstyleReporter: Reporter {
    func render(_ report: LintReport) -> String {
        var output = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<checkstyle version=\"4.3\">\n"
        var currentPath: String?
        for finding in report.findings {
            if finding.path != currentPath {
                if currentPath != nil { output += "  </file>\n" }
                output += "  <file name=\"\(XMLText.escaped(finding.path))\">\n"
                currentPath = finding.path
            }
            let column = ColumnConversion.utf16Column(finding.start.column, in: finding.lineText)
            output += "    <error line=\"\(finding.start.line)\" column=\"\(column)\""
            output += " severity=\"\(finding.severity.rawValue)\""
            output += " message=\"\(XMLText.escaped(finding.message))\""
            output += " source=\"kblint.\(XMLText.escaped(finding.ruleID))\"/>\n"
        }
        if currentPath != nil { output += "  </file>\n" }
        return output + "</checkstyle>\n"
    }
}
