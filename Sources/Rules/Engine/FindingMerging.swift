import Lexer

/// One finding per defect. Several rules can describe one mistake from different angles —
/// `bottom: keyboardFrame.height` is at once an unconverted screen-space frame, the full
/// height instead of the overlap and an inset that ignores the safe area — and a team that
/// sees three reports for one line stops reading them. After the rules of a file have run,
/// findings that describe one defect are folded into the most specific one, which names the
/// others in `covered` (reported as `covers` and as notes).
///
/// Two findings describe one defect when
/// - they come from the same rule and start on the same line, or
/// - their rules belong to the same family below and start on the same line, or, for the
///   observer families, one of them points at the other's line with a related location, or
///   both point at the same line (an
///   `addObserver` kept for the controller's lifetime and the `removeObserver(self)` on
///   disappear that throws it away are one mistake seen from both ends; so are a block
///   observer whose token is dropped and the `removeObserver(self)` that cannot remove it).
///
/// Within a group the finding whose rule comes first in its family wins (for one rule, the
/// first in the file). It keeps its own message, severity, fix and place; every covered
/// finding becomes a note. Pure: findings in, findings out, in the order given.
public enum FindingMerging {
    /// Families of rules that describe one defect from different angles, most specific first.
    static let families: [(rules: [String], followsRelatedLocations: Bool)] = [
        // How far the keyboard reaches into a scroll view or layout.
        ([
            "keyboard_inset_accumulates", "keyboard_frame_begin_key", "keyboard_frame_screen_space",
            "keyboard_math_uses_main_screen", "keyboard_height_not_overlap", "visible_height_uses_content_inset",
            "keyboard_inset_ignores_safe_area", "content_inset_reset_to_zero", "keyboard_scroll_indicator_not_inset",
        ], false),
        // Whether an animation moves with the keyboard.
        ([
            "keyboard_curve_unshifted", "keyboard_curve_switch_without_default", "keyboard_curve_mismatch",
            "keyboard_duration_hardcoded", "keyboard_guide_manual_animation",
        ], false),
        // When keyboard observers are added and removed.
        (["observer_removed_greedily", "keyboard_observer_lifecycle_unbalanced"], true),
        // Block observers that nothing removes: the `removeObserver(self)` that misses them
        // and the registrations whose tokens are dropped or never removed.
        (["remove_observer_self_for_block_observers", "observer_token_discarded", "observer_token_never_removed"], true),
    ]

    /// Rule id → (family, rank in it).
    static let familyOfRule: [String: (family: Int, rank: Int)] = {
        var table: [String: (Int, Int)] = [:]
        for (family, members) in families.enumerated() {
            for (rank, id) in members.rules.enumerated() { table[id] = (family, rank) }
        }
        return table
    }()

    /// `diagnostics` of `file` with the findings of one defect folded into one.
    public static func merge(_ diagnostics: [Diagnostic], in file: SourceFile) -> [Diagnostic] {
        guard diagnostics.count > 1 else { return diagnostics }
        let lines = diagnostics.map { file.location(of: $0.range.lowerBound).line }
        var byLine: [Int: [Int]] = [:]
        for (index, line) in lines.enumerated() { byLine[line, default: []].append(index) }

        var groups = UnionFind(count: diagnostics.count)
        // Two statements on one line (`a(); b()`) are two places.
        func separatesStatements(_ a: Int, _ b: Int) -> Bool {
            let first = diagnostics[a].range, second = diagnostics[b].range
            let start = min(first.upperBound, second.upperBound), end = max(first.lowerBound, second.lowerBound)
            guard start < end else { return false }
            return (start..<end).contains { $0 < file.bytes.count && file.bytes[$0] == UInt8(ascii: ";") }
        }
        // On each line, in order, a finding joins the previous one of its family (or rule)
        // unless a `;` separates them. Gaps between neighbours are scanned once per kind, so a
        // long line with many findings stays linear.
        for indices in byLine.values where indices.count > 1 {
            var previousOfKind: [String: Int] = [:]
            for index in indices.sorted(by: { diagnostics[$0].range.lowerBound < diagnostics[$1].range.lowerBound }) {
                let kind = familyOfRule[diagnostics[index].ruleID].map { "family \($0.family)" } ?? diagnostics[index].ruleID
                if let previous = previousOfKind[kind], !separatesStatements(previous, index) { groups.join(previous, index) }
                previousOfKind[kind] = index
            }
        }
        // Observer families: a finding joins one whose line it points at, and two findings that
        // point at the same line (the same registration) join each other.
        func key(_ line: Int, _ family: Int) -> Int { line * families.count + family }
        var firstOnLine: [Int: Int] = [:]
        for (index, line) in lines.enumerated() {
            guard let family = familyOfRule[diagnostics[index].ruleID], families[family.family].followsRelatedLocations
            else { continue }
            guard let first = firstOnLine[key(line, family.family)] else { firstOnLine[key(line, family.family)] = index; continue }
            if !separatesStatements(first, index) { groups.join(first, index) }
        }
        var pointingAt: [Int: Int] = [:]
        for (a, diagnostic) in diagnostics.enumerated() {
            guard let family = familyOfRule[diagnostic.ruleID], families[family.family].followsRelatedLocations
            else { continue }
            for location in diagnostic.related where location.path == nil {
                let target = key(file.location(of: location.range.lowerBound).line, family.family)
                if let b = firstOnLine[target] { groups.join(a, b) }
                if let other = pointingAt[target] { groups.join(a, other) } else { pointingAt[target] = a }
            }
        }

        var members: [Int: [Int]] = [:]
        for index in diagnostics.indices { members[groups.root(index), default: []].append(index) }
        var dropped = Set<Int>()
        var merged = diagnostics
        for group in members.values where group.count > 1 {
            let primary = group.min { a, b in
                let left = familyOfRule[diagnostics[a].ruleID]?.rank ?? 0
                let right = familyOfRule[diagnostics[b].ruleID]?.rank ?? 0
                return left != right ? left < right : a < b
            }!
            for index in group where index != primary {
                let covered = diagnostics[index]
                dropped.insert(index)
                merged[primary].covered.append(CoveredFinding(
                    ruleID: covered.ruleID, range: covered.range, message: covered.message))
                merged[primary].covered += covered.covered
                merged[primary].fix = combined(merged[primary].fix, covered.fix, sameRule: covered.ruleID == merged[primary].ruleID)
                merged[primary].related.append(RelatedLocation(
                    range: covered.range, message: "also `\(covered.ruleID)`: \(covered.message)"))
            }
        }
        return merged.indices.filter { !dropped.contains($0) }.map { merged[$0] }
    }
}

/// A repeat of the same rule keeps its fix: the edits of both are applied together when they
/// have the same applicability and do not overlap. Other rules' fixes are left to their
/// reported finding.
private func combined(_ primary: Fix?, _ covered: Fix?, sameRule: Bool) -> Fix? {
    guard sameRule, let primary, let covered, primary.applicability == covered.applicability else { return primary }
    let edits = (primary.edits + covered.edits).sorted { $0.range.lowerBound < $1.range.lowerBound }
    for (left, right) in zip(edits, edits.dropFirst()) where left.range.upperBound > right.range.lowerBound { return primary }
    return Fix(primary.applicability, edits: edits)
}

/// Disjoint sets over `0..<count` with path halving: grouping findings stays linear.
private struct UnionFind {
    private var parent: [Int]

    init(count: Int) { parent = Array(0..<count) }

    mutating func root(_ index: Int) -> Int {
        var current = index
        while parent[current] != current {
            parent[current] = parent[parent[current]]
            current = parent[current]
        }
        return current
    }

    mutating func join(_ a: Int, _ b: Int) {
        let left = root(a), right = root(b)
        if left != right { parent[max(left, right)] = min(left, right) }
    }
}
