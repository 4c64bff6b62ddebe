/// JUnit XML for CI systems that show test results (GitLab, Jenkins, Azure, CircleCI): one
/// `<testsuite>` per file with findings and one failing `<testcase>` per finding, whatever
/// its severity (whether the run fails is the exit code's business). A clean run is one
/// passing test case, so that dashboards show the lint step ran.
struct JUnitReporter: Reporter {
    func render(_ report: LintReport) -> String {
        let failures = report.findings.count
        var output = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let tests = max(failures, 1)
        output += "<testsuites name=\"kblint\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"0\">\n"
        if report.findings.isEmpty {
            output += "  <testsuite name=\"kblint\" tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"0\">\n"
            let name = SummaryReporter.summaryLine(report)
            output += "    <testcase classname=\"kblint\" name=\"\(XMLText.escaped(name))\"/>\n"
            output += "  </testsuite>\n"
            return output + "</testsuites>\n"
        }
        var groups: [(path: String, findings: [Finding])] = []
        for finding in report.findings {
            if groups.last?.path == finding.path {
                groups[groups.count - 1].findings.append(finding)
            } else {
                groups.append((finding.path, [finding]))
            }
        }
        for group in groups {
            let path = XMLText.escaped(group.path)
            output += "  <testsuite name=\"\(path)\" tests=\"\(group.findings.count)\""
            output += " failures=\"\(group.findings.count)\" errors=\"0\" skipped=\"0\">\n"
            for finding in group.findings {
                let place = "\(finding.start.line):\(finding.start.column)"
                output += "    <testcase classname=\"\(path)\""
                output += " name=\"\(XMLText.escaped(finding.ruleID)) at \(place)\""
                output += " file=\"\(path)\" line=\"\(finding.start.line)\">\n"
                output += "      <failure type=\"\(finding.severity.rawValue)\""
                output += " message=\"\(XMLText.escaped(finding.message))\">"
                var body = "\(finding.severity.rawValue): \(finding.path):\(place): \(finding.message)"
                body += "\nFix: \(finding.suggestion)\nRule: \(finding.ruleID)"
                for related in finding.related {
                    body += "\nNote: \(related.path):\(related.start.line):\(related.start.column): \(related.message)"
                }
                output += XMLText.escapedContent(body) + "</failure>\n"
                output += "    </testcase>\n"
            }
            output += "  </testsuite>\n"
        }
        return output + "</testsuites>\n"
    }
}
