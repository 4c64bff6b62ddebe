import Lexer

/// Keyboard frames arrive in screen coordinates; views lay out in their own.
public struct KeyboardFrameScreenSpace: Rule {
    public static let metadata = RuleMetadata(
        id: "keyboard_frame_screen_space",
        category: .geometry,
        defaultSeverity: .error,
        summary: "Geometry of an unconverted keyboard frame is used for layout.",
        rationale: """
        The keyboard frame in a notification is in the screen's coordinate space. It equals the view's \
        space only for a full-screen, unrotated window: in Split View, Slide Over, Stage Manager, a form \
        sheet, or on an external display its height and origin do not describe the part of your view the \
        keyboard covers, so insets and constraints come out too large, too small, or negative.
        """,
        fix: "Convert first: `let frame = view.convert(keyboardFrame, from: nil)` (or `from: view.window`, or the screen's coordinate space), then use the converted frame's geometry.",
        fixAvailability: .unsafe,
        triggering: [
            RuleExample("""
            final class FormViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    let frame = (note.userInfo![UIResponder.keyboardFrameEndUserInfoKey] as! NSValue).cgRectValue
                    scrollView.contentInset.bottom = ↓frame.height
                }
            }
            """),
            RuleExample("""
            final class ComposerViewController: UIViewController {
                func observe() {
                    token = NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillChangeFrameNotification, object: nil, queue: .main) { [weak self] note in
                        guard let keyboardFrame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                        self?.bottomConstraint.constant = ↓keyboardFrame.size.height
                    }
                }
            }
            """),
            RuleExample("""
            final class SearchViewController: UIViewController {
                func bind() {
                    NotificationCenter.default.publisher(for: UIResponder.keyboardWillShowNotification)
                        .sink { [weak self] note in
                            guard let self, let endFrame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                            let overlap = self.view.bounds.maxY - ↓endFrame.minY
                            self.updateResults(visibleHeight: self.view.bounds.height - overlap)
                        }
                        .store(in: &bag)
                }
            }
            """),
            RuleExample("""
            final class NotesViewController: UIViewController {
                @objc func keyboardWillHide(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    move(by: ↓frame.height)
                }
                private func move(by offset: CGFloat) {
                    container.frame.origin.y = -offset
                }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                func observe(on screen: UIScreen) {
                    token = NotificationCenter.default.addObserver(of: screen, for: .keyboardWillShow) { [weak self] message in
                        self?.inputBarBottom.constant = -↓message.endFrame.height
                    }
                }
            }
            """),
            RuleExample("""
            final class FeedViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    tableView.contentInset.bottom = ↓note.keyboardEndFrame.height
                }
            }
            """, files: ["Notification+Keyboard.swift": """
            extension Notification {
                var keyboardEndFrame: CGRect {
                    (userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? NSValue)?.cgRectValue ?? .zero
                }
            }
            """]),
            RuleExample("""
            final class EditorViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    view.frame.origin.y = -↓keyboardHeight(from: note)
                }
                private func keyboardHeight(from note: Notification) -> CGFloat {
                    let value = note.userInfo![UIResponder.keyboardFrameEndUserInfoKey] as! NSValue
                    return value.cgRectValue.height
                }
            }
            """),
        ],
        nonTriggering: [
            RuleExample("""
            final class OverlayController {
                @objc func keyboardWillShow(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect,
                          let window = view.window else { return }
                    let covered = window.bounds.height - frame.origin.y
                    overlayBottom.constant = -covered
                }
            }
            """),
            RuleExample("""
            final class FormViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    let frame = (note.userInfo![UIResponder.keyboardFrameEndUserInfoKey] as! NSValue).cgRectValue
                    let local = view.convert(frame, from: nil)
                    scrollView.contentInset.bottom = local.height - view.safeAreaInsets.bottom
                }
            }
            """),
            RuleExample("""
            final class FormViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    bottomConstraint.constant = view.convert(frame, from: view.window).height
                }
            }
            """),
            RuleExample("""
            final class DebugViewController: UIViewController {
                @objc func keyboardDidShow(_ note: Notification) {
                    let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect ?? .zero
                    print("keyboard height", frame.height)
                    isKeyboardTall = frame.height > 300
                }
            }
            """),
            RuleExample("""
            final class EditorViewController: UIViewController {
                @objc func keyboardWillChangeFrame(_ n: Notification) {
                    guard let info = n.userInfo,
                          let begin = info[UIResponder.keyboardFrameBeginUserInfoKey] as? CGRect,
                          let end = info[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect,
                          begin != end, !end.isEmpty else { return }
                    view.setNeedsLayout()
                }
            }
            """),
            RuleExample("""
            final class FieldViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    let fieldInWindow = field.convert(field.bounds, to: nil)
                    let covered = fieldInWindow.intersection(frame).height
                    scrollView.contentInset.bottom = covered
                }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                func observe(on screen: UIScreen) {
                    token = NotificationCenter.default.addObserver(of: screen, for: .keyboardWillShow) { [weak self] message in
                        guard let self else { return }
                        let local = self.view.convert(message.endFrame, from: screen.coordinateSpace)
                        self.inputBarBottom.constant = -local.height
                    }
                }
            }
            """),
            RuleExample("""
            final class DragDismissController {
                func track(_ note: Notification, dragY: CGFloat, in window: UIWindow) {
                    guard var frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    frame.origin.y = max(dragY, window.bounds.height - frame.height)
                    frame.size.height = window.bounds.height - frame.origin.y
                    barBottom.constant = -frame.height
                }
            }
            """),
            RuleExample("""
            final class ProfileViewController: UIViewController {
                override func viewDidLayoutSubviews() {
                    super.viewDidLayoutSubviews()
                    header.frame.size.height = view.frame.height / 3
                }
            }
            """),
        ],
        corrections: [
            RuleCorrection("""
            final class FormViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    bottomConstraint.constant = max(0, view.bounds.maxY - frame.↓minY)
                }
            }
            """, """
            final class FormViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    bottomConstraint.constant = max(0, view.bounds.maxY - view.convert(frame, from: nil).minY)
                }
            }
            """),
        ]
    )

    public init() {}

    /// The frame read at `member` converted first: `view.convert(frame, from: nil).height` in a
    /// view controller, `convert(frame, from: nil).height` in a view. Only in the type's own
    /// methods outside closures, where `view` needs no `self`, and for a frame that is not
    /// optional-chained. Unsafe: `from: nil` means the window, which a reviewer may want to
    /// replace with the screen's coordinate space.
    static func convertFix(_ member: Int, _ analysis: FileAnalysis) -> Fix? {
        let source = analysis.source
        guard let frame = analysis.rectExpression(readAt: member), let view = analysis.ownViewPrefix(at: member) else { return nil }
        return Fix(.unsafe, edits: [Edit(range: source.byteRange(frame),
                                         replacement: "\(view)convert(\(source.text(spanning: frame)), from: nil)")])
    }

    public func check(_ context: RuleContext) -> [Diagnostic] {
        let analysis = context.analysis
        guard analysis.mentionsKeyboard else { return [] }
        var reported = Set<Int>()
        var diagnostics: [Diagnostic] = []
        func report(_ value: KeyboardValue, _ use: String) {
            guard value.has(.screenSpace), let member = value.screenGeometry, reported.insert(member).inserted else { return }
            diagnostics.append(Self.metadata.diagnostic(
                analysis, at: analysis.geometryReadRange(member),
                message: "`\(analysis.geometryRead(member))` is in screen coordinates; \(use)",
                suggestion: "Convert the keyboard frame with `view.convert(_:from:)` (from `nil` or the window) before reading its geometry.",
                fix: Self.convertFix(member, analysis)))
        }
        /// Whether `value` of `range` mixes the raw frame with view geometry (or, in a result
        /// that leaves for callers this file cannot see, with the main screen's: math that
        /// stays in a local is judged where it reaches a layout sink).
        func combinesGeometry(_ value: KeyboardValue, _ range: Range<Int>, isResult: Bool = false) -> Bool {
            (value.has(.viewGeometry) || isResult && value.has(.mainScreen))
                && !Self.measuresAgainstWindowOnly(range, analysis.source)
        }
        for assignment in analysis.assignments {
            guard let value = analysis.keyboardValue(of: assignment) else { continue }
            if Self.measuresAgainstWindowOnly(assignment.rhs, analysis.source) { continue }
            if analysis.layoutSink(of: assignment) != nil {
                report(value, "it sets `\(analysis.snippet(assignment.lhs))` without conversion")
            } else if combinesGeometry(value, assignment.rhs) {
                report(value, "it is combined with \(Self.geometry(in: value)) without conversion")
            }
        }
        for binding in analysis.bindings {
            guard let range = binding.value, let value = analysis.keyboardValue(of: binding),
                  combinesGeometry(value, range) else { continue }
            report(value, "it is combined with \(Self.geometry(in: value)) in `\(analysis.source.text(at: binding.nameToken))` without conversion")
        }
        // The number or rect a helper or accessor returns is judged like a binding of it.
        for (name, range) in analysis.geometryResultExpressions {
            guard let value = analysis.keyboardValue(of: range), combinesGeometry(value, range, isResult: true) else { continue }
            report(value, "it is combined with \(Self.geometry(in: value)) in the result of `\(name)` without conversion")
        }
        return diagnostics.sorted { $0.range.lowerBound < $1.range.lowerBound }
    }

    /// What the keyboard frame was measured against.
    static func geometry(in value: KeyboardValue) -> String {
        value.has(.mainScreen) ? "the main screen's geometry" : "view geometry"
    }

    /// Whether every `.frame`/`.bounds` read in the expression is a window's
    /// (`window.bounds.height - frame.minY`, `view.window!.frame`): a full-screen window's space
    /// is the screen's, so the arithmetic is already in one space.
    static func measuresAgainstWindowOnly(_ range: Range<Int>, _ source: TokenizedSource) -> Bool {
        var readsWindow = false
        for index in range where source.kind(index - 1) == .period && source.wordIndex(index, in: ["frame", "bounds"]) != nil {
            var receiver = index - 2
            while source.kind(receiver) == .postfixQuestionMark || source.kind(receiver) == .exclamationMark { receiver -= 1 }
            let name = source.text(at: receiver)
            guard source.kind(receiver) == .identifier, name.hasSuffix("window") || name.hasSuffix("Window") else { return false }
            readsWindow = true
        }
        return readsWindow
    }
}
