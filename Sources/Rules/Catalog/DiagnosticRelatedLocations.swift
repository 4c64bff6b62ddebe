extension Diagnostic {
    /// The same diagnostic with `locations` appended to its related locations.
    func relating(_ locations: [RelatedLocation]) -> Diagnostic {
        Diagnostic(ruleID: ruleID, severity: severity, message: message, range: range, suggestion: suggestion,
                   fix: fix, related: related + locations)
    }
}
