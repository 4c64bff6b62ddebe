/// The result of lexing one file: every token in order (comments included), the code view
/// that rules walk (comments left out) and the bracket table over the code view.
///
/// A value of this type is passed and stored everywhere in the analysis, so its fields live
/// in one immutable object: copying it costs one reference count, not one per field.
public struct TokenizedSource: Sendable {
    @usableFromInline
    final class Storage: Sendable {
        @usableFromInline let file: SourceFile
        @usableFromInline let tokens: [Token]
        @usableFromInline let code: [Token]
        @usableFromInline let partner: [Int32]

        init(file: SourceFile, tokens: [Token], code: [Token], partner: [Int32]) {
            self.file = file
            self.tokens = tokens
            self.code = code
            self.partner = partner
        }
    }

    @usableFromInline let storage: Storage

    @inlinable public var file: SourceFile { storage.file }
    /// All tokens, comments included, in source order. Bytes between tokens are trivia
    /// (whitespace, newlines, a BOM): tokens plus trivia reproduce the file byte for byte.
    @inlinable public var tokens: [Token] { storage.tokens }
    /// `tokens` without comments: what rules see.
    @inlinable public var code: [Token] { storage.code }
    /// For each index of `code`: the index of the partner bracket of a `(`/`)`, `[`/`]`,
    /// `{`/`}`, generic `<`/`>` or interpolation start/end, or -1. Unbalanced brackets have
    /// no partner.
    @inlinable public var partner: [Int32] { storage.partner }

    public init(file: SourceFile, tokens: [Token], code: [Token], partner: [Int32]) {
        storage = Storage(file: file, tokens: tokens, code: code, partner: partner)
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
