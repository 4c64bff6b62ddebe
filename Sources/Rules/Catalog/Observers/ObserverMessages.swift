import Lexer

/// Pieces of messages and diagnostics the observer rules share.
extension RuleMetadata {
    /// A diagnostic over code tokens `tokens` with a related place (in this file when
    /// `relatedPath` is nil).
    func diagnostic(
        _ analysis: FileAnalysis, at tokens: Range<Int>, message: String, suggestion: String,
        related: [RelatedLocation]
    ) -> Diagnostic {
        Diagnostic(
            ruleID: id, severity: defaultSeverity, message: message,
            range: analysis.source.byteRange(tokens), suggestion: suggestion, related: related)
    }
}

extension FileAnalysis {
    /// The 1-based line of code token `index`.
    func line(of index: Int) -> Int {
        guard index >= 0, index < source.code.count else { return 0 }
        return source.file.location(of: Int(source.code[index].start)).line
    }

    /// A related location at code token `index` of this file.
    func relatedLocation(at index: Int, _ message: String) -> RelatedLocation {
        RelatedLocation(range: source.byteRange(index..<(index + 1)), message: message)
    }

    /// How a message names what a registration observes: the keyboard notification's
    /// member name, else the name argument as written.
    func observedName(_ registration: RegisteredObserver) -> String {
        guard let name = registration.name else { return "the notification" }
        for index in name {
            if KeyboardVocabulary.notification(source, at: index) != nil
                || KeyboardVocabulary.message(source, at: index) != nil {
                return "`\(source.text(at: index))`"
            }
        }
        return "`\(snippet(name))`"
    }

    /// The name of method `function` as a message shows it (`viewWillAppear`).
    func methodName(_ function: FunctionID?) -> String {
        guard let function else { return "its method" }
        return outline[function].name
    }
}

extension LifecyclePhase {
    var methodName: String {
        switch self {
        case .setup: "viewDidLoad/init"
        case .willAppear: "viewWillAppear"
        case .didAppear: "viewDidAppear"
        case .willDisappear: "viewWillDisappear"
        case .didDisappear: "viewDidDisappear"
        case .teardown: "deinit"
        }
    }
}

extension FileAnalysis {
    /// `scrollView.contentInset` for a layout write, `view.layoutIfNeeded()` for a layout call.
    func layoutDescription(at token: Int) -> String {
        if let call = call(at: token) {
            return "`\(snippet(call.start..<(call.callee + 1)))()`"
        }
        let start = chainStart(endingAt: token)
        return "`\(snippet(start..<(token + 1)))`"
    }
}
