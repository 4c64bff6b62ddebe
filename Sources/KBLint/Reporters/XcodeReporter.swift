/// Compiler-style lines that Xcode (from a Run Script phase or plugin), editors and most CI
/// log parsers turn into issues: `/abs/path:line:col: warning: message (rule_id)`.
/// Paths are absolute because Xcode resolves issues against them, not the working
/// directory. Columns are UTF-8 bytes, as swiftc reports them. Xcode knows error, warning
/// and note, so info findings are `note:` lines; each related location follows its finding
/// as a `note:`, as compilers print them. Line breaks in messages become spaces, since every
/// issue must be one line; control characters in paths are escaped (`PathEncoding.display`).
struct XcodeReporter: Reporter {
    func render(_ report: LintReport) -> String {
        var output = ""
        for finding in report.findings {
            output += "\(PathEncoding.display(finding.absolutePath)):\(finding.start.line):\(finding.start.column): "
            output += "\(finding.severity.compilerLevel): \(oneLine(finding.message)) (\(finding.ruleID))\n"
            for related in finding.related {
                let path = absolute(related.path, in: report.settings.pathRoot)
                output += "\(PathEncoding.display(path)):\(related.start.line):\(related.start.column): "
                output += "note: \(oneLine(related.message))\n"
            }
        }
        return output
    }

    private func oneLine(_ text: String) -> String {
        text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline)
            .joined(separator: " ")
    }

    private func absolute(_ path: String, in directory: String) -> String {
        if path.hasPrefix("/") { return path }
        return directory.hasSuffix("/") ? directory + path : directory + "/" + path
    }
}
