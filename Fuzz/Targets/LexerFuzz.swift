import Lexer

/// libFuzzer entry for the lexer alone: any bytes must tokenize without trapping and keep
/// the token contract (see `FuzzChecks.checkTokens`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLexer(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let file = SourceFile(path: "Fuzz.swift", bytes: bytes)
    let source = Lexer.tokenize(file)
    FuzzChecks.checkTokens(source)
    // The line table must place every token.
    for token in source.tokens {
        let location = file.location(of: Int(token.start))
        FuzzChecks.require(location.line >= 1 && location.column >= 1, "bad location for offset \(token.start)")
    }
    _ = dumpTokens(source, includeComments: true)
    return 0
}
