import Lexer

/// A call as another file sees it: the base name and the argument labels, and whose method
/// it can mean.
struct CallShape: Sendable, Hashable {
    let name: String
    /// Labels of the arguments in parentheses (nil: unlabelled).
    let labels: [String?]
    /// Labels of the trailing closures (nil for the first).
    let trailingLabels: [String?]
    /// For a call on `self` or without receiver: the qualified name of the caller's type
    /// (nil outside types). A call on another receiver can mean a method of any type.
    let selfType: String?
    let isOnSelf: Bool
}

/// A keyboard value passed to a function of another file, reduced to what that file can use:
/// its traits, and whether the caller already read geometry off the keyboard frame (in
/// screen space or not). Token positions stay in the caller's file.
struct PassedKeyboardValue: Sendable, Hashable {
    let traits: KeyboardValue.Traits
    let readsGeometry: Bool
    let readsScreenGeometry: Bool

    init(_ value: KeyboardValue) {
        traits = value.traits
        readsGeometry = value.geometry != nil
        readsScreenGeometry = value.screenGeometry != nil
    }

    /// The value as the parameter at `token` holds it. What the caller's file reports
    /// itself (geometry read in screen space, the begin-frame key) is not reported again.
    func value(at token: Int) -> KeyboardValue {
        var traits = traits
        if readsScreenGeometry { traits.remove(.screenSpace) }
        if traits.contains(.frameBegin) {
            traits.remove(.frameBegin)
            traits.insert(.frameEnd)
        }
        var value = KeyboardValue(traits: traits, origin: token)
        if readsGeometry { value.geometry = token }
        return value
    }
}

/// Keyboard values a keyboard handler's call passes to a function its file does not declare:
/// the file that declares the function (an extension of `UIScrollView`, a helper of the same
/// type) gets them as the values of its parameters (`FileFacts.keyboardArguments`).
struct KeyboardArgumentFact: Sendable, Hashable {
    let call: CallShape
    /// Per argument in parentheses that carries a keyboard value: its position and value.
    let arguments: [Int: PassedKeyboardValue]
    /// Per argument that is a `UIEdgeInsets(…)` whose `bottom:` carries one: that value.
    let insetBottoms: [Int: PassedKeyboardValue]
}

extension KeyboardValueEvaluator {
    /// The calls of keyboard handlers that pass keyboard values to a function no declaration
    /// of this file has (by base name), for `FileFacts.keyboardArguments`.
    func argumentFacts() -> [KeyboardArgumentFact] {
        var found: [KeyboardArgumentFact] = []
        let calls = self.calls
        for index in calls.indices where !calls[index].arguments.isEmpty && isInHandler(calls[index].callee) {
            let call = calls[index]
            guard LifecycleGraph.mayNameMethod(source, call.callee),
                  outline.functions(named: source.nameHash(call.callee)).isEmpty else { continue }
            var arguments: [Int: PassedKeyboardValue] = [:]
            var bottoms: [Int: PassedKeyboardValue] = [:]
            for (position, argument) in call.arguments.enumerated() {
                guard let value = value(of: argument.value), value.isKeyboard else { continue }
                arguments[position] = PassedKeyboardValue(value)
                if let insets = Self.edgeInsetsCall(source, argument.value, fileIndex.callAtCallee, calls),
                   let bottom = insets.arguments.first(where: { $0.hasLabel("bottom", source) }),
                   let bottomValue = self.value(of: bottom.value) {
                    bottoms[position] = PassedKeyboardValue(bottomValue)
                }
            }
            guard !arguments.isEmpty else { continue }
            let isOnSelf = call.isOnSelf(source)
            found.append(KeyboardArgumentFact(
                call: CallShape(
                    name: source.text(at: call.callee),
                    labels: call.arguments.map { $0.label.map { source.text(at: $0) } },
                    trailingLabels: call.trailingClosures.map { $0.label.map { source.text(at: $0) } },
                    selfType: isOnSelf ? outline.enclosingType(at: call.callee).map { outline[$0].qualifiedName } : nil,
                    isOnSelf: isOnSelf),
                arguments: arguments, insetBottoms: bottoms))
        }
        return found
    }

    /// Whether the call `shape` of another file can mean `function` of this file: the same
    /// base name, a method of the caller's own type (or a file-level function) for a call on
    /// `self`, any function for a call on another receiver; and parameters that take its
    /// arguments (the one call resolver's `parameterPositions`).
    func parameterPositions(of shape: CallShape, for function: FunctionDeclaration) -> [Int]? {
        guard function.kind == .function, function.scope != nil, function.name == shape.name else { return nil }
        if shape.isOnSelf {
            let owner = function.owner.map { outline[$0].qualifiedName }
            guard owner == nil || owner == shape.selfType else { return nil }
        } else if function.owner == nil {
            return nil
        }
        return fileIndex.parameterPositions(of: shape, for: function)
    }
}
