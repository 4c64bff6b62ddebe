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
        // Mixing approaches
        KeyboardGuideWithInsetEdits.self,
        KeyboardGuideWithKeyboardManager.self,
        AccessoryViewWithKeyboardGuide.self,
        PreferKeyboardLayoutGuide.self,
        KeyboardGuideAvailability.self,
        PreferTypedKeyboardMessages.self,
        UndockedKeyboardFixedConstraints.self,
        // Observers
        ObserverTokenDiscarded.self,
        ObserverCapturesSelfStrongly.self,
        ObserverTokenNeverRemoved.self,
        RemoveObserverSelfForBlockObservers.self,
        ObserverRemovedGreedily.self,
        KeyboardObserverLifecycleUnbalanced.self,
        KeyboardHideNotHandled.self,
        KeyboardDidShowForLayout.self,
        KeyboardObserverObjectFilter.self,
        KeyboardNotificationTaskNotCancelled.self,
        // Input accessory views
        AccessoryToolbarZeroFrame.self,
        AccessoryViewRecreated.self,
        AccessoryMissingCanBecomeFirstResponder.self,
        AccessoryRetainCycle.self,
        AccessoryViewAddedAsSubview.self,
        AccessoryMissingFlexibleHeight.self,
        AccessoryBlurInsteadOfInputView.self,
        // Related pitfalls
        TextViewContentSizeHeight.self,
        DisplayLinkStrongTarget.self,
    ]

    public static func rule(withID id: String) -> (any Rule.Type)? {
        all.first { $0.metadata.id == id }
    }
}
