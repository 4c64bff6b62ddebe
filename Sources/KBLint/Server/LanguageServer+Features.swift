import Lexer
import Rules

/// What the server shows: diagnostics, code actions and hovers, built from the findings of a
/// document's last check.
extension LanguageServer {
    static let quickFixKind = "quickfix"
    static let fixAllKind = "source.fixAll.kblint"

    // MARK: - Diagnostics

    /// A finding as an LSP diagnostic: the rule id as its code with a link to the rule's
    /// documentation, the fix suggestion after the message, and the related places.
    func diagnostic(for finding: Finding, in open: OpenDocument) -> JSONValue {
        let file = open.checked ?? open.document.file
        var members: [(key: String, value: JSONValue)] = [
            ("range", range(of: finding.range, in: file).json),
            ("severity", .int(Self.severityNumber(finding.severity))),
            ("code", .string(finding.ruleID)),
            ("codeDescription", .object([("href", .string(ProjectLinks.ruleDocumentation(finding.ruleID)))])),
            ("source", "kblint"),
            ("message", .string(finding.suggestion.isEmpty ? finding.message : finding.message + "\nFix: " + finding.suggestion)),
        ]
        if !finding.related.isEmpty {
            members.append(("relatedInformation", .array(finding.related.map { related in
                let uri = related.path == finding.path ? open.document.uri : FileURI.uri(of: open.workspace.absolutePath(related.path))
                let start = TextPosition(line: related.start.line - 1, character: character(related.start.column, in: related.lineText))
                let end = TextPosition(line: related.end.line - 1, character: character(related.end.column, in: related.endLineText ?? related.lineText))
                return .object([
                    ("location", .object([("uri", .string(uri)), ("range", TextRange(start: start, end: end).json)])),
                    ("message", .string(related.message)),
                ])
            })))
        }
        return .object(members)
    }

    /// LSP's `DiagnosticSeverity`: 1 error, 2 warning, 3 information.
    static func severityNumber(_ severity: Severity) -> Int {
        switch severity {
        case .error: 1
        case .warning: 2
        case .info: 3
        }
    }

    /// A configuration error as a diagnostic on the configuration file (absolute `path`), at
    /// the error's place (the whole first line when the file as a whole is concerned).
    func configurationDiagnostic(_ error: ConfigurationError, in path: String) -> JSONValue {
        var range = TextRange(start: TextPosition(line: 0, character: 0), end: TextPosition(line: 1, character: 0))
        if let location = error.location {
            let line = location.line - 1
            range = TextRange(start: TextPosition(line: line, character: location.column - 1), end: TextPosition(line: line + 1, character: 0))
            if let bytes = try? FileSystem.readFile(path) {
                let file = SourceFile(path: path, bytes: bytes)
                let lineRange = file.lineRange(location.line)
                let start = min(lineRange.lowerBound + location.column - 1, lineRange.upperBound)
                range = self.range(of: start..<lineRange.upperBound, in: file)
            }
        }
        return .object([
            ("range", range.json), ("severity", 1), ("source", "kblint"),
            ("message", .string("kblint cannot use this configuration: \(error.message)")),
        ])
    }

    func range(of bytes: Range<Int>, in file: SourceFile) -> TextRange {
        TextRange(
            start: TextDocument.position(of: bytes.lowerBound, in: file, encoding: encoding),
            end: TextDocument.position(of: bytes.upperBound, in: file, encoding: encoding))
    }

    /// A 1-based UTF-8 byte column of `line` in the negotiated encoding, 0-based.
    private func character(_ column: Int, in line: String?) -> Int {
        guard encoding == .utf16, let line else { return column - 1 }
        return ColumnConversion.utf16Column(column, in: line) - 1
    }

    // MARK: - Code actions

    /// The open document of a request, with findings for its current text.
    private func currentDocument(_ params: JSONValue) throws(JSONRPC.Failure) -> OpenDocument? {
        let uri = try params.required("textDocument").string("uri")
        guard let open = documents[uri] else { return nil }
        if open.due != nil || open.checked?.bytes != open.document.bytes { check(uri) }
        return documents[uri]
    }

    /// One quick fix per fixable finding in the range (safe ones preferred, unsafe ones
    /// labelled), a "disable for this line" action per finding, and the fix-all source action.
    func codeActions(_ params: JSONValue) throws(JSONRPC.Failure) -> JSONValue {
        guard let open = try currentDocument(params), let file = open.checked else { return .array([]) }
        let requested = try TextRange(params.required("range"))
        let only = params.at("context", "only")?.arrayValue?.compactMap(\.stringValue)
        func wanted(_ kind: String) -> Bool {
            only.map { $0.contains { kind == $0 || kind.hasPrefix($0 + ".") } } ?? true
        }
        var actions: [JSONValue] = []
        let inRange = open.findings.filter { finding in
            let range = range(of: finding.range, in: file)
            return range.start <= requested.end && requested.start <= range.end
        }
        if wanted(Self.quickFixKind) {
            for finding in inRange {
                let diagnostic = diagnostic(for: finding, in: open)
                if let fix = finding.fix {
                    let edits = fix.edits.map { edit in
                        let replacement = LineEnding.around(edit.range.lowerBound, in: file.bytes).convert(Array(edit.replacement.utf8))
                        return textEdit(edit.range, String(decoding: replacement, as: UTF8.self), in: file)
                    }
                    let unsafe = fix.applicability == .unsafe
                    actions.append(.object([
                        ("title", .string("kblint (\(finding.ruleID)): \(finding.suggestion)\(unsafe ? " (unsafe fix)" : "")")),
                        ("kind", .string(Self.quickFixKind)),
                        ("diagnostics", .array([diagnostic])),
                        ("isPreferred", .bool(!unsafe)),
                        ("edit", workspaceEdit(open, edits)),
                    ]))
                }
                guard !EngineDiagnostics.unsuppressibleIDs.contains(finding.ruleID) else { continue }
                let line = file.lineRange(finding.start.line)
                let indentation = file.bytes[line].prefix { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
                let comment = String(decoding: indentation, as: UTF8.self) + "// kblint:disable:next \(finding.ruleID)\n"
                let insertion = String(decoding: LineEnding.around(line.lowerBound, in: file.bytes).convert(Array(comment.utf8)), as: UTF8.self)
                actions.append(.object([
                    ("title", .string("Disable \(finding.ruleID) for this line")),
                    ("kind", .string(Self.quickFixKind)),
                    ("diagnostics", .array([diagnostic])),
                    ("edit", workspaceEdit(open, [textEdit(line.lowerBound..<line.lowerBound, insertion, in: file)])),
                ]))
            }
        }
        // Offered with the quick fixes when the range has a safe fix, and whenever asked for by kind.
        let asked = only?.contains { Self.fixAllKind == $0 || Self.fixAllKind.hasPrefix($0 + ".") } ?? false
        let hasSafeFix = (asked ? open.findings : inRange).contains { $0.fix?.applicability == .safe }
        if wanted(Self.fixAllKind), hasSafeFix,
           let fixed = open.workspace.fixingAll(open.document, openDocuments: [:]), fixed != file.bytes {
            actions.append(.object([
                ("title", "kblint: apply every safe fix"),
                ("kind", .string(Self.fixAllKind)),
                ("edit", workspaceEdit(open, [minimalEdit(from: file, to: fixed)])),
            ]))
        }
        return .array(actions)
    }

    private func textEdit(_ bytes: Range<Int>, _ text: String, in file: SourceFile) -> JSONValue {
        .object([("range", range(of: bytes, in: file).json), ("newText", .string(text))])
    }

    /// One edit replacing the part of `file` that differs from `fixed` (whole characters).
    private func minimalEdit(from file: SourceFile, to fixed: [UInt8]) -> JSONValue {
        let old = file.bytes
        var prefix = 0
        while prefix < old.count, prefix < fixed.count, old[prefix] == fixed[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < fixed.count - prefix,
              old[old.count - 1 - suffix] == fixed[fixed.count - 1 - suffix] { suffix += 1 }
        // Never cut a character or a CRLF in two.
        func splits(_ bytes: [UInt8], _ index: Int) -> Bool {
            index > 0 && index < bytes.count && (bytes[index] & 0xC0 == 0x80 || (bytes[index - 1] == 0x0D && bytes[index] == 0x0A))
        }
        while prefix > 0, splits(old, prefix) || splits(fixed, prefix) { prefix -= 1 }
        while suffix > 0, splits(old, old.count - suffix) || splits(fixed, fixed.count - suffix) { suffix -= 1 }
        let replacement = String(decoding: fixed[prefix..<(fixed.count - suffix)], as: UTF8.self)
        return textEdit(prefix..<(old.count - suffix), replacement, in: file)
    }

    /// Edits of one document, versioned when the client takes `documentChanges`.
    private func workspaceEdit(_ open: OpenDocument, _ edits: [JSONValue]) -> JSONValue {
        if capabilities.at("workspace", "workspaceEdit", "documentChanges")?.boolValue == true {
            return .object([("documentChanges", .array([.object([
                ("textDocument", .object([("uri", .string(open.document.uri)), ("version", .int(open.document.version))])),
                ("edits", .array(edits)),
            ])]))])
        }
        return .object([("changes", .object([(open.document.uri, .array(edits))]))])
    }

    // MARK: - Hover

    /// The documentation of the rules whose findings cover the position: summary, why, fix.
    func hover(_ params: JSONValue) throws(JSONRPC.Failure) -> JSONValue {
        guard let open = try currentDocument(params), let file = open.checked else { return .null }
        let offset = TextDocument.offset(of: try TextPosition(params.required("position")), in: file, encoding: encoding)
        let covering = open.findings.filter { $0.range.contains(offset) || $0.range.upperBound == offset || $0.range.lowerBound == offset }
        guard let first = covering.first else { return .null }
        let markdown = capabilities.at("textDocument", "hover", "contentFormat")?.arrayValue?.first?.stringValue != "plaintext"
        var seen: Set<String> = []
        var sections: [String] = []
        for finding in covering where seen.insert(finding.ruleID).inserted {
            guard let rule = metadata[finding.ruleID] else { continue }
            let link = ProjectLinks.ruleDocumentation(rule.id)
            sections.append(markdown
                ? "**kblint: `\(rule.id)`** — \(rule.summary)\n\n**Why.** \(rule.rationale)\n\n**Fix.** \(rule.fix)\n\n[Documentation](\(link))"
                : "kblint: \(rule.id): \(rule.summary)\n\nWhy: \(rule.rationale)\n\nFix: \(rule.fix)\n\n\(link)")
        }
        return .object([
            ("contents", .object([
                ("kind", .string(markdown ? "markdown" : "plaintext")),
                ("value", .string(sections.joined(separator: markdown ? "\n\n---\n\n" : "\n\n"))),
            ])),
            ("range", range(of: first.range, in: file).json),
        ])
    }
}
