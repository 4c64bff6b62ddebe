import Lexer

/// A place where code takes a scroll view's insets into its own hands: it turns the
/// system's adjustment off (`contentInsetAdjustmentBehavior = .never`), or it builds the
/// `contentInset` from the safe area. With `.never`, `contentInset` is the whole inset
/// (`adjustedContentInset` equals it), so arithmetic on it is right.
struct ScrollViewInsetSetup: Sendable {
    enum Kind: Sendable, Hashable { case adjustmentNever, insetFromSafeArea }
    let kind: Kind
    /// The type whose code does it.
    let type: TypeID
    /// The receiver's member-chain name tokens, `self` left out (empty: the type itself).
    let receiver: [Int]

    /// The setups among `assignments`: `x.contentInsetAdjustmentBehavior = .never` (a plain
    /// `.never`, not `enabled ? .automatic : .never`), and writes of `x.contentInset` (or one
    /// of its edges) whose value, directly or through a local constant, names the safe area
    /// (`safeAreaInsets`, `view.safeAreaLayoutGuide.layoutFrame`, `bottomLayoutGuide.length`,
    /// …; `KeyboardVocabulary.namesSafeArea`).
    static func find(_ source: TokenizedSource, _ outline: Outline, _ assignments: [Assignment],
                     _ constants: ConstantResolver) -> [ScrollViewInsetSetup] {
        var found: [ScrollViewInsetSetup] = []
        // Every assignment of every file is asked and nearly none writes an inset: a token
        // of the left-hand side spelled as one of the names looked for comes before the
        // chain's names are gathered.
        for assignment in assignments where writesInsetName(assignment.lhs, in: source) {
            guard let type = outline.enclosingType(at: assignment.op) else { continue }
            let names = ExpressionBounds.chainNames(source, assignment.lhs).filter { !source.isWord($0, "self") }
            guard let last = names.last else { continue }
            if source.isWord(last, "contentInsetAdjustmentBehavior") {
                guard !assignment.isCompound, isPlainNever(assignment.rhs, in: source) else { continue }
                found.append(ScrollViewInsetSetup(kind: .adjustmentNever, type: type, receiver: Array(names.dropLast())))
            } else if let inset = names.firstIndex(where: { source.isWord($0, "contentInset") }) {
                let value = constants.value(of: assignment.rhs)
                guard value.contains(where: { KeyboardVocabulary.namesSafeArea(source, at: $0) }) else { continue }
                found.append(ScrollViewInsetSetup(kind: .insetFromSafeArea, type: type, receiver: Array(names[..<inset])))
            }
        }
        return found
    }

    /// Whether a token of `lhs` is `contentInset` or `contentInsetAdjustmentBehavior`: an
    /// assignment `find` keeps names one of them in its chain.
    static func writesInsetName(_ lhs: Range<Int>, in source: TokenizedSource) -> Bool {
        lhs.contains { source.isWord($0, "contentInset") || source.isWord($0, "contentInsetAdjustmentBehavior") }
    }

    /// `.never` or `UIScrollView.ContentInsetAdjustmentBehavior.never`, not a value chosen at
    /// run time (`enabled ? .always : .never`), which only sometimes turns adjustment off.
    static func isPlainNever(_ rhs: Range<Int>, in source: TokenizedSource) -> Bool {
        guard let last = rhs.last, source.isWord(last, "never") else { return false }
        return rhs.allSatisfy { source.kind($0) == .identifier || source.kind($0) == .period }
    }
}

/// The project's scroll view classes whose insets are taken in hand (see
/// `ScrollViewInsetSetup`), by the class itself or by an owner through a property or a local
/// holding an instance: a class and the code that owns its instances often sit in different
/// files.
public struct ScrollViewInsetFacts: Sendable {
    /// Classes whose instances get `contentInsetAdjustmentBehavior = .never`.
    public internal(set) var adjustmentNever: Set<String> = []
    /// Classes whose instances get a `contentInset` built from the safe area.
    public internal(set) var insetFromSafeArea: Set<String> = []

    init() {}

    var isEmpty: Bool { adjustmentNever.isEmpty && insetFromSafeArea.isEmpty }

    mutating func merge(_ other: ScrollViewInsetFacts) {
        adjustmentNever.formUnion(other.adjustmentNever)
        insetFromSafeArea.formUnion(other.insetFromSafeArea)
    }

    /// UIKit's own scroll views: knowing that one instance of them is set up says nothing
    /// about the others.
    static let uiKitScrollViews: Set<String> = ["UIScrollView", "UITableView", "UICollectionView", "UITextView"]

    /// The facts of one analysed file.
    init(_ analysis: FileAnalysis) {
        for setup in analysis.insetSetups {
            guard let name = analysis.scrollViewClass(of: setup.receiver, inType: setup.type),
                  !Self.uiKitScrollViews.contains(name) else { continue }
            switch setup.kind {
            case .adjustmentNever: adjustmentNever.insert(name)
            case .insetFromSafeArea: insetFromSafeArea.insert(name)
            }
        }
    }
}

extension FileAnalysis {
    /// The class of the scroll view a receiver names: the type itself for an empty receiver,
    /// else what the property or local it names holds (its annotation or construction).
    func scrollViewClass(of receiver: [Int], inType type: TypeID) -> String? {
        if receiver.isEmpty { return outline[type].qualifiedName }
        guard receiver.count == 1 else { return nil }
        return accessorySources(of: tokenRange(receiver[0])).compactMap(typeName(of:)).first
    }

    /// Whether `contentInset` is the whole inset of the scroll view `receiver` (the chain
    /// before `.contentInset`) used at `index`: its adjustment is `.never`, set by the type
    /// around `index` on that receiver, by the scroll view's own class or by code owning an
    /// instance of that class (project-wide), or — for a type nested in one that turns the
    /// adjustment off on a scroll view and builds its `contentInset` from the safe area — the
    /// nested type holds the view through a plain UIKit reference, which can only be the
    /// outer type's.
    func contentInsetIsWholeInset(ofReceiver receiver: Range<Int>, at index: Int) -> Bool {
        guard let type = outline.enclosingType(at: index) else { return false }
        let names = namesWithoutSelf(receiver)
        let key = receiverKey(names: names)
        if insetAdjustmentNever.contains(TypedReceiver(type: type, receiver: key)) { return true }
        guard let viewClass = scrollViewClass(of: names, inType: type) else { return false }
        let lineage = [viewClass] + project.superclasses(of: viewClass)
        if lineage.contains(where: project.scrollViewInsets.adjustmentNever.contains) { return true }
        guard names.count == 1, ScrollViewInsetFacts.uiKitScrollViews.contains(viewClass) else { return false }
        return outline.enclosingTypes(from: outline.outerType(of: type)).contains(where: managesSafeAreaItself(type:))
    }

    /// Whether type `type` turns the adjustment off on a scroll view and builds that same
    /// scroll view's `contentInset` from the safe area.
    private func managesSafeAreaItself(type: TypeID) -> Bool {
        insetSetups.contains { never in
            guard never.kind == .adjustmentNever, never.type == type else { return false }
            let key = receiverKey(names: never.receiver)
            return insetSetups.contains {
                $0.kind == .insetFromSafeArea && $0.type == type && receiverKey(names: $0.receiver) == key
            }
        }
    }
}
