import Lexer

extension KeyboardVocabulary {
    /// The events a helper-type callback announces through its base name or an argument label
    /// (`keyboardWillChangeFrame(beginFrame:endFrame:)`, `keyboardHelper(_:keyboardWillShowWithState:)`).
    /// A `Bool` parameter labelled `keyboardWillShow:` is a flag the caller passes, not a
    /// callback label: `animate(keyboardWillShow: true, …)` is called by handlers, it is not one.
    static func callbackEvents(of function: FunctionDeclaration, in source: TokenizedSource) -> [KeyboardEvent] {
        var events: [KeyboardEvent] = []
        if let event = callbackEvent(function.name) { events.append(event) }
        for parameter in function.parameters {
            guard let event = callbackEvent(parameter.label), !events.contains(event) else { continue }
            let isFlag = parameter.type.count == 1 && source.isWord(parameter.type.lowerBound, "Bool")
            if !isFlag { events.append(event) }
        }
        return events
    }
}
