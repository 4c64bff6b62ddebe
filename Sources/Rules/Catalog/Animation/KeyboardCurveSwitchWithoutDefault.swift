import Lexer

/// The keyboard sends a curve that no `UIView.AnimationCurve` case names.
public struct KeyboardCurveSwitchWithoutDefault: Rule {
    public static let metadata = RuleMetadata(
        id: "keyboard_curve_switch_without_default",
        category: .animation,
        defaultSeverity: .error,
        summary: "A `switch` over the keyboard's animation curve has no default, or its default traps.",
        rationale: """
        The keyboard reports the undocumented curve raw value 7. `UIView.AnimationCurve(rawValue: 7)` \
        succeeds (it is an imported C enum), but the value matches none of `.easeInOut`, `.easeIn`, \
        `.easeOut` and `.linear`: a switch without a default traps at run time the first time the keyboard \
        appears, and a default that calls `fatalError` or `preconditionFailure` crashes the same way.
        """,
        fix: "Add a non-trapping `@unknown default` (or `default`) that maps the curve into `UIView.AnimationOptions(rawValue: raw << 16)`.",
        fixAvailability: .unsafe,
        triggering: [
            RuleExample("""
            final class LoginViewController: UIViewController {
                @objc func keyboardWillShow(_ notification: Notification) {
                    guard let raw = notification.userInfo?[UIResponder.keyboardAnimationCurveUserInfoKey] as? Int,
                          let curve = UIView.AnimationCurve(rawValue: raw) else { return }
                    let options: UIView.AnimationOptions
                    ↓switch curve {
                    case .easeInOut: options = .curveEaseInOut
                    case .easeIn: options = .curveEaseIn
                    case .easeOut: options = .curveEaseOut
                    case .linear: options = .curveLinear
                    }
                    UIView.animate(withDuration: 0.25, delay: 0, options: options) { self.view.layoutIfNeeded() }
                }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                func observe(on screen: UIScreen) {
                    token = NotificationCenter.default.addObserver(of: screen, for: .keyboardWillShow) { [weak self] message in
                        ↓switch message.animationCurve {
                        case .easeInOut, .easeIn, .easeOut, .linear: self?.animate(message)
                        @unknown default: fatalError("unknown curve")
                        }
                    }
                }
            }
            """),
            RuleExample("""
            final class ComposerViewController: UIViewController {
                func observe() {
                    token = NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillHideNotification, object: nil, queue: .main) { note in
                        let raw = note.userInfo?[UIResponder.keyboardAnimationCurveUserInfoKey] as? Int ?? 0
                        let curve = UIView.AnimationCurve(rawValue: raw)!
                        ↓switch curve {
                        case .linear: print("linear")
                        default: preconditionFailure("unexpected keyboard curve \\(raw)")
                        }
                    }
                }
            }
            """),
            RuleExample("""
            final class NotesViewController: UIViewController {
                @objc func keyboardWillHide(_ note: Notification) {
                    let curve = UIView.AnimationCurve(rawValue: note.userInfo?[UIResponder.keyboardAnimationCurveUserInfoKey] as? Int ?? 0)!
                    let options = animationOptions(for: curve)
                    UIView.animate(withDuration: 0.25, delay: 0, options: options) { self.view.layoutIfNeeded() }
                }
                private func animationOptions(for curve: UIView.AnimationCurve) -> UIView.AnimationOptions {
                    ↓switch curve {
                    case .easeInOut: return .curveEaseInOut
                    case .easeIn: return .curveEaseIn
                    case .easeOut: return .curveEaseOut
                    case .linear: return .curveLinear
                    }
                }
            }
            """),
        ],
        nonTriggering: [
            RuleExample("""
            func options(for notification: Notification) -> UIView.AnimationOptions {
                let raw = notification.userInfo?[UIResponder.keyboardAnimationCurveUserInfoKey] as? Int ?? 0
                switch UIView.AnimationCurve(rawValue: raw)! {
                case .easeIn: return .curveEaseIn
                default: return UIView.AnimationOptions(rawValue: UInt(raw) << 16)
                }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                func observe(on screen: UIScreen) {
                    token = NotificationCenter.default.addObserver(of: screen, for: .keyboardWillShow) { message in
                        switch message.animationCurve {
                        case .linear: print("linear")
                        @unknown default: break
                        }
                    }
                }
            }
            """),
            RuleExample("""
            @objc func keyboardWillShow(_ notification: Notification) {
                switch settings.curve {
                case .easeInOut: print("a")
                case .easeIn: print("b")
                case .easeOut: print("c")
                case .linear: print("d")
                }
            }
            """),
            RuleExample("""
            @objc func keyboardWillShow(_ notification: Notification) {
                let raw = notification.userInfo?[UIResponder.keyboardAnimationCurveUserInfoKey] as? Int ?? 0
                switch UIView.AnimationCurve(rawValue: raw)! {
                case .linear: print("linear")
                default: assertionFailure("unexpected curve")
                }
            }
            """),
            RuleExample("""
            @objc func keyboardWillShow(_ notification: Notification) {
                let raw = notification.userInfo?[UIResponder.keyboardAnimationCurveUserInfoKey] as? Int ?? 0
                switch raw {
                case 7: print("keyboard")
                default: print("other")
                }
            }
            """),
            RuleExample("""
            @objc func keyboardWillShow(_ notification: Notification) {
                let raw = notification.userInfo?[UIResponder.keyboardAnimationCurveUserInfoKey] as? Int ?? 7
                switch raw {
                case 7: print("keyboard")
                default: fatalError("not the keyboard")
                }
            }
            """),
            RuleExample("""
            func label(for curve: UIView.AnimationCurve) -> String {
                switch curve {
                case .easeInOut: return "ease in out"
                case .easeIn: return "ease in"
                case .easeOut: return "ease out"
                case .linear: return "linear"
                }
            }
            """),
        ],
        corrections: [
            RuleCorrection("""
            final class LoginViewController: UIViewController {
                @objc func keyboardWillShow(_ notification: Notification) {
                    guard let raw = notification.userInfo?[UIResponder.keyboardAnimationCurveUserInfoKey] as? Int,
                          let curve = UIView.AnimationCurve(rawValue: raw) else { return }
                    let options: UIView.AnimationOptions
                    ↓switch curve {
                    case .easeInOut: options = .curveEaseInOut
                    case .easeIn: options = .curveEaseIn
                    case .easeOut: options = .curveEaseOut
                    case .linear: options = .curveLinear
                    }
                    UIView.animate(withDuration: 0.25, delay: 0, options: options) { self.view.layoutIfNeeded() }
                }
            }
            """, """
            final class LoginViewController: UIViewController {
                @objc func keyboardWillShow(_ notification: Notification) {
                    guard let raw = notification.userInfo?[UIResponder.keyboardAnimationCurveUserInfoKey] as? Int,
                          let curve = UIView.AnimationCurve(rawValue: raw) else { return }
                    let options: UIView.AnimationOptions
                    switch curve {
                    case .easeInOut: options = .curveEaseInOut
                    case .easeIn: options = .curveEaseIn
                    case .easeOut: options = .curveEaseOut
                    case .linear: options = .curveLinear
                    @unknown default: options = .curveEaseInOut
                    }
                    UIView.animate(withDuration: 0.25, delay: 0, options: options) { self.view.layoutIfNeeded() }
                }
            }
            """),
            RuleCorrection("""
            final class NotesViewController: UIViewController {
                @objc func keyboardWillHide(_ note: Notification) {
                    let curve = UIView.AnimationCurve(rawValue: note.userInfo?[UIResponder.keyboardAnimationCurveUserInfoKey] as? Int ?? 0)!
                    UIView.animate(withDuration: 0.25, delay: 0, options: animationOptions(for: curve)) { self.view.layoutIfNeeded() }
                }
                private func animationOptions(for curve: UIView.AnimationCurve) -> UIView.AnimationOptions {
                    ↓switch curve {
                    case .easeIn: return .curveEaseIn
                    case .easeOut: return .curveEaseOut
                    case .linear: return .curveLinear
                    case .easeInOut:
                        // UIKit's default.
                        return .curveEaseInOut
                    }
                }
            }
            """, """
            final class NotesViewController: UIViewController {
                @objc func keyboardWillHide(_ note: Notification) {
                    let curve = UIView.AnimationCurve(rawValue: note.userInfo?[UIResponder.keyboardAnimationCurveUserInfoKey] as? Int ?? 0)!
                    UIView.animate(withDuration: 0.25, delay: 0, options: animationOptions(for: curve)) { self.view.layoutIfNeeded() }
                }
                private func animationOptions(for curve: UIView.AnimationCurve) -> UIView.AnimationOptions {
                    switch curve {
                    case .easeIn: return .curveEaseIn
                    case .easeOut: return .curveEaseOut
                    case .linear: return .curveLinear
                    case .easeInOut:
                        // UIKit's default.
                        return .curveEaseInOut
                    @unknown default:
                        return .curveEaseInOut
                    }
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
        for (scopeIndex, scope) in analysis.outline.scopes.enumerated() {
            guard case .block(let keyword) = scope.kind, source.isWord(keyword, "switch"), keyword + 1 < scope.open,
                  let value = analysis.keyboardValue(of: (keyword + 1)..<scope.open), value.has(.curve),
                  Self.isCurveEnum((keyword + 1)..<scope.open, analysis)
            else { continue }
            let subject = analysis.snippet((keyword + 1)..<scope.open)
            let message: String
            var fix: Fix?
            if let defaultLabel = scope.body.first(where: {
                source.isWord($0, "default") && analysis.outline.scope(at: $0) == ScopeID(scopeIndex)
            }) {
                guard let trap = Self.trap(inClauseAfter: defaultLabel, scope: ScopeID(scopeIndex), analysis) else { continue }
                message = "The default of `switch \(subject)` calls `\(source.text(at: trap))`: the keyboard's curve 7 matches no case and crashes here"
            } else {
                message = "`switch \(subject)` has no default: the keyboard's curve 7 matches no `UIView.AnimationCurve` case and traps"
                fix = Self.defaultLikeEaseInOut(scope: ScopeID(scopeIndex), analysis)
            }
            diagnostics.append(Self.metadata.diagnostic(
                analysis, at: keyword..<(keyword + 1), message: message,
                suggestion: "Add `@unknown default:` that uses `UIView.AnimationOptions(rawValue: raw << 16)` instead of trapping.",
                fix: fix))
        }
        return diagnostics
    }

    /// Whether the switch subject is a `UIView.AnimationCurve` (not the raw number): it names
    /// the type or the typed message's `animationCurve`, directly or through the local or
    /// parameter it is.
    static func isCurveEnum(_ subject: Range<Int>, _ analysis: FileAnalysis) -> Bool {
        let source = analysis.source
        func mentionsCurve(_ range: Range<Int>) -> Bool {
            range.contains { source.wordIndex($0, in: ["AnimationCurve", "UIViewAnimationCurve", "animationCurve"]) != nil }
        }
        if mentionsCurve(subject) { return true }
        guard subject.count == 1, source.kind(subject.lowerBound) == .identifier else { return false }
        let name = subject.lowerBound
        let hash = source.nameHash(name)
        if let binding = analysis.binding(referencedBy: name), let value = binding.value {
            return mentionsCurve(value)
        }
        if let property = analysis.memberProperty(referencedBy: name) {
            return mentionsCurve(property.type) || property.initializer.map(mentionsCurve) ?? false
        }
        guard let scope = analysis.outline.executableScope(at: name) else { return false }
        for function in analysis.outline.functions {
            guard let body = function.scope, analysis.outline.scope(scope, isWithin: body) else { continue }
            if let parameter = function.parameters.first(where: { source.nameHash($0.nameToken) == hash }) {
                return mentionsCurve(parameter.type)
            }
        }
        return false
    }

    /// An `@unknown default:` clause, last in the switch, that does what the `.easeInOut` case
    /// does: the switch already compiles with that body in every clause position, and
    /// ease-in-out is UIKit's default curve. Unsafe: the keyboard's own curve (7) now animates
    /// as ease-in-out instead of trapping, a behaviour the author did not choose. Nil when no
    /// plain `.easeInOut` label exists (patterns with `let`/`where`), when its clause falls
    /// through or traps, when `#if` splits the cases, or when the closing brace shares a line
    /// with code.
    static func defaultLikeEaseInOut(scope scopeIndex: ScopeID, _ analysis: FileAnalysis) -> Fix? {
        let source = analysis.source
        let scope = analysis.outline[scopeIndex]
        // The clause goes before the switch's `}`: none when the file ends first.
        guard scope.close < source.code.count else { return nil }
        // `case` of a clause, not of `if case`/`guard case`/`for case`/`while case` in one;
        // `#if` directives, not `#available` conditions.
        let labels = scope.body.filter {
            analysis.outline.scope(at: $0) == scopeIndex
                && (source.kind($0) == .poundKeyword && !source.text(at: $0).hasSuffix("available")
                    || source.isWord($0, "case") && source.kind($0 - 1) != .comma
                        && source.wordIndex($0 - 1, in: ["if", "guard", "for", "while"]) == nil)
        }
        guard !labels.contains(where: { source.kind($0) == .poundKeyword }) else { return nil }
        for (position, label) in labels.enumerated() {
            // A clause ends where the next one starts; broken code may hold no colon before it.
            let clauseEnd = position + 1 < labels.count ? labels[position + 1] : scope.close
            guard let colon = source.firstTopLevel(in: (label + 1)..<clauseEnd, where: { source.kind($0) == .colon }) else {
                return nil
            }
            let pattern = (label + 1)..<colon
            guard pattern.contains(where: { source.isWord($0, "easeInOut") }) else { continue }
            guard !pattern.contains(where: { source.wordIndex($0, in: ["let", "var", "where", "is", "as"]) != nil }) else { return nil }
            let body = (colon + 1)..<clauseEnd
            guard !body.isEmpty, !body.contains(where: { source.isWord($0, "fallthrough") }),
                  trap(inClauseAfter: colon, scope: scopeIndex, analysis) == nil else { return nil }
            let indentation = analysis.indentation(ofLineAt: label)
            let closing = Int(source.code[scope.close].start)
            let lineStart = closing - analysis.indentation(ofLineAt: scope.close).utf8.count
            guard lineStart > 0, [0x0A, 0x0D].contains(source.file.bytes[lineStart - 1]) else { return nil }
            let text: String
            if analysis.line(of: body.lowerBound) == analysis.line(of: colon) {
                text = "\(indentation)@unknown default: \(source.text(spanning: body))\n"
            } else {
                let bodyLine = Int(source.code[body.lowerBound].start) - analysis.indentation(ofLineAt: body.lowerBound).utf8.count
                text = "\(indentation)@unknown default:\n\(source.file.text(bodyLine..<Int(source.code[body.upperBound - 1].end)))\n"
            }
            return Fix(.unsafe, edits: [Edit(range: lineStart..<lineStart, replacement: text)])
        }
        return nil
    }

    /// A `fatalError`/`preconditionFailure` call among the statements of the clause that starts
    /// at `label`.
    static func trap(inClauseAfter label: Int, scope: ScopeID, _ analysis: FileAnalysis) -> Int? {
        let source = analysis.source
        let end = analysis.outline[scope].close
        var index = label + 1
        while index < end {
            if analysis.outline.scope(at: index) == scope, source.isWord(index, "case") { return nil }
            if source.wordIndex(index, in: ["fatalError", "preconditionFailure"]) != nil,
               source.kind(index + 1) == .leftParen {
                return index
            }
            index += 1
        }
        return nil
    }
}
