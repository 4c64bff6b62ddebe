import Lexer

/// One `kblint:` comment: what it switches off (or back on), for which ids and where.
///
/// Grammar (inside a comment, as the first thing after `//`, `///`, `/*` or `/**`):
/// `kblint:disable[:next|:this|:previous] <id>… [- reason]`, `kblint:enable <id>…`,
/// with `all` in place of the ids. Ids are separated by spaces or commas; a lone `-`
/// starts a free-text reason.
public struct SuppressionDirective: Sendable, Hashable {
    public enum Action: Sendable, Hashable {
        /// `disable` / `enable` without a scope: a region up to the matching `enable` or
        /// the end of the file.
        case disableRegion, enableRegion
        /// `disable:next`, `disable:this`, `disable:previous`: one line.
        case disableLine(Int)
    }

    /// One id as written, with the bytes it occupies in the file (for precise reports).
    public struct NamedID: Sendable, Hashable {
        public let id: String
        public let range: Range<Int>
    }

    public let action: Action
    /// The ids named; `all` is kept as the id `all`.
    public let ids: [NamedID]
    /// The comment token's range.
    public let range: Range<Int>
    /// A `swiftlint:` comment whose SwiftLint ids were mapped to the overlapping kblint rules
    /// (`Suppression.swiftLintEquivalents`); it belongs to SwiftLint, so kblint never reports
    /// it as superfluous.
    public var isSwiftLint = false
}

/// A `kblint:` comment that could not be understood, kept so that it is reported instead of
/// silently doing nothing.
public struct MalformedSuppression: Sendable, Hashable {
    public let range: Range<Int>
    public let problem: String
}

/// Suppression comments: parsing them from the comment tokens of a file (never from string
/// literals), dropping the diagnostics they cover, and reporting the ones that covered
/// nothing as `superfluous_disable_command`. Pure, so that the Rules-level examples test and
/// the driver share it.
public enum Suppression {
    public static let marker: StaticString = "kblint:"
    public static let swiftLintMarker: StaticString = "swiftlint:"

    /// SwiftLint rules that report the same defect as a kblint rule: a `swiftlint:disable`
    /// for one of them also silences the kblint rule on the lines it covers, so that a team
    /// running both tools does not annotate the same line twice. Other SwiftLint ids
    /// (and `all`) are ignored.
    public static let swiftLintEquivalents: [String: String] = [
        "discarded_notification_center_observer": "observer_token_discarded",
        "notification_center_detachment": "observer_removed_greedily",
    ]

    /// Cheap byte search: a file without `kblint:` or `swiftlint:` anywhere has no
    /// directives, and its comments need not be parsed. `markers`, which of
    /// `FileChecker.catalogueMarkers` (both among them) the bytes hold, answers without a
    /// search when known.
    private static func mayContainDirectives(_ bytes: [UInt8], markers: MarkerSet.Mask?) -> Bool {
        markers.map { $0.intersects(markerMask) } ?? KeyboardVocabulary.mayContain([marker, swiftLintMarker], in: bytes)
    }

    private static let markerMask = FileChecker.catalogueMarkers.mask(of: [marker, swiftLintMarker])

    /// The well-formed directives and the malformed `kblint:` comments of a file, in order.
    /// `markers`: which of `FileChecker.catalogueMarkers` its bytes hold, if known.
    public static func directives(
        in source: TokenizedSource, markers: MarkerSet.Mask? = nil,
        closeMatches: (_ word: String, _ candidates: [String]) -> [String] = { _, _ in [] }
    ) -> (directives: [SuppressionDirective], malformed: [MalformedSuppression]) {
        var directives: [SuppressionDirective] = []
        var malformed: [MalformedSuppression] = []
        guard mayContainDirectives(source.file.bytes, markers: markers) else { return ([], []) }
        for token in source.tokens where token.kind.isComment && token.kind != .commentShebang {
            switch parse(comment: token, in: source.file, closeMatches: closeMatches) {
            case .none: break
            case .directive(let directive)?: directives.append(directive)
            case .malformed(let problem)?: malformed.append(problem)
            }
        }
        return (directives, malformed)
    }

    /// `diagnostics` without the ones a directive covers, followed by one
    /// `superfluous_disable_command` per disabled id that covered nothing, per unknown id and
    /// per malformed directive.
    ///
    /// - Parameters:
    ///   - activeRuleIDs: the rules that were enabled for this file. A disable naming a known
    ///     rule that was not enabled (opt-in, switched off, outside its deployment targets) is
    ///     not reported: it may matter under another configuration.
    ///   - knownRuleIDs: every id users may write (all rules, engine ids included).
    ///   - closeMatches: spelling suggestions for a mistyped word among candidates, best
    ///     first (the command line passes its did-you-mean matcher); used for unknown ids
    ///     and unknown commands.
    ///   - markers: which of `FileChecker.catalogueMarkers` the bytes hold, if known.
    public static func filter(
        _ diagnostics: [Diagnostic], in source: TokenizedSource,
        activeRuleIDs: Set<String>, knownRuleIDs: Set<String>, markers: MarkerSet.Mask? = nil,
        closeMatches: (_ word: String, _ candidates: [String]) -> [String] = { _, _ in [] }
    ) -> [Diagnostic] {
        let (directives, malformed) = directives(in: source, markers: markers, closeMatches: closeMatches)
        if directives.isEmpty && malformed.isEmpty { return diagnostics }

        // used[directiveIndex][idIndex]
        var used = directives.map { [Bool](repeating: false, count: $0.ids.count) }
        var kept: [Diagnostic] = []
        for diagnostic in diagnostics {
            if EngineDiagnostics.unsuppressibleIDs.contains(diagnostic.ruleID) {
                kept.append(diagnostic)
                continue
            }
            // A finding that stands for others (`FindingMerging`) is suppressed by a directive
            // for its own rule at its place or for any rule it covers at that finding's place.
            let places = [(diagnostic.ruleID, diagnostic.range)] + diagnostic.covered.map { ($0.ruleID, $0.range) }
            let covering = places.lazy.compactMap { ruleID, range in
                coveringDirective(for: ruleID, at: range.lowerBound,
                                  line: source.file.location(of: range.lowerBound).line, in: directives)
            }.first
            if let (directive, id) = covering {
                used[directive][id] = true
            } else {
                kept.append(diagnostic)
            }
        }

        for (index, directive) in directives.enumerated() {
            if directive.action == .enableRegion || directive.isSwiftLint { continue }
            for (idIndex, named) in directive.ids.enumerated() where !used[index][idIndex] {
                if let message = superfluousMessage(
                    for: named.id, activeRuleIDs: activeRuleIDs, knownRuleIDs: knownRuleIDs,
                    closeIDs: { closeMatches($0, knownRuleIDs.sorted()) }
                ) {
                    kept.append(superfluous(message, at: named.range))
                }
            }
        }
        for problem in malformed {
            kept.append(superfluous(problem.problem, at: problem.range))
        }
        return kept
    }

    // MARK: - Matching

    /// The directive (and the index of the id in it) that suppresses `diagnostic`, if any.
    /// Line directives win over regions; for regions the last `disable`/`enable` before the
    /// diagnostic that names its rule (or `all`) decides.
    private static func coveringDirective(
        for ruleID: String, at offset: Int, line: Int, in directives: [SuppressionDirective]
    ) -> (Int, Int)? {
        for (index, directive) in directives.enumerated() {
            guard case .disableLine(let target) = directive.action, target == line,
                  let id = directive.ids.firstIndex(where: { $0.id == ruleID })
                    ?? directive.ids.firstIndex(where: { $0.id == allID })
            else { continue }
            return (index, id)
        }
        var decision: (Int, Int)?
        for (index, directive) in directives.enumerated() {
            guard directive.range.lowerBound <= offset else { break }
            guard let id = directive.ids.firstIndex(where: { $0.id == ruleID })
                    ?? directive.ids.firstIndex(where: { $0.id == allID })
            else { continue }
            switch directive.action {
            case .disableRegion: decision = (index, id)
            case .enableRegion: decision = nil
            case .disableLine: continue
            }
        }
        return decision
    }

    static let allID = "all"

    private static func superfluousMessage(
        for id: String, activeRuleIDs: Set<String>, knownRuleIDs: Set<String>,
        closeIDs: (String) -> [String]
    ) -> String? {
        if id == allID {
            return activeRuleIDs.isEmpty
                ? nil : "'kblint:disable all' suppressed nothing; remove it"
        }
        if EngineDiagnostics.unsuppressibleIDs.contains(id) {
            return "'\(id)' cannot be suppressed; remove it from the comment"
        }
        guard knownRuleIDs.contains(id) else {
            let suggestions = closeIDs(id)
            let hint = suggestions.isEmpty
                ? "" : "; did you mean " + suggestions.map { "'\($0)'" }.joined(separator: " or ") + "?"
            return "'\(id)' is not a kblint rule id\(hint)"
        }
        guard activeRuleIDs.contains(id) else { return nil }
        return "disabling '\(id)' suppressed nothing here; remove it"
    }

    private static func superfluous(_ message: String, at range: Range<Int>) -> Diagnostic {
        Diagnostic(
            ruleID: EngineDiagnostics.superfluousDisableCommandID,
            severity: EngineDiagnostics.superfluousDisableCommand.defaultSeverity,
            message: message, range: range,
            suggestion: "Remove the id from the comment, or the whole comment when nothing is left.")
    }

    // MARK: - Parsing

    private enum ParsedComment {
        case directive(SuppressionDirective)
        case malformed(MalformedSuppression)
    }

    static let commands = ["disable", "disable:next", "disable:this", "disable:previous", "enable"]

    private static func parse(
        comment token: Token, in file: SourceFile,
        closeMatches: (String, [String]) -> [String]
    ) -> ParsedComment? {
        let bytes = file.bytes
        var cursor = token.start.toInt
        var end = token.end.toInt
        // Comment opener and closer.
        while cursor < end, bytes[cursor] == UInt8(ascii: "/") || bytes[cursor] == UInt8(ascii: "*") {
            cursor += 1
        }
        if token.kind == .commentBlock || token.kind == .commentDocBlock,
           end - cursor >= 2, bytes[end - 2] == UInt8(ascii: "*"), bytes[end - 1] == UInt8(ascii: "/") {
            end -= 2
        }
        while cursor < end, isSpace(bytes[cursor]) { cursor += 1 }
        let isSwiftLint = starts(with: swiftLintMarker, in: bytes, at: cursor, end: end)
        guard isSwiftLint || starts(with: marker, in: bytes, at: cursor, end: end) else { return nil }
        cursor += isSwiftLint ? swiftLintMarker.utf8CodeUnitCount : marker.utf8CodeUnitCount

        let words = splitWords(bytes, from: cursor, to: end)
        if isSwiftLint { return swiftLintDirective(words, comment: token, in: file) }
        guard let command = words.first else {
            return .malformed(.init(range: token.range, problem: "'kblint:' names no command; write 'kblint:disable <id>'"))
        }
        let commandText = file.text(command)
        guard let action = action(of: commandText, comment: token, in: file) else {
            let hint = closeMatches(commandText, commands).first.map { "did you mean 'kblint:\($0)'?" }
                ?? "use " + commands.joined(separator: ", ")
            return .malformed(.init(
                range: command, problem: "'kblint:\(commandText)' is not a kblint command; \(hint)"))
        }

        var ids: [SuppressionDirective.NamedID] = []
        for word in words.dropFirst() {
            let text = file.text(word)
            if text == "-" || text == "--" { break }
            ids.append(.init(id: text, range: word))
        }
        guard !ids.isEmpty else {
            return .malformed(.init(
                range: token.range,
                problem: "'kblint:\(commandText)' names no rule; list rule ids or write 'all'"))
        }
        return .directive(SuppressionDirective(action: action, ids: ids, range: token.range))
    }

    /// The action of a command word (`disable`, `disable:next`, …) written in `comment`; the
    /// same grammar for `kblint:` and `swiftlint:` comments.
    private static func action(of command: String, comment token: Token, in file: SourceFile) -> SuppressionDirective.Action? {
        let line = { file.location(of: $0).line }
        switch command {
        case "disable": return .disableRegion
        case "enable": return .enableRegion
        case "disable:next": return .disableLine(line(token.end.toInt - 1) + 1)
        case "disable:this": return .disableLine(line(token.start.toInt))
        case "disable:previous": return .disableLine(line(token.start.toInt) - 1)
        default: return nil
        }
    }

    /// A `swiftlint:disable…`/`enable` comment naming SwiftLint rules that overlap kblint rules,
    /// as a directive for those kblint rules; nil for anything else (SwiftLint reports its own
    /// mistakes).
    private static func swiftLintDirective(_ words: [Range<Int>], comment token: Token, in file: SourceFile) -> ParsedComment? {
        guard let command = words.first, let action = action(of: file.text(command), comment: token, in: file) else {
            return nil
        }
        var ids: [SuppressionDirective.NamedID] = []
        for word in words.dropFirst() {
            let text = file.text(word)
            if text == "-" || text == "--" { break }
            if let id = swiftLintEquivalents[text] { ids.append(.init(id: id, range: word)) }
        }
        guard !ids.isEmpty else { return nil }
        var directive = SuppressionDirective(action: action, ids: ids, range: token.range)
        directive.isSwiftLint = true
        return .directive(directive)
    }

    /// Byte ranges of the words between `start` and `end`, split on whitespace and commas.
    private static func splitWords(_ bytes: [UInt8], from start: Int, to end: Int) -> [Range<Int>] {
        var words: [Range<Int>] = []
        var index = start
        while index < end {
            while index < end, isSpace(bytes[index]) || bytes[index] == UInt8(ascii: ",") { index += 1 }
            let wordStart = index
            while index < end, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: ",") { index += 1 }
            if index > wordStart { words.append(wordStart..<index) }
        }
        return words
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func starts(with word: StaticString, in bytes: [UInt8], at offset: Int, end: Int) -> Bool {
        let count = word.utf8CodeUnitCount
        guard end - offset >= count else { return false }
        let expected = word.utf8Start
        for index in 0..<count where bytes[offset + index] != expected[index] { return false }
        return true
    }
}

extension UInt32 {
    fileprivate var toInt: Int { Int(self) }
}
