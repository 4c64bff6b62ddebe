import Lexer

/// Keyboard notifications carry their `UIScreen` only from iOS 16.1 on.
public struct KeyboardNotificationScreenGuard: Rule {
    public static let metadata = RuleMetadata(
        id: "keyboard_notification_screen_guard",
        category: .geometry,
        defaultSeverity: .warning,
        summary: "A keyboard handler bails out when the notification's object is not a `UIScreen`, on targets before iOS 16.1.",
        rationale: """
        Since iOS 16.1 UIKit posts keyboard notifications with the `UIScreen` as their object, which lets a \
        handler convert the frame through `screen.coordinateSpace`. Before 16.1 the object is `nil`, so a \
        `guard let screen = notification.object as? UIScreen else { return }` makes the handler do nothing \
        at all on those systems: the keyboard covers the content.
        """,
        fix: "Fall back when the object is nil (`(notification.object as? UIScreen) ?? view.window?.windowScene?.screen`, or convert with `view.convert(_:from: nil)`), or wrap the screen path in `if #available(iOS 16.1, *)`.",
        noFixReason: "What the handler should do when the notification has no screen (fall back to the view's screen, or convert the frame instead) depends on how it uses the screen, so the guard cannot be rewritten mechanically.",
        targetBelow: OSVersion(16, 1),
        triggering: [
            RuleExample("""
            final class FormViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    ↓guard let screen = note.object as? UIScreen,
                          let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    let local = view.convert(frame, from: screen.coordinateSpace)
                    scrollView.contentInset.bottom = max(0, view.bounds.maxY - local.minY - view.safeAreaInsets.bottom)
                }
            }
            """, deploymentTarget: OSVersion(15)),
            RuleExample("""
            final class ComposerViewController: UIViewController {
                func observe() {
                    token = NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillHideNotification, object: nil, queue: .main) { [weak self] note in
                        ↓guard let screen = note.object as? UIScreen else { return }
                        self?.reset(on: screen)
                    }
                }
            }
            """, deploymentTarget: OSVersion(14)),
            RuleExample("""
            final class SearchViewController: UIViewController {
                func bind() {
                    NotificationCenter.default.publisher(for: UIResponder.keyboardWillChangeFrameNotification)
                        .sink { [weak self] note in
                            ↓guard let self, let screen = note.object as? UIScreen else { return }
                            self.update(for: screen)
                        }
                        .store(in: &bag)
                }
            }
            """, deploymentTarget: OSVersion(16)),
            RuleExample("""
            final class ChatViewController: UIViewController {
                func watch() async {
                    for await note in NotificationCenter.default.notifications(named: UIResponder.keyboardWillShowNotification) {
                        ↓guard let screen = note.object as? UIScreen else { continue }
                        update(for: screen)
                    }
                }
            }
            """, deploymentTarget: OSVersion(15, 4)),
            RuleExample("""
            final class NotesViewController: UIViewController {
                @available(iOS 16.0, *)
                @objc func keyboardWillShow(_ note: Notification) {
                    ↓guard let screen = note.object as? UIScreen else { return }
                    update(for: screen)
                }
            }
            """, deploymentTarget: OSVersion(13)),
        ],
        nonTriggering: [
            RuleExample("""
            final class FormViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    guard let screen = note.object as? UIScreen else { return }
                    update(for: screen)
                }
            }
            """, deploymentTarget: OSVersion(16, 1)),
            RuleExample("""
            final class FormViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    if #available(iOS 16.1, *) {
                        guard let screen = note.object as? UIScreen else { return }
                        update(for: screen)
                    } else {
                        updateWithoutScreen(note)
                    }
                }
            }
            """, deploymentTarget: OSVersion(15)),
            RuleExample("""
            final class FormViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    guard let screen = note.object as? UIScreen else { return }
                    update(for: screen)
                }
            }
            """),
            RuleExample("""
            final class FormViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    guard let screen = note.object as? UIScreen ?? view.window?.windowScene?.screen else { return }
                    update(for: screen)
                }
            }
            """, deploymentTarget: OSVersion(15)),
            RuleExample("""
            final class FormViewController: UIViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    guard let info = note.userInfo else { return }
                    update(with: info)
                }
            }
            """, deploymentTarget: OSVersion(15)),
            RuleExample("""
            final class DisplayObserver {
                func screenDidConnect(_ note: Notification) {
                    guard let screen = note.object as? UIScreen else { return }
                    attach(to: screen)
                }
            }
            """, deploymentTarget: OSVersion(15)),
        ]
    )

    public init() {}

    public func check(_ context: RuleContext) -> [Diagnostic] {
        let analysis = context.analysis
        guard analysis.mentionsKeyboard else { return [] }
        let source = analysis.source
        var diagnostics: [Diagnostic] = []
        for scope in analysis.outline.scopes {
            guard case .block(let keyword) = scope.kind, source.isWord(keyword, "else") else { continue }
            guard let guardToken = ExpressionBounds.guardKeyword(source, ofElse: keyword),
                  analysis.isInKeyboardHandler(guardToken),
                  let target = context.applicableTarget(of: Self.metadata, at: guardToken) else { continue }
            let condition = (guardToken + 1)..<keyword
            guard let cast = Self.screenCast(in: condition, source),
                  !condition.contains(where: { source.isToken($0, .binaryOperator, "??") }) else { continue }
            diagnostics.append(Self.metadata.diagnostic(
                analysis, at: guardToken..<(guardToken + 1),
                message: "Before iOS 16.1 keyboard notifications have no object, so `guard … \(analysis.snippet(cast)) else` skips the whole handler on iOS \(target)",
                suggestion: "Fall back to `view.window?.windowScene?.screen` (or convert from `nil`) when the object is nil, or guard the screen path with `if #available(iOS 16.1, *)`."))
        }
        return diagnostics
    }

    /// `….object as? UIScreen` inside a guard condition.
    static func screenCast(in condition: Range<Int>, _ source: TokenizedSource) -> Range<Int>? {
        for index in condition where source.isWord(index, "object") && source.kind(index - 1) == .period {
            guard source.isWord(index + 1, "as"), source.kind(index + 2) == .postfixQuestionMark
                    || source.kind(index + 2) == .exclamationMark,
                  source.isWord(index + 3, "UIScreen") else { continue }
            return (index - 2)..<(index + 4)
        }
        return nil
    }
}
