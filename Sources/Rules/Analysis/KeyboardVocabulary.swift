import Lexer

/// The six keyboard notifications.
enum KeyboardEvent: Int, Sendable, Hashable, CaseIterable {
    case willShow, didShow, willHide, didHide, willChangeFrame, didChangeFrame

    var isWill: Bool { self == .willShow || self == .willHide || self == .willChangeFrame }
    var isShow: Bool { self == .willShow || self == .didShow }
    var isHide: Bool { self == .willHide || self == .didHide }
}

/// The keys of a keyboard notification's `userInfo` (and the matching members of the iOS 26
/// typed messages).
public enum KeyboardUserInfoKey: Int, Sendable, Hashable, CaseIterable {
    case frameEnd, frameBegin, animationDuration, animationCurve, isLocal

    var isFrame: Bool { self == .frameEnd || self == .frameBegin }
}

/// The catalogue's shared vocabulary, recognised token by token with byte comparisons.
public enum KeyboardVocabulary {
    /// Every spelling of the notification names, in `KeyboardEvent` order, three per event:
    /// the Swift 4.2+ member, the pre-4.2 `NSNotification.Name` member and the Objective-C
    /// era global constant.
    static let notificationNames = WordList([
        "keyboardWillShowNotification", "UIKeyboardWillShow", "UIKeyboardWillShowNotification",
        "keyboardDidShowNotification", "UIKeyboardDidShow", "UIKeyboardDidShowNotification",
        "keyboardWillHideNotification", "UIKeyboardWillHide", "UIKeyboardWillHideNotification",
        "keyboardDidHideNotification", "UIKeyboardDidHide", "UIKeyboardDidHideNotification",
        "keyboardWillChangeFrameNotification", "UIKeyboardWillChangeFrame",
        "UIKeyboardWillChangeFrameNotification",
        "keyboardDidChangeFrameNotification", "UIKeyboardDidChangeFrame",
        "UIKeyboardDidChangeFrameNotification",
    ])

    /// Typed message spellings (iOS 26), three per event: the implicit member of
    /// `addObserver(of:for:)`, the static message identifier and the message type.
    static let messageNames = WordList([
        "keyboardWillShow", "keyboardWillShowMessage", "KeyboardWillShowMessage",
        "keyboardDidShow", "keyboardDidShowMessage", "KeyboardDidShowMessage",
        "keyboardWillHide", "keyboardWillHideMessage", "KeyboardWillHideMessage",
        "keyboardDidHide", "keyboardDidHideMessage", "KeyboardDidHideMessage",
        "keyboardWillChangeFrame", "keyboardWillChangeFrameMessage", "KeyboardWillChangeFrameMessage",
        "keyboardDidChangeFrame", "keyboardDidChangeFrameMessage", "KeyboardDidChangeFrameMessage",
    ])

    static let userInfoKeys = WordList([
        "keyboardFrameEndUserInfoKey", "UIKeyboardFrameEndUserInfoKey",
        "keyboardFrameBeginUserInfoKey", "UIKeyboardFrameBeginUserInfoKey",
        "keyboardAnimationDurationUserInfoKey", "UIKeyboardAnimationDurationUserInfoKey",
        "keyboardAnimationCurveUserInfoKey", "UIKeyboardAnimationCurveUserInfoKey",
        "keyboardIsLocalUserInfoKey", "UIKeyboardIsLocalUserInfoKey",
    ])

    /// Members of a typed keyboard message that carry keyboard values.
    static let messageMembers = WordList(["endFrame", "beginFrame", "animationDuration", "animationCurve", "isLocal"])

    /// The keyboard notification named by token `index` in any spelling
    /// (`UIResponder.keyboardWillShowNotification`, `.keyboardWillShowNotification`,
    /// `NSNotification.Name.UIKeyboardWillShow`, `UIKeyboardWillShowNotification`).
    static func notification(_ source: TokenizedSource, at index: Int) -> KeyboardEvent? {
        guard source.kind(index) == .identifier,
              let position = source.wordIndex(index, in: notificationNames) else { return nil }
        return KeyboardEvent(rawValue: position / 3)
    }

    /// The typed keyboard message named by token `index`. The bare `keyboardWillShow`
    /// spelling counts only as an implicit member (`.keyboardWillShow`), since methods of
    /// that name are common.
    static func message(_ source: TokenizedSource, at index: Int) -> KeyboardEvent? {
        guard source.kind(index) == .identifier,
              let position = source.wordIndex(index, in: messageNames) else { return nil }
        if position % 3 == 0 {
            guard source.kind(index - 1) == .period, !ExpressionBounds.isChainPiece(source, index - 2) else {
                return nil
            }
        }
        return KeyboardEvent(rawValue: position / 3)
    }

    /// The keyboard userInfo key named by token `index`.
    static func userInfoKey(_ source: TokenizedSource, at index: Int) -> KeyboardUserInfoKey? {
        guard source.kind(index) == .identifier,
              let position = source.wordIndex(index, in: userInfoKeys) else { return nil }
        return KeyboardUserInfoKey(rawValue: position / 2)
    }

    /// The keyboard value a typed-message member carries (`endFrame` → `.frameEnd`).
    static func messageMember(_ source: TokenizedSource, at index: Int) -> KeyboardUserInfoKey? {
        guard source.kind(index) == .identifier, source.kind(index - 1) == .period,
              let position = source.wordIndex(index, in: messageMembers) else { return nil }
        return KeyboardUserInfoKey(rawValue: position)
    }

    /// The event a helper-type callback name or label announces: a name that begins with
    /// `keyboardWill…`/`keyboardDid…` followed by `Show`, `Hide` or `ChangeFrame`
    /// (`keyboardWillShowWithState`, `keyboardWillChangeFrame`).
    static func callbackEvent(_ name: String) -> KeyboardEvent? {
        // Asked about every function name and argument label of a file: most do not begin
        // with the part all the prefixes share.
        guard name.hasPrefix("keyboard") else { return nil }
        for (prefix, event) in callbackPrefixes where name.hasPrefix(prefix) { return event }
        return nil
    }

    /// The name prefixes of `callbackEvent`, each beginning with `keyboard`.
    private static let callbackPrefixes: [(String, KeyboardEvent)] = [
        ("keyboardWillShow", .willShow), ("keyboardDidShow", .didShow),
        ("keyboardWillHide", .willHide), ("keyboardDidHide", .didHide),
        ("keyboardWillChangeFrame", .willChangeFrame), ("keyboardDidChangeFrame", .didChangeFrame),
    ]

    /// The event an argument label of a project wrapper names for the closure it takes:
    /// `keyboardWillShow…` (as for callbacks), `onKeyboardWillHide`, or a bare event with a
    /// closure word (`willShowAction`, `didHideHandler`, `willShow`).
    static func callbackLabelEvent(_ label: String) -> KeyboardEvent? {
        var name = Substring(label)
        if name.hasPrefix("on"), name.count > 2 { name = name.dropFirst(2) }
        guard let first = name.first else { return nil }
        let lowered = first.lowercased() + name.dropFirst()
        if lowered.hasPrefix("keyboard") { return callbackEvent(lowered) }
        for (position, word) in wrapperEvents.enumerated() {
            let event = "\(word)"
            guard lowered.hasPrefix(event) else { continue }
            let rest = lowered.dropFirst(event.count)
            guard ["", "Action", "Handler", "Block", "Callback", "Closure"].contains(rest) else { return nil }
            return KeyboardEvent(rawValue: position)
        }
        return nil
    }

    /// The wrapper event an expression is: `.willShow`, `.didHide`, ….
    static func wrapperEvent(_ source: TokenizedSource, _ value: Range<Int>) -> KeyboardEvent? {
        guard value.count == 2, source.kind(value.lowerBound) == .period,
              let position = source.wordIndex(value.lowerBound + 1, in: wrapperEvents) else { return nil }
        return KeyboardEvent(rawValue: position)
    }

    /// Events of a project keyboard wrapper (`.willShow`, …) given as an implicit member.
    static let wrapperEvents: [StaticString] = ["willShow", "didShow", "willHide", "didHide", "willChangeFrame", "didChangeFrame"]

    /// Byte strings at least one of which occurs in any file that keyboard rules can flag.
    static let keyboardMarkers: [StaticString] = ["eyboard", "inputAccessory"]

    /// The parts of a name that say it is the safe area: UIKit's `safeAreaInsets` and
    /// `safeAreaLayoutGuide`, the view controller's `topLayoutGuide`/`bottomLayoutGuide` they
    /// replaced in iOS 11, and project names that say they hold or follow it
    /// (`bottomSafeAreaInset`, `additionalSafeAreaInsets`, `viewSafeAreaInsetsDidChange`).
    /// Also the byte pre-check for `namesSafeArea`.
    static let safeAreaMarkers: [StaticString] = ["safeArea", "SafeArea", "topLayoutGuide", "bottomLayoutGuide"]

    /// Whether name token `index` names the safe area (see `safeAreaMarkers`): the one
    /// answer to "does this code mention the safe area".
    static func namesSafeArea(_ source: TokenizedSource, at index: Int) -> Bool {
        source.word(index, containsAnyOf: safeAreaParts)
    }

    private static let safeAreaParts = NameParts(safeAreaMarkers)

    /// Whether name token `index` reads an amount that includes the safe area: a name of the
    /// safe area, or a scroll view's `adjustedContentInset` (its `contentInset` plus what the
    /// system adds for the safe area). Code that turned the adjustment off (`.never`) asks
    /// `namesSafeArea` instead: there the two insets are equal, and neither holds the safe area.
    /// `fileMayNameSafeArea` false (the file's bytes hold no `safeAreaMarkers`) spares
    /// reading the name for them.
    static func includesSafeArea(_ source: TokenizedSource, at index: Int, fileMayNameSafeArea: Bool = true) -> Bool {
        (fileMayNameSafeArea && namesSafeArea(source, at: index)) || source.isWord(index, "adjustedContentInset")
    }

    /// Whether `bytes` contains one of `markers`: a cheap pre-check run before any tokens
    /// are built. A file without them cannot trigger the rules that list them.
    public static func mayContain(_ markers: [StaticString], in bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            markers.contains { ByteSearch.contains($0, in: buffer) }
        }
    }
}
