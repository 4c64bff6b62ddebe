import Lexer

/// Local names and UIKit's keyboard layout guide: `let guide = view.keyboardLayoutGuide` makes
/// `guide.topAnchor` a use of UIKit's guide, and a local `let keyboardLayoutGuide =
/// UILayoutGuide()` is a home-made guide whose uses are not. Both are visible only inside the
/// function or closure that binds them, after the binding. Anchors of the guide held in a local
/// (`let keyboardTop = view.keyboardLayoutGuide.topAnchor`) are the guide's anchors where the
/// local is used, and so are a guide or its anchor passed to a parameter of a function of the
/// file, inside that function.
struct KeyboardLayoutGuideAliases: Sendable {
    /// Tokens of alias names that stand for UIKit's guide where they are used.
    private(set) var aliasUses = Set<Int>()
    /// Bare `keyboardLayoutGuide` tokens that name a local home-made guide.
    private(set) var shadowedUses = Set<Int>()
    /// Tokens of names that stand for an anchor of UIKit's guide, with the `…Anchor` token of
    /// the expression they hold.
    private(set) var anchorUses: [Int: Int] = [:]

    init(_ fileIndex: FileIndex) {
        let source = fileIndex.source, outline = fileIndex.outline
        for binding in fileIndex.bindings {
            guard let value = binding.value, !value.isEmpty, !binding.isShorthand,
                  let scope = outline.executableScope(at: binding.nameToken) else { continue }
            let last = value.upperBound - 1
            let startsValue = fileIndex.chainStart(endingAt: last) == value.lowerBound
            let isGuide = source.isWord(last, "keyboardLayoutGuide") && source.kind(last - 1) == .period && startsValue
            let anchor = startsValue ? guideAnchor(source, endingAt: last) : nil
            let bindsGuideName = source.isWord(binding.nameToken, "keyboardLayoutGuide")
            guard isGuide || bindsGuideName || anchor != nil else { continue }
            let body = outline[scope].body
            for index in max(value.upperBound, body.lowerBound)..<body.upperBound {
                guard source.kind(index) == .identifier, source.kind(index - 1) != .period,
                      source.nameHash(index) == binding.nameHash else { continue }
                if let anchor {
                    anchorUses[index] = anchor
                } else if isGuide {
                    if !bindsGuideName { aliasUses.insert(index) }
                } else {
                    shadowedUses.insert(index)
                }
            }
        }
        followParameters(fileIndex)
    }

    /// The `…Anchor` token when `end` ends an anchor of UIKit's guide: `guide.topAnchor` with
    /// `guide` the member `keyboardLayoutGuide` or an alias of it, or a name holding such an
    /// anchor.
    func guideAnchor(_ source: TokenizedSource, endingAt end: Int) -> Int? {
        if let anchor = anchorUses[end] { return anchor }
        guard source.kind(end) == .identifier, source.word(end, hasSuffix: "Anchor"), source.kind(end - 1) == .period
        else { return nil }
        var owner = end - 2
        while source.kind(owner) == .postfixQuestionMark || source.kind(owner) == .exclamationMark { owner -= 1 }
        let isMember = source.isWord(owner, "keyboardLayoutGuide") && source.kind(owner - 1) == .period
        return isMember || aliasUses.contains(owner) ? end : nil
    }

    /// Guides and guide anchors passed to parameters of the file's functions: the parameter's
    /// uses in the function body stand for them.
    mutating func followParameters(_ fileIndex: FileIndex) {
        let source = fileIndex.source, outline = fileIndex.outline
        let candidates = Set(outline.functions.map(\.nameHash)).flatMap { name in
            (fileIndex.callsByName[name] ?? []).map { fileIndex.calls[$0] }.filter { !$0.arguments.isEmpty }
        }
        for _ in 0..<Limits.guideParameterHops {
            var added = false
            for call in candidates {
                guard let function = fileIndex.function(calledBy: call),
                      let positions = fileIndex.parameterPositions(of: call, for: outline[function]),
                      let scope = outline[function].scope else { continue }
                for (position, argument) in call.arguments.enumerated() where !argument.value.isEmpty {
                    let last = argument.value.upperBound - 1
                    let whole = argument.value.count == 1
                        || fileIndex.chainStart(endingAt: last) == argument.value.lowerBound
                    guard whole else { continue }
                    let anchor = guideAnchor(source, endingAt: last)
                    let isGuide = argument.value.count == 1 ? aliasUses.contains(last)
                        : source.isWord(last, "keyboardLayoutGuide") && source.kind(last - 1) == .period
                    guard anchor != nil || isGuide else { continue }
                    let parameter = outline[function].parameters[positions[position]]
                    let hash = source.nameHash(parameter.nameToken)
                    for index in outline[scope].body where source.kind(index) == .identifier
                        && source.kind(index - 1) != .period && source.nameHash(index) == hash {
                        if let anchor {
                            if anchorUses.updateValue(anchor, forKey: index) == nil { added = true }
                        } else if aliasUses.insert(index).inserted {
                            added = true
                        }
                    }
                }
            }
            if !added { break }
        }
    }

    /// Whether code token `index` refers to UIKit's guide: the member `keyboardLayoutGuide`
    /// (not a local home-made one) or a local alias of it.
    func refersToKeyboardLayoutGuide(_ source: TokenizedSource, at index: Int) -> Bool {
        if aliasUses.contains(index) { return true }
        return source.isWord(index, "keyboardLayoutGuide") && !shadowedUses.contains(index)
    }
}

extension FileAnalysis {
    /// This file's local aliases and shadows of the keyboard layout guide.
    var keyboardLayoutGuideAliases: KeyboardLayoutGuideAliases {
        KeyboardLayoutGuideAliases(fileIndex)
    }
}
