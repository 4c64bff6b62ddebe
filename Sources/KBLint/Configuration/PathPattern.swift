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
    /// `searchRoot` in UTF-8: the paths the pattern matches (or is an ancestor of) start
    /// with it, so most paths are turned down before they are split into components.
    private let literalPrefix: [UInt8]

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
        literalPrefix = Array(Self.searchRoot(of: segments).utf8)
    }

    var description: String { pattern }

    /// The absolute folder before the first wildcard: where a search for matching files can start.
    var searchRoot: String { Self.searchRoot(of: segments) }

    private static func searchRoot(of segments: [Segment]) -> String {
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
        mayMatch(absolutePath) && match(Components(absolutePath), allowingDescendants: false)
    }

    /// Whether the pattern matches `absolutePath` or one of the folders that contain it:
    /// `excluded: [Pods]` excludes every file under `Pods`.
    func matchesItselfOrAncestor(of absolutePath: String) -> Bool {
        mayMatch(absolutePath) && match(Components(absolutePath), allowingDescendants: true)
    }

    /// Whether `path` may match: the paths the pattern matches, or is an ancestor of, start
    /// with its literal prefix. Unless a combining mark follows their leading `/`: joined to
    /// it in one character, that `/` separates no components.
    private func mayMatch(_ path: String) -> Bool {
        let utf8 = path.utf8
        if utf8.starts(with: literalPrefix) { return true }
        let leadingSlashIsCharacter = utf8.first == UInt8(ascii: "/") && utf8.dropFirst().first ?? 0 < 0x80
        return !leadingSlashIsCharacter
    }

    /// A path split at its `/` characters (empty components left out): the Unicode scalars
    /// of every component in one array, so that splitting a path costs two allocations, not
    /// one per component.
    private struct Components {
        private var scalars: [Unicode.Scalar] = []
        private var ends: [Int] = []

        init(_ path: String) {
            scalars.reserveCapacity(path.utf8.count)
            var start = 0
            func endComponent() {
                if scalars.count > start { ends.append(scalars.count) }
                start = scalars.count
            }
            if path.utf8.allSatisfy({ $0 < 0x80 }) {
                // ASCII: each byte is a scalar, and a `/` byte a `/` character.
                for byte in path.utf8 {
                    if byte == UInt8(ascii: "/") { endComponent() } else { scalars.append(Unicode.Scalar(byte)) }
                }
            } else {
                for character in path {
                    if character == "/" { endComponent() } else { scalars.append(contentsOf: character.unicodeScalars) }
                }
            }
            endComponent()
        }

        var count: Int { ends.count }

        subscript(index: Int) -> ArraySlice<Unicode.Scalar> {
            scalars[(index == 0 ? 0 : ends[index - 1])..<ends[index]]
        }
    }

    /// Wildcard matching with one backtrack point: on a mismatch, the most recent `**`
    /// takes one more component. Correct for `*`-like wildcards and linear in practice.
    private func match(_ components: Components, allowingDescendants: Bool) -> Bool {
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

    private static func match(_ pieces: [Piece], _ name: ArraySlice<Unicode.Scalar>) -> Bool {
        var pieceIndex = 0, scalarIndex = name.startIndex
        var backtrack: (piece: Int, scalar: Int)?
        while scalarIndex < name.endIndex {
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
