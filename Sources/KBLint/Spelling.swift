/// Typo tolerance for names users type: configuration keys, rule ids, option names, ids in
/// suppression comments. Used to add "did you mean 'x'?" to errors.
enum Spelling {
    /// Optimal-string-alignment distance between `a` and `b` over Unicode scalars: insertions,
    /// deletions, substitutions and swaps of two neighbours each cost 1 — the typos people
    /// make when typing an id by hand.
    static func editDistance(_ a: String, _ b: String) -> Int {
        editDistance(Array(a.unicodeScalars), Array(b.unicodeScalars))
    }

    /// Candidates close enough to `word` to be what the user meant, best first (ties in the
    /// order of `candidates`). Empty when nothing is close or `word` is one of them. Long
    /// input costs nothing: candidates whose length differs by more than the allowed
    /// distance are skipped before any comparison.
    static func closestMatches(to word: String, among candidates: [String]) -> [String] {
        let wordScalars = Array(word.unicodeScalars)
        var scored: [(distance: Int, index: Int, candidate: String)] = []
        for (index, candidate) in candidates.enumerated() {
            let candidateScalars = Array(candidate.unicodeScalars)
            if candidateScalars == wordScalars { return [] }
            let limit = allowedDistance(forLength: candidateScalars.count)
            guard abs(candidateScalars.count - wordScalars.count) <= limit else { continue }
            let distance = editDistance(wordScalars, candidateScalars)
            if distance <= limit { scored.append((distance, index, candidate)) }
        }
        scored.sort { ($0.distance, $0.index) < ($1.distance, $1.index) }
        var seen: Set<String> = []
        return scored.map(\.candidate).filter { seen.insert($0).inserted }
    }

    /// "did you mean 'x'?" (or "'x' or 'y'" for equally close names), nil when nothing is close.
    static func didYouMean(_ word: String, among candidates: [String]) -> String? {
        let matches = closestMatches(to: word, among: candidates)
        guard let best = matches.first else { return nil }
        let bestDistance = editDistance(word, best)
        let equallyClose = matches.prefix(3).filter { editDistance(word, $0) == bestDistance }
        return "did you mean " + equallyClose.map { "'\($0)'" }.joined(separator: " or ") + "?"
    }

    /// `didYouMean` for a value among a few short words: besides typos, a different case
    /// (`Error`) and abbreviations or extensions (`warn` → `warning`, `information` → `info`).
    static func didYouMeanValue(_ word: String, among candidates: [String]) -> String? {
        if let typo = didYouMean(word, among: candidates) { return typo }
        let lowered = word.lowercased()
        let matches = candidates.filter { candidate in
            candidate != word && (candidate.lowercased() == lowered
                || (lowered.count >= 3 && (candidate.hasPrefix(lowered) || lowered.hasPrefix(candidate))))
        }
        guard !matches.isEmpty else { return nil }
        return "did you mean " + matches.prefix(3).map { "'\($0)'" }.joined(separator: " or ") + "?"
    }

    /// About one typo per four characters, at least one and at most four.
    private static func allowedDistance(forLength length: Int) -> Int {
        min(4, max(1, length / 4))
    }

    private static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    best = min(best, previousPrevious[j - 2] + 1)
                }
                current[j] = best
            }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }
}
