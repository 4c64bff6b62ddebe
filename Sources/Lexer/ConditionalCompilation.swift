/// Which tokens an iOS build compiles. kblint checks iOS keyboard code, so the code view leaves
/// out the branches of `#if … #elseif … #else … #endif` that an iOS build never compiles:
/// `os(macOS)` and every other non-iOS `os(…)`, `targetEnvironment(macCatalyst)`,
/// `canImport(AppKit)`, the body of `#if false`/`#if 0` and the branches after one whose
/// condition is always true (`#if true`, `#if os(iOS)`, `#if canImport(UIKit)`).
///
/// A condition is read with three values: true, false and unknown. Build flags (`DEBUG`,
/// custom ones), `swift(…)`, `compiler(…)`, `arch(…)`, `targetEnvironment(simulator)` and
/// anything not understood are unknown, and an unknown condition keeps its branch and every
/// later branch of the chain live, so nothing that might be iOS code is ever dropped.
/// The directive lines themselves stay in the code view when their enclosing region is live.
enum ConditionalCompilation {
    /// Conditions nested deeper than this (parentheses, `!`) read as unknown.
    static let maximumConditionDepth = 32

    enum Truth {
        case yes, no, unknown

        var negated: Truth {
            switch self {
            case .yes: .no
            case .no: .yes
            case .unknown: .unknown
            }
        }
    }

    /// For each token, whether an iOS build compiles it. Only files with an `#if` need
    /// asking (the lexer notes one); without, every token is live.
    static func liveTokens(_ tokens: UnsafeBufferPointer<Token>, bytes: UnsafeBufferPointer<UInt8>) -> [Bool] {
        var live = [Bool](repeating: true, count: tokens.count)
        // One frame per open `#if`: whether its enclosing region is live, whether a branch of
        // the chain is certainly taken, and whether the current branch is live.
        var frames: [(enclosingLive: Bool, taken: Bool, branchLive: Bool)] = []
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            let regionLive = frames.last?.branchLive ?? true
            guard token.kind == .poundKeyword else {
                live[index] = regionLive
                index += 1
                continue
            }
            if spells(token, "#if") {
                let (truth, end) = condition(after: index, tokens, bytes)
                frames.append((regionLive, truth == .yes, regionLive && truth != .no))
                for position in index..<end { live[position] = regionLive }
                index = end
            } else if spells(token, "#elseif"), let frame = frames.last {
                let (truth, end) = condition(after: index, tokens, bytes)
                frames[frames.count - 1] = (
                    frame.enclosingLive, frame.taken || truth == .yes,
                    frame.enclosingLive && !frame.taken && truth != .no)
                for position in index..<end { live[position] = frame.enclosingLive }
                index = end
            } else if spells(token, "#else"), let frame = frames.last {
                frames[frames.count - 1] = (frame.enclosingLive, true, frame.enclosingLive && !frame.taken)
                live[index] = frame.enclosingLive
                index += 1
            } else if spells(token, "#endif"), let frame = frames.popLast() {
                live[index] = frame.enclosingLive
                index += 1
            } else {
                live[index] = regionLive
                index += 1
            }
        }
        return live

        func spells(_ token: Token, _ word: StaticString) -> Bool { ConditionalCompilation.spells(token, word, bytes) }
    }

    /// The truth of the condition after the directive at `directive` and the index of the
    /// first token after it (the condition ends at the first token that starts a line outside
    /// parentheses).
    static func condition(
        after directive: Int, _ tokens: UnsafeBufferPointer<Token>, _ bytes: UnsafeBufferPointer<UInt8>
    ) -> (Truth, Int) {
        var parts: [Token] = []
        var end = directive + 1
        var depth = 0
        while end < tokens.count {
            let token = tokens[end]
            if token.isAtStartOfLine, depth == 0, !token.kind.isComment { break }
            if !token.kind.isComment { parts.append(token) }
            if token.kind == .leftParen { depth += 1 }
            if token.kind == .rightParen { depth = max(0, depth - 1) }
            end += 1
        }
        var reader = ConditionReader(parts: parts, bytes: bytes)
        let truth = reader.disjunction(depth: 0)
        return (reader.position == parts.count ? truth : .unknown, end)
    }

    static func spells(_ token: Token, _ word: StaticString, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let length = word.utf8CodeUnitCount
        guard token.length == length, Int(token.end) <= bytes.count else { return false }
        let expected = word.utf8Start
        for offset in 0..<length where bytes[Int(token.start) + offset] != expected[offset] { return false }
        return true
    }
}

/// Reads `a || b`, `a && b`, `!a`, `(a)`, `true`/`false`/`0`/`1` and the platform
/// conditions `os(…)`, `targetEnvironment(…)` and `canImport(…)`, with Kleene's three-valued
/// logic so that an unknown operand never decides a branch on its own.
private struct ConditionReader {
    typealias Truth = ConditionalCompilation.Truth
    let parts: [Token]
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    init(parts: [Token], bytes: UnsafeBufferPointer<UInt8>) {
        self.parts = parts
        self.bytes = bytes
    }

    func spells(_ offset: Int, _ word: StaticString) -> Bool {
        position + offset < parts.count && ConditionalCompilation.spells(parts[position + offset], word, bytes)
    }

    func kindAt(_ offset: Int) -> TokenKind? {
        position + offset < parts.count ? parts[position + offset].kind : nil
    }

    mutating func disjunction(depth: Int) -> Truth {
        var result = conjunction(depth: depth)
        while kindAt(0) == .binaryOperator, spells(0, "||") {
            position += 1
            let right = conjunction(depth: depth)
            result = result == .yes || right == .yes ? .yes : (result == .no && right == .no ? .no : .unknown)
        }
        return result
    }

    mutating func conjunction(depth: Int) -> Truth {
        var result = operand(depth: depth)
        while kindAt(0) == .binaryOperator, spells(0, "&&") {
            position += 1
            let right = operand(depth: depth)
            result = result == .no || right == .no ? .no : (result == .yes && right == .yes ? .yes : .unknown)
        }
        return result
    }

    mutating func operand(depth: Int) -> Truth {
        guard depth < ConditionalCompilation.maximumConditionDepth, let kind = kindAt(0) else {
            position = parts.count + 1  // makes the whole condition unknown
            return .unknown
        }
        switch kind {
        case .prefixOperator where spells(0, "!"):
            position += 1
            return operand(depth: depth + 1).negated
        case .leftParen:
            position += 1
            let inner = disjunction(depth: depth + 1)
            guard kindAt(0) == .rightParen else {
                position = parts.count + 1
                return .unknown
            }
            position += 1
            return inner
        case .keyword where spells(0, "true"), .integerLiteral where spells(0, "1"):
            position += 1
            return .yes
        case .keyword where spells(0, "false"), .integerLiteral where spells(0, "0"):
            position += 1
            return .no
        case .identifier where kindAt(1) == .leftParen:
            return platformCondition()
        case .identifier:
            position += 1  // a build flag: DEBUG, a custom -D flag
            return .unknown
        default:
            position = parts.count + 1
            return .unknown
        }
    }

    /// `name(argument)` with one name argument; anything else in the parentheses (`swift(>=5)`,
    /// `compiler(<6)`) is skipped and reads as unknown.
    mutating func platformCondition() -> Truth {
        let name = position
        position += 2
        var argument: Int?
        if kindAt(0) == .identifier, kindAt(1) == .rightParen { argument = position }
        while let kind = kindAt(0), kind != .rightParen { position += 1 }
        guard kindAt(0) == .rightParen else { return .unknown }
        position += 1
        guard let argument else { return .unknown }
        func named(_ index: Int, _ word: StaticString) -> Bool { ConditionalCompilation.spells(parts[index], word, bytes) }
        if named(name, "os") {
            return named(argument, "iOS") ? .yes : .no
        }
        if named(name, "targetEnvironment") {
            return named(argument, "macCatalyst") ? .no : .unknown
        }
        if named(name, "canImport") {
            if named(argument, "UIKit") { return .yes }
            if named(argument, "AppKit") || named(argument, "Cocoa") || named(argument, "WatchKit") { return .no }
        }
        return .unknown
    }
}
