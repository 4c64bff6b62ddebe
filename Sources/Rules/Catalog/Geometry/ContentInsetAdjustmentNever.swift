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
        for the default behaviour are off by the safe area. The rule is silent where the decision is out of \
        the code's sight: a method of an extension of UIKit's scroll view classes (its callers pick the \
        view) and an `@IBOutlet` scroll view (the nib or storyboard may pin it, or its container, to the \
        safe area).
        """,
        fix: "Keep the default `.automatic`, or handle the safe area yourself (`safeAreaInsets`, `safeAreaLayoutGuide`, the older `topLayoutGuide`/`bottomLayoutGuide`, or a property of your own named for it such as `bottomSafeAreaInset`) where you set `.never`. A scroll view class that turns its own adjustment off is fine when code owning its instances, in any file, builds their `contentInset` from the safe area.",
        noFixReason: "Restoring `.automatic` changes the insets of every scroll view it applies to, and the alternative, handling the safe area by hand, is new layout code; either way the screen's layout changes beyond one line.",
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
            RuleExample("""
            final class StoryPager: UIScrollView {
                override init(frame: CGRect) {
                    super.init(frame: frame)
                    ↓contentInsetAdjustmentBehavior = .never
                }
                required init?(coder: NSCoder) { fatalError() }
            }
            """, files: ["StoryViewController.swift": """
            final class StoryViewController: UIViewController {
                private let pager = StoryPager(frame: .zero)
                override func viewDidLoad() {
                    super.viewDidLoad()
                    pager.contentInset = UIEdgeInsets(top: 8, left: 0, bottom: 8, right: 0)
                }
            }
            """]),
            RuleExample("""
            final class GalleryViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    ↓scrollView.contentInsetAdjustmentBehavior = .never
                    scrollView.contentInset.bottom = layoutMetrics.toolbarHeight
                }
            }
            """),
        ],
        nonTriggering: [
            RuleExample("""
            final class GalleryViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    scrollView.contentInsetAdjustmentBehavior = .never
                    scrollView.contentInset.bottom = layoutMetrics.bottomSafeAreaInset
                }
            }
            """),
            RuleExample("""
            final class StoryPager: UIScrollView {
                override init(frame: CGRect) {
                    super.init(frame: frame)
                    contentInsetAdjustmentBehavior = .never
                }
                required init?(coder: NSCoder) { fatalError() }
            }
            """, files: ["StoryViewController.swift": """
            final class StoryViewController: UIViewController {
                private let pager = StoryPager(frame: .zero)
                override func viewDidLayoutSubviews() {
                    super.viewDidLayoutSubviews()
                    pager.contentInset.bottom = bottomLayoutGuide.length
                }
            }
            """]),
            RuleExample("""
            extension UITableView {
                func configureAsOffsetProxy() {
                    contentInsetAdjustmentBehavior = .never
                    isHidden = true
                }
            }
            """),
            RuleExample("""
            final class OrderFormViewController: UIViewController {
                @IBOutlet private weak var tableView: UITableView!
            }

            private extension OrderFormViewController {
                func configureTableView() {
                    tableView.contentInsetAdjustmentBehavior = .never
                }
            }
            """),
            RuleExample("""
            final class ProductFormViewController: UIViewController {
                @IBOutlet private weak var tableView: UITableView!
                override func viewDidLoad() {
                    super.viewDidLoad()
                    tableView.contentInsetAdjustmentBehavior = .never
                }
            }
            """),
            RuleExample("""
            final class SheetPresentationController: UIPresentationController {
                func configure(_ scrollView: UIScrollView) {
                    scrollView.contentInset.bottom = presentingViewController.bottomLayoutGuide.length
                    scrollView.contentInsetAdjustmentBehavior = .never
                }
            }
            """),
            RuleExample("""
            final class StoryPager: UIScrollView {
                override init(frame: CGRect) {
                    super.init(frame: frame)
                    contentInsetAdjustmentBehavior = .never
                }
                required init?(coder: NSCoder) { fatalError() }
            }
            """, files: ["StoryViewController.swift": """
            final class StoryViewController: UIViewController {
                private lazy var pager: StoryPager = StoryPager(frame: .zero)
                override func viewSafeAreaInsetsDidChange() {
                    super.viewSafeAreaInsetsDidChange()
                    pager.contentInset.bottom = view.safeAreaInsets.bottom
                }
            }
            """]),
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
                  ScrollViewInsetSetup.isPlainNever(assignment.rhs, in: source),
                  let type = analysis.typeName(at: assignment.op),
                  !(analysis.project.types[type]?.mentionsSafeArea ?? true),
                  !Self.isScrollViewTurningOffItsOwn(assignment, type, analysis),
                  !Self.decidedElsewhere(assignment, type, analysis) else { continue }
            diagnostics.append(Self.metadata.diagnostic(
                analysis, at: assignment.lhs,
                message: "`\(analysis.snippet(assignment.lhs)) = .never` and `\(type)` never reads `safeAreaInsets` or `safeAreaLayoutGuide`: content scrolls under the bars and the home indicator",
                suggestion: "Keep `.automatic`, or inset the content by the safe area yourself."))
        }
        return diagnostics
    }

    /// Where the safe area of the scroll view is decided out of the code's sight: a method in an
    /// extension of UIKit's scroll view classes sets it on whichever view its callers pick, and
    /// an `@IBOutlet` comes from a nib or storyboard, whose constraints may pin it (or its
    /// container) to the safe area.
    static func decidedElsewhere(_ assignment: Assignment, _ type: String, _ analysis: FileAnalysis) -> Bool {
        let names = analysis.namesWithoutSelf(assignment.lhs)
        if names.count == 1 { return ScrollViewInsetFacts.uiKitScrollViews.contains(type) }
        guard names.count == 2, let property = analysis.memberProperty(referencedBy: names[0]) else { return false }
        return property.modifiers.contains("IBOutlet")
    }

    /// A scroll view class that turns off its own adjustment (`contentInsetAdjustmentBehavior
    /// = .never` on `self`) while code owning an instance of it (or of a subclass), in any
    /// file, builds that instance's `contentInset` from the safe area: the owner does the
    /// work the class cannot see.
    static func isScrollViewTurningOffItsOwn(_ assignment: Assignment, _ type: String, _ analysis: FileAnalysis) -> Bool {
        guard analysis.namesWithoutSelf(assignment.lhs).count == 1 else { return false }
        let project = analysis.project
        return project.scrollViewInsets.insetFromSafeArea.contains { project.type($0, inheritsFrom: type) }
    }
}
