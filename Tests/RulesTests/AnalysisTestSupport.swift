import Lexer
@testable import Rules

/// Builds the analysis of a snippet, as the driver would for a file.
func analyze(_ code: String, path: String = "Test.swift", project: ProjectFacts = .empty) -> FileAnalysis {
    let source = Lexer.tokenize(SourceFile(path: path, text: code))
    return FileAnalysis(source, project: project)
}

extension FileAnalysis {
    /// The code index of the `occurrence`-th token spelled `text` (0-based).
    func index(of text: String, occurrence: Int = 0) -> Int? {
        var seen = 0
        for index in source.code.indices where source.text(at: index) == text {
            if seen == occurrence { return index }
            seen += 1
        }
        return nil
    }

    func text(_ range: Range<Int>) -> String { source.text(spanning: range) }

    /// Where a token or cancellable is kept, for assertions.
    func describe(_ store: TokenStore) -> String {
        switch store {
        case .discarded: "discarded"
        case .storedInProperty(let property, _): "property \(source.text(at: property))"
        case .storedInLocal(let name): "local \(source.text(at: name))"
        case .passedOn: "passed"
        }
    }

    /// The keyboard value of the expression bound to local `name` (its first binding).
    func boundValue(_ name: String) -> KeyboardValue? {
        guard let binding = bindings.first(where: { source.text(at: $0.nameToken) == name }),
              let value = binding.value else { return nil }
        return keyboardValue(of: value)
    }

    /// Names of the functions or closure-calls behind each handler, for assertions.
    func handlerSummaries() -> [String] {
        handlers.map { handler in
            let scope = outline[handler.scope]
            switch scope.kind {
            case .function(let function): return "\(handler.form):\(outline[function].name)"
            case .closure(let closure):
                let callee = outline[closure].call.map { source.text(at: calls[$0].callee) } ?? "?"
                return "\(handler.form):{\(callee)}"
            case .accessor(let property, let kind): return "\(handler.form):\(outline[property].name).\(kind)"
            case .block(let keyword): return "\(handler.form):\(source.text(at: keyword))"
            default: return "\(handler.form):?"
            }
        }
    }
}
