import Lexer
import Rules

/// Where users read about kblint and its rules; SARIF viewers link to them.
enum ProjectLinks {
    static let repository = "https://github.com/kblint/kblint"
    /// Rules.md on the default branch; a rule's section is `#<rule id>`.
    static let rulesDocument = repository + "/blob/main/Rules.md"

    static func ruleDocumentation(_ ruleID: String) -> String {
        rulesDocument + "#" + ruleID
    }
}

/// SARIF 2.1.0 for GitHub code scanning, Azure DevOps and IDE viewers: one run whose
/// `tool.driver.rules` are the enabled rules and one result per finding.
///
/// The run declares `columnKind: utf16CodeUnits`, so byte columns are converted with the
/// finding's line texts. Relative paths use `uriBaseId: SRCROOT`, which
/// `originalUriBaseIds` maps to the current directory. Fix replacements are given as
/// `byteOffset`/`byteLength` regions, exact whatever the line's characters.
struct SARIFReporter: Reporter {
    static let schemaURI = "https://json.schemastore.org/sarif-2.1.0.json"
    static let fingerprintKey = "kblintFingerprint/v1"
    static let sourceRootID = "SRCROOT"

    func render(_ report: LintReport) -> String {
        var ruleIndexes: [String: Int] = [:]
        for (index, rule) in report.rules.enumerated() { ruleIndexes[rule.id] = index }

        let results = zip(report.findings, report.fingerprints).map { finding, fingerprint in
            result(for: finding, fingerprint: fingerprint, ruleIndex: ruleIndexes[finding.ruleID])
        }
        let driver = JSONValue.object([
            ("name", "kblint"),
            ("version", .string(report.toolVersion)),
            ("informationUri", .string(ProjectLinks.repository)),
            ("rules", .array(report.rules.map(descriptor(for:)))),
        ])
        let run = JSONValue.object([
            ("tool", .object([("driver", driver)])),
            ("originalUriBaseIds", .object([
                (SARIFReporter.sourceRootID, .object([
                    ("uri", .string(SARIFReporter.fileURI(directory: report.settings.currentDirectory))),
                ])),
            ])),
            ("columnKind", "utf16CodeUnits"),
            ("results", .array(results)),
        ])
        let document = JSONValue.object([
            ("$schema", .string(SARIFReporter.schemaURI)),
            ("version", "2.1.0"),
            ("runs", [run]),
        ])
        return document.rendered() + "\n"
    }

    private func descriptor(for rule: RuleMetadata) -> JSONValue {
        let helpURI = ProjectLinks.ruleDocumentation(rule.id)
        let markdown = "\(rule.rationale)\n\n**Fix:** \(rule.fix)\n\n[\(rule.id) in Rules.md](\(helpURI))"
        return .object([
            ("id", .string(rule.id)),
            ("shortDescription", .object([("text", .string(rule.summary))])),
            ("fullDescription", .object([("text", .string(rule.rationale))])),
            ("help", .object([
                ("text", .string(rule.fix)),
                ("markdown", .string(markdown)),
            ])),
            ("helpUri", .string(helpURI)),
            ("defaultConfiguration", .object([
                ("level", .string(rule.defaultSeverity.compilerLevel)),
            ])),
            ("properties", .object([
                ("category", .string(rule.category.rawValue)),
                ("optIn", .bool(rule.isOptIn)),
            ])),
        ])
    }

    private func result(for finding: Finding, fingerprint: String, ruleIndex: Int?) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("ruleId", .string(finding.ruleID))]
        if let ruleIndex { members.append(("ruleIndex", .int(ruleIndex))) }
        members.append(("level", .string(finding.severity.compilerLevel)))
        members.append(("message", .object([("text", .string(finding.message))])))
        let region = SARIFReporter.region(
            start: finding.start, end: finding.end,
            lineText: finding.lineText, endLineText: finding.endLineText)
        members.append(("locations", [
            .object([("physicalLocation", .object([
                ("artifactLocation", artifactLocation(finding.path)),
                ("region", region),
            ]))]),
        ]))
        members.append(("partialFingerprints", .object([
            (SARIFReporter.fingerprintKey, .string(fingerprint)),
        ])))
        if !finding.related.isEmpty {
            members.append(("relatedLocations", .array(finding.related.enumerated().map { index, related in
                .object([
                    ("id", .int(index + 1)),
                    ("physicalLocation", .object([
                        ("artifactLocation", artifactLocation(related.path)),
                        ("region", relatedRegion(related)),
                    ])),
                    ("message", .object([("text", .string(related.message))])),
                ])
            })))
        }
        if let fix = finding.fix, !fix.edits.isEmpty {
            let replacements = fix.edits.map { edit in
                JSONValue.object([
                    ("deletedRegion", .object([
                        ("byteOffset", .int(edit.range.lowerBound)),
                        ("byteLength", .int(edit.range.count)),
                    ])),
                    ("insertedContent", .object([("text", .string(edit.replacement))])),
                ])
            }
            members.append(("fixes", [
                .object([
                    ("description", .object([("text", .string(finding.suggestion))])),
                    ("artifactChanges", [
                        .object([
                            ("artifactLocation", artifactLocation(finding.path)),
                            ("replacements", .array(replacements)),
                        ]),
                    ]),
                ]),
            ]))
        }
        var properties: [(key: String, value: JSONValue)] = [("suggestion", .string(finding.suggestion))]
        if let fix = finding.fix { properties.append(("fixApplicability", .string(fix.applicability.rawValue))) }
        if !finding.covers.isEmpty { properties.append(("covers", .array(finding.covers.map { .string($0) }))) }
        members.append(("properties", .object(properties)))
        return .object(members)
    }

    /// Lines always; UTF-16 columns only where the line texts are known.
    private func relatedRegion(_ related: RelatedFinding) -> JSONValue {
        guard let lineText = related.lineText else {
            return .object([("startLine", .int(related.start.line)), ("endLine", .int(related.end.line))])
        }
        return SARIFReporter.region(
            start: related.start, end: related.end, lineText: lineText, endLineText: related.endLineText)
    }

    /// A full region in UTF-16 columns. When the range ends on a later line whose text is
    /// unknown, `endColumn` is left out (SARIF then means the end of that line) rather than
    /// guessed.
    static func region(
        start: SourceLocation, end: SourceLocation, lineText: String, endLineText: String?
    ) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("startLine", .int(start.line)),
            ("startColumn", .int(ColumnConversion.utf16Column(start.column, in: lineText))),
            ("endLine", .int(end.line)),
        ]
        if end.line == start.line {
            members.append(("endColumn", .int(ColumnConversion.utf16Column(end.column, in: lineText))))
        } else if let endLineText {
            members.append(("endColumn", .int(ColumnConversion.utf16Column(end.column, in: endLineText))))
        }
        return .object(members)
    }

    private func artifactLocation(_ path: String) -> JSONValue {
        if path.hasPrefix("/") {
            return .object([("uri", .string("file://" + SARIFReporter.percentEncoded(path)))])
        }
        return .object([
            ("uri", .string(SARIFReporter.percentEncoded(path))),
            ("uriBaseId", .string(SARIFReporter.sourceRootID)),
        ])
    }

    /// `file://` URI of a directory, ending in `/` as SARIF requires for base URIs.
    static func fileURI(directory: String) -> String {
        let encoded = percentEncoded(directory)
        return "file://" + encoded + (encoded.hasSuffix("/") ? "" : "/")
    }

    /// A path as a URI reference: unreserved characters, sub-delimiters, `@` and `/` kept,
    /// every other byte of its UTF-8 form as `%XX` (`:` too, which a relative reference's
    /// first segment must not contain).
    static func percentEncoded(_ path: String) -> String {
        var output = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
                 UInt8(ascii: "/"), UInt8(ascii: "@"), UInt8(ascii: "!"), UInt8(ascii: "$"),
                 UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
                 UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
                 UInt8(ascii: "="):
                output.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                output += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return output
    }
}
