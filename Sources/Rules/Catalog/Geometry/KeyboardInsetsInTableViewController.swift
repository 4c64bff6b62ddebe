import Lexer

/// `UITableViewController` already keeps the edited row above the keyboard.
public struct KeyboardInsetsInTableViewController: Rule {
    public static let metadata = RuleMetadata(
        id: "keyboard_insets_in_table_view_controller",
        category: .geometry,
        defaultSeverity: .warning,
        summary: "A `UITableViewController` subclass insets its table view for the keyboard itself.",
        rationale: """
        `UITableViewController` observes the keyboard and adjusts its table view's insets and offset on its \
        own. Doing it again in a keyboard handler moves the content twice: a gap the height of the keyboard \
        opens above it, or the table scrolls past the edited row.
        """,
        fix: "Remove the keyboard handling from the table view controller, or use a plain `UIViewController` that owns the table view.",
        noFixReason: "The fix is removing the handler and its registrations or moving the table into a plain view controller: a structural change across methods, not a local edit.",
        triggering: [
            RuleExample("""
            final class SettingsViewController: UITableViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    ↓tableView.contentInset.bottom = view.convert(frame, from: nil).height
                }
            }
            """),
            RuleExample("""
            final class ProfileEditor: UITableViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    token = NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillHideNotification, object: nil, queue: .main) { [weak self] _ in
                        ↓self?.tableView.contentInset = .zero
                    }
                }
            }
            """),
            RuleExample("""
            final class AddressFormViewController: FormTableViewController {
                func bind() {
                    NotificationCenter.default.publisher(for: UIResponder.keyboardWillShowNotification)
                        .sink { [weak self] _ in ↓self?.tableView.contentOffset = CGPoint(x: 0, y: 120) }
                        .store(in: &bag)
                }
            }
            """, files: ["FormTableViewController.swift": """
            class FormTableViewController: UITableViewController {}
            """]),
            RuleExample("""
            extension SettingsViewController {
                @objc func keyboardWillChangeFrame(_ note: Notification) {
                    ↓tableView.contentInset.bottom = 300
                }
            }
            """, files: ["SettingsViewController.swift": """
            final class SettingsViewController: UITableViewController, UITextFieldDelegate {}
            """]),
            RuleExample("""
            final class ProfileEditor: UITableViewController {
                @objc func keyboardDidShow(_ note: Notification) {
                    ↓tableView.setContentOffset(CGPoint(x: 0, y: 240), animated: true)
                }
            }
            """),
        ],
        nonTriggering: [
            RuleExample("""
            final class SettingsViewController: UIViewController {
                let tableView = UITableView()
                @objc func keyboardWillShow(_ note: Notification) {
                    guard let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                    tableView.contentInset.bottom = view.convert(frame, from: nil).height
                }
            }
            """),
            RuleExample("""
            final class SettingsViewController: UITableViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    tableView.contentInset.top = 12
                }
            }
            """),
            RuleExample("""
            final class SettingsViewController: UITableViewController {
                @objc func keyboardDidShow(_ note: Notification) {
                    tableView.scrollToRow(at: editingIndexPath, at: .middle, animated: true)
                }
            }
            """),
            RuleExample("""
            final class SettingsViewController: UITableViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    suggestionsTable.contentInset.bottom = 200
                }
            }
            """),
            RuleExample("""
            final class GridViewController: UICollectionViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    collectionView.contentInset.bottom = 200
                }
            }
            """),
            RuleExample("""
            extension SettingsViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    tableView.contentInset.bottom = 300
                }
            }
            """, files: ["SettingsViewController.swift": """
            final class SettingsViewController: UIViewController {}
            """]),
        ]
    )

    public init() {}

    public func check(_ context: RuleContext) -> [Diagnostic] {
        let analysis = context.analysis
        guard analysis.mentionsKeyboard else { return [] }
        let tableView = [NameHash.of("tableView")]
        var diagnostics: [Diagnostic] = []
        func report(_ range: Range<Int>, at index: Int) {
            guard let type = analysis.typeName(at: index),
                  analysis.project.type(type, inheritsFrom: "UITableViewController") else { return }
            diagnostics.append(Self.metadata.diagnostic(
                analysis, at: range,
                message: "`\(type)` is a `UITableViewController`, which already adjusts its table view for the keyboard; `\(analysis.snippet(range))` moves the content a second time",
                suggestion: "Drop this keyboard adjustment and let `UITableViewController` handle it, or host the table in a plain `UIViewController`."))
        }
        for assignment in analysis.handlerAssignments {
            guard let sink = analysis.layoutSink(of: assignment),
                  sink.kind == .contentInset || sink.kind == .contentOffset,
                  analysis.receiverKey(sink.receiver) == tableView else { continue }
            report(assignment.lhs, at: assignment.op)
        }
        // `tableView.setContentOffset(_:animated:)`
        for call in analysis.calls where analysis.source.isWord(call.callee, "setContentOffset") {
            guard let receiver = call.receiver, analysis.receiverKey(receiver) == tableView,
                  analysis.isInKeyboardHandler(call.callee) else { continue }
            report(receiver.lowerBound..<(call.callee + 1), at: call.callee)
        }
        return diagnostics.sorted { $0.range.lowerBound < $1.range.lowerBound }
    }
}
