import Lexer

extension RuleMetadata {
    /// A diagnostic of this rule over code tokens `tokens` of the analysed file.
    func diagnostic(
        _ analysis: FileAnalysis, at tokens: Range<Int>, severity: Severity? = nil,
        message: String, suggestion: String, fix: Fix? = nil, related: [RelatedLocation] = []
    ) -> Diagnostic {
        Diagnostic(
            ruleID: id, severity: severity ?? defaultSeverity, message: message,
            range: analysis.source.byteRange(tokens), suggestion: suggestion, fix: fix, related: related)
    }
}

extension FileAnalysis {
    /// The source text of code tokens `range`, whitespace runs collapsed, for messages.
    func snippet(_ range: Range<Int>) -> String {
        var text = ""
        var previousEnd: UInt32?
        for index in range where index >= 0 && index < source.code.count {
            let token = source.code[index]
            if let previousEnd, token.start > previousEnd { text += " " }
            text += source.text(of: token)
            previousEnd = token.end
        }
        return text
    }

    /// The code that reads geometry member `member` (`kb.size.height`), or the call of an
    /// accessor that returns it (`keyboardHeight(from: note)`), for messages.
    func geometryRead(_ member: Int) -> String { snippet(geometryReadRange(member)) }

    /// The tokens of the geometry read ending at `member` (`endFrame.size.height`, a call with
    /// its arguments): what a caret should cover.
    func geometryReadRange(_ member: Int) -> Range<Int> {
        if source.kind(member - 1) == .period {
            return chainStart(endingAt: member - 2)..<(member + 1)
        }
        if let call = call(at: member) { return member..<(call.end + 1) }
        return member..<(member + 1)
    }

    /// The rect expression whose geometry `member` reads (`frame` in `frame.height` and in
    /// `frame.size.height`), for fixes that replace or convert it; nil when it is not a plain
    /// member read or the rect is optional-chained.
    func rectExpression(readAt member: Int) -> Range<Int>? {
        guard source.kind(member - 1) == .period else { return nil }
        var rect = chainStart(endingAt: member - 2)..<(member - 1)
        if rect.count > 2, source.kind(rect.upperBound - 2) == .period,
           source.isWord(rect.upperBound - 1, "size") || source.isWord(rect.upperBound - 1, "origin") {
            rect = rect.lowerBound..<(rect.upperBound - 2)
        }
        guard !rect.isEmpty, !rect.contains(where: {
            source.kind($0) == .postfixQuestionMark || source.kind($0) == .exclamationMark
        }) else { return nil }
        return rect
    }

    /// How code at `index` reaches the view its type lays out, for fixes: `"view."` in a view
    /// controller, `""` in a view (its own members). Nil inside a closure (where `self` may
    /// have to be spelled, or be weak) and outside view and view-controller types.
    func ownViewPrefix(at index: Int) -> String? {
        walk: for scope in outline.enclosingScopes(from: outline.scope(at: index)) {
            switch outline[scope].kind {
            case .closure: return nil
            case .function, .type: break walk
            case .property, .accessor, .block: continue
            }
        }
        guard let type = outline.enclosingType(at: index) else { return nil }
        let typeName = outline[type].qualifiedName
        if project.isViewController(typeName) { return "view." }
        if ResponderVocabulary.viewClasses.contains(project.rootClass(of: typeName)) { return "" }
        return nil
    }

    /// Assignments whose operator lies in reachable keyboard-handler code.
    var handlerAssignments: [Assignment] {
        assignments.filter { isInKeyboardHandler($0.op) }
    }

    /// The `(start, end)` code range of a single token, for diagnostics.
    func tokenRange(_ index: Int) -> Range<Int> { index..<(index + 1) }
}
