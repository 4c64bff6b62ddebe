/// Bounds of the loops that walk code. Each keeps a walk finite on any input (cycles in
/// broken code, pathological nesting or length) and sits far above what real code reaches,
/// so that on real code no bound decides an answer. Every walk is a loop (never recursion on
/// input depth), and each bound is a constant per question asked, so a file costs time
/// linear in its size.
public enum Limits {
    // MARK: Walks through structure

    /// Enclosing scopes a walk outward from a token visits (scopes, or types around types):
    /// bodies inside closures inside bodies rarely nest more than 20 deep.
    public static let enclosingScopes = 256

    /// Tokens a walk along one expression, statement or member chain visits at its own
    /// bracket level (bracket groups are passed over whole, as one step): real statements
    /// have at most a few hundred.
    public static let expressionTokens = 10_000

    /// Tokens a walk across one declaration's header or signature visits: modifiers and
    /// attributes before it, a type's inheritance clause, a property's type annotation, the
    /// names of one `let`/`var`, a closure's signature before `in`, the way to a body's `{`.
    /// Real headers have at most a few dozen.
    public static let declarationTokens = 512

    /// Bracket groups or wrappers (parentheses, `as` casts, `!`/`?`) nested inside one
    /// expression that a walk looks into. Each of n nested closures `{ a = { b = { … } } }`
    /// holds an assignment whose value would scan every closure inside it (n² work); real
    /// expressions nest far less deeply.
    public static let expressionNesting = 32

    // MARK: Following values

    /// Hops a value or fact is followed across: constants naming constants, passes of the
    /// keyboard value flow (through functions declared earlier, results, computed and stored
    /// properties), locals holding closures or publishers, calls nested as arguments, methods
    /// calling methods. Real code takes one or two.
    public static let valueHops = 4

    /// Items one work list takes (the places one accessory view may come from): a few are
    /// real; more is generated or adversarial code.
    public static let workItems = 64

    /// Links a walk along a keyboard handler's callers follows (a handler calling a helper
    /// calling another…).
    public static let handlerCallers = 16
    /// Functions a keyboard layout guide or one of its anchors is followed into through
    /// parameters (a helper passing it on to another).
    public static let guideParameterHops = 2
    /// Levels of helpers a lifecycle phase is carried through (`viewWillAppear` calling
    /// `startObserving` calling `addKeyboardObservers`).
    public static let lifecycleHelperLevels = 3
}
