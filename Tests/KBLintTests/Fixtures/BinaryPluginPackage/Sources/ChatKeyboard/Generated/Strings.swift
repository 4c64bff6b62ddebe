/// Excluded by the package's `.kblint.yml`: its stale disable comment must not be reported.
// kblint:disable:next generated_rule
public let chatTitle = "Chat"
