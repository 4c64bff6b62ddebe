/// The fixture's one finding is the engine's: a disable comment that suppresses nothing
/// (`superfluous_disable_command`, a warning), so no rule's behaviour matters here.
public struct ChatKeyboard {
    public init() {}

    // kblint:disable:next some_rule
    public var inset: Double { 0 }
}
