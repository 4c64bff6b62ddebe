import Lexer

/// Keyboard geometry belongs to the window's scene and screen, not to the main screen.
public struct KeyboardMathUsesMainScreen: Rule {
    public static let metadata = RuleMetadata(
        id: "keyboard_math_uses_main_screen",
        category: .geometry,
        defaultSeverity: .warning,
        summary: "Keyboard code measures against `UIScreen.main`, the key window or `windows.first`.",
        rationale: """
        `UIScreen.main` is the device's built-in screen, and the key window or `windows.first` may belong to \
        another scene. Under Split View, Slide Over, Stage Manager or with an external display, the app's \
        window is smaller than (or not on) that screen, so keyboard overlap computed against it is wrong by \
        the size of the other apps. Apple deprecated `UIScreen.main` for this reason.
        """,
        fix: "Use the view's own context: `view.window`, `view.window?.windowScene?.screen`, or convert the keyboard frame into the view.",
        noFixReason: "The view's own screen (`view.window?.windowScene?.screen`) is optional: a view not in a window has none, so every replacement needs a fallback chosen by the author, and the view to ask differs per type (`view` in a controller, `window` in a view, nothing in a helper).",
        triggering: [
            RuleExample("""
            final class LoginViewController: UIViewController {
                @objc func keyboardWillShow(_ notification: Notification) {
                    guard let end = notification.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    let local = view.convert(end, from: ↓UIScreen.main.coordinateSpace)
                    bottomConstraint.constant = max(0, view.bounds.maxY - local.minY)
                }
            }
            """),
            RuleExample("""
            final class LoginViewController: UIViewController {
                @objc func keyboardWillShow(_ notification: Notification) {
                    guard let frame = notification.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    let offset = ↓UIScreen.main.bounds.height - frame.origin.y
                    bottomConstraint.constant = offset
                }
            }
            """),
            RuleExample("""
            final class ComposerViewController: UIViewController {
                func observe() {
                    token = NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillShowNotification, object: nil, queue: .main) { [weak self] _ in
                        guard let window = UIApplication.shared.↓keyWindow else { return }
                        self?.bottomConstraint.constant = window.safeAreaInsets.bottom
                    }
                }
            }
            """),
            RuleExample("""
            final class SearchViewController: UIViewController {
                func bind() {
                    NotificationCenter.default.publisher(for: UIResponder.keyboardWillHideNotification)
                        .sink { [weak self] _ in
                            let bottom = UIApplication.shared.↓windows.first?.safeAreaInsets.bottom ?? 0
                            self?.resultsBottom.constant = bottom
                        }
                        .store(in: &bag)
                }
            }
            """),
            RuleExample("""
            final class NotesViewController: UIViewController {
                @objc func keyboardWillChangeFrame(_ note: Notification) {
                    relayout()
                }
                private func relayout() {
                    let height = UIApplication.shared.delegate?.↓window??.bounds.height ?? 0
                    editorHeight.constant = height / 2
                }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                func observe(on screen: UIScreen) {
                    token = NotificationCenter.default.addObserver(of: screen, for: .keyboardWillShow) { [weak self] message in
                        self?.inputBarBottom.constant = ↓UIScreen.main.bounds.maxY - message.endFrame.minY
                    }
                }
            }
            """),
        ],
        nonTriggering: [
            RuleExample("""
            final class LoginViewController: UIViewController {
                @objc func keyboardWillHide(_ notification: Notification) {
                    var end = notification.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect ?? .zero
                    if end == .zero {
                        end = CGRect(x: 0, y: UIScreen.main.bounds.height, width: UIScreen.main.bounds.width, height: 0)
                    }
                    move(to: end)
                }
            }
            """),
            RuleExample("""
            final class LoginViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    logo.frame.size.width = UIScreen.main.bounds.width / 2
                }
            }
            """),
            RuleExample("""
            final class LoginViewController: UIViewController {
                @objc func keyboardWillShow(_ notification: Notification) {
                    guard let screen = view.window?.windowScene?.screen else { return }
                    print(screen.bounds)
                }
            }
            """),
            RuleExample("""
            final class LoginViewController: UIViewController {
                @objc func keyboardWillShow(_ notification: Notification) {
                    guard let window = view.window else { return }
                    bottomConstraint.constant = window.safeAreaInsets.bottom
                }
            }
            """),
            RuleExample("""
            final class LoginViewController: UIViewController {
                @objc func keyboardWillShow(_ notification: Notification) {
                    guard let screen = notification.object as? UIScreen else { return }
                    print(screen.scale)
                }
            }
            """),
            RuleExample("""
            final class LoginViewController: UIViewController {
                @objc func keyboardWillShow(_ notification: Notification) {
                    guard let scene = view.window?.windowScene else { return }
                    print(scene.windows.count)
                }
            }
            """),
            RuleExample("""
            final class LoginViewController: UIViewController {
                @objc func keyboardWillShow(_ notification: Notification) {
                    let pixel = 1 / UIScreen.main.scale
                    separatorHeight.constant = pixel
                }
            }
            """),
            RuleExample("""
            final class AppCoordinator {
                func start() {
                    let window = UIApplication.shared.windows.first
                    window?.rootViewController = root
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
        let meetingFrames = analysis.screenAPIsMeetingKeyboardFrames()
        var reported = Set<Int>()
        var diagnostics: [Diagnostic] = []
        /// Whether the code at `index` is keyboard code: in a handler, or in a statement that
        /// meets a keyboard frame.
        func isKeyboardCode(_ index: Int) -> Bool {
            if analysis.isInKeyboardHandler(index) { return true }
            let start = ExpressionBounds.statementStart(source, containing: index)
            let end = ExpressionBounds.end(source, from: start, stopAtComma: false)
            return analysis.keyboardValue(of: start..<end)?.isFrame == true
        }
        for index in source.code.indices where source.kind(index) == .identifier {
            let api: Int
            var getter: String?
            if ScreenWideAPI.at(index, source) != nil {
                guard meetingFrames.contains(index) || isKeyboardCode(index) else { continue }
                api = index
            } else if let returned = analysis.screenWideGetter(usedAt: index), isKeyboardCode(index) {
                // A getter returning the API (`UIApplication.mainWindow`): reported once, in its body.
                api = returned
                getter = source.text(at: index)
            } else {
                continue
            }
            guard let (range, name) = ScreenWideAPI.at(api, source), reported.insert(api).inserted else { continue }
            if Self.isInsideRectConstruction(api, source) { continue }
            if let conversion = Self.conversion(around: api, analysis) {
                diagnostics.append(Self.metadata.diagnostic(
                    analysis, at: range,
                    message: "`\(conversion)` converts from the coordinate space of `UIScreen.main`, the device's built-in screen; on an external display or another scene's screen the keyboard frame belongs to the window's own screen",
                    suggestion: "Convert from the window's screen: `view.window?.windowScene?.screen.coordinateSpace`."))
                continue
            }
            let subject = getter.map { "`\(name)`, returned by `\($0)` and used" } ?? "`\(name)`"
            diagnostics.append(Self.metadata.diagnostic(
                analysis, at: range,
                message: "\(subject) in keyboard code is the device's built-in screen or another scene's window, not necessarily this view's: keyboard geometry measured against it is wrong under Split View, Slide Over, Stage Manager and external displays",
                suggestion: "Use the view's window and its scene's screen (`view.window?.windowScene?.screen`), or convert the keyboard frame into the view."))
        }
        return diagnostics.sorted { $0.range.lowerBound < $1.range.lowerBound }
    }

    /// Whether `index` is inside the arguments of a `CGRect(…)`:
    /// a made-up rect (say, off screen for a `.zero` end frame) measures nothing.
    static func isInsideRectConstruction(_ index: Int, _ source: TokenizedSource) -> Bool {
        enclosingCall(of: index, named: "CGRect", source) != nil
    }

    /// The `(` of the nearest call named `name` whose arguments hold `index`, looking back a
    /// bounded distance within the statement.
    static func enclosingCall(of index: Int, named name: StaticString, _ source: TokenizedSource) -> Int? {
        var token = index - 1
        var budget = 256
        while token > 0, budget > 0 {
            budget -= 1
            if source.kind(token) == .leftParen, let close = source.partnerIndex(token), close > index {
                if source.isWord(token - 1, name) { return token }
            } else if source.kind(token) == .rightParen || source.kind(token) == .rightSquare, let open = source.partnerIndex(token) {
                token = open
            } else if source.kind(token) == .leftBrace || source.kind(token) == .rightBrace {
                return nil
            }
            token -= 1
        }
        return nil
    }

    /// `x.convert(…, from:/to: UIScreen.main.coordinateSpace)` around `index`: the documented
    /// conversion, only on the wrong screen. The call as written, else nil.
    static func conversion(around index: Int, _ analysis: FileAnalysis) -> String? {
        let source = analysis.source
        guard source.isWord(index + 4, "coordinateSpace") || source.isWord(index + 4, "fixedCoordinateSpace"),
              let open = enclosingCall(of: index, named: "convert", source),
              let call = analysis.call(at: open - 1), let close = call.closeParen else { return nil }
        return analysis.snippet(call.start..<(close + 1))
    }
}
