/// Swift's lexical grammar on UTF-8 bytes.
///
/// One forward pass with a small explicit stack for strings and interpolations (never
/// recursion on input depth), then a pass that recognises generic angle brackets, then the
/// `#if` branches an iOS build compiles, then the code view and its bracket table. Every
/// input is accepted: bytes that are not Swift become `unknown` tokens and constructs left
/// open at the end of the file are flagged `unterminated`.
public enum Lexer {
    public static func tokenize(_ file: SourceFile) -> TokenizedSource {
        let brackets = file.bytes.withUnsafeBufferPointer { buffer -> BracketTable in
            var pass = LexingPass(bytes: buffer)
            pass.run()
            defer { pass.deallocateTokens() }
            let lexed = pass.lexedTokens
            // The code view is built straight from the pass's tokens, unless generic brackets
            // may cut operator tokens into pieces: that needs an array that can grow.
            guard !pass.angleCandidates.isEmpty else {
                return codeView(lexed, bytes: buffer, hasConditionalCompilation: pass.hasConditionalCompilation)
            }
            var tokens = [Token](unsafeUninitializedCapacity: lexed.count) { copy, copied in
                copied = copy.initialize(fromContentsOf: lexed)
            }
            GenericAngleResolution.resolve(&tokens, candidates: pass.angleCandidates, bytes: buffer)
            return tokens.withUnsafeBufferPointer {
                codeView($0, bytes: buffer, hasConditionalCompilation: pass.hasConditionalCompilation)
            }
        }
        return TokenizedSource(file: file, brackets: brackets)
    }

    /// The code view of the finished `tokens`; only a file with an `#if` can leave a branch out.
    private static func codeView(
        _ tokens: UnsafeBufferPointer<Token>, bytes: UnsafeBufferPointer<UInt8>, hasConditionalCompilation: Bool
    ) -> BracketTable {
        let live = hasConditionalCompilation ? ConditionalCompilation.liveTokens(tokens, bytes: bytes) : nil
        return BracketTable(tokens: tokens, live: live)
    }
}
