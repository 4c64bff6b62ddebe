import Lexer

/// A toolbar created without a frame has no height; as an input accessory it gets none either.
public struct AccessoryToolbarZeroFrame: Rule {
    public static let metadata = RuleMetadata(
        id: "accessory_toolbar_zero_frame",
        category: .inputAccessoryViews,
        defaultSeverity: .warning,
        summary: "A `UIToolbar` with a zero frame becomes an input accessory view and is never sized.",
        rationale: """
        UIKit sizes an input accessory view from its frame (through the autoresizing-mask constraints it \
        adds), not from what a toolbar would like to be. A `UIToolbar()` or `UIToolbar(frame: .zero)` that \
        is never sized sits above the keyboard with zero height: the Done button is invisible or cannot be \
        tapped, and the console logs unsatisfiable constraints for the toolbar's content view.
        """,
        fix: "Call `sizeToFit()` on the toolbar after setting its items, or create it with a height (`UIToolbar(frame: CGRect(x: 0, y: 0, width: 320, height: 44))`).",
        fixAvailability: .unsafe,
        triggering: [
            RuleExample("""
            final class AmountViewController: UIViewController {
                @IBOutlet private var amountField: UITextField!
                override func viewDidLoad() {
                    super.viewDidLoad()
                    let toolbar = ↓UIToolbar()
                    toolbar.items = [UIBarButtonItem(barButtonSystemItem: .done, target: self, action: #selector(done))]
                    amountField.inputAccessoryView = toolbar
                }
            }
            """),
            RuleExample("""
            final class PinViewController: UIViewController {
                let pinField = UITextField()
                func configure() {
                    pinField.inputAccessoryView = ↓UIToolbar(frame: .zero)
                }
            }
            """),
            RuleExample("""
            final class ProfileViewController: UIViewController {
                @IBOutlet private var nameField: UITextField!
                @IBOutlet private var bioView: UITextView!
                override func viewDidLoad() {
                    super.viewDidLoad()
                    nameField.inputAccessoryView = makeDoneToolbar()
                    bioView.inputAccessoryView = makeDoneToolbar()
                }
                private func makeDoneToolbar() -> UIToolbar {
                    let bar = ↓UIToolbar(frame: CGRect.zero)
                    bar.setItems([.flexibleSpace(), UIBarButtonItem(systemItem: .done)], animated: false)
                    return bar
                }
            }
            """),
            RuleExample("""
            final class SketchView: UIView {
                private lazy var tools: UIToolbar = {
                    let toolbar = ↓UIToolbar.init()
                    toolbar.barStyle = .black
                    return toolbar
                }()
                override var inputAccessoryView: UIView? { tools }
                override var canBecomeFirstResponder: Bool { true }
            }
            """),
            RuleExample("""
            final class SearchViewController: UIViewController {
                private var keyboardBar: UIToolbar!
                @IBOutlet private var queryField: UITextField!
                override func viewDidLoad() {
                    super.viewDidLoad()
                    keyboardBar = ↓UIToolbar(frame: CGRect(x: 0, y: 0, width: view.bounds.width, height: 0))
                    queryField.inputAccessoryView = keyboardBar
                }
            }
            """),
        ],
        nonTriggering: [
            RuleExample("""
            final class AmountViewController: UIViewController {
                @IBOutlet private var amountField: UITextField!
                override func viewDidLoad() {
                    super.viewDidLoad()
                    let toolbar = UIToolbar()
                    toolbar.items = [UIBarButtonItem(barButtonSystemItem: .done, target: self, action: #selector(done))]
                    toolbar.sizeToFit()
                    amountField.inputAccessoryView = toolbar
                }
            }
            """),
            RuleExample("""
            final class PinViewController: UIViewController {
                let pinField = UITextField()
                func configure() {
                    pinField.inputAccessoryView = UIToolbar(frame: CGRect(x: 0, y: 0, width: 320, height: 44))
                }
            }
            """),
            RuleExample("""
            final class SketchView: UIView {
                private lazy var tools = UIToolbar()
                override var inputAccessoryView: UIView? { tools }
                override func didMoveToWindow() {
                    super.didMoveToWindow()
                    tools.frame = CGRect(x: 0, y: 0, width: bounds.width, height: 44)
                }
            }
            """),
            RuleExample("""
            final class NoteViewController: UIViewController {
                @IBOutlet private var noteView: UITextView!
                override func viewDidLoad() {
                    super.viewDidLoad()
                    let bar = UIToolbar()
                    bar.translatesAutoresizingMaskIntoConstraints = false
                    bar.heightAnchor.constraint(equalToConstant: 44).isActive = true
                    noteView.inputAccessoryView = bar
                }
            }
            """),
            RuleExample("""
            final class EditorViewController: UIViewController {
                private let formatBar = UIToolbar()
                override func viewDidLoad() {
                    super.viewDidLoad()
                    view.addSubview(formatBar)
                }
            }
            """),
            RuleExample("""
            final class FormViewController: UIViewController {
                @IBOutlet private var emailField: UITextField!
                override func viewDidLoad() {
                    super.viewDidLoad()
                    emailField.inputAccessoryView = makeToolbar()
                }
                private func makeToolbar() -> UIToolbar {
                    let toolbar = UIToolbar(frame: .zero)
                    toolbar.sizeToFit()
                    return toolbar
                }
            }
            """),
            RuleExample("""
            final class ChatViewController: UIViewController {
                let field = UITextField()
                func configure() {
                    let toolbar = UIToolbar()
                    toolbar.sizeToFit()
                    field.inputAccessoryView = toolbar
                    let other = UIToolbar()
                    view.addSubview(other)
                }
            }
            """),
        ],
        corrections: [
            RuleCorrection("""
            final class AmountViewController: UIViewController {
                @IBOutlet private var amountField: UITextField!
                override func viewDidLoad() {
                    super.viewDidLoad()
                    let toolbar = ↓UIToolbar()
                    toolbar.items = [UIBarButtonItem(barButtonSystemItem: .done, target: self, action: #selector(done))]
                    amountField.inputAccessoryView = toolbar
                }
            }
            """, """
            final class AmountViewController: UIViewController {
                @IBOutlet private var amountField: UITextField!
                override func viewDidLoad() {
                    super.viewDidLoad()
                    let toolbar = UIToolbar(frame: CGRect(x: 0, y: 0, width: 320, height: 44))
                    toolbar.items = [UIBarButtonItem(barButtonSystemItem: .done, target: self, action: #selector(done))]
                    amountField.inputAccessoryView = toolbar
                }
            }
            """),
            RuleCorrection("""
            final class PinViewController: UIViewController {
                private var keyboardBar: UIToolbar?
                override func viewDidLoad() {
                    super.viewDidLoad()
                    keyboardBar = ↓UIToolbar(frame: CGRect(x: 0, y: 0, width: view.bounds.width, height: 0))
                    pinField.inputAccessoryView = keyboardBar
                }
            }
            """, """
            final class PinViewController: UIViewController {
                private var keyboardBar: UIToolbar?
                override func viewDidLoad() {
                    super.viewDidLoad()
                    keyboardBar = UIToolbar(frame: CGRect(x: 0, y: 0, width: view.bounds.width, height: 44))
                    pinField.inputAccessoryView = keyboardBar
                }
            }
            """),
        ]
    )

    public static var requiredMarkers: [StaticString] { ["inputAccessoryView"] }

    public init() {}

    public func check(_ context: RuleContext) -> [Diagnostic] {
        let analysis = context.analysis
        var uses: [(expression: Range<Int>, accessory: Int, description: String)] = []
        for assignment in analysis.accessoryAssignments {
            guard let last = analysis.chainNames(assignment.lhs).last else { continue }
            uses.append((assignment.rhs, last, analysis.snippet(assignment.lhs)))
        }
        for override in analysis.accessoryOverrides {
            for returned in override.returned {
                uses.append((returned, override.nameToken, analysis.source.text(at: override.nameToken)))
            }
        }
        var diagnostics: [Diagnostic] = []
        var reported = Set<Int>()
        for use in uses {
            for (call, holders) in toolbarConstructions(analysis, use.expression) {
                let site = analysis.calls[call]
                guard let typeToken = analysis.constructedTypeToken(site), isZeroFrame(site, analysis),
                      !holders.contains(where: { isSized($0, analysis) }),
                      reported.insert(typeToken).inserted else { continue }
                let constructor = analysis.snippet(site.start..<(site.end + 1))
                diagnostics.append(Self.metadata.diagnostic(
                    analysis, at: analysis.tokenRange(typeToken),
                    message: "`\(constructor)` becomes `\(use.description)` with a zero frame and is never sized, so it has no height above the keyboard",
                    suggestion: "Call `sizeToFit()` on the toolbar after setting its items, or create it with a height.",
                    fix: Self.standardHeightFix(site, typeToken, analysis)
                ).relating([RelatedLocation(
                    range: analysis.source.byteRange(analysis.tokenRange(use.accessory)),
                    message: "it becomes the input accessory here")]))
            }
        }
        return diagnostics
    }

    /// A name that holds the toolbar: a local binding (its name token) or a property.
    enum Holder: Hashable {
        case local(Int)
        case property(PropertyID)
    }

    /// `UIToolbar` constructions that `expression` hands over, with the names that hold them.
    func toolbarConstructions(_ analysis: FileAnalysis, _ expression: Range<Int>) -> [(Int, [Holder])] {
        var found: [(Int, [Holder])] = []
        for source in analysis.accessorySources(of: expression) {
            switch source.kind {
            case .construction(let call):
                found.append((call, source.locals.map(Holder.local)))
            case .property(let property):
                for assigned in propertyValues(analysis, property) {
                    for inner in analysis.accessorySources(of: assigned) {
                        guard case .construction(let call) = inner.kind else { continue }
                        found.append((call, [.property(property)] + inner.locals.map(Holder.local)))
                    }
                }
            case .nothing, .undeclaredName, .unresolved:
                break
            }
        }
        return found.filter { call, _ in
            analysis.constructedTypeToken(analysis.calls[call]).map { analysis.source.isWord($0, "UIToolbar") } ?? false
        }
    }

    /// The property's initializer and the right-hand sides assigned to it in the file.
    func propertyValues(_ analysis: FileAnalysis, _ property: PropertyID) -> [Range<Int>] {
        var values: [Range<Int>] = []
        if let initializer = analysis.outline[property].initializer { values.append(initializer) }
        let hash = analysis.outline[property].nameHash
        for assignment in analysis.assignments where !assignment.isCompound {
            let last = assignment.lhs.upperBound - 1
            guard analysis.source.nameHash(last) == hash else { continue }
            let names = analysis.namesWithoutSelf(assignment.lhs)
            guard names.count == 1, analysis.binding(referencedBy: names[0]) == nil,
                  analysis.property(named: names[0]) == property else { continue }
            values.append(assignment.rhs)
        }
        return values
    }

    /// `UIToolbar()`, `UIToolbar(frame: .zero)`, `CGRect.zero`, `CGRect()` or a literal zero height.
    /// A `UIToolbar` created 44 points high (a zero `height:` becomes 44; a zero or missing
    /// frame becomes `CGRect(x: 0, y: 0, width: 320, height: 44)`, UIKit sets the width).
    /// Unsafe: 44 is the standard bar height, not necessarily the one the design wants.
    static func standardHeightFix(_ site: CallSite, _ typeToken: Int, _ analysis: FileAnalysis) -> Fix? {
        let source = analysis.source
        guard source.isWord(typeToken, "UIToolbar"), let close = site.closeParen, site.trailingClosures.isEmpty else { return nil }
        if let frame = analysis.argument(site, "frame"), let rect = analysis.wholeCall(frame.value),
           let height = analysis.argument(analysis.calls[rect], "height") {
            return Fix(.unsafe, edits: [Edit(range: source.byteRange(height.value), replacement: "44")])
        }
        return Fix(.unsafe, edits: [Edit(range: source.byteRange(site.start..<(close + 1)),
                                         replacement: "UIToolbar(frame: CGRect(x: 0, y: 0, width: 320, height: 44))")])
    }

    func isZeroFrame(_ call: CallSite, _ analysis: FileAnalysis) -> Bool {
        let source = analysis.source
        if call.arguments.isEmpty { return true }
        guard let frame = analysis.argument(call, "frame") else { return false }
        let value = frame.value
        if source.isWord(value.upperBound - 1, "zero"), value.count <= 3 { return true }
        if value.count == 3, source.isWord(value.lowerBound, "CGRect"), source.kind(value.lowerBound + 1) == .leftParen {
            return true
        }
        if let rect = analysis.wholeCall(value), let height = analysis.argument(analysis.calls[rect], "height") {
            return height.value.count == 1 && source.isZeroLiteral(height.value.lowerBound)
        }
        return false
    }

    /// Whether the holder gets a size: `sizeToFit()`, a frame or bounds that is not `.zero`,
    /// or a constraint on its `heightAnchor`.
    func isSized(_ holder: Holder, _ analysis: FileAnalysis) -> Bool {
        let source = analysis.source
        let hash: UInt64
        switch holder {
        case .local(let token): hash = source.nameHash(token)
        case .property(let property): hash = analysis.outline[property].nameHash
        }
        /// The first name of a chain starting at `start`, past `self.`.
        func firstName(_ start: Int) -> Int {
            source.isWord(start, "self") && source.kind(start + 1) == .period ? start + 2 : start
        }
        func refers(_ name: Int) -> Bool {
            guard source.nameHash(name) == hash else { return false }
            switch holder {
            case .local(let token):
                guard let binding = analysis.binding(referencedBy: name) else {
                    return analysis.parameter(referencedBy: name) == token
                }
                return binding.nameToken == token
            case .property(let property):
                return analysis.binding(referencedBy: name) == nil && analysis.property(named: name) == property
            }
        }
        for call in analysis.calls where source.isWord(call.callee, "sizeToFit") {
            guard let receiver = call.receiver else { continue }
            let names = analysis.namesWithoutSelf(receiver)
            if names.count == 1, refers(names[0]) { return true }
        }
        for assignment in analysis.assignments where !assignment.isCompound {
            guard source.nameHash(firstName(assignment.lhs.lowerBound)) == hash else { continue }
            let names = analysis.namesWithoutSelf(assignment.lhs)
            guard names.count >= 2, source.wordIndex(names[1], in: ["frame", "bounds"]) != nil, refers(names[0]) else {
                continue
            }
            if !source.isWord(assignment.rhs.upperBound - 1, "zero") { return true }
        }
        // A local lives in its function; a property anywhere in the file.
        var region = 0..<source.code.count
        if case .local(let token) = holder, let scope = analysis.outline.executableScope(at: token) {
            region = analysis.outline[scope].body
        }
        for index in region where source.isWord(index, "heightAnchor") {
            guard source.kind(index - 1) == .period else { continue }
            let start = analysis.chainStart(endingAt: index)
            guard source.nameHash(firstName(start)) == hash else { continue }
            let names = analysis.namesWithoutSelf(start..<(index + 1))
            if names.count == 2, refers(names[0]) { return true }
        }
        return false
    }
}
