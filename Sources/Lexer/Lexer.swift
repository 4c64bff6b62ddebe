/// Swift's lexical grammar on UTF-8 bytes.
///
/// One forward pass with a small explicit stack for strings and interpolations (never
/// recursion on input depth), then a pass that recognises generic angle brackets, then the
/// bracket table. Every input is accepted: bytes that are not Swift become `unknown` tokens
/// and constructs left open at the end of the file are flagged `unterminated`.
public enum Lexer {
    public static func tokenize(_ file: SourceFile) -> TokenizedSource {
        let tokens = file.bytes.withUnsafeBufferPointer { buffer -> [Token] in
            var pass = LexingPass(bytes: buffer)
            pass.run()
            if !pass.angleCandidates.isEmpty {
                GenericAngleResolution.resolve(&pass.tokens, candidates: pass.angleCandidates, bytes: buffer)
            }
            return pass.tokens
        }
        let table = BracketTable(tokens: tokens)
        return TokenizedSource(file: file, tokens: tokens, code: table.code, partner: table.partner)
    }
}
