/// Swift's lexical grammar on UTF-8 bytes.
///
/// One forward pass with a small explicit stack for strings and interpolations (never
/// recursion on input depth), then a pass that recognises generic angle brackets, then the
/// `#if` branches an iOS build compiles, then the code view and its bracket table. Every
/// input is accepted: bytes that are not Swift become `unknown` tokens and constructs left
/// open at the end of the file are flagged `unterminated`.
public enum Lexer {
    public static func tokenize(_ file: SourceFile) -> TokenizedSource {
        let (tokens, live) = file.bytes.withUnsafeBufferPointer { buffer -> ([Token], [Bool]?) in
            var pass = LexingPass(bytes: buffer)
            pass.run()
            if !pass.angleCandidates.isEmpty {
                GenericAngleResolution.resolve(&pass.tokens, candidates: pass.angleCandidates, bytes: buffer)
            }
            guard pass.hasConditionalCompilation else { return (pass.tokens, nil) }
            let live = pass.tokens.withUnsafeBufferPointer { ConditionalCompilation.liveTokens($0, bytes: buffer) }
            return (pass.tokens, live)
        }
        return TokenizedSource(file: file, brackets: BracketTable(tokens: tokens, live: live))
    }
}
