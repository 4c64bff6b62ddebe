import Lexer

/// Where a finding sits in the code, in terms that survive edits elsewhere in the file: the
/// statement that holds its start, and the declarations around it. Baselines key accepted
/// findings by them, so that two findings on identical first lines (every multi-line
/// `addObserver(` call) are told apart by the rest of their statements and by the function
/// they are in, not by their order in the file alone.
public struct FindingAnchor: Sendable, Hashable {
    /// The statement's code tokens joined by single spaces (comments and layout dropped), up
    /// to its first `{`: a call with a trailing closure is the call, not the closure's body;
    /// a declaration is its header. At most `maximumTokens` tokens.
    public let statement: String
    /// The types, functions and properties around the statement, outermost first, joined by
    /// `.`; functions with their argument labels (`Chat.viewDidLoad()`, `Chat.show(_:animated:)`);
    /// empty at file level.
    public let declaration: String

    public static let maximumTokens = 400

    public init(statement: String, declaration: String) {
        self.statement = statement
        self.declaration = declaration
    }

    /// The anchors of byte offsets of `source` (each the start of a finding), in order.
    public static func anchors(of offsets: [Int], in source: TokenizedSource) -> [FindingAnchor] {
        guard !offsets.isEmpty else { return [] }
        let outline = Outline(source)
        return offsets.map { anchor(of: $0, in: source, outline: outline) }
    }

    /// The same, with the outline the file's model already holds.
    public static func anchors(of offsets: [Int], in model: FileModel) -> [FindingAnchor] {
        offsets.map { anchor(of: $0, in: model.source, outline: model.fileIndex.outline) }
    }

    private static func anchor(of offset: Int, in source: TokenizedSource, outline: Outline) -> FindingAnchor {
        let code = source.code
        // The first code token that ends after the offset: the finding's first token.
        var low = 0, high = code.count
        while low < high {
            let middle = (low + high) / 2
            if Int(code[middle].end) <= offset { low = middle + 1 } else { high = middle }
        }
        guard low < code.count else { return FindingAnchor(statement: "", declaration: "") }
        let start = ExpressionBounds.statementStart(source, containing: low)
        let end = min(statementEnd(source, from: start), start + maximumTokens)
        let statement = (start..<max(start + 1, end)).map { source.text(of: code[$0]) }.joined(separator: " ")
        return FindingAnchor(statement: statement, declaration: declaration(at: low, outline: outline))
    }

    /// The end of the statement from `start`: the next line that does not continue it, or a
    /// `{`, `}`, `;` or closing bracket at its level. Bracket groups are skipped whole.
    private static func statementEnd(_ source: TokenizedSource, from start: Int) -> Int {
        var cursor = start
        while cursor < source.code.count, cursor - start < maximumTokens {
            if cursor > start, source.startsLine(cursor), !ExpressionBounds.continuesLine(source, cursor) { return cursor }
            switch source.kind(cursor) {
            case .leftBrace, .rightBrace, .semicolon, .rightParen, .rightSquare, .stringInterpolationEnd:
                return cursor
            case .leftParen, .leftSquare, .leftAngle, .stringInterpolationStart:
                if let partner = source.partnerIndex(cursor) {
                    cursor = partner + 1
                    continue
                }
            default:
                break
            }
            cursor += 1
        }
        return cursor
    }

    private static func declaration(at index: Int, outline: Outline) -> String {
        var names: [String] = []
        for scope in outline.enclosingScopes(from: outline.scope(at: index)) {
            switch outline[scope].kind {
            case .type(let type):
                names.append(outline[type].name)
            case .function(let function):
                let declaration = outline[function]
                names.append(declaration.name + "(" + declaration.labels.map { $0 + ":" }.joined() + ")")
            case .property(let property):
                names.append(outline[property].name)
            case .accessor, .closure, .block:
                break
            }
        }
        return names.reversed().joined(separator: ".")
    }
}
