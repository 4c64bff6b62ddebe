import UIKit

// A file with suppression comments that no longer (or never did) suppress anything.
final class ProfileView: UIView {
    // kblint:disable:next keyboard_duration_hardcoded
    let title = "Profile"

    // kblint:disable:next keybord_duration_hardcoded
    let subtitle = "// kblint:disable:next all"

    func layout() {
        // kblint:disabel:this all
        setNeedsLayout()
    }
}
