import Lexer

/// `.never` hands the safe area to the app; a type that never reads it leaves content under bars.
public struct ContentInsetAdjustmentNever: Rule {
    public static let metadata = RuleMetadata(
        id: "content_inset_adjustment_never",
        category: .geometry,
        defaultSeverity: .info,
        isOptIn: true,
        summary: "`contentInsetAdjustmentBehavior = .never` in a type that never handles the safe area.",
        rationale: """
        With `.never` a scroll view stops adding the safe area to its insets: `adjustedContentInset` equals \
        `contentInset`. Unless the code then accounts for `safeAreaInsets` itself, the first and last rows \
        scroll under the navigation bar, the status bar and the home indicator, and keyboard insets computed \
        for the default behaviour are off by the safe area.
        """,
        fix: "Keep the default `.automatic`, or handle the safe area yourself (`safeAreaInsets`, `safeAreaLayoutGuide`) where you set `.never`.",
        triggering: [
            RuleExample("""
            final class PhotoViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    ↓scrollView.contentInsetAdjustmentBehavior = .never
                }
            }
            """),
            RuleExample("""
            final class FeedViewController: UITableViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    ↓tableView.contentInsetAdjustmentBehavior = UIScrollView.ContentInsetAdjustmentBehavior.never
                }
            }
            """),
            RuleExample("""
            final class PagingScrollView: UIScrollView {
                override init(frame: CGRect) {
                    super.init(frame: frame)
                    ↓contentInsetAdjustmentBehavior = .never
                }
            }
            """),
            RuleExample("""
            final class GridViewController: UIViewController {
                private lazy var grid: UICollectionView = {
                    let grid = UICollectionView(frame: .zero, collectionViewLayout: layout)
                    ↓grid.contentInsetAdjustmentBehavior = .never
                    return grid
                }()
            }
            """),
        ],
        nonTriggering: [
            RuleExample("""
            final class TimelineCollectionView: UICollectionView {
                override init(frame: CGRect, collectionViewLayout layout: UICollectionViewLayout) {
                    super.init(frame: frame, collectionViewLayout: layout)
                    contentInsetAdjustmentBehavior = .never
                }
                required init?(coder: NSCoder) { fatalError() }
            }
            final class TimelineViewController: UIViewController {
                let timeline = TimelineCollectionView(frame: .zero, collectionViewLayout: UICollectionViewFlowLayout())
                override func viewSafeAreaInsetsDidChange() {
                    super.viewSafeAreaInsetsDidChange()
                    timeline.contentInset = view.safeAreaInsets
                }
            }
            """),
            RuleExample("""
            final class PhotoViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    scrollView.contentInsetAdjustmentBehavior = .never
                }
                override func viewSafeAreaInsetsDidChange() {
                    super.viewSafeAreaInsetsDidChange()
                    scrollView.contentInset = view.safeAreaInsets
                }
            }
            """),
            RuleExample("""
            final class ReaderViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    textView.contentInsetAdjustmentBehavior = .never
                }
            }
            """, files: ["ReaderViewController+Layout.swift": """
            extension ReaderViewController {
                func pin() {
                    textView.topAnchor.constraint(equalTo: view.safeAreaLayoutGuide.topAnchor).isActive = true
                }
            }
            """]),
            RuleExample("""
            final class PhotoViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    scrollView.contentInsetAdjustmentBehavior = .automatic
                }
            }
            """),
            RuleExample("""
            final class PhotoViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    scrollView.contentInsetAdjustmentBehavior = .always
                }
            }
            """),
            RuleExample("""
            final class MapViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    scrollView.contentInsetAdjustmentBehavior = .never
                    NSLayoutConstraint.activate([
                        scrollView.topAnchor.constraint(equalTo: view.safeAreaLayoutGuide.topAnchor),
                    ])
                }
            }
            """),
            RuleExample("""
            final class PhotoViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    scrollView.contentInsetAdjustmentBehavior = .scrollableAxes
                }
            }
            """),
            RuleExample("""
            extension UIScrollView {
                func setInsetAdjustment(enabled: Bool) {
                    contentInsetAdjustmentBehavior = enabled ? .automatic : .never
                }
            }
            """),
        ]
    )

    public static var requiredMarkers: [StaticString] { ["contentInsetAdjustmentBehavior"] }

    public init() {}

    public func check(_ context: RuleContext) -> [Diagnostic] {
        let analysis = context.analysis
        let source = analysis.source
        guard Self.mayTrigger(on: source.file.bytes) else { return [] }
        var diagnostics: [Diagnostic] = []
        for assignment in analysis.assignments where !assignment.isCompound {
            guard let last = analysis.chainNames(assignment.lhs).last,
                  source.isWord(last, "contentInsetAdjustmentBehavior"),
                  Self.isPlainNever(assignment.rhs, in: source),
                  let type = analysis.typeName(at: assignment.op),
                  !(analysis.project.types[type]?.mentionsSafeArea ?? true),
                  !Self.isScrollViewTurningOffItsOwn(assignment, type, analysis) else { continue }
            diagnostics.append(Self.metadata.diagnostic(
                analysis, at: assignment.lhs,
                message: "`\(analysis.snippet(assignment.lhs)) = .never` and `\(type)` never reads `safeAreaInsets` or `safeAreaLayoutGuide`: content scrolls under the bars and the home indicator",
                suggestion: "Keep `.automatic`, or inset the content by the safe area yourself."))
        }
        return diagnostics
    }

    static let scrollViewClasses: Set<String> = ["UIScrollView", "UITableView", "UICollectionView", "UITextView"]

    /// A scroll view subclass that turns off its own adjustment (`contentInsetAdjustmentBehavior
    /// = .never` on `self`) while an owner in the same file, which names the subclass, works
    /// with the safe area: the owner builds the insets, which the subclass cannot see.
    static func isScrollViewTurningOffItsOwn(_ assignment: Assignment, _ type: String, _ analysis: FileAnalysis) -> Bool {
        guard scrollViewClasses.contains(analysis.project.rootClass(of: type)),
              analysis.namesWithoutSelf(assignment.lhs).count == 1 else { return false }
        let source = analysis.source
        let hash = NameHash.of(type)
        return analysis.outline.types.contains { owner in
            guard owner.qualifiedName != type, analysis.project.types[owner.qualifiedName]?.mentionsSafeArea ?? false else { return false }
            return owner.extent.contains { source.kind($0) == .identifier && source.nameHash($0) == hash }
        }
    }

    /// `.never` or `UIScrollView.ContentInsetAdjustmentBehavior.never`, not a value chosen at
    /// run time (`enabled ? .always : .never`), which only sometimes turns adjustment off.
    private static func isPlainNever(_ rhs: Range<Int>, in source: TokenizedSource) -> Bool {
        guard let last = rhs.last, source.isWord(last, "never") else { return false }
        return rhs.allSatisfy { source.kind($0) == .identifier || source.kind($0) == .period }
    }
}
