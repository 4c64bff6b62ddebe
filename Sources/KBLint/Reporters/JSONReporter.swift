/// kblint's own machine-readable format, for scripts and editor integrations. Version 1 is
/// stable: keys are only ever added. Lines and columns are 1-based, columns count UTF-8
/// bytes, end positions are exclusive; edits are byte ranges of the file (`offset`,
/// `length`) with the same range as lines and columns, and the replacement text.
struct JSONReporter: Reporter {
    static let formatVersion = 1

    func render(_ report: LintReport) -> String {
        let diagnostics = zip(report.findings, report.fingerprints).map { finding, fingerprint in
            JSONValue.object([
                ("rule", .string(finding.ruleID)),
                ("severity", .string(finding.severity.rawValue)),
                ("message", .string(finding.message)),
                ("path", .string(finding.path)),
                ("line", .int(finding.start.line)),
                ("column", .int(finding.start.column)),
                ("endLine", .int(finding.end.line)),
                ("endColumn", .int(finding.end.column)),
                ("suggestion", .string(finding.suggestion)),
                ("fixApplicability", finding.fix.map { .string($0.applicability.rawValue) } ?? .null),
                ("edits", .array(edits(of: finding))),
                ("related", .array(finding.related.map { related in
                    .object([
                        ("path", .string(related.path)),
                        ("line", .int(related.start.line)),
                        ("column", .int(related.start.column)),
                        ("endLine", .int(related.end.line)),
                        ("endColumn", .int(related.end.column)),
                        ("message", .string(related.message)),
                    ])
                })),
                ("fingerprint", .string(fingerprint)),
                ("covers", .array(finding.covers.map { .string($0) })),
            ])
        }
        let document = JSONValue.object([
            ("version", .int(JSONReporter.formatVersion)),
            ("diagnostics", .array(diagnostics)),
        ])
        return document.rendered() + "\n"
    }

    /// The resolved edits when the finding has them, else the fix's byte ranges alone.
    private func edits(of finding: Finding) -> [JSONValue] {
        if let fix = finding.fix, finding.resolvedEdits.count != fix.edits.count {
            return fix.edits.map { edit in
                .object([
                    ("offset", .int(edit.range.lowerBound)),
                    ("length", .int(edit.range.count)),
                    ("replacement", .string(edit.replacement)),
                ])
            }
        }
        return finding.resolvedEdits.map { edit in
            .object([
                ("offset", .int(edit.range.lowerBound)),
                ("length", .int(edit.range.count)),
                ("line", .int(edit.start.line)),
                ("column", .int(edit.start.column)),
                ("endLine", .int(edit.end.line)),
                ("endColumn", .int(edit.end.column)),
                ("replacement", .string(edit.replacement)),
            ])
        }
    }
}
