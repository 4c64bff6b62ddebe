import Lexer
import Rules

extension Finding {
    /// Places `diagnostic` in `file`, filling every position and line text reporters need
    /// (start and end lines, edit positions, related places). `relatedFile` maps the path of a
    /// related location in another file to that file and its display and absolute paths;
    /// related locations it cannot resolve are left out rather than shown at a wrong place.
    init(
        diagnostic: Diagnostic, severity: Severity? = nil, file: SourceFile,
        path: String, absolutePath: String,
        relatedFile: (String) -> (file: SourceFile, path: String)? = { _ in nil }
    ) {
        let start = file.location(of: diagnostic.range.lowerBound)
        let end = file.location(of: diagnostic.range.upperBound)
        let lineText = file.text(file.lineRange(start.line))
        var related: [RelatedFinding] = []
        for location in diagnostic.related {
            let target: (file: SourceFile, path: String)
            if let otherPath = location.path {
                guard let resolved = relatedFile(otherPath) else { continue }
                target = resolved
            } else {
                target = (file, path)
            }
            let relatedStart = target.file.location(of: location.range.lowerBound)
            let relatedEnd = target.file.location(of: location.range.upperBound)
            related.append(RelatedFinding(
                path: target.path, start: relatedStart, end: relatedEnd,
                message: location.message,
                lineText: target.file.text(target.file.lineRange(relatedStart.line)),
                endLineText: relatedEnd.line == relatedStart.line
                    ? nil : target.file.text(target.file.lineRange(relatedEnd.line))
            ))
        }
        self.init(
            ruleID: diagnostic.ruleID, severity: severity ?? diagnostic.severity,
            message: diagnostic.message, suggestion: diagnostic.suggestion,
            path: path, absolutePath: absolutePath, range: diagnostic.range,
            start: start, end: end, lineText: lineText,
            fix: diagnostic.fix, related: related,
            endLineText: end.line == start.line ? nil : file.text(file.lineRange(end.line)),
            resolvedEdits: (diagnostic.fix?.edits ?? []).map { edit in
                ResolvedEdit(
                    range: edit.range, start: file.location(of: edit.range.lowerBound),
                    end: file.location(of: edit.range.upperBound), replacement: edit.replacement
                )
            }
        )
    }
}
