import Lexer

/// The keyboard layout guide shipped in iOS 15.0 but only works reliably from 15.4.
public struct KeyboardGuideAvailability: Rule {
    static let reliableVersion = OSVersion(15, 4)
    static let introducedVersion = OSVersion(15)

    public static let metadata = RuleMetadata(
        id: "keyboard_guide_availability",
        category: .mixingApproaches,
        defaultSeverity: .info,
        summary: "The keyboard layout guide is used where iOS 15.0–15.3 can run it.",
        rationale: """
        `keyboardLayoutGuide` exists from iOS 15.0, but 15.0–15.3 did not update it correctly during view \
        controller transitions and some keyboard changes (FB9733654, FB9754794): content pinned to it can stay \
        behind the keyboard or float above it until the next layout pass. Code that can run on those releases — \
        a deployment target of 15.0–15.3, or a guard of `#available(iOS 15.0…15.3, *)` — meets these bugs.
        """,
        fix: "Guard the guide with `if #available(iOS 15.4, *)` and keep notification-based layout as the fallback, or raise the deployment target to iOS 15.4. The automatic fix raises the version of an `if #available` that already has an `else` fallback; a use without one is left to you, since wrapping it alone would leave iOS 15.0–15.3 with no layout.",
        fixAvailability: .unsafe,
        targetBelow: reliableVersion,
        triggering: [
            RuleExample("""
            final class ChatViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    inputBar.bottomAnchor.constraint(equalTo: view.↓keyboardLayoutGuide.topAnchor).isActive = true
                    inputBar.leadingAnchor.constraint(equalTo: view.keyboardLayoutGuide.leadingAnchor).isActive = true
                }
            }
            """, deploymentTarget: OSVersion(15)),
            RuleExample("""
            final class NoteViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    if #available(iOS 15.0, *) {
                        textView.bottomAnchor.constraint(equalTo: view.↓keyboardLayoutGuide.topAnchor).isActive = true
                    } else {
                        observeKeyboard()
                    }
                }
            }
            """, deploymentTarget: OSVersion(13)),
            RuleExample("""
            @available(iOS 15.2, *)
            final class ComposerView: UIView {
                override func didMoveToSuperview() {
                    super.didMoveToSuperview()
                    guard let superview else { return }
                    bottomAnchor.constraint(equalTo: superview.↓keyboardLayoutGuide.topAnchor).isActive = true
                }
            }
            """, deploymentTarget: OSVersion(14)),
            RuleExample("""
            final class SearchViewController: UIViewController {
                func configure() {
                    guard #available(iOS 15, *) else { return }
                    view.↓keyboardLayoutGuide.followsUndockedKeyboard = true
                }
            }
            final class FilterViewController: UIViewController {
                func configure() {
                    if #available(iOS 15.1, *) {
                        list.bottomAnchor.constraint(equalTo: view.↓keyboardLayoutGuide.topAnchor).isActive = true
                    }
                }
            }
            """),
        ],
        nonTriggering: [
            RuleExample("""
            final class ChatViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    inputBar.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                }
            }
            """, deploymentTarget: OSVersion(15, 4)),
            RuleExample("""
            final class NoteViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    if #available(iOS 15.4, *) {
                        textView.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                    } else {
                        observeKeyboard()
                    }
                }
            }
            """, deploymentTarget: OSVersion(13)),
            RuleExample("""
            final class SearchViewController: UIViewController {
                func configure() {
                    guard #available(iOS 16, *) else { return }
                    view.keyboardLayoutGuide.followsUndockedKeyboard = true
                }
            }
            """, deploymentTarget: OSVersion(15)),
            RuleExample("""
            final class ChatViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    inputBar.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                }
            }
            """),
            RuleExample("""
            final class LegacyFormViewController: UIViewController {
                let keyboardLayoutGuide = UILayoutGuide()
                func layout() {
                    form.bottomAnchor.constraint(equalTo: keyboardLayoutGuide.topAnchor).isActive = true
                }
            }
            """, deploymentTarget: OSVersion(15)),
            RuleExample("""
            import KeyboardLayoutGuide

            final class PortedViewController: UIViewController {
                func layout() {
                    form.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                }
            }
            """, deploymentTarget: OSVersion(15)),
            RuleExample("""
            final class OverlayViewController: UIViewController {
                func keyboardTop() -> CGFloat { view.keyboardLayoutGuide.layoutFrame.minY }
            }
            """, deploymentTarget: OSVersion(15)),
        ],
        corrections: [
            RuleCorrection("""
            final class NoteViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    if #available(iOS 15.0, *) {
                        textView.bottomAnchor.constraint(equalTo: view.↓keyboardLayoutGuide.topAnchor).isActive = true
                    } else {
                        observeKeyboard()
                    }
                }
            }
            """, """
            final class NoteViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    if #available(iOS 15.4, *) {
                        textView.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                    } else {
                        observeKeyboard()
                    }
                }
            }
            """),
        ]
    )

    public init() {}

    /// `if #available(iOS 15.x, *) { guide } else { fallback }` with 15.4 as the version:
    /// 15.0–15.3 then take the fallback the code already has. Unsafe: those releases lay out
    /// with the fallback instead of the guide. Nil unless the innermost `if` whose condition
    /// holds `#available(iOS …)` encloses the use and has an `else` (without one, raising
    /// the version would leave those releases with no layout at all).
    static func raisedGuard(around use: Int, _ analysis: FileAnalysis) -> Fix? {
        let source = analysis.source
        for index in analysis.outline.enclosingScopes(from: analysis.outline.scope(at: use)) {
            let scope = analysis.outline[index]
            guard case .block(let keyword) = scope.kind, source.isWord(keyword, "if") else { continue }
            guard let available = (keyword..<scope.open).first(where: {
                source.kind($0) == .poundKeyword && source.text(at: $0) == "#available"
            }) else { continue }
            guard source.isWord(scope.close + 1, "else"), let close = source.partnerIndex(available + 1),
                  let platform = ((available + 2)..<close).first(where: { source.isWord($0, "iOS") }) else { return nil }
            var end = platform + 1
            while end < close, source.kind(end) != .comma { end += 1 }
            guard end > platform + 1 else { return nil }
            return Fix(.unsafe, edits: [Edit(range: source.byteRange((platform + 1)..<end), replacement: "15.4")])
        }
        return nil
    }

    public func check(_ context: RuleContext) -> [Diagnostic] {
        let analysis = context.analysis
        let uses = analysis.keyboardLayoutGuideUsesByType()
        guard !uses.isEmpty else { return [] }
        var seen = Set<String>()
        var diagnostics: [Diagnostic] = []
        for type in analysis.outline.types where seen.insert(type.qualifiedName).inserted {
            for use in uses[type.qualifiedName] ?? [] {
                // Below 15.0 there is no guide to use.
                guard let target = context.applicableTarget(of: Self.metadata, at: use),
                      target >= Self.introducedVersion else { continue }
                let guarded = analysis.outline.availableVersion(at: use).map { $0 >= (context.deploymentTarget ?? $0) } ?? false
                let reason = guarded ? "it is guarded by iOS \(target) availability" : "the deployment target is iOS \(target)"
                diagnostics.append(Self.metadata.diagnostic(
                    analysis, at: analysis.tokenRange(use),
                    message: "`\(type.qualifiedName)` uses `keyboardLayoutGuide` where iOS 15.0–15.3 can run it (\(reason)): those releases leave the guide stale after view controller transitions (FB9733654)",
                    suggestion: "Guard it with `if #available(iOS 15.4, *)` and keep the notification-based layout as the fallback, or raise the deployment target to iOS 15.4.",
                    fix: Self.raisedGuard(around: use, analysis)))
                break
            }
        }
        return diagnostics
    }
}
