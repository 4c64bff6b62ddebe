import Lexer
import Rules

/// The text of a file's lines, each decoded once: the findings on one line share one string
/// (thousands of findings on one long line each held a copy of it).
final class LineTexts {
    let file: SourceFile
    private var texts: [Int: String] = [:]

    init(_ file: SourceFile) { self.file = file }

    /// The text of 1-based `line` without its terminator.
    subscript(line: Int) -> String {
        if let text = texts[line] { return text }
        let text = file.text(file.lineRange(line))
        texts[line] = text
        return text
    }
}

extension Finding {
    /// Places `diagnostic` in the file of `lines`, filling every position and line text
    /// reporters need (start and end lines, edit positions, related places); the findings of
    /// one file share `lines`. `relatedFile` maps the path of a related location in another
    /// file to that file and its display and absolute paths; related locations it cannot
    /// resolve are left out rather than shown at a wrong place.
    init(
        diagnostic: Diagnostic, severity: Severity? = nil, lines: LineTexts,
        path: String, absolutePath: String,
        relatedFile: (String) -> (file: SourceFile, path: String)? = { _ in nil }
    ) {
        let file = lines.file
        let start = file.location(of: diagnostic.range.lowerBound)
        let end = file.location(of: diagnostic.range.upperBound)
        let lineText = lines[start.line]
        var related: [RelatedFinding] = []
        for location in diagnostic.related {
            let target: (lines: LineTexts, path: String)
            if let otherPath = location.path {
                guard let resolved = relatedFile(otherPath) else { continue }
                target = (LineTexts(resolved.file), resolved.path)
            } else {
                target = (lines, path)
            }
            let relatedStart = target.lines.file.location(of: location.range.lowerBound)
            let relatedEnd = target.lines.file.location(of: location.range.upperBound)
            related.append(RelatedFinding(
                path: target.path, start: relatedStart, end: relatedEnd,
                message: location.message,
                lineText: target.lines[relatedStart.line],
                endLineText: relatedEnd.line == relatedStart.line ? nil : target.lines[relatedEnd.line]
            ))
        }
        self.init(
            ruleID: diagnostic.ruleID, severity: severity ?? diagnostic.severity,
            message: diagnostic.message, suggestion: diagnostic.suggestion,
            path: path, absolutePath: absolutePath, range: diagnostic.range,
            start: start, end: end, lineText: lineText,
            fix: diagnostic.fix, related: related, covers: diagnostic.covers,
            covered: diagnostic.covered.map { covered in
                let start = file.location(of: covered.range.lowerBound)
                return CoveredPlace(ruleID: covered.ruleID, start: start, lineText: lines[start.line])
            },
            endLineText: end.line == start.line ? nil : lines[end.line],
            resolvedEdits: (diagnostic.fix?.edits ?? []).map { edit in
                ResolvedEdit(
                    range: edit.range, start: file.location(of: edit.range.lowerBound),
                    end: file.location(of: edit.range.upperBound), replacement: edit.replacement
                )
            }
        )
    }
}
