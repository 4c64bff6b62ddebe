import Rules

/// GitLab Code Quality (a subset of the Code Climate issue format): a JSON array of issues
/// that GitLab compares between branches by `fingerprint`, which is why it is the finding
/// fingerprint that survives line shifts. Severities map to info (info), minor (warning)
/// and major (error).
struct CodeClimateReporter: Reporter {
    func render(_ report: LintReport) -> String {
        let issues = zip(report.findings, report.fingerprints).map { finding, fingerprint in
            JSONValue.object([
                ("type", "issue"),
                ("check_name", .string(finding.ruleID)),
                ("description", .string(finding.message)),
                ("content", .object([("body", .string(finding.suggestion))])),
                ("categories", ["Bug Risk"]),
                ("fingerprint", .string(fingerprint)),
                ("severity", .string(CodeClimateReporter.severity(finding.severity))),
                ("location", .object([
                    ("path", .string(finding.path)),
                    ("lines", .object([
                        ("begin", .int(finding.start.line)),
                        ("end", .int(finding.end.line)),
                    ])),
                ])),
            ])
        }
        return JSONValue.array(issues).rendered() + "\n"
    }

    static func severity(_ severity: Severity) -> String {
        switch severity {
        case .info: "info"
        case .warning: "minor"
        case .error: "major"
        }
    }
}
