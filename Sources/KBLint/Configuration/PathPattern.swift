/// A glob of `included`/`excluded`, anchored at the folder of the configuration file that
/// declares it. `*` matches within one path component, `**` (a whole component) matches
/// any number of components including none, `?` one character, `[abc]`, `[a-z]`, `[!a]`
/// one character of a class, `\\` escapes the next character. Matching runs in time proportional to pattern × path length
/// (no exponential backtracking), whatever the pattern.
struct PathPattern: Sendable, Hashable, CustomStringConvertible {
    /// The pattern as written in the configuration.
    let pattern: String
    /// Absolute folder the pattern is relative to.
    let baseDirectory: String
    private let segments: [Segment]

    private enum Segment: Sendable, Hashable {
        case anyDepth
        case component([Piece])
    }

    private enum Piece: Sendable, Hashable {
        case scalar(Unicode.Scalar)
        case anyScalar
        case anyRun
        case scalarClass(ranges: [ClosedRange<Unicode.Scalar>], negated: Bool)
    }

    /// Fails with a message when a character class is not closed.
    init(_ pattern: String, relativeTo baseDirectory: String) throws(PathPatternError) {
        self.pattern = pattern
        self.baseDirectory = baseDirectory
        let absolute = LexicalPath.absolute(pattern, relativeTo: baseDirectory)
        var segments: [Segment] = []
        for component in absolute.split(separator: "/") {
            if component == "**" {
                if segments.last != .anyDepth { segments.append(.anyDepth) }
            } else {
                segments.append(.component(try Self.pieces(of: Array(component.unicodeScalars))))
            }
        }
        self.segments = segments
    }

    var description: String { pattern }

    /// The absolute folder before the first wildcard: where a search for matching files can start.
    var searchRoot: String {
        var literal: [String] = []
        for segment in segments {
            guard case .component(let pieces) = segment else { break }
            var name = String.UnicodeScalarView()
            for piece in pieces {
                guard case .scalar(let scalar) = piece else { return "/" + literal.joined(separator: "/") }
                name.append(scalar)
            }
            literal.append(String(name))
        }
        return "/" + literal.joined(separator: "/")
    }

    /// Whether the pattern matches exactly `absolutePath` (absolute, standardized).
    func matches(_ absolutePath: String) -> Bool {
        match(components: Self.components(of: absolutePath), allowingDescendants: false)
    }

    /// Whether the pattern matches `absolutePath` or one of the folders that contain it:
    /// `excluded: [Pods]` excludes every file under `Pods`.
    func matchesItselfOrAncestor(of absolutePath: String) -> Bool {
        match(components: Self.components(of: absolutePath), allowingDescendants: true)
    }

    private static func components(of path: String) -> [[Unicode.Scalar]] {
        path.split(separator: "/").map { Array($0.unicodeScalars) }
    }

    /// Wildcard matching with one backtrack point: on a mismatch, the most recent `**`
    /// takes one more component. Correct for `*`-like wildcards and linear in practice.
    private func match(components: [[Unicode.Scalar]], allowingDescendants: Bool) -> Bool {
        var segmentIndex = 0, componentIndex = 0
        var backtrack: (segment: Int, component: Int)?
        while componentIndex < components.count {
            if segmentIndex == segments.count, allowingDescendants { return true }
            if segmentIndex < segments.count {
                switch segments[segmentIndex] {
                case .anyDepth:
                    backtrack = (segmentIndex, componentIndex)
                    segmentIndex += 1
                    continue
                case .component(let pieces):
                    if Self.match(pieces, components[componentIndex]) {
                        segmentIndex += 1
                        componentIndex += 1
                        continue
                    }
                }
            }
            guard let point = backtrack else { return false }
            backtrack = (point.segment, point.component + 1)
            segmentIndex = point.segment + 1
            componentIndex = point.component + 1
        }
        while segmentIndex < segments.count, segments[segmentIndex] == .anyDepth { segmentIndex += 1 }
        return segmentIndex == segments.count
    }

    private static func match(_ pieces: [Piece], _ name: [Unicode.Scalar]) -> Bool {
        var pieceIndex = 0, scalarIndex = 0
        var backtrack: (piece: Int, scalar: Int)?
        while scalarIndex < name.count {
            if pieceIndex < pieces.count {
                let scalar = name[scalarIndex]
                switch pieces[pieceIndex] {
                case .anyRun:
                    backtrack = (pieceIndex, scalarIndex)
                    pieceIndex += 1
                    continue
                case .anyScalar:
                    pieceIndex += 1
                    scalarIndex += 1
                    continue
                case .scalar(let expected) where expected == scalar:
                    pieceIndex += 1
                    scalarIndex += 1
                    continue
                case .scalarClass(let ranges, let negated) where ranges.contains { $0.contains(scalar) } != negated:
                    pieceIndex += 1
                    scalarIndex += 1
                    continue
                default:
                    break
                }
            }
            guard let point = backtrack else { return false }
            backtrack = (point.piece, point.scalar + 1)
            pieceIndex = point.piece + 1
            scalarIndex = point.scalar + 1
        }
        while pieceIndex < pieces.count, pieces[pieceIndex] == .anyRun { pieceIndex += 1 }
        return pieceIndex == pieces.count
    }

    private static func pieces(of scalars: [Unicode.Scalar]) throws(PathPatternError) -> [Piece] {
        var pieces: [Piece] = []
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "*":
                if pieces.last != .anyRun { pieces.append(.anyRun) }
                index += 1
            case "?":
                pieces.append(.anyScalar)
                index += 1
            case "[":
                var cursor = index + 1
                let negated = cursor < scalars.count && (scalars[cursor] == "!" || scalars[cursor] == "^")
                if negated { cursor += 1 }
                var ranges: [ClosedRange<Unicode.Scalar>] = []
                var isFirst = true
                while cursor < scalars.count, scalars[cursor] != "]" || isFirst {
                    isFirst = false
                    let low = scalars[cursor]
                    if cursor + 2 < scalars.count, scalars[cursor + 1] == "-", scalars[cursor + 2] != "]" {
                        let high = scalars[cursor + 2]
                        guard low <= high else {
                            throw PathPatternError(message: "the character range '\(low)-\(high)' is reversed")
                        }
                        ranges.append(low...high)
                        cursor += 3
                    } else {
                        ranges.append(low...low)
                        cursor += 1
                    }
                }
                guard cursor < scalars.count else {
                    throw PathPatternError(message: "'[' starts a character class that is never closed with ']'")
                }
                pieces.append(.scalarClass(ranges: ranges, negated: negated))
                index = cursor + 1
            case "\\" where index + 1 < scalars.count:
                pieces.append(.scalar(scalars[index + 1]))
                index += 2
            default:
                pieces.append(.scalar(scalar))
                index += 1
            }
        }
        return pieces
    }
}

struct PathPatternError: Error, Sendable, Hashable {
    let message: String
}
