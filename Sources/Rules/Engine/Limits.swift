/// Bounds of the loops that walk code. Each keeps a walk finite on any input (cycles in
/// broken code, pathological nesting) and sits far above what real code reaches, so that on
/// real code no bound decides an answer.
public enum Limits {
    /// Enclosing scopes a walk outward from a token visits: bodies inside closures inside
    /// bodies rarely nest more than 20 deep.
    public static let enclosingScopes = 256
    /// Links a walk along a keyboard handler's callers follows (a handler calling a helper
    /// calling another…).
    public static let handlerCallers = 16
    /// Functions a keyboard layout guide or one of its anchors is followed into through
    /// parameters (a helper passing it on to another).
    public static let guideParameterHops = 2
    /// Tokens looked at going back from a name bound in an enum case pattern to the pattern's
    /// opening parenthesis (`case .toolbar(let bar)`).
    public static let casePatternLength = 64
}
