import Rules

/// The readable form for a terminal: each finding's header, its source line with carets
/// under the range, the fix suggestion and related places, then the summary line.
///
/// ```
/// Sources/Chat.swift:3:17: warning: message [rule_id]
///  3 |     let frame = note.userInfo[key]
///    |                 ^^^^^^^^^^^^^^^^^^
///    = fix: suggestion
/// ```
/// Colors are ANSI SGR codes, used only when `ReportSettings.useColor` is set (the caller
/// clears it for `NO_COLOR` and non-terminals). Columns are UTF-8 bytes, like the compiler's.
struct PrettyReporter: Reporter {
    func render(_ report: LintReport) -> String {
        let style = Style(enabled: report.settings.useColor)
        var output = ""
        for finding in report.findings {
            output += block(for: finding, style: style) + "\n"
        }
        guard report.settings.showsSummaryLine else { return output }
        return output + style.bold(SummaryReporter.summaryLine(report)) + "\n"
    }

    private func block(for finding: Finding, style: Style) -> String {
        let severityColor = style.color(for: finding.severity)
        let messageLines = finding.message.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            .map { displayable(String($0)) }
        var output = style.bold("\(PathEncoding.display(finding.path)):\(finding.start.line):\(finding.start.column):")
        output += " " + style.apply(severityColor + Style.boldCode, finding.severity.rawValue + ":")
        output += " " + style.bold(messageLines.first ?? "") + " " + style.dim("[\(finding.ruleID)]") + "\n"

        let lineNumber = String(finding.start.line)
        let gutter = String(repeating: " ", count: lineNumber.count + 2)
        for continuation in messageLines.dropFirst() {
            output += gutter + "   " + continuation + "\n"
        }
        output += style.apply(Style.blue, " " + lineNumber + " |") + " " + displayable(finding.lineText) + "\n"
        var marker = caretIndent(finding.lineText, column: finding.start.column)
        marker += style.apply(severityColor, carets(for: finding))
        if finding.end.line > finding.start.line {
            marker += " " + style.dim("(through line \(finding.end.line))")
        }
        output += style.apply(Style.blue, gutter + "|") + " " + marker + "\n"

        var fix = finding.suggestion
        switch finding.fix?.applicability {
        case .safe?: fix += " (fixable with --fix)"
        case .unsafe?: fix += " (fixable with --fix --unsafe-fixes)"
        case nil: break
        }
        output += style.apply(Style.blue, gutter + "=") + " " + style.apply(Style.green, "fix:") + " " + fix + "\n"
        for related in finding.related {
            output += style.apply(Style.blue, gutter + "=") + " " + style.apply(Style.cyan, "note:")
            output += " \(PathEncoding.display(related.path)):\(related.start.line):\(related.start.column): \(related.message)\n"
        }
        return output
    }

    /// The line with control characters other than tab shown as U+FFFD, so that a file
    /// cannot send escape sequences to the terminal; one character each, so carets still
    /// line up.
    private func displayable(_ line: String) -> String {
        var output = ""
        for character in line {
            let isControl = character != "\t"
                && character.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
            output.append(isControl ? "\u{FFFD}" : character)
        }
        return output
    }

    /// Whitespace that puts the caret under byte `column` of `line`: one space per character
    /// before it, tabs kept so that the caret lines up whatever the tab width.
    private func caretIndent(_ line: String, column: Int) -> String {
        var indent = ""
        var remainingBytes = column - 1
        for character in line {
            let width = character.utf8.count
            guard remainingBytes >= width else { break }
            remainingBytes -= width
            indent += character == "\t" ? "\t" : " "
        }
        return indent + String(repeating: " ", count: max(remainingBytes, 0))
    }

    /// One caret per character of the range on the start line (at least one).
    private func carets(for finding: Finding) -> String {
        let startIndex = finding.start.column - 1
        let endIndex = finding.end.line == finding.start.line
            ? finding.end.column - 1 : finding.lineText.utf8.count
        var count = 0
        var offset = 0
        for character in finding.lineText {
            if offset >= startIndex && offset < endIndex { count += 1 }
            offset += character.utf8.count
        }
        return String(repeating: "^", count: max(count, 1))
    }
}

/// ANSI styling that collapses to plain text when disabled.
private struct Style {
    static let boldCode = "\u{1B}[1m"
    static let red = "\u{1B}[31m"
    static let yellow = "\u{1B}[33m"
    static let green = "\u{1B}[32m"
    static let blue = "\u{1B}[34m"
    static let cyan = "\u{1B}[36m"
    static let dimCode = "\u{1B}[2m"
    static let reset = "\u{1B}[0m"

    let enabled: Bool

    func color(for severity: Severity) -> String {
        switch severity {
        case .error: Style.red
        case .warning: Style.yellow
        case .info: Style.cyan
        }
    }

    func apply(_ code: String, _ text: String) -> String {
        enabled ? code + text + Style.reset : text
    }

    func bold(_ text: String) -> String { apply(Style.boldCode, text) }
    func dim(_ text: String) -> String { apply(Style.dimCode, text) }
}
