import Lexer

/// One argument of a call: its label token (nil when unlabelled) and value tokens.
struct Argument: Sendable {
    let label: Int?
    let value: Range<Int>
    /// The closure when the value is a closure literal.
    let closure: ClosureID?

    func hasLabel(_ word: StaticString, _ source: TokenizedSource) -> Bool {
        label.map { source.isWord($0, word) } ?? false
    }
}

/// A trailing closure of a call and its label (nil for the first).
typealias TrailingClosure = (closure: ClosureID, label: Int?)

/// The arguments and trailing closures of every call of a file, each call's a run of these
/// tables (`CallSite.arguments`): a few allocations for the file rather than up to two per
/// call, and copying a call retains one object.
final class CallArgumentTables: Sendable {
    let arguments: [Argument]
    let trailingClosures: [TrailingClosure]

    init(arguments: [Argument], trailingClosures: [TrailingClosure]) {
        self.arguments = arguments
        self.trailingClosures = trailingClosures
    }
}

/// A run of a file-wide table read like an array of its own: positions from 0 to `count`.
struct TableRun<Element>: RandomAccessCollection {
    private let table: [Element]
    private let run: Range<Int>

    /// `run`: positions within `table`.
    init(_ table: [Element], _ run: Range<Int>) {
        self.table = table
        self.run = run
    }

    var startIndex: Int { 0 }
    var endIndex: Int { run.count }

    subscript(position: Int) -> Element {
        precondition(position >= 0 && position < run.count, "Index out of range")
        return table[run.lowerBound + position]
    }
}

/// A call: `callee(args) { trailing } label: { trailing }`, `Type(…)`, `x.method(…)`,
/// `Task { … }`. Positions are code-token indices.
struct CallSite: Sendable {
    /// The called name (`animate` in `UIView.animate(…)`).
    let callee: Int
    /// The receiver chain before `.callee`, if any (`UIView`).
    let receiver: Range<Int>?
    let openParen: Int?
    let closeParen: Int?
    /// The file's tables that hold the call's arguments and trailing closures.
    private let tables: CallArgumentTables
    private let argumentRun: Range<Int>
    private let trailingRun: Range<Int>
    /// The last token of the call, trailing closures included.
    let end: Int

    /// `argumentRun` and `trailingRun`: the call's positions in `tables`.
    init(callee: Int, receiver: Range<Int>?, openParen: Int?, closeParen: Int?, tables: CallArgumentTables,
         argumentRun: Range<Int>, trailingRun: Range<Int>, end: Int) {
        self.callee = callee
        self.receiver = receiver
        self.openParen = openParen
        self.closeParen = closeParen
        self.tables = tables
        self.argumentRun = argumentRun
        self.trailingRun = trailingRun
        self.end = end
    }

    /// The arguments in the parentheses, in order.
    var arguments: TableRun<Argument> { TableRun(tables.arguments, argumentRun) }
    /// Trailing closures in order with their labels (nil for the first).
    var trailingClosures: TableRun<TrailingClosure> { TableRun(tables.trailingClosures, trailingRun) }

    /// The first token of the whole call expression (receiver included).
    var start: Int { receiver?.lowerBound ?? callee }

    /// The argument labelled `label` (in the parentheses; trailing closures have none).
    func argument(_ label: StaticString, _ source: TokenizedSource) -> Argument? {
        arguments.first { $0.hasLabel(label, source) }
    }

    /// The closure literals it passes: closure arguments, then trailing closures.
    var handlerClosures: [ClosureID] {
        arguments.compactMap(\.closure) + trailingClosures.map(\.closure)
    }

    /// Whether the call is made on `self` (or a captured `strongSelf`/`weakSelf`), explicitly
    /// or implicitly (no receiver, and no implicit member such as `.init(…)`): a call that can
    /// mean a method of the caller's own type.
    func isOnSelf(_ source: TokenizedSource) -> Bool {
        Self.isOnSelf(receiver: receiver, callee: callee, source)
    }

    /// `isOnSelf` from the two fields it reads, for loops over every call of a file that
    /// read them in place rather than copy each call.
    static func isOnSelf(receiver: Range<Int>?, callee: Int, _ source: TokenizedSource) -> Bool {
        guard let receiver else { return source.kind(callee - 1) != .period }
        guard let name = ExpressionBounds.soleChainName(source, receiver) else { return false }
        return source.wordIndex(name, in: ["self", "Self", "strongSelf", "weakSelf"]) != nil
    }
}

/// `lhs = rhs` or `lhs op= rhs` (not declarations).
struct Assignment: Sendable {
    let lhs: Range<Int>
    /// The `=` or compound operator token.
    let op: Int
    let rhs: Range<Int>
    let isCompound: Bool
}

/// `let`/`var`/`guard let`/`if let` (and shorthand `if let x`) inside code.
struct LocalBinding: Sendable {
    let nameToken: Int
    let nameHash: UInt64
    /// The bound expression; for shorthand `if let x` the name itself (the outer `x`).
    let value: Range<Int>?
    let isShorthand: Bool
    let isVariable: Bool
    /// The tokens where the name refers to this binding (within its body): from the end of
    /// its value on, and only inside the body of the `if`/`while` whose condition binds it.
    let visibility: Range<Int>
}

struct MatchingBuilder {
    let source: TokenizedSource
    let outline: Outline
    let chainStarts: ChainStarts
    /// The calls read so far (`callSites()` completes them), their arguments and trailing
    /// closures.
    private var pendingCalls: [PendingCall] = []
    private var arguments: [Argument] = []
    private var trailingClosures: [TrailingClosure] = []
    var closureCalls: [(closure: ClosureID, call: Int, label: Int?, trailing: Bool)] = []
    var assignments: [Assignment] = []
    var bindings: [LocalBinding] = []

    /// A call before the file's argument tables exist: `CallSite` without them.
    private struct PendingCall {
        let callee: Int
        let receiver: Range<Int>?
        let openParen: Int?
        let closeParen: Int?
        let argumentRun: Range<Int>
        let trailingRun: Range<Int>
        let end: Int
    }

    /// The body (scope index) of each control keyword (`if`, `while`, …) by its token.
    let bodyOfControl: TokenTable

    init(source: TokenizedSource, outline: Outline, chainStarts: ChainStarts) {
        self.source = source
        self.outline = outline
        self.chainStarts = chainStarts
        var bodyOfControl = TokenTable(tokenCount: source.code.count)
        for (index, scope) in outline.scopes.enumerated() {
            if case .block(let keyword) = scope.kind, source.code.indices.contains(keyword), bodyOfControl[keyword] == nil {
                bodyOfControl[keyword] = index
            }
        }
        self.bodyOfControl = bodyOfControl
    }

    /// Where a binding of `name` whose value ends before `valueEnd` is visible.
    func visibility(of name: Int, valueEnd: Int, inCondition: Bool) -> Range<Int> {
        guard inCondition else { return valueEnd..<Int.max }
        let start = ExpressionBounds.statementStart(source, containing: name)
        guard source.isWord(start, "if") || source.isWord(start, "while") else { return valueEnd..<Int.max }
        guard let body = bodyOfControl[start] else { return valueEnd..<valueEnd }
        return valueEnd..<max(valueEnd, outline[ScopeID(body)].close + 1)
    }

    /// Inlined: asked for the token after most names and arguments, which is mostly no `{`.
    @inline(__always)
    func closure(openingAt brace: Int) -> ClosureID? {
        guard source.kind(brace) == .leftBrace, let scope = outline.scope(at: brace) else { return nil }
        let opened = outline.scopes[scope.rawValue]
        guard opened.open == brace, case .closure(let closure) = opened.kind else { return nil }
        return closure
    }

    mutating func run() {
        // A closure literal is an argument of one call at most: the links fit this room.
        closureCalls.reserveCapacity(outline.closures.count)
        let count = source.code.count
        var index = 0
        while index < count {
            switch source.kind(index) {
            case .identifier:
                // A call's name is followed by its arguments, generic arguments or trailing
                // closure (`recordCall` needs one of them): other names are passed over here.
                switch source.kind(index + 1) {
                case .leftParen, .leftAngle, .leftBrace: recordCall(index)
                default: break
                }
            case .keyword:
                if source.isWord(index, "init") {
                    if source.kind(index - 1) == .period { recordCall(index) }
                } else if source.isWord(index, "let") || source.isWord(index, "var") {
                    recordBindings(index)
                }
            case .equal:
                recordAssignment(index, compound: false)
            case .binaryOperator:
                if source.wordIndexOperator(index, in: ExpressionBounds.compoundAssignmentOperators) {
                    recordAssignment(index, compound: true)
                }
            default:
                break
            }
            index += 1
        }
    }

    /// The calls recorded, in the order `recordCall` found them, sharing one set of
    /// argument tables.
    func callSites() -> [CallSite] {
        let tables = CallArgumentTables(arguments: arguments, trailingClosures: trailingClosures)
        return pendingCalls.map { call in
            CallSite(callee: call.callee, receiver: call.receiver, openParen: call.openParen, closeParen: call.closeParen,
                     tables: tables, argumentRun: call.argumentRun, trailingRun: call.trailingRun, end: call.end)
        }
    }

    mutating func recordCall(_ callee: Int) {
        if source.kind(callee - 1) == .keyword, source.isWord(callee - 1, "func") { return }
        var next = callee + 1
        if source.kind(next) == .leftAngle, let close = source.partnerIndex(next) { next = close + 1 }
        var openParen: Int?, closeParen: Int?
        var argumentRun = arguments.count..<arguments.count
        var end = callee
        if source.kind(next) == .leftParen, !source.startsLine(next), let close = source.partnerIndex(next) {
            openParen = next
            closeParen = close
            argumentRun = splitArguments(next, close)
            end = close
            next = close + 1
        } else if closure(openingAt: next) == nil {
            return
        }
        let callIndex = pendingCalls.count
        let trailingStart = trailingClosures.count
        if let first = closure(openingAt: next), let close = source.partnerIndex(next) {
            trailingClosures.append((first, nil))
            end = close
            // Multiple trailing closures: `} label: {`.
            var cursor = close + 1
            while source.kind(cursor) == .identifier, source.kind(cursor + 1) == .colon,
                  let more = closure(openingAt: cursor + 2), let moreClose = source.partnerIndex(cursor + 2) {
                trailingClosures.append((more, cursor))
                end = moreClose
                cursor = moreClose + 1
            }
        }
        let trailingRun = trailingStart..<trailingClosures.count
        for position in argumentRun {
            if let closure = arguments[position].closure {
                closureCalls.append((closure, callIndex, arguments[position].label, false))
            }
        }
        for position in trailingRun {
            closureCalls.append((trailingClosures[position].closure, callIndex, trailingClosures[position].label, true))
        }
        var receiver: Range<Int>?
        if source.kind(callee - 1) == .period, ExpressionBounds.isChainPiece(source, callee - 2) {
            receiver = chainStarts.chainStart(endingAt: callee - 2)..<(callee - 1)
        }
        pendingCalls.append(PendingCall(
            callee: callee, receiver: receiver, openParen: openParen, closeParen: closeParen,
            argumentRun: argumentRun, trailingRun: trailingRun, end: end))
    }

    /// Appends the arguments between `open` and `close` to `arguments`; returns their run.
    mutating func splitArguments(_ open: Int, _ close: Int) -> Range<Int> {
        let start = arguments.count
        var cursor = open + 1
        while cursor < close {
            var label: Int?
            var valueStart = cursor
            let kind = source.kind(cursor)
            if kind == .identifier || kind == .keyword, source.kind(cursor + 1) == .colon {
                label = cursor
                valueStart = cursor + 2
            }
            let end = source.firstTopLevel(in: valueStart..<close) { source.kind($0) == .comma } ?? close
            var closure: ClosureID?
            if let brace = self.closure(openingAt: valueStart), source.partnerIndex(valueStart) == end - 1 {
                closure = brace
            }
            arguments.append(Argument(label: label, value: valueStart..<end, closure: closure))
            cursor = end + 1
        }
        return start..<arguments.count
    }

    mutating func recordAssignment(_ op: Int, compound: Bool) {
        guard op > 0 else { return }
        let lhsEnd = op - 1
        let lhsStart = chainStarts.chainStart(endingAt: lhsEnd)
        guard lhsStart <= lhsEnd, source.kind(lhsStart) != .leftParen else { return }
        let before = lhsStart - 1
        if source.kind(before) == .keyword,
           source.wordIndex(before, in: ["let", "var", "case", "typealias", "associatedtype", "for"]) != nil {
            return
        }
        if source.kind(before) == .colon || source.kind(before) == .arrow || source.kind(before) == .comma
            || source.kind(before) == .leftParen {
            // A type annotation, a parameter default or a labelled argument, unless the colon
            // ends a `case …:`/`default:` label.
            if !(source.kind(before) == .colon && endsCaseLabel(colon: before)) { return }
        }
        let rhsEnd = ExpressionBounds.end(source, from: op + 1, stopAtAssignment: true)
        assignments.append(Assignment(lhs: lhsStart..<(lhsEnd + 1), op: op, rhs: (op + 1)..<rhsEnd,
                                      isCompound: compound))
    }

    /// Whether the colon at `colon` ends a `case …:` or `default:` label of a switch.
    func endsCaseLabel(colon: Int) -> Bool {
        if source.isWord(colon - 1, "default") { return true }
        // A pattern's payload (`case .toolbar(let bar):`) holds `let`, which starts no statement here.
        var last = colon - 1
        if source.kind(last) == .rightParen, let open = source.partnerIndex(last) { last = open - 1 }
        let start = ExpressionBounds.statementStart(source, containing: last)
        return source.isWord(start, "case") || source.isWord(start, "default")
    }

    mutating func recordBindings(_ keyword: Int) {
        guard outline.executableScope(at: keyword) != nil else { return }
        let before = keyword - 1
        let inCondition = source.kind(before) == .comma
            || source.wordIndex(before, in: ["if", "guard", "while"]) != nil
        if source.wordIndex(before, in: ["case", "for"]) != nil || source.kind(before) == .leftParen { return }
        var cursor = keyword + 1
        var steps = 0
        while steps < Limits.declarationTokens {
            steps += 1
            guard source.kind(cursor) == .identifier || source.isWord(cursor, "_") else { return }
            let name = cursor
            cursor += 1
            if source.kind(cursor) == .colon {
                // Skip the type annotation.
                cursor += 1
                var typeSteps = 0
                while cursor < source.code.count, typeSteps < Limits.declarationTokens {
                    typeSteps += 1
                    let kind = source.kind(cursor)
                    if kind == .equal || kind == .comma || kind == .leftBrace || kind == .rightBrace { break }
                    if source.startsLine(cursor), !ExpressionBounds.continuesLine(source, cursor) { break }
                    if source.isOpeningBracket(cursor), let end = source.partnerIndex(cursor) { cursor = end }
                    cursor += 1
                }
            }
            if source.kind(cursor) == .equal {
                let end = ExpressionBounds.end(source, from: cursor + 1, stopAtBrace: inCondition)
                bindings.append(LocalBinding(
                    nameToken: name, nameHash: source.nameHash(name), value: (cursor + 1)..<end,
                    isShorthand: false, isVariable: source.isWord(keyword, "var"),
                    visibility: visibility(of: name, valueEnd: end, inCondition: inCondition)))
                cursor = end
            } else {
                bindings.append(LocalBinding(
                    nameToken: name, nameHash: source.nameHash(name), value: inCondition ? name..<(name + 1) : nil,
                    isShorthand: inCondition, isVariable: source.isWord(keyword, "var"),
                    visibility: visibility(of: name, valueEnd: name + 1, inCondition: inCondition)))
            }
            // `let a = x, b = y`
            guard source.kind(cursor) == .comma, source.kind(cursor + 1) == .identifier,
                  source.kind(cursor + 2) == .equal || source.kind(cursor + 2) == .colon else { return }
            cursor += 1
        }
    }
}

extension TokenizedSource {
    /// Whether operator token `index` is one of `words`.
    func wordIndexOperator(_ index: Int, in words: [StaticString]) -> Bool {
        guard index >= 0, index < code.count, code[index].kind.isOperator else { return false }
        return words.contains { token(code[index], is: $0) }
    }
}
