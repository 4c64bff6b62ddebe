import Lexer

/// The keyboard layout guide already moves what is pinned to it; a handler that also insets
/// or moves the content moves it a second time.
public struct KeyboardGuideWithInsetEdits: Rule {
    public static let metadata = RuleMetadata(
        id: "keyboard_guide_with_inset_edits",
        category: .mixingApproaches,
        defaultSeverity: .error,
        summary: "A type pinned to the keyboard layout guide also changes insets or frames in a keyboard handler.",
        rationale: """
        A view constrained to `keyboardLayoutGuide` shrinks or rises with the keyboard on its own, inside the \
        keyboard's animation. When a keyboard handler of the same type also adds the keyboard height to \
        `contentInset`, the scroll indicator insets or `additionalSafeAreaInsets`, or moves a frame, the content \
        moves twice: a gap as tall as the keyboard opens above it, or the last rows end up out of reach.
        """,
        fix: "Keep one approach: let the constraint to `keyboardLayoutGuide` do the work and remove the inset or frame change from the keyboard handler (use `scrollRectToVisible` only to reveal the focused field).",
        noFixReason: "Which approach to keep (the guide constraint or the handler's inset and frame changes) is a design choice, and removing the handler's writes may remove other work the handler does.",
        triggering: [
            RuleExample("""
            final class NoteViewController: UIViewController {
                let textView = UITextView()
                override func viewDidLoad() {
                    super.viewDidLoad()
                    textView.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                    NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillShow(_:)),
                                                           name: UIResponder.keyboardWillShowNotification, object: nil)
                }
                @objc func keyboardWillShow(_ notification: Notification) {
                    guard let frame = notification.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    ↓textView.contentInset.bottom = frame.height
                }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                let tableView = UITableView()
                let inputBar = InputBar()
                func layout() {
                    NSLayoutConstraint.activate([
                        tableView.bottomAnchor.constraint(equalTo: inputBar.topAnchor),
                        inputBar.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor),
                    ])
                }
                func observe() {
                    token = NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillChangeFrameNotification, object: nil, queue: .main) { [weak self] note in
                        guard let self, let end = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                        ↓self.tableView.contentInset.bottom = end.height
                        ↓self.tableView.verticalScrollIndicatorInsets.bottom = end.height
                    }
                }
            }
            """),
            RuleExample("""
            final class ComposeViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    let height = (note.userInfo![UIResponder.keyboardFrameEndUserInfoKey] as! NSValue).cgRectValue.height
                    apply(height)
                }
                private func apply(_ height: CGFloat) {
                    UIView.animate(withDuration: 0.25) {
                        ↓self.view.frame.origin.y = -height
                    }
                }
            }
            """, files: ["ComposeViewController+Layout.swift": """
            extension ComposeViewController {
                func pinEditor() {
                    editor.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                }
            }
            """]),
            RuleExample("""
            final class SearchViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    view.keyboardLayoutGuide.followsUndockedKeyboard = true
                    NotificationCenter.default.publisher(for: UIResponder.keyboardWillShowNotification)
                        .sink { [weak self] note in
                            let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect ?? .zero
                            ↓self?.additionalSafeAreaInsets.bottom = frame.height
                        }
                        .store(in: &bag)
                }
            }
            """),
            RuleExample("""
            class KeyboardAwareViewController: UIViewController {
                @objc func keyboardWillChangeFrame(_ note: Notification) {
                    guard let end = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    ↓additionalSafeAreaInsets.bottom = view.bounds.maxY - view.convert(end, from: nil).minY
                }
            }
            """, files: ["ReplyViewController.swift": """
            final class ReplyViewController: KeyboardAwareViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    replyField.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                }
            }
            """]),
            RuleExample("""
            final class TimelineViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    collectionView.snp.makeConstraints { make in
                        make.top.leading.trailing.equalToSuperview()
                        make.bottom.equalTo(view.keyboardLayoutGuide.snp.top)
                    }
                }
                @objc func keyboardWillChangeFrame(_ note: Notification) {
                    guard let end = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    ↓collectionView.contentInset.bottom = view.bounds.maxY - view.convert(end, from: nil).minY
                }
            }
            """),
        ],
        nonTriggering: [
            RuleExample("""
            final class NoteViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    textView.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                    textView.contentInset.top = 44
                }
            }
            """),
            RuleExample("""
            final class ProfileViewController: UIViewController {
                let scrollView = UIScrollView()
                let toolbar = UIToolbar()
                func layout() {
                    NSLayoutConstraint.activate([
                        scrollView.bottomAnchor.constraint(equalTo: view.bottomAnchor),
                        toolbar.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor),
                    ])
                }
                @objc func keyboardWillShow(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    scrollView.contentInset.bottom = view.convert(frame, from: nil).height
                }
            }
            """),
            RuleExample("""
            final class FormViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    scrollView.contentInset.bottom = view.convert(frame, from: nil).height
                }
            }
            """),
            RuleExample("""
            final class LegacyViewController: UIViewController {
                let keyboardLayoutGuide = UILayoutGuide()
                func layout() {
                    textView.bottomAnchor.constraint(equalTo: keyboardLayoutGuide.topAnchor).isActive = true
                }
                @objc func keyboardWillShow(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    textView.contentInset.bottom = view.convert(frame, from: nil).height
                }
            }
            """),
            RuleExample("""
            import KeyboardLayoutGuide

            final class PortedViewController: UIViewController {
                func layout() {
                    textView.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                }
                @objc func keyboardWillShow(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    textView.contentInset.bottom = view.convert(frame, from: nil).height
                }
            }
            """),
            RuleExample("""
            final class BackportedViewController: UIViewController {
                func layout() {
                    textView.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                }
                @objc func keyboardWillShow(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    textView.contentInset.bottom = view.convert(frame, from: nil).height
                }
            }
            """, files: ["UIView+KeyboardLayoutGuide.swift": """
            extension UIView {
                var keyboardLayoutGuide: UILayoutGuide { backportedGuide }
            }
            """]),
            RuleExample("""
            final class MessagesViewController: UIViewController {
                func layout() {
                    collectionView.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                }
                @objc func keyboardWillHide(_ note: Notification) {
                    collectionView.contentInset = .zero
                    inputBar.transform = .identity
                }
                @objc func keyboardDidShow(_ note: Notification) {
                    collectionView.scrollRectToVisible(lastCellFrame, animated: true)
                }
            }
            """),
            RuleExample("""
            final class ReaderViewController: UIViewController {
                func layout() {
                    textView.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                }
            }
            final class FormViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    scrollView.contentInset.bottom = view.convert(frame, from: nil).height
                }
            }
            """),
        ]
    )

    public init() {}

    public func check(_ context: RuleContext) -> [Diagnostic] {
        let analysis = context.analysis
        guard analysis.mentionsKeyboard, !analysis.handlers.isEmpty else { return [] }
        var constraintsByType: [TypeID: [AnchorConstraint]]?
        /// The type that brings the guide into each handler's type (itself, a superclass or a
        /// subclass), looked up once per type.
        var users: [String: String?] = [:]
        var layouts: [TypeID: (pinned: Set<UInt64>, constrained: Set<UInt64>)] = [:]
        var diagnostics: [Diagnostic] = []
        for assignment in analysis.handlerAssignments {
            guard let sink = analysis.layoutSink(of: assignment), Self.movesContent(sink.kind),
                  !Self.isReset(assignment.rhs, analysis),
                  let type = analysis.outline.enclosingType(at: assignment.op) else { continue }
            let name = analysis.outline[type].qualifiedName
            let user: String
            if let cached = users[name] {
                guard let cached else { continue }
                user = cached
            } else {
                let found = analysis.project.keyboardLayoutGuideUserSharingCode(with: name)
                users[name] = .some(found)
                guard let found else { continue }
                user = found
            }
            let byType = constraintsByType ?? analysis.anchorConstraintsByType(analysis.anchorConstraints())
            constraintsByType = byType
            let own = byType[type] ?? []
            // A scroll view whose constraints the type shows, none of them to the guide.
            var pinnedBy: Int?
            if user == name, let receiver = Self.receiverName(sink, analysis), !analysis.isContainerName(receiver) {
                let hash = analysis.source.nameHash(receiver)
                let views = layouts[type] ?? (analysis.viewsPinnedToKeyboardLayoutGuide(own),
                                              analysis.viewsConstrained(own))
                layouts[type] = views
                if !views.pinned.contains(hash), views.constrained.contains(hash) { continue }
                // The guide constraint that pins this view, else the one that pins the view it
                // is stacked on.
                func pins(_ constraint: AnchorConstraint, _ names: (UInt64) -> Bool) -> Bool {
                    constraint.keyboardLayoutGuideToken != nil && constraint.anchors.contains { side in
                        !side.isKeyboardLayoutGuide && side.owner.map { names(analysis.source.nameHash($0)) } ?? false
                    }
                }
                pinnedBy = (own.first { pins($0) { $0 == hash } } ?? own.first { pins($0, views.pinned.contains) })?
                    .keyboardLayoutGuideToken
            }
            guard let guide = analysis.keyboardLayoutGuideLocation(ofType: user, preferring: pinnedBy) else { continue }
            let lhs = analysis.snippet(assignment.lhs)
            let what = sink.kind == .frame || sink.kind == .center || sink.kind == .transform ? "moves" : "insets"
            let follower = user == name ? "which already follows the keyboard through"
                : analysis.project.superclasses(of: name).contains(user)
                ? "which inherits from `\(user)` constraints to" : "whose subclass `\(user)` also follows the keyboard through"
            diagnostics.append(Self.metadata.diagnostic(
                analysis, at: assignment.lhs,
                message: "`\(lhs)` \(what) content in a keyboard handler of `\(name)`, \(follower) `keyboardLayoutGuide` (\(analysis.placeDescription(guide))): the content moves twice",
                suggestion: "Remove this change from the keyboard handler and let the constraint to `keyboardLayoutGuide` move the content.",
                related: [analysis.relatedLocation(guide, message: "the keyboard layout guide is used here")]))
        }
        return diagnostics
    }

    static func movesContent(_ kind: LayoutSink.Kind) -> Bool {
        switch kind {
        case .contentInset, .scrollIndicatorInsets, .additionalSafeAreaInsets, .frame, .center, .transform: true
        case .constraintConstant, .contentOffset: false
        }
    }

    /// `0`, `.zero`, `UIEdgeInsets.zero`, `.identity`: putting things back, not moving them.
    static func isReset(_ rhs: Range<Int>, _ analysis: FileAnalysis) -> Bool {
        let source = analysis.source
        if analysis.literalNumber(rhs)?.value == 0 { return true }
        guard rhs.count >= 2, source.kind(rhs.upperBound - 2) == .period else { return false }
        return source.wordIndex(rhs.upperBound - 1, in: ["zero", "identity"]) != nil
            && (rhs.count == 2 || rhs.count == 3)
    }

    /// The view whose inset or frame is written (`tableView` in `self?.tableView.contentInset`).
    static func receiverName(_ sink: LayoutSink, _ analysis: FileAnalysis) -> Int? {
        analysis.chainNames(sink.receiver).last
    }
}
