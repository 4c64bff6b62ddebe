import UIKit

/// Uses the keyboard layout guide and is listed in disabledDistanceHandlingClasses.
final class ProfileEditorViewController: UIViewController {
    private let form = UIStackView()

    override func viewDidLoad() {
        super.viewDidLoad()
        form.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
    }
}
