/// A source file whose only finding is the engine's: a disable comment that suppresses
/// nothing (`superfluous_disable_command`, a warning), so the fixture needs no real rule.
public struct ChatKeyboard {
    public init() {}

    // kblint:disable:next some_rule
    public var inset: Double { 0 }
}
