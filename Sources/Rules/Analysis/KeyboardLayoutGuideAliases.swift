import Lexer

/// Local names and UIKit's keyboard layout guide: `let guide = view.keyboardLayoutGuide` makes
/// `guide.topAnchor` a use of UIKit's guide, and a local `let keyboardLayoutGuide =
/// UILayoutGuide()` is a home-made guide whose uses are not. Both are visible only inside the
/// function or closure that binds them, after the binding.
struct KeyboardLayoutGuideAliases: Sendable {
    /// Tokens of alias names that stand for UIKit's guide where they are used.
    let aliasUses: Set<Int>
    /// Bare `keyboardLayoutGuide` tokens that name a local home-made guide.
    let shadowedUses: Set<Int>

    init(_ fileIndex: FileIndex) {
        let source = fileIndex.source, outline = fileIndex.outline
        var aliasUses = Set<Int>()
        var shadowedUses = Set<Int>()
        for binding in fileIndex.bindings {
            guard let value = binding.value, !value.isEmpty, !binding.isShorthand,
                  let scope = outline.executableScope(at: binding.nameToken) else { continue }
            let last = value.upperBound - 1
            let isGuide = source.isWord(last, "keyboardLayoutGuide") && source.kind(last - 1) == .period
                && fileIndex.chainStart(endingAt: last) == value.lowerBound
            let bindsGuideName = source.isWord(binding.nameToken, "keyboardLayoutGuide")
            guard isGuide || bindsGuideName else { continue }
            let body = outline.scopes[scope].body
            for index in max(value.upperBound, body.lowerBound)..<body.upperBound {
                guard source.kind(index) == .identifier, source.kind(index - 1) != .period,
                      source.nameHash(index) == binding.nameHash else { continue }
                if isGuide {
                    if !bindsGuideName { aliasUses.insert(index) }
                } else {
                    shadowedUses.insert(index)
                }
            }
        }
        self.aliasUses = aliasUses
        self.shadowedUses = shadowedUses
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
