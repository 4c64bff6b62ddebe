/// `--diff`: the change fixing makes to one file, as a unified diff (`diff -u` / `git diff`
/// format, 3 lines of context) that `patch -p1` and `git apply` accept. Fixes may take
/// several rounds, so the diff compares the old and new contents line by line (Myers'
/// algorithm) rather than replaying edits.
enum UnifiedDiff {
    static let contextLines = 3

    /// `prefix` + `path` as git writes it in `---`/`+++` lines, so that `patch -p1` and `git
    /// apply` read it back: in C-style quotes when it holds a quote, a backslash or a control
    /// character; else as it is, followed by a tab when it holds a space (the tab ends the
    /// name for `patch`). Bytes that are not UTF-8 are written as they are named.
    static func quotedName(_ prefix: String, _ path: String) -> [UInt8] {
        let bytes = Array(prefix.utf8) + PathEncoding.bytes(path)
        guard bytes.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
            return bytes.contains(UInt8(ascii: " ")) ? bytes + [UInt8(ascii: "\t")] : bytes
        }
        var quoted: [UInt8] = [UInt8(ascii: "\"")]
        for byte in bytes {
            switch byte {
            case 0x07: quoted += Array("\\a".utf8)
            case 0x08: quoted += Array("\\b".utf8)
            case 0x09: quoted += Array("\\t".utf8)
            case 0x0A: quoted += Array("\\n".utf8)
            case 0x0B: quoted += Array("\\v".utf8)
            case 0x0C: quoted += Array("\\f".utf8)
            case 0x0D: quoted += Array("\\r".utf8)
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): quoted += [UInt8(ascii: "\\"), byte]
            case _ where byte < 0x20 || byte == 0x7F:
                quoted += [UInt8(ascii: "\\"), 0x30 + (byte >> 6), 0x30 + (byte >> 3 & 7), 0x30 + (byte & 7)]
            default: quoted.append(byte)
            }
        }
        return quoted + [UInt8(ascii: "\"")]
    }

    /// The diff from `old` to `new`; empty when they are equal.
    static func render(path: String, old: [UInt8], new: [UInt8]) -> [UInt8] {
        guard old != new else { return [] }
        let oldLines = lineRanges(old).map { Array(old[$0]) }
        let newLines = lineRanges(new).map { Array(new[$0]) }
        let changes = self.changes(oldLines, newLines)
        guard !changes.isEmpty else { return [] }

        var output: [UInt8] = Array("--- ".utf8) + quotedName("a/", path) + [0x0A] + Array("+++ ".utf8) + quotedName("b/", path) + [0x0A]
        var index = 0
        while index < changes.count {
            // One hunk: changes whose context windows touch.
            var last = index
            while last + 1 < changes.count,
                  changes[last + 1].oldStart - changes[last].oldEnd <= 2 * contextLines {
                last += 1
            }
            let first = changes[index]
            let context = min(contextLines, first.oldStart)
            let oldStart = first.oldStart - context
            let newStart = first.newStart - context
            let trailing = min(contextLines, oldLines.count - changes[last].oldEnd)
            var body: [UInt8] = []
            var oldLine = oldStart
            for change in changes[index...last] {
                while oldLine < change.oldStart {
                    appendLine(" ", oldLines[oldLine], to: &body)
                    oldLine += 1
                }
                for line in change.oldStart..<change.oldEnd { appendLine("-", oldLines[line], to: &body) }
                for line in change.newStart..<change.newEnd { appendLine("+", newLines[line], to: &body) }
                oldLine = change.oldEnd
            }
            for line in oldLine..<(oldLine + trailing) { appendLine(" ", oldLines[line], to: &body) }
            let oldCount = changes[last].oldEnd + trailing - oldStart
            let newCount = changes[last].newEnd + trailing - newStart
            output += Array("@@ -\(rangeText(oldStart, oldCount)) +\(rangeText(newStart, newCount)) @@\n".utf8)
            output += body
            index = last + 1
        }
        return output
    }

    /// Old lines `oldStart..<oldEnd` become new lines `newStart..<newEnd` (0-based).
    struct Change: Equatable {
        let oldStart: Int, oldEnd: Int
        let newStart: Int, newEnd: Int
    }

    /// The shortest edit script from `old` to `new` as runs of changed lines (Myers, 1986).
    static func changes(_ old: [[UInt8]], _ new: [[UInt8]]) -> [Change] {
        // Unchanged lines at both ends are common and cost nothing to skip.
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix,
              old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        let a = Array(old[prefix..<(old.count - suffix)])
        let b = Array(new[prefix..<(new.count - suffix)])
        let n = a.count, m = b.count
        let offset = n + m + 1
        var frontier = [Int](repeating: 0, count: 2 * offset + 1)
        // trace[d] holds diagonals -d-1...d+1 of the frontier before step d (memory O(D²)).
        var trace: [[Int]] = []
        let wholeBlock = [Change(oldStart: prefix, oldEnd: prefix + n, newStart: prefix, newEnd: prefix + m)]
        search: for depth in 0...(n + m) {
            // Past this many differing lines a minimal diff is not worth its cost.
            if depth > 4000 { return wholeBlock }
            trace.append(Array(frontier[(offset - depth - 1)...(offset + depth + 1)]))
            for diagonal in stride(from: -depth, through: depth, by: 2) {
                var x: Int
                if diagonal == -depth || (diagonal != depth && frontier[offset + diagonal - 1] < frontier[offset + diagonal + 1]) {
                    x = frontier[offset + diagonal + 1]
                } else {
                    x = frontier[offset + diagonal - 1] + 1
                }
                var y = x - diagonal
                while x < n, y < m, a[x] == b[y] { x += 1; y += 1 }
                frontier[offset + diagonal] = x
                if x >= n, y >= m { break search }
            }
        }
        // Walk back through the saved frontiers, collecting which lines were kept.
        var keptPairs: [(Int, Int)] = []
        var x = n, y = m
        for depth in stride(from: trace.count - 1, through: 0, by: -1) {
            let saved = trace[depth]
            let base = depth + 1  // saved[diagonal + base]
            let diagonal = x - y
            let previousDiagonal: Int
            if diagonal == -depth || (diagonal != depth && saved[base + diagonal - 1] < saved[base + diagonal + 1]) {
                previousDiagonal = diagonal + 1
            } else {
                previousDiagonal = diagonal - 1
            }
            let previousX = depth == 0 ? 0 : saved[base + previousDiagonal]
            let previousY = depth == 0 ? 0 : previousX - previousDiagonal
            while x > previousX, y > previousY {
                x -= 1; y -= 1
                keptPairs.append((x, y))
            }
            if depth > 0 { x = previousX; y = previousY }
        }
        keptPairs.reverse()
        // Runs between kept lines are the changes.
        var changes: [Change] = []
        var oldCursor = 0, newCursor = 0
        for (keptOld, keptNew) in keptPairs + [(n, m)] {
            if keptOld > oldCursor || keptNew > newCursor {
                changes.append(Change(
                    oldStart: prefix + oldCursor, oldEnd: prefix + keptOld,
                    newStart: prefix + newCursor, newEnd: prefix + keptNew))
            }
            oldCursor = keptOld + 1
            newCursor = keptNew + 1
        }
        return changes
    }

    /// `diff` coloured for a terminal as `git diff` does: file headers bold, hunk headers cyan,
    /// removed lines red, added lines green. Each line's colour ends before its line break.
    static func colored(_ diff: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(diff.count + diff.count / 4)
        for range in lineRanges(diff) {
            let line = diff[range]
            let color: String?
            if line.starts(with: Array("--- ".utf8)) || line.starts(with: Array("+++ ".utf8)) {
                color = "\u{1B}[1m"
            } else if line.starts(with: Array("@@".utf8)) {
                color = "\u{1B}[36m"
            } else if line.first == UInt8(ascii: "-") {
                color = "\u{1B}[31m"
            } else if line.first == UInt8(ascii: "+") {
                color = "\u{1B}[32m"
            } else {
                color = nil
            }
            guard let color else { output += line; continue }
            var body = line[...]
            var ending: ArraySlice<UInt8> = []
            if body.last == 0x0A { ending = body.suffix(1); body = body.dropLast() }
            if body.last == 0x0D { ending = body.suffix(1) + ending; body = body.dropLast() }
            output += Array(color.utf8) + body + Array("\u{1B}[0m".utf8) + ending
        }
        return output
    }

    /// Byte ranges of the lines of `bytes`, each including its `\n` (the last may lack one).
    static func lineRanges(_ bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == 0x0A {
            ranges.append(start..<(index + 1))
            start = index + 1
        }
        if start < bytes.count { ranges.append(start..<bytes.count) }
        return ranges
    }

    private static func appendLine(_ marker: Unicode.Scalar, _ line: [UInt8], to output: inout [UInt8]) {
        output.append(UInt8(ascii: marker))
        output += line
        if line.last != 0x0A {
            output += Array("\n\\ No newline at end of file\n".utf8)
        }
    }

    /// `start,count` with 1-based start; an empty range names the line before it (diff's rule).
    private static func rangeText(_ start: Int, _ count: Int) -> String {
        count == 0 ? "\(start),0" : "\(start + 1),\(count)"
    }
}
