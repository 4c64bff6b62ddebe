/// Every rule kblint ships, in catalogue order. A rule is added here when its file lands.
public enum RuleRegistry {
    public static let all: [any Rule.Type] = [
        // Animation
        KeyboardDurationHardcoded.self,
        KeyboardCurveMismatch.self,
        KeyboardCurveUnshifted.self,
        KeyboardCurveSwitchWithoutDefault.self,
        KeyboardGuideManualAnimation.self,
        KeyboardDeferredLayout.self,
        // Geometry
        KeyboardFrameScreenSpace.self,
        KeyboardInsetIgnoresSafeArea.self,
        KeyboardHeightNotOverlap.self,
        KeyboardMathUsesMainScreen.self,
        KeyboardNotificationScreenGuard.self,
        ContentInsetResetToZero.self,
        KeyboardInsetAccumulates.self,
        VisibleHeightUsesContentInset.self,
        KeyboardFrameBeginKey.self,
        KeyboardScrollIndicatorNotInset.self,
        KeyboardInsetsInTableViewController.self,
        ContentInsetAdjustmentNever.self,
    ]

    public static func rule(withID id: String) -> (any Rule.Type)? {
        all.first { $0.metadata.id == id }
    }
}
