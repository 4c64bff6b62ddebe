import Lexer

/// Keyboard notifications repeat; layout must be set, not nudged.
public struct KeyboardInsetAccumulates: Rule {
    public static let metadata = RuleMetadata(
        id: "keyboard_inset_accumulates",
        category: .geometry,
        defaultSeverity: .error,
        summary: "A keyboard handler adds the keyboard's height to layout instead of setting it.",
        rationale: """
        Show and change-frame notifications arrive several times for one visible keyboard: when QuickType \
        or the emoji keyboard toggles, when a third-party keyboard loads, when focus moves between fields. \
        `+=`/`-=` with the keyboard height (or `x = x + height`) applies the height again each time, so the \
        view drifts further off screen or the inset grows until content is unreachable. A delta measured \
        against the moved view's own frame (`view.frame.origin.y -= view.frame.maxY - keyboardTop`, directly \
        or through a local) is not reported: once the view has moved it measures nothing more.
        """,
        fix: "Assign the absolute value (`constraint.constant = overlap`), or subtract the previously applied height that you stored.",
        noFixReason: "Turning `+=` into `=` is only right when the value held nothing else before; otherwise the handler has to store and subtract the height it added, which needs a new property and a matching hide handler.",
        triggering: [
            RuleExample("""
            final class LoginViewController: UIViewController {
                @objc func keyboardWillShow(_ notification: Notification) {
                    guard let frame = notification.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    ↓view.frame.origin.y -= view.convert(frame, from: nil).height
                }
            }
            """),
            RuleExample("""
            final class ComposerViewController: UIViewController {
                func observe() {
                    token = NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillShowNotification, object: nil, queue: .main) { [weak self] note in
                        guard let self, let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                        let height = self.view.convert(frame, from: nil).height
                        ↓self.bottomConstraint.constant += height
                    }
                }
            }
            """),
            RuleExample("""
            final class FeedViewController: UIViewController {
                @objc func keyboardWillChangeFrame(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    let overlap = view.bounds.maxY - view.convert(frame, from: nil).minY
                    ↓tableView.contentInset.bottom = tableView.contentInset.bottom + overlap
                }
            }
            """),
            RuleExample("""
            final class SearchViewController: UIViewController {
                func bind() {
                    NotificationCenter.default.publisher(for: UIResponder.keyboardWillShowNotification)
                        .sink { [weak self] note in
                            guard let self, let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                            let height = self.view.convert(frame, from: nil).height
                            ↓self.panel.transform = self.panel.transform.translatedBy(x: 0, y: -height)
                        }
                        .store(in: &bag)
                }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                func observe(on screen: UIScreen) {
                    token = NotificationCenter.default.addObserver(of: screen, for: .keyboardWillShow) { [weak self] message in
                        ↓self?.messagesView.contentOffset.y += message.endFrame.height
                    }
                }
            }
            """),
            RuleExample("""
            final class PanelController: KeyboardObserving {
                func keyboardWillShow(endFrame: CGRect) {
                    ↓panel.center.y -= endFrame.height
                }
            }
            """),
        ],
        nonTriggering: [
            RuleExample("""
            final class AlertView: UIView {
                @objc func keyboardWillShow(_ notification: Notification) {
                    guard let keyboardTop = (notification.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect)?.minY else { return }
                    var overlap = card.frame.maxY - keyboardTop
                    if overlap < 0 { overlap = 0 }
                    card.frame.origin.y -= overlap
                }
            }
            """),
            RuleExample("""
            final class LoginViewController: UIViewController {
                @objc func keyboardWillShow(_ notification: Notification) {
                    guard let frame = notification.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    bottomConstraint.constant = view.convert(frame, from: nil).height
                }
            }
            """),
            RuleExample("""
            final class LoginViewController: UIViewController {
                private var appliedKeyboardHeight: CGFloat = 0
                @objc func keyboardWillChangeFrame(_ notification: Notification) {
                    guard let frame = notification.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    let height = view.convert(frame, from: nil).height
                    bottomConstraint.constant -= height - appliedKeyboardHeight
                    appliedKeyboardHeight = height
                }
            }
            """),
            RuleExample("""
            final class ToolbarViewController: UIViewController {
                @objc func keyboardWillChangeFrame(_ n: Notification) {
                    guard let info = n.userInfo,
                          let begin = info[UIResponder.keyboardFrameBeginUserInfoKey] as? CGRect,
                          let end = info[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    toolbar.frame.origin.y += end.minY - begin.minY
                }
            }
            """),
            RuleExample("""
            final class ToolbarViewController: UIViewController {
                @objc func keyboardWillShow(_ n: Notification) {
                    guard let end = n.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    let inset = view.convert(end, from: nil).height
                    toolbar.frame.origin.y -= inset + toolbar.frame.origin.y
                }
            }
            """),
            RuleExample("""
            final class LoginViewController: UIViewController {
                @objc func keyboardWillShow(_ notification: Notification) {
                    guard let frame = notification.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    if view.frame.origin.y == 0 {
                        view.frame.origin.y -= view.convert(frame, from: nil).height
                    }
                }
            }
            """),
            RuleExample("""
            final class CardViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    topConstraint.constant += 10
                }
            }
            """),
            RuleExample("""
            final class CardViewController: UIViewController {
                @objc func keyboardWillShow(_ n: Notification) {
                    topConstraint.constant += spacing
                    showCount += 1
                }
            }
            """),
        ]
    )

    public init() {}

    public func check(_ context: RuleContext) -> [Diagnostic] {
        let analysis = context.analysis
        guard analysis.mentionsKeyboard else { return [] }
        let source = analysis.source
        var diagnostics: [Diagnostic] = []
        for assignment in analysis.handlerAssignments {
            guard let sink = analysis.layoutSink(of: assignment),
                  Self.isMovable(sink, source) || sink.component == nil && !assignment.isCompound,
                  let value = analysis.keyboardValue(of: assignment), value.isFrame,
                  !(value.has(.frameEnd) && value.has(.frameBegin)) else { continue }
            let target = analysis.receiverKey(assignment.lhs)
            let mentionsTarget = Self.mentions(target, in: assignment.rhs, analysis)
            if assignment.isCompound {
                let op = source.text(at: assignment.op)
                guard op == "+=" || op == "-=", !mentionsTarget,
                      !Self.measuresAgainstTheView(sink, assignment.rhs, analysis),
                      !Self.usesStoredKeyboardValue(assignment.rhs, at: assignment.op, analysis),
                      !Self.isGuardedByEquality(assignment, target: target, analysis) else { continue }
            } else if !mentionsTarget || !Self.isMovable(sink, source) {
                // `var f = bar.frame; f.origin.y -= h; bar.frame = f`: the copy starts from the
                // current layout, so a relative change of a movable member accumulates.
                guard let copy = analysis.localCopyWriteBack(of: assignment), copy.copiesTarget,
                      copy.memberWrites.contains(where: { write in
                          let op = source.text(at: write.op)
                          let member = LayoutSink(kind: sink.kind, member: sink.member,
                                                  component: analysis.chainNames(write.lhs).last, receiver: sink.receiver)
                          return (op == "+=" || op == "-=") && Self.isMovable(member, source)
                              && analysis.keyboardValue(of: write)?.isFrame == true
                              && !Self.usesStoredKeyboardValue(write.rhs, at: write.op, analysis)
                      }) else { continue }
            }
            let lhs = analysis.snippet(assignment.lhs)
            diagnostics.append(Self.metadata.diagnostic(
                analysis, at: assignment.lhs,
                message: "`\(lhs) \(source.text(at: assignment.op)) \(analysis.snippet(assignment.rhs))` adds the keyboard's height again on every repeated notification; the layout drifts",
                suggestion: "Assign the absolute value to `\(lhs)`, or subtract the height applied last time."))
        }
        return diagnostics
    }

    /// Sinks that move or grow: `frame.origin.y`, `center.y`, `.constant`, `contentInset.*`,
    /// `contentOffset.y`, `transform`.
    static func isMovable(_ sink: LayoutSink, _ source: TokenizedSource) -> Bool {
        switch sink.kind {
        case .constraintConstant, .contentInset, .transform: true
        case .frame, .center, .contentOffset: sink.component.map { source.isWord($0, "y") } ?? false
        case .scrollIndicatorInsets, .additionalSafeAreaInsets: false
        }
    }

    /// Whether `range` contains a chain that names `target`.
    static func mentions(_ target: [UInt64], in range: Range<Int>, _ analysis: FileAnalysis) -> Bool {
        guard let last = target.last else { return false }
        let source = analysis.source
        for index in range where source.kind(index) == .identifier && source.nameHash(index) == last {
            let start = analysis.chainStart(endingAt: index)
            if analysis.receiverKey(start..<(index + 1)) == target { return true }
        }
        return false
    }

    /// Whether the delta of `view.frame.origin.y -= delta` is measured against the moved
    /// view's own geometry, directly or through the locals it is computed in (`let overlap =
    /// view.frame.maxY - keyboardTop`): once the view has moved, a repeated notification
    /// measures no overlap and moves it by nothing.
    static func measuresAgainstTheView(_ sink: LayoutSink, _ rhs: Range<Int>, _ analysis: FileAnalysis) -> Bool {
        let source = analysis.source
        let geometry = analysis.receiverKey(sink.receiver) + [source.nameHash(sink.member)]
        var ranges = [rhs]
        var visited = Set<Int>()
        while let range = ranges.popLast(), visited.count < Limits.workItems {
            for index in range where source.kind(index) == .identifier {
                if source.nameHash(index) == geometry[geometry.count - 1] {
                    let key = analysis.receiverKey(analysis.chainStart(endingAt: index)..<(index + 1))
                    if key == geometry { return true }
                } else if source.kind(index - 1) != .period, let binding = analysis.binding(referencedBy: index),
                          let value = binding.value, visited.insert(binding.nameToken).inserted {
                    ranges.append(value)
                }
            }
        }
        return false
    }

    /// Whether the write sits in an `if`/`guard` that compares the target with `==` (`if
    /// view.frame.origin.y == 0 { … -= height }`): it then applies once, not on every
    /// notification.
    static func isGuardedByEquality(_ assignment: Assignment, target: [UInt64], _ analysis: FileAnalysis) -> Bool {
        let source = analysis.source
        let outline = analysis.outline
        for scope in outline.scopesInsideExecutableBody(around: assignment.op) {
            if case .block(let keyword) = outline[scope].kind, source.isWord(keyword, "if") {
                let condition = (keyword + 1)..<outline[scope].open
                if condition.contains(where: { source.isToken($0, .binaryOperator, "==") }),
                   mentions(target, in: condition, analysis) {
                    return true
                }
            }
        }
        return false
    }

    /// Whether `range` subtracts a property that the type fills with a keyboard value (the
    /// height applied last time).
    static func usesStoredKeyboardValue(_ range: Range<Int>, at index: Int, _ analysis: FileAnalysis) -> Bool {
        guard let type = analysis.outline.enclosingType(at: index) else { return false }
        let source = analysis.source
        for token in range where source.kind(token) == .identifier
            && (source.kind(token - 1) != .period || source.isWord(token - 2, "self")) {
            let hash = source.nameHash(token)
            guard analysis.outline.property(named: hash, in: type) != nil else { continue }
            let stored = analysis.assignments.contains { other in
                let names = analysis.chainNames(other.lhs)
                return names.last.map { source.nameHash($0) == hash } ?? false
                    && analysis.keyboardValue(of: other)?.isFrame == true
            }
            if stored { return true }
        }
        return false
    }
}
