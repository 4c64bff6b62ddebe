/// Declarations and regions found in one file. All positions are indices into
/// `TokenizedSource.code`; ranges of bodies exclude their braces.

public struct TypeDeclaration: Sendable {
    public enum Kind: Sendable, Hashable { case `class`, `struct`, `enum`, actor, `extension`, `protocol` }
    public let kind: Kind
    /// As written (`Outer.Inner` for `extension Outer.Inner`).
    public let name: String
    /// The last component of `name`: what other code calls the type.
    public let simpleName: String
    public let nameToken: Int
    /// Inherited types and conformances, as written (`UIViewController`, `Foo.Bar`).
    public let inheritance: [String]
    /// The scope of the body; nil when no `{` was found (truncated file).
    public internal(set) var scope: Int?
    /// Token range from the first modifier to the closing brace.
    public internal(set) var extent: Range<Int>
}

/// A parameter of a function, initializer or subscript.
public struct Parameter: Sendable {
    /// The argument label (`_` when none).
    public let label: String
    public let name: String
    public let nameToken: Int
    /// Tokens of the type annotation (may be empty).
    public let type: Range<Int>
    /// Whether it declares a default value: calls may leave it out.
    public let hasDefault: Bool
    /// Whether its type ends in `...`: it takes any number of unlabelled arguments after its own.
    public let isVariadic: Bool
}

public struct FunctionDeclaration: Sendable {
    public enum Kind: Sendable, Hashable { case function, initializer, deinitializer, `subscript` }
    public let kind: Kind
    /// Base name (`init`, `deinit`, `subscript` for those kinds).
    public let name: String
    public let nameHash: UInt64
    /// The `func`/`init`/`deinit`/`subscript` keyword's name token (the function name for `func`).
    public let nameToken: Int
    public let parameters: [Parameter]
    /// Tokens of the return type after `->` (nil when none is written).
    public let returnType: Range<Int>?
    /// Modifiers and attribute names without `@` (`override`, `objc`, `private`, `static`).
    public let modifiers: [String]
    /// The scope of the body; nil for requirements without a body.
    public internal(set) var scope: Int?
    /// Index in `Outline.types` of the type that declares it directly.
    public let owner: Int?

    public var labels: [String] { parameters.map(\.label) }
    public func hasModifier(_ name: String) -> Bool { modifiers.contains(name) }
}

public enum AccessorKind: String, Sendable, Hashable {
    case get, set, didSet, willSet, other
}

public struct PropertyDeclaration: Sendable {
    public enum Kind: Sendable, Hashable { case stored, lazy, computed }
    public let kind: Kind
    public let isConstant: Bool
    public let isStatic: Bool
    public let name: String
    public let nameHash: UInt64
    public let nameToken: Int
    public let type: Range<Int>
    /// The initializer expression after `=`.
    public let initializer: Range<Int>?
    public let modifiers: [String]
    /// Index in `Outline.types` of the type that declares it directly (nil: global).
    public let owner: Int?
    /// The scope of `{ … }` after the declaration (computed body or observers).
    public internal(set) var bodyScope: Int?
    /// Accessor scopes (`get`, `set`, `didSet`, `willSet`) found inside the body.
    public internal(set) var accessors: [(kind: AccessorKind, scope: Int)]
}

public struct Closure: Sendable {
    public let scope: Int
    /// `[weak self]` and friends, brackets included.
    public internal(set) var captureList: Range<Int>?
    /// Parameter name tokens (`notification` in `{ notification in`).
    public internal(set) var parameters: [Int]
    /// The `in` keyword, when the closure has a signature.
    public internal(set) var inToken: Int?
    /// The call this closure is an argument of (index into `FileAnalysis.calls`).
    public internal(set) var call: Int?
    /// The argument label (`using`, `completion`); nil for the first trailing closure and
    /// unlabelled arguments.
    public internal(set) var argumentLabel: Int?
    public internal(set) var isTrailing: Bool
}

/// A region of code: a scope between braces.
public struct Scope: Sendable {
    public enum Kind: Sendable, Hashable {
        case type(Int)
        case function(Int)
        /// A property's `{ … }`: an implicit getter, or a container of accessors.
        case property(Int)
        case accessor(Int, AccessorKind)
        case closure(Int)
        /// A control-flow body; the keyword token (`if`, `else`, `for`, `switch`, …).
        case block(keyword: Int)
    }
    public let kind: Kind
    public let open: Int
    /// The matching `}`, or `code.count` when the file ends first.
    public let close: Int
    public let parent: Int?

    public var body: Range<Int> { (open + 1)..<max(open + 1, close) }
    public var extent: Range<Int> { open..<max(open, close) + 1 }

    /// Functions, closures and accessors hold code that runs; types and blocks do not by
    /// themselves.
    public var isExecutableBody: Bool {
        switch kind {
        case .function, .property, .accessor, .closure: true
        case .type, .block: false
        }
    }
}

/// `#if … #endif`.
public struct ConditionalCompilationRegion: Sendable {
    public let ifToken: Int
    public let endifToken: Int
    public let condition: Range<Int>
}

/// Code that runs only on `version` or later: an `if #available` body, the rest of a scope
/// after `guard #available`, or a declaration marked `@available(iOS x, *)`.
public struct AvailabilityRegion: Sendable {
    public let tokens: Range<Int>
    public let version: OSVersion
}
