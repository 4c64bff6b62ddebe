import Lexer

/// UIKit reads `inputAccessoryView` whenever it reloads input views; a getter that builds a
/// new view hands it a different bar each time.
public struct AccessoryViewRecreated: Rule {
    public static let metadata = RuleMetadata(
        id: "accessory_view_recreated",
        category: .inputAccessoryViews,
        defaultSeverity: .error,
        summary: "An `inputAccessoryView` getter creates a new view on every access.",
        rationale: """
        UIKit reads `inputAccessoryView` (and `inputAccessoryViewController`) each time it reloads the \
        input views: on becoming first responder, on `reloadInputViews()`, on rotation and when the \
        keyboard changes. A getter that constructs the view hands UIKit a different instance each time, \
        so typed text, selection and button state are lost, the bar flickers as it is swapped, and the \
        swap makes the keyboard post its show notifications again.
        """,
        fix: "Create the view once, in a `lazy var` or a stored property, and return that from the getter.",
        fixAvailability: .unsafe,
        triggering: [
            RuleExample("""
            final class AmountViewController: UIViewController {
                override var inputAccessoryView: UIView? {
                    return ↓UIToolbar(frame: CGRect(x: 0, y: 0, width: 320, height: 44))
                }
                override var canBecomeFirstResponder: Bool { true }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                override var inputAccessoryView: UIView? {
                    let bar = ↓ComposerBar()
                    bar.delegate = self
                    return bar
                }
            }
            """),
            RuleExample("""
            final class SketchView: UIView {
                override var inputAccessoryView: UIView? { makeToolsBar() }
                private func makeToolsBar() -> UIView {
                    let toolbar = ↓UIToolbar(frame: CGRect(x: 0, y: 0, width: 320, height: 44))
                    toolbar.items = [UIBarButtonItem(systemItem: .undo)]
                    return toolbar
                }
            }
            """),
            RuleExample("""
            final class PhotoViewController: UIViewController {
                override var inputAccessoryViewController: UIInputViewController? {
                    ↓CaptionInputViewController(nibName: nil, bundle: nil)
                }
            }
            """),
            RuleExample("""
            final class DateViewController: UIViewController {
                private var doneBar: UIToolbar {
                    let bar = ↓UIToolbar(frame: CGRect(x: 0, y: 0, width: 320, height: 44))
                    bar.items = [UIBarButtonItem(systemItem: .done)]
                    return bar
                }
                override var inputAccessoryView: UIView? { doneBar }
            }
            """),
            RuleExample("""
            final class ReplyField: UITextField {
                override var inputAccessoryView: UIView? {
                    get { ↓QuickReplyBar.init(style: .compact) }
                    set {}
                }
            }
            """),
        ],
        nonTriggering: [
            RuleExample("""
            final class ChatViewController: UIViewController {
                private lazy var composer: ComposerBar = {
                    let bar = ComposerBar()
                    bar.autoresizingMask = .flexibleHeight
                    return bar
                }()
                override var inputAccessoryView: UIView? { composer }
            }
            """),
            RuleExample("""
            final class AmountViewController: UIViewController {
                private let toolbar = UIToolbar(frame: CGRect(x: 0, y: 0, width: 320, height: 44))
                override var inputAccessoryView: UIView? {
                    return self.toolbar
                }
            }
            """),
            RuleExample("""
            final class NotesViewController: UIViewController {
                private var cachedBar: FormatBar?
                override var inputAccessoryView: UIView? {
                    if let cachedBar { return cachedBar }
                    let bar = FormatBar()
                    cachedBar = bar
                    return bar
                }
            }
            """),
            RuleExample("""
            final class ReaderViewController: UIViewController {
                override var inputAccessoryView: UIView? { nil }
            }
            """),
            RuleExample("""
            final class SearchField: UITextField {
                override var inputAccessoryView: UIView? {
                    get { super.inputAccessoryView }
                    set { super.inputAccessoryView = newValue }
                }
            }
            """),
            RuleExample("""
            final class FormViewController: UIViewController {
                @IBOutlet private var amountField: UITextField!
                override func viewDidLoad() {
                    super.viewDidLoad()
                    amountField.inputAccessoryView = UIToolbar(frame: CGRect(x: 0, y: 0, width: 320, height: 44))
                }
            }
            """),
            RuleExample("""
            final class EditorViewController: UIViewController {
                private let formatBar = FormatBar()
                override var inputAccessoryView: UIView? { accessory() }
                private func accessory() -> UIView { formatBar }
            }
            """),
            RuleExample("""
            final class ComposeViewController: UIViewController {
                private var bar: ComposerBar?
                override var inputAccessoryView: UIView? {
                    return bar ?? makeBar()
                }
                private func makeBar() -> ComposerBar {
                    let created = ComposerBar()
                    self.bar = created
                    return created
                }
            }
            """),
        ],
        corrections: [
            RuleCorrection("""
            final class AmountViewController: UIViewController {
                override var inputAccessoryView: UIView? {
                    return ↓UIToolbar(frame: CGRect(x: 0, y: 0, width: 320, height: 44))
                }
                override var canBecomeFirstResponder: Bool { true }
            }
            """, """
            final class AmountViewController: UIViewController {
                private lazy var cachedInputAccessoryView: UIView? = UIToolbar(frame: CGRect(x: 0, y: 0, width: 320, height: 44))
                override var inputAccessoryView: UIView? {
                    return cachedInputAccessoryView
                }
                override var canBecomeFirstResponder: Bool { true }
            }
            """),
        ]
    )

    public static var requiredMarkers: [StaticString] { ["inputAccessoryView"] }

    public init() {}

    public func check(_ context: RuleContext) -> [Diagnostic] {
        let analysis = context.analysis
        var diagnostics: [Diagnostic] = []
        var reported = Set<Int>()
        for override in analysis.accessoryOverrides {
            for returned in override.returned {
                for found in analysis.accessorySources(of: returned) {
                    guard case .construction = found.kind, !isCached(found, analysis),
                          reported.insert(found.token).inserted else { continue }
                    let property = analysis.source.text(at: override.nameToken)
                    let typeName = analysis.source.text(at: found.token)
                    var message = "`\(property)` creates a new `\(typeName)` on every access"
                    var related: [RelatedLocation] = []
                    let inGetter = override.getter.map { analysis.outline[$0].extent.contains(found.token) } ?? false
                    if !inGetter, let via = declarationName(around: found.token, analysis) {
                        message += " (through `\(via)`)"
                        related.append(RelatedLocation(
                            range: analysis.source.byteRange(analysis.tokenRange(override.nameToken)),
                            message: "`\(property)` returns its result here"))
                    }
                    message += "; UIKit reads it on every input-view reload, so the bar loses its state and flickers"
                    diagnostics.append(Self.metadata.diagnostic(
                        analysis, at: analysis.tokenRange(found.token), message: message,
                        suggestion: "Create the `\(typeName)` once in a `lazy var` and return that property from `\(property)`.",
                        fix: Self.lazyPropertyFix(override, returned, found, analysis)
                    ).relating(related))
                }
            }
        }
        return diagnostics
    }

    /// The function (`makeBar()`) or computed property (`doneBar`) whose body holds `index`.
    func declarationName(around index: Int, _ analysis: FileAnalysis) -> String? {
        let outline = analysis.outline
        for scope in outline.enclosingExecutableScopes(from: outline.scope(at: index)) {
            switch outline[scope].kind {
            case .function(let function): return outline[function].name + "()"
            case .property(let property), .accessor(let property, _): return outline[property].name
            default: continue
            }
        }
        return nil
    }

    /// Whether a local the new view passed through is stored into a property (a cache that
    /// is filled once).
    /// A getter that only returns a new view (`{ UIToolbar(…) }`, `{ return Bar() }`) made to
    /// return a `private lazy var cachedInputAccessoryView` declared just above it with that
    /// expression. Unsafe: an expression that reads other state now reads it once.
    static func lazyPropertyFix(_ override: AccessoryOverride, _ returned: Range<Int>, _ found: AccessorySource,
                                _ analysis: FileAnalysis) -> Fix? {
        let source = analysis.source
        guard found.locals.isEmpty, override.returned.count == 1, returned.lowerBound == found.token,
              let getter = override.getter else { return nil }
        let body = analysis.outline[getter].body
        let expression = source.isWord(body.lowerBound, "return") ? (body.lowerBound + 1)..<body.upperBound : body
        guard expression == returned else { return nil }
        let declaration = analysis.outline[override.property]
        let name = source.text(at: override.nameToken)
        let cached = "cached" + name.prefix(1).uppercased() + name.dropFirst()
        guard !declaration.type.isEmpty, !source.code.indices.contains(where: { source.text(at: $0) == cached }) else { return nil }
        // The declaration's first line: its attributes and modifiers start it.
        let bytes = source.file.bytes
        var lineStart = Int(source.code[override.nameToken].start)
        while lineStart > 0, bytes[lineStart - 1] != 0x0A { lineStart -= 1 }
        let indentation = analysis.indentation(ofLineAt: override.nameToken)
        let stored = "\(indentation)private lazy var \(cached): \(source.text(spanning: declaration.type)) = \(source.text(spanning: returned))\n"
        return Fix(.unsafe, edits: [
            Edit(range: lineStart..<lineStart, replacement: stored),
            Edit(range: source.byteRange(returned), replacement: cached),
        ])
    }

    func isCached(_ found: AccessorySource, _ analysis: FileAnalysis) -> Bool {
        guard !found.locals.isEmpty else { return false }
        let hashes = Set(found.locals.map { analysis.source.nameHash($0) })
        for assignment in analysis.assignments where hashes.contains(analysis.source.nameHash(assignment.rhs.upperBound - 1)) {
            let stripped = analysis.strippedExpression(assignment.rhs)
            guard let name = analysis.singleName(stripped), let binding = analysis.binding(referencedBy: name),
                  found.locals.contains(binding.nameToken) else { continue }
            let target = analysis.namesWithoutSelf(assignment.lhs)
            if target.count == 1, analysis.binding(referencedBy: target[0]) == nil { return true }
        }
        return false
    }
}
