/// Every rule kblint ships, in catalogue order. A rule is added here when its file lands.
public enum RuleRegistry {
    public static let all: [any Rule.Type] = [
        // Geometry
        ContentInsetResetToZero.self,
        VisibleHeightUsesContentInset.self,
        KeyboardFrameBeginKey.self,
        // Mixing approaches
        KeyboardGuideWithInsetEdits.self,
        KeyboardGuideWithKeyboardManager.self,
        AccessoryViewWithKeyboardGuide.self,
        PreferKeyboardLayoutGuide.self,
        KeyboardGuideAvailability.self,
        PreferTypedKeyboardMessages.self,
        UndockedKeyboardFixedConstraints.self,
    ]

    public static func rule(withID id: String) -> (any Rule.Type)? {
        all.first { $0.metadata.id == id }
    }
}
