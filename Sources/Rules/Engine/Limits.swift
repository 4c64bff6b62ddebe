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
    /// Levels of helpers a lifecycle phase is carried through (`viewWillAppear` calling
    /// `startObserving` calling `addKeyboardObservers`).
    public static let lifecycleHelperLevels = 3
}
