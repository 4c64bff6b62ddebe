import Lexer

/// What matters is how much of the view the keyboard covers, not how tall the keyboard is.
public struct KeyboardHeightNotOverlap: Rule {
    public static let metadata = RuleMetadata(
        id: "keyboard_height_not_overlap",
        category: .geometry,
        defaultSeverity: .warning,
        isOptIn: true,
        summary: "The keyboard's height is used as an inset or offset instead of its overlap with the view.",
        rationale: """
        The keyboard's height equals the part of your view it covers only when the view reaches the bottom \
        of a full-screen window. With a hardware keyboard (only the shortcut bar is on screen), an iPad form \
        sheet, a tab bar below the view, Slide Over or Stage Manager, most of the frame lies outside the view \
        and an inset of its full height leaves a large empty gap. This rule is opt-in because the classic \
        recipe (`height - safeAreaInsets.bottom`) is widespread.
        """,
        fix: "Use the overlap: `max(0, view.bounds.maxY - view.convert(keyboardFrame, from: nil).minY)`, or `view.bounds.intersection(converted).height`.",
        fixAvailability: .unsafe,
        triggering: [
            RuleExample("""
            final class FormViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    let converted = view.convert(frame, from: nil)
                    scrollView.contentInset.bottom = ↓converted.height - view.safeAreaInsets.bottom
                }
            }
            """),
            RuleExample("""
            final class ComposerViewController: UIViewController {
                func observe() {
                    token = NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillShowNotification, object: nil, queue: .main) { [weak self] note in
                        guard let keyboardFrame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                        self?.bottomConstraint.constant = ↓keyboardFrame.height
                    }
                }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                func observe(on screen: UIScreen) {
                    token = NotificationCenter.default.addObserver(of: screen, for: .keyboardWillShow) { [weak self] message in
                        guard let self else { return }
                        let local = self.view.convert(message.endFrame, from: screen.coordinateSpace)
                        self.inputBarBottom.constant = -↓local.size.height
                    }
                }
            }
            """),
            RuleExample("""
            final class NotesViewController: UIViewController {
                @objc func keyboardWillChangeFrame(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    apply(↓view.convert(frame, from: nil).height)
                }
                private func apply(_ inset: CGFloat) {
                    textView.contentInset.bottom = inset
                }
            }
            """),
            RuleExample("""
            final class CardViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    let local = view.convert(frame, from: nil)
                    card.transform = CGAffineTransform(translationX: 0, y: -↓local.height)
                }
            }
            """),
        ],
        nonTriggering: [
            RuleExample("""
            final class FormViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    let local = view.convert(frame, from: nil)
                    scrollView.contentInset.bottom = max(0, view.bounds.maxY - local.minY - view.safeAreaInsets.bottom)
                }
            }
            """),
            RuleExample("""
            final class FormViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    let local = view.convert(frame, from: nil)
                    scrollView.contentInset.bottom = view.bounds.intersection(local).height
                }
            }
            """),
            RuleExample("""
            final class FormViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    isKeyboardVisible = frame.height > 0
                }
            }
            """),
            RuleExample("""
            final class FormViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    let local = view.convert(frame, from: nil)
                    if local.height > 0 {
                        bottomConstraint.constant = view.bounds.height - local.origin.y
                    }
                }
            }
            """),
            RuleExample("""
            final class FormViewController: UIViewController {
                override func viewDidLayoutSubviews() {
                    super.viewDidLayoutSubviews()
                    bottomConstraint.constant = header.frame.height
                }
            }
            """),
            RuleExample("""
            final class FormViewController: UIViewController {
                @objc func keyboardWillHide(_ note: Notification) {
                    bottomConstraint.constant = 0
                    scrollView.contentInset.bottom = 0
                }
            }
            """),
        ],
        corrections: [
            RuleCorrection("""
            final class NotesViewController: UIViewController {
                @objc func keyboardWillChangeFrame(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    let converted = view.convert(frame, from: nil)
                    bottomConstraint.constant = ↓converted.height - toolbarHeight
                }
            }
            """, """
            final class NotesViewController: UIViewController {
                @objc func keyboardWillChangeFrame(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    let converted = view.convert(frame, from: nil)
                    bottomConstraint.constant = max(0, view.bounds.maxY - converted.minY - toolbarHeight)
                }
            }
            """),
            RuleCorrection("""
            final class FormViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    let converted = view.convert(frame, from: nil)
                    bottomConstraint.constant = ↓converted.height
                }
            }
            """, """
            final class FormViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    let converted = view.convert(frame, from: nil)
                    bottomConstraint.constant = max(0, view.bounds.maxY - converted.minY)
                }
            }
            """),
        ]
    )

    public init() {}

    /// `frame.height` of a frame already in the view's coordinates replaced by the overlap,
    /// `max(0, view.bounds.maxY - frame.minY)`, in the type's own methods. A subtraction that
    /// ends the expression (`frame.height - bottomLayoutGuide.length`) goes inside the clamp:
    /// outside it, a hidden keyboard would give a negative inset. Unsafe: it assumes the view
    /// is the one the layout is relative to, which a reviewer has to confirm.
    static func overlapFix(_ member: Int, _ value: KeyboardValue, _ analysis: FileAnalysis) -> Fix? {
        let source = analysis.source
        guard !value.has(.screenSpace), source.isWord(member, "height"), let view = analysis.ownViewPrefix(at: member),
              let frame = analysis.rectExpression(readAt: member) else { return nil }
        var end = member + 1
        var subtracted = ""
        if let operandEnd = subtractedOperandEnd(after: member, source) {
            subtracted = " - " + source.text(spanning: (member + 2)..<operandEnd)
            end = operandEnd
        }
        return Fix(.unsafe, edits: [Edit(range: source.byteRange(frame.lowerBound..<end),
                                         replacement: "max(0, \(view)bounds.maxY - \(source.text(spanning: frame)).minY\(subtracted))")])
    }

    /// The end of `b` in `height - b` when `b` is a plain operand (names, members, calls,
    /// literals) that ends the expression: what follows is `,`, a closing bracket, `;` or a
    /// new line. Nil otherwise (`height - a * b`, no subtraction).
    static func subtractedOperandEnd(after member: Int, _ source: TokenizedSource) -> Int? {
        guard source.isToken(member + 1, .binaryOperator, "-") else { return nil }
        var cursor = member + 2
        while cursor < source.code.count, cursor == member + 2 || !source.code[cursor].isAtStartOfLine {
            switch source.kind(cursor) {
            case .identifier, .keyword, .period, .postfixQuestionMark, .exclamationMark, .integerLiteral, .floatLiteral:
                cursor += 1
            case .leftParen, .leftSquare:
                guard cursor > member + 2, let close = source.partnerIndex(cursor) else { return nil }
                cursor = close + 1
            default:
                guard cursor > member + 2 else { return nil }
                switch source.kind(cursor) {
                case .comma, .rightParen, .rightSquare, .rightBrace, .semicolon: return cursor
                default: return nil
                }
            }
        }
        return cursor > member + 2 ? cursor : nil
    }

    public func check(_ context: RuleContext) -> [Diagnostic] {
        let analysis = context.analysis
        guard analysis.mentionsKeyboard else { return [] }
        var reported = Set<Int>()
        var diagnostics: [Diagnostic] = []
        for assignment in analysis.assignments {
            guard analysis.layoutSink(of: assignment) != nil,
                  let value = analysis.keyboardValue(of: assignment), value.isFrame, value.has(.height),
                  !value.has(.overlap), let member = value.heightMember, reported.insert(member).inserted else { continue }
            diagnostics.append(Self.metadata.diagnostic(
                analysis, at: analysis.geometryReadRange(member),
                message: "`\(analysis.geometryRead(member))` is the keyboard's full height, not the part of the view it covers, so `\(analysis.snippet(assignment.lhs))` is off by the part of the keyboard outside the view (hardware keyboards, sheets, tab bars, Stage Manager)",
                suggestion: "Use the overlap: `max(0, view.bounds.maxY - convertedFrame.minY)`.",
                fix: Self.overlapFix(member, value, analysis)))
        }
        return diagnostics
    }
}
