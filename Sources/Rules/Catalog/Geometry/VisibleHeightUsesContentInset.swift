import Lexer

/// The visible height of a scroll view is its height minus the insets UIKit applies, which
/// include the safe area; `contentInset` holds only the app's own part.
public struct VisibleHeightUsesContentInset: Rule {
    public static let metadata = RuleMetadata(
        id: "visible_height_uses_content_inset",
        category: .geometry,
        defaultSeverity: .warning,
        summary: "A scroll view's visible height subtracts `contentInset` instead of `adjustedContentInset`.",
        rationale: """
        Since iOS 11 the system adds the safe area (home indicator, bars) on top of `contentInset`; the \
        effective inset is `adjustedContentInset`. Subtracting `contentInset.top`/`.bottom` from the scroll \
        view's height overestimates the visible area by the safe-area insets (34 points at the bottom of a \
        Face ID iPhone), so content scrolled "into view" stays under the keyboard or the home indicator. \
        The rule decides per scroll view: with `contentInsetAdjustmentBehavior = .never` the two insets are \
        equal, so it is silent when that view's adjustment is turned off where the arithmetic is, by the \
        view's own class, or by code owning it (in any file), and in a type nested in one that turns the \
        adjustment off and builds the `contentInset` from the safe area when it holds the view through a \
        plain `UIScrollView`/`UICollectionView` reference. Other scroll views of the same file are still \
        checked. A statement that adds a safe-area term itself (`- (contentInset.bottom + \
        view.safeAreaInsets.bottom)`, the older `bottomLayoutGuide.length`, a property named for the safe \
        area, or the system's part read off `adjustedContentInset`) already accounts for the safe area and \
        is not reported.
        """,
        fix: "Subtract `adjustedContentInset.top`/`.bottom` instead (with `contentInsetAdjustmentBehavior = .never` the two are equal and nothing needs to change).",
        fixAvailability: .safe,
        triggering: [
            RuleExample("""
            func visibleHeight() -> CGFloat {
                scrollView.bounds.height - scrollView.↓contentInset.top - scrollView.contentInset.bottom
            }
            """),
            RuleExample("""
            func visibleHeight() -> CGFloat {
                let inset = tableView.↓contentInset
                return tableView.bounds.height - inset.top - inset.bottom
            }
            """),
            RuleExample("""
            final class PagingScrollView: UIScrollView {
                var pageHeight: CGFloat { bounds.size.height - ↓contentInset.bottom }
            }
            """),
            RuleExample("""
            @objc func keyboardDidShow(_ note: Notification) {
                let visible = self.collectionView.frame.height - collectionView.↓contentInset.bottom
                scroll(toFit: visible)
            }
            """),
            RuleExample("""
            final class TimelineViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    collectionView.contentInsetAdjustmentBehavior = .never
                }
                override func viewDidLayoutSubviews() {
                    super.viewDidLayoutSubviews()
                    collectionView.contentInset.top = view.safeAreaInsets.top
                }
                func commentsHeight() -> CGFloat {
                    commentsTable.bounds.height - commentsTable.↓contentInset.bottom
                }
            }
            """),
            RuleExample("""
            final class TimelineViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    collectionView.contentInsetAdjustmentBehavior = .never
                    collectionView.contentInset.bottom = view.safeAreaInsets.bottom
                }
            }
            final class ComposerView: UIView {
                let textView = UITextView()
                var visibleHeight: CGFloat { textView.bounds.height - textView.↓contentInset.top }
            }
            """),
            RuleExample("""
            final class LegacyListViewController: UIViewController {
                func visibleHeight() -> CGFloat {
                    tableView.bounds.height - tableView.↓contentInset.bottom - footerLayoutGuide.layoutFrame.height
                }
            }
            """),
            RuleExample("""
            func scrollToEnd(of textView: UITextView) {
                let visible = textView.bounds.height - textView.↓contentInset.bottom
                let top = textView.adjustedContentInset.top
                textView.setContentOffset(CGPoint(x: 0, y: max(-top, textView.contentSize.height - visible)), animated: true)
            }
            """),
        ],
        nonTriggering: [
            RuleExample("""
            func visibleHeight() -> CGFloat {
                scrollView.bounds.height - (scrollView.contentInset.bottom + view.safeAreaInsets.bottom)
            }
            """),
            RuleExample("""
            final class LegacyListViewController: UIViewController {
                func visibleHeight() -> CGFloat {
                    tableView.bounds.height - tableView.contentInset.bottom - bottomLayoutGuide.length
                }
            }
            """),
            RuleExample("""
            func visibleHeight(of scrollView: UIScrollView, metrics: ScreenMetrics) -> CGFloat {
                scrollView.bounds.height - scrollView.contentInset.bottom - metrics.bottomSafeAreaInset
            }
            """),
            RuleExample("""
            func visibleHeight() -> CGFloat {
                // The app's own inset, then what the system adds for the safe area.
                scrollView.bounds.height - scrollView.contentInset.bottom - (scrollView.adjustedContentInset.bottom - scrollView.contentInset.bottom)
            }
            """),
            RuleExample("""
            final class ReaderViewController: UIViewController {
                let pager = PagerScrollView()
                var pageHeight: CGFloat { pager.bounds.height - pager.contentInset.top - pager.contentInset.bottom }
            }
            """, files: ["PagerScrollView.swift": """
            final class PagerScrollView: UIScrollView {
                override init(frame: CGRect) {
                    super.init(frame: frame)
                    contentInsetAdjustmentBehavior = .never
                }
                required init?(coder: NSCoder) { fatalError() }
            }
            """]),
            RuleExample("""
            final class ChatCollectionView: UICollectionView {
                var visibleHeight: CGFloat { bounds.height - contentInset.top - contentInset.bottom }
            }
            """, files: ["ChatViewController.swift": """
            final class ChatViewController: UIViewController {
                private let chat = ChatCollectionView(frame: .zero, collectionViewLayout: UICollectionViewFlowLayout())
                override func viewDidLoad() {
                    super.viewDidLoad()
                    chat.contentInsetAdjustmentBehavior = .never
                }
            }
            """]),
            RuleExample("""
            final class TimelineViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    collectionView.contentInsetAdjustmentBehavior = .never
                }
                override func viewSafeAreaInsetsDidChange() {
                    super.viewSafeAreaInsetsDidChange()
                    collectionView.contentInset.top = view.safeAreaInsets.top + headerHeight
                }
                final class ScrollTracker {
                    let scrollView: UIScrollView
                    init(scrollView: UIScrollView) { self.scrollView = scrollView }
                    var visibleHeight: CGFloat { scrollView.bounds.height - scrollView.contentInset.top }
                }
            }
            """),
            RuleExample("""
            func visibleHeight() -> CGFloat {
                let adjusted = scrollView.adjustedContentInset
                return scrollView.bounds.height - adjusted.top - adjusted.bottom
            }
            """),
            RuleExample("""
            func visibleHeight() -> CGFloat {
                scrollView.bounds.height - scrollView.adjustedContentInset.bottom
            }
            """),
            RuleExample("""
            func maxOffset() -> CGFloat {
                scrollView.contentSize.height + scrollView.contentInset.bottom
            }
            """),
            RuleExample("""
            func apply(height: CGFloat) {
                scrollView.contentInset.bottom = height
            }
            """),
            RuleExample("""
            func headerSpace() -> CGFloat {
                view.bounds.height - scrollView.contentInset.top
            }
            """),
            RuleExample("""
            final class ZoomViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    scrollView.contentInsetAdjustmentBehavior = .never
                }
                func visibleHeight() -> CGFloat {
                    scrollView.bounds.height - scrollView.contentInset.bottom
                }
            }
            """),
            RuleExample("""
            func saveInsets() {
                savedBottom = scrollView.contentInset.bottom
                savedHeight = scrollView.bounds.height
            }
            """),
        ],
        corrections: [
            RuleCorrection("""
            let visible = scrollView.bounds.height - scrollView.contentInset.bottom
            """, """
            let visible = scrollView.bounds.height - scrollView.adjustedContentInset.bottom
            """),
            RuleCorrection("""
            final class FeedViewController: UIViewController {
                func pageHeight() -> CGFloat {
                    tableView.bounds.height - tableView.↓contentInset.top - tableView.↓contentInset.bottom
                }
            }
            """, """
            final class FeedViewController: UIViewController {
                func pageHeight() -> CGFloat {
                    tableView.bounds.height - tableView.adjustedContentInset.top - tableView.adjustedContentInset.bottom
                }
            }
            """),
        ]
    )

    public static var requiredMarkers: [StaticString] { ["contentInset"] }

    public init() {}

    public func check(_ context: RuleContext) -> [Diagnostic] {
        let analysis = context.analysis
        let source = analysis.source
        guard Self.mayTrigger(on: source.file.bytes) else { return [] }
        var reported = Set<Int>()
        var found: [(member: Int, read: Range<Int>)] = []
        var diagnostics: [Diagnostic] = []
        // Locals bound to a scroll view's whole `contentInset`: name hash → the member token.
        var insetLocals: [UInt64: Int] = [:]
        for binding in analysis.bindings {
            guard let value = binding.value, let last = value.last, source.isWord(last, "contentInset"),
                  source.kind(last - 1) == .period,
                  analysis.chainStart(endingAt: last) == value.lowerBound else { continue }
            insetLocals[binding.nameHash] = last
        }
        for index in source.code.indices where source.kind(index) == .identifier {
            // `x.contentInset.top` or `inset.top` for a local bound to `x.contentInset`.
            guard source.kind(index + 1) == .period,
                  source.isWord(index + 2, "top") || source.isWord(index + 2, "bottom") else { continue }
            let member: Int
            if source.isWord(index, "contentInset") {
                member = index
            } else if source.kind(index - 1) != .period, let bound = insetLocals[source.nameHash(index)] {
                member = bound
            } else {
                continue
            }
            let chainStart = analysis.chainStart(endingAt: index)
            guard source.kind(chainStart - 1) == .binaryOperator,
                  source.token(source.code[chainStart - 1], is: "-") else { continue }
            let receiverRange = analysis.chainStart(endingAt: member)..<member
            let receiver = Self.receiverKey(source, receiverRange)
            let statementStart = ExpressionBounds.statementStart(source, containing: chainStart)
            guard Self.subtractsFromHeight(analysis, statementStart..<chainStart, receiver: receiver),
                  !analysis.contentInsetIsWholeInset(ofReceiver: receiverRange, at: member),
                  !Self.statement(startingAt: statementStart, containing: member, analysis)
                      .contains(where: { KeyboardVocabulary.includesSafeArea(source, at: $0) }),
                  reported.insert(member).inserted else { continue }
            found.append((member, chainStart..<(index + 3)))
        }
        for (member, read) in found {
            let fix = Self.readsInsetConsistently(member, reported: reported, analysis)
                ? Fix(.safe, edits: [Edit(range: source.byteRange(member..<(member + 1)), replacement: "adjustedContentInset")])
                : nil
            diagnostics.append(Self.metadata.diagnostic(
                analysis, at: member..<(member + 1),
                message: "`\(analysis.snippet(read))` leaves out the safe-area part of the inset; the visible height is too large",
                suggestion: "Use `adjustedContentInset`, which includes what the system adds for the safe area.",
                fix: fix))
        }
        return diagnostics
    }

    /// Whether swapping `member` for `adjustedContentInset` changes only the defect: every
    /// other `contentInset` the function reads is swapped too (a read left alone would no
    /// longer cancel against it).
    static func readsInsetConsistently(_ member: Int, reported: Set<Int>, _ analysis: FileAnalysis) -> Bool {
        let source = analysis.source
        let region = analysis.outline.executableScope(at: member).map { analysis.outline[$0].body } ?? source.code.indices
        // Member reads with a receiver (`view.contentInset`), not `case .contentInset` of an enum.
        return !region.contains {
            source.isWord($0, "contentInset") && source.kind($0 - 1) == .period
                && analysis.chainStart(endingAt: $0) < $0 - 1 && !reported.contains($0)
        }
    }

    /// The statement from `start` to the end of the line holding `member`: a statement that
    /// adds a safe-area term of its own (`- (contentInset.bottom + safeAreaInsets.bottom)`)
    /// already accounts for the safe area, and `adjustedContentInset` would count it twice.
    static func statement(startingAt start: Int, containing member: Int, _ analysis: FileAnalysis) -> Range<Int> {
        let source = analysis.source
        let region = analysis.outline.executableScope(at: member).map { analysis.outline[$0].body } ?? source.code.indices
        return start..<(region.first { $0 > member && source.code[$0].isAtStartOfLine } ?? region.upperBound)
    }

    /// The names of a receiver chain without `self`, as hashes.
    static func receiverKey(_ source: TokenizedSource, _ range: Range<Int>) -> [UInt64] {
        ExpressionBounds.chainNames(source, range).filter { !source.isWord($0, "self") }.map { source.nameHash($0) }
    }

    /// Whether `range` reads `bounds.height`, `bounds.size.height`, `frame.height` or
    /// `frame.size.height` of the scroll view named by `receiver`.
    static func subtractsFromHeight(_ analysis: FileAnalysis, _ range: Range<Int>, receiver: [UInt64]) -> Bool {
        let source = analysis.source
        for index in range where source.isWord(index, "height") && source.kind(index - 1) == .period {
            var base = index - 2
            if source.isWord(base, "size"), source.kind(base - 1) == .period { base -= 2 }
            guard source.isWord(base, "bounds") || source.isWord(base, "frame") else { continue }
            let start = analysis.chainStart(endingAt: base)
            if receiverKey(source, start..<base) == receiver { return true }
        }
        return false
    }
}
