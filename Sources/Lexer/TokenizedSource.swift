/// The result of lexing one file: every token in order (comments included), the code view
/// that rules walk (comments left out) and the bracket table over the code view.
///
/// A value of this type is passed and stored everywhere in the analysis, so its fields live
/// in one immutable object: copying it costs one reference count, not one per field.
public struct TokenizedSource: Sendable {
    @usableFromInline
    final class Storage: Sendable {
        @usableFromInline let file: SourceFile
        @usableFromInline let code: [Token]
        @usableFromInline let partner: [Int32]
        /// The tokens `code` leaves out, so that no token is kept twice: a file's model is
        /// kept for the whole run, and few readers want its comments.
        let setAside: SetAsideTokens

        init(file: SourceFile, code: [Token], partner: [Int32], setAside: SetAsideTokens) {
            self.file = file
            self.code = code
            self.partner = partner
            self.setAside = setAside
        }
    }

    @usableFromInline let storage: Storage

    @inlinable public var file: SourceFile { storage.file }
    /// All tokens, comments included, in source order. Bytes between tokens are trivia
    /// (whitespace, newlines, a BOM): tokens plus trivia reproduce the file byte for byte.
    /// Put together from `code` and the tokens it leaves out on each read: read it once, not
    /// per token.
    public var tokens: [Token] { storage.setAside.tokens(around: storage.code) }
    /// How many tokens `tokens` holds, without putting them together.
    public var tokenCount: Int { storage.code.count + storage.setAside.tokens.count }
    /// `tokens` without comments: what rules see.
    @inlinable public var code: [Token] { storage.code }
    /// For each index of `code`: the index of the partner bracket of a `(`/`)`, `[`/`]`,
    /// `{`/`}`, generic `<`/`>` or interpolation start/end, or -1. Unbalanced brackets have
    /// no partner.
    @inlinable public var partner: [Int32] { storage.partner }

    /// The tokens of `file` as `brackets` holds them: the code view, its bracket partners and
    /// the tokens it leaves out.
    init(file: SourceFile, brackets: BracketTable) {
        storage = Storage(file: file, code: brackets.code, partner: brackets.partner, setAside: brackets.setAside)
    }

    /// The source text of a token.
    public func text(of token: Token) -> String { file.text(token.range) }

    /// Whether `token` spells exactly `word` (compares bytes, allocates nothing). Inlinable:
    /// the analysis asks this for most tokens of every file it reads.
    @inlinable
    public func token(_ token: Token, is word: StaticString) -> Bool {
        let length = word.utf8CodeUnitCount
        guard token.length == length else { return false }
        return file.bytes.withUnsafeBufferPointer { buffer in
            let start = Int(token.start)
            let expected = word.utf8Start
            for index in 0..<length where buffer[start + index] != expected[index] { return false }
            return true
        }
    }
}
