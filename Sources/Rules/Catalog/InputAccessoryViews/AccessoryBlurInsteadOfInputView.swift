import Lexer

/// A home-made blur never matches the keyboard; `UIInputView` with the keyboard style does.
public struct AccessoryBlurInsteadOfInputView: Rule {
    public static let metadata = RuleMetadata(
        id: "accessory_blur_instead_of_input_view",
        category: .inputAccessoryViews,
        defaultSeverity: .info,
        isOptIn: true,
        summary: "An input accessory view imitates the keyboard's background with a blur view.",
        rationale: """
        A `UIVisualEffectView` with a `UIBlurEffect` behind an input accessory is a guess at the \
        keyboard's material: it differs in tint and translucency from the keyboard below it (and from \
        iOS 26's glass keyboard), so a grey box or a visible seam shows between bar and keys, and it does \
        not follow the keyboard's appearance changes. `UIInputView` with the `.keyboard` style draws the \
        keyboard's own background.
        """,
        fix: "Make the accessory a `UIInputView(frame:inputViewStyle: .keyboard)` (or subclass it) and drop the blur view.",
        noFixReason: "Replacing the blur view with a `UIInputView` changes the accessory's class, its view hierarchy and where its subviews are added; that is a redesign of the view, not an edit of one expression.",
        triggering: [
            RuleExample("""
            final class ComposerBar: UIView {
                private let background = ↓UIVisualEffectView(effect: UIBlurEffect(style: .systemChromeMaterial))
                override init(frame: CGRect) {
                    super.init(frame: frame)
                    addSubview(background)
                }
                required init?(coder: NSCoder) { fatalError() }
            }
            final class ChatViewController: UIViewController {
                private lazy var composer = ComposerBar()
                override var inputAccessoryView: UIView? { composer }
            }
            """),
            RuleExample("""
            final class FormattingBar: UIView {
                override init(frame: CGRect) {
                    super.init(frame: frame)
                    let blur = UIBlurEffect(style: .regular)
                    let backdrop = ↓UIVisualEffectView(effect: blur)
                    insertSubview(backdrop, at: 0)
                }
                required init?(coder: NSCoder) { fatalError() }
            }
            """, files: ["EditorViewController.swift": """
            final class EditorViewController: UIViewController {
                @IBOutlet var bodyView: UITextView!
                override func viewDidLoad() {
                    super.viewDidLoad()
                    bodyView.inputAccessoryView = FormattingBar(frame: CGRect(x: 0, y: 0, width: 320, height: 44))
                }
            }
            """]),
            RuleExample("""
            final class ReplyViewController: UIViewController {
                private lazy var replyBar: UIView = {
                    let bar = UIView(frame: CGRect(x: 0, y: 0, width: 320, height: 52))
                    let background = ↓UIVisualEffectView(effect: UIBlurEffect(style: .systemMaterial))
                    background.frame = bar.bounds
                    bar.addSubview(background)
                    return bar
                }()
                override var inputAccessoryView: UIView? { replyBar }
            }
            """),
            RuleExample("""
            final class AmountViewController: UIViewController {
                @IBOutlet var amountField: UITextField!
                override func viewDidLoad() {
                    super.viewDidLoad()
                    let effect = UIBlurEffect(style: .light)
                    let keypadBar = ↓UIVisualEffectView(effect: effect)
                    keypadBar.frame = CGRect(x: 0, y: 0, width: 320, height: 44)
                    amountField.inputAccessoryView = keypadBar
                }
            }
            """),
        ],
        nonTriggering: [
            RuleExample("""
            final class CardView: UIView {
                private let background = UIVisualEffectView(effect: UIBlurEffect(style: .systemMaterial))
                override init(frame: CGRect) {
                    super.init(frame: frame)
                    addSubview(background)
                }
                required init?(coder: NSCoder) { fatalError() }
            }
            """),
            RuleExample("""
            final class ComposerBar: UIView {
                private let label = UIVisualEffectView(effect: UIVibrancyEffect(blurEffect: UIBlurEffect(style: .regular)))
            }
            final class ChatViewController: UIViewController {
                private lazy var composer = ComposerBar()
                override var inputAccessoryView: UIView? { composer }
            }
            """),
            RuleExample("""
            final class KeyboardBar: UIInputView {
                private let shade = UIVisualEffectView(effect: UIBlurEffect(style: .dark))
            }
            final class NotesViewController: UIViewController {
                @IBOutlet var noteView: UITextView!
                func attach() { noteView.inputAccessoryView = KeyboardBar(frame: .zero, inputViewStyle: .keyboard) }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                private lazy var composer = ComposerBar()
                override var inputAccessoryView: UIView? { composer }
                override func viewDidLoad() {
                    super.viewDidLoad()
                    let header = UIVisualEffectView(effect: UIBlurEffect(style: .systemMaterial))
                    view.addSubview(header)
                }
            }
            """),
            RuleExample("""
            final class AmountViewController: UIViewController {
                @IBOutlet var amountField: UITextField!
                override func viewDidLoad() {
                    super.viewDidLoad()
                    let keypadBar = UIInputView(frame: CGRect(x: 0, y: 0, width: 320, height: 44), inputViewStyle: .keyboard)
                    amountField.inputAccessoryView = keypadBar
                }
            }
            """),
            RuleExample("""
            final class ReplyViewController: UIViewController {
                private lazy var replyBar: UIView = {
                    let bar = UIView(frame: CGRect(x: 0, y: 0, width: 320, height: 52))
                    bar.backgroundColor = .secondarySystemBackground
                    return bar
                }()
                override var inputAccessoryView: UIView? { replyBar }
                func showBanner() {
                    let banner = UIVisualEffectView(effect: UIBlurEffect(style: .regular))
                    view.addSubview(banner)
                }
            }
            """),
        ]
    )

    public static var requiredMarkers: [StaticString] { ["UIVisualEffectView"] }

    public init() {}

    public func check(_ context: RuleContext) -> [Diagnostic] {
        let analysis = context.analysis
        let project = context.project
        var flagged: [(token: Int, accessory: String, use: FactLocation?)] = []
        var seen = Set<Int>()
        func flag(_ token: Int, _ accessory: String, use: FactLocation? = nil) {
            if seen.insert(token).inserted { flagged.append((token, accessory, use)) }
        }
        let blurs = analysis.calls.indices.filter { isBlurView(analysis.calls[$0], analysis) }
        guard !blurs.isEmpty else { return [] }
        let uses = project.accessoryUses(including: AccessoryFacts(analysis))

        // Blur views inside classes whose instances (or subclasses' instances) are accessories.
        var accessoryClasses: [String: FactLocation] = [:]
        for use in uses {
            for type in project.declaredLineage(of: use.typeName) where accessoryClasses[type] == nil {
                accessoryClasses[type] = use.location
            }
        }
        for call in blurs {
            let token = analysis.calls[call].callee
            guard let typeName = analysis.simpleTypeName(at: token), let use = accessoryClasses[typeName],
                  project.rootClass(of: typeName) != "UIInputView" else { continue }
            flag(token, "`\(typeName)`", use: use)
        }
        // Blur views that are the accessory, or a subview of a view built as one.
        let insertions = localInsertions(analysis)
        let blurStarts = Dictionary(blurs.map { (analysis.calls[$0].start, $0) }) { first, _ in first }
        let blurNames: [(call: Int, name: Int)] = analysis.bindings.compactMap { binding in
            guard let value = binding.value, let call = blurStarts[value.lowerBound] else { return nil }
            return (call, binding.nameToken)
        }
        var accessoryExpressions: [(Range<Int>, String)] = analysis.accessoryAssignments.map {
            ($0.rhs, "`\(analysis.snippet($0.lhs))`")
        }
        for override in analysis.accessoryOverrides {
            accessoryExpressions += override.returned.map { ($0, "`\(analysis.source.text(at: override.nameToken))`") }
        }
        for (expression, description) in accessoryExpressions {
            for found in analysis.accessorySources(of: expression) {
                var holders = found.locals
                var construction: Int?
                switch found.kind {
                case .construction(let call): construction = call
                case .property(let property):
                    guard let initializer = analysis.outline[property].initializer else { continue }
                    for inner in analysis.accessorySources(of: initializer) {
                        holders += inner.locals
                        if case .construction(let call) = inner.kind { construction = call }
                    }
                case .nothing, .undeclaredName, .unresolved: continue
                }
                if let construction, blurs.contains(construction) {
                    flag(analysis.calls[construction].callee, description)
                }
                for holder in holders {
                    for (call, name) in blurNames where insertions.contains([holder, name]) {
                        flag(analysis.calls[call].callee, description)
                    }
                }
            }
        }
        return flagged.sorted { $0.token < $1.token }.map { item in
            Self.metadata.diagnostic(
                analysis, at: analysis.tokenRange(item.token),
                message: "A blur view imitates the keyboard behind input accessory \(item.accessory); it never matches the keyboard's material",
                suggestion: "Make the accessory a `UIInputView` with `inputViewStyle: .keyboard` and remove the blur view."
            ).relating(item.use.map { use in
                [RelatedLocation(path: use.path == analysis.source.file.path ? nil : use.path, range: use.range,
                                 message: "it becomes an input accessory view here")]
            } ?? [])
        }
    }

    /// `UIVisualEffectView(effect:)` whose effect is a `UIBlurEffect` (directly, or a local or
    /// property holding one); vibrancy effects are content, not background.
    func isBlurView(_ call: CallSite, _ analysis: FileAnalysis) -> Bool {
        let source = analysis.source
        guard let type = analysis.constructedTypeToken(call), source.isWord(type, "UIVisualEffectView"),
              let effect = analysis.argument(call, "effect") else { return false }
        func mentionsBlur(_ range: Range<Int>) -> Bool {
            !range.contains { source.isWord($0, "UIVibrancyEffect") } && range.contains { source.isWord($0, "UIBlurEffect") }
        }
        if mentionsBlur(effect.value) { return true }
        guard let name = analysis.singleName(analysis.strippedExpression(effect.value)) else { return false }
        if let binding = analysis.binding(referencedBy: name), let value = binding.value {
            return mentionsBlur(value)
        }
        if let property = analysis.property(named: name), let initializer = analysis.outline[property].initializer {
            return mentionsBlur(initializer)
        }
        return false
    }

    /// `holder.addSubview(view)` and `holder.insertSubview(view, …)` where both are locals: the
    /// pairs of binding name tokens.
    func localInsertions(_ analysis: FileAnalysis) -> Set<[Int]> {
        let source = analysis.source
        var pairs = Set<[Int]>()
        for insertion in analysis.calls where source.wordIndex(insertion.callee, in: ["addSubview", "insertSubview"]) != nil {
            guard let receiver = insertion.receiver, let first = insertion.arguments.first else { continue }
            let names = analysis.namesWithoutSelf(receiver)
            guard names.count == 1, let receiverBinding = analysis.binding(referencedBy: names[0]),
                  let argument = analysis.singleName(analysis.strippedExpression(first.value)),
                  let argumentBinding = analysis.binding(referencedBy: argument) else { continue }
            pairs.insert([receiverBinding.nameToken, argumentBinding.nameToken])
        }
        return pairs
    }
}
