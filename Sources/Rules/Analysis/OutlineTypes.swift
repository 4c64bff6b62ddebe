/// Declarations and regions found in one file. All positions are indices into
/// `TokenizedSource.code`; ranges of bodies exclude their braces.

/// An index into one of the outline's arrays that says which: `Element` is what it indexes,
/// so that a scope cannot stand where a type declaration is meant.
struct OutlineID<Element>: Hashable, Sendable {
    let rawValue: Int

    init(_ rawValue: Int) { self.rawValue = rawValue }
}

/// A type declaration of the file: an index into `Outline.types` that says so.
typealias TypeID = OutlineID<TypeDeclaration>

/// A scope of the file: an index into `Outline.scopes` that says so.
typealias ScopeID = OutlineID<Scope>

/// A property declaration of the file: an index into `Outline.properties` that says so.
typealias PropertyID = OutlineID<PropertyDeclaration>

/// A closure literal of the file: an index into `Outline.closures` that says so.
typealias ClosureID = OutlineID<Closure>

struct TypeDeclaration: Sendable {
    enum Kind: Sendable, Hashable { case `class`, `struct`, `enum`, actor, `extension`, `protocol` }
    let kind: Kind
    /// As written (`Outer.Inner` for `extension Outer.Inner`).
    let name: String
    /// The last component of `name`: what other code calls the type.
    let simpleName: String
    /// `name` inside the types around the declaration (`ChatModule.ListView` for a class
    /// `ListView` declared in `enum ChatModule`): what project facts are keyed by, so that
    /// nested types of the same simple name stay apart. Extensions are written at file
    /// level, so theirs is `name`, also where an unclosed brace puts one inside a type.
    let qualifiedName: String
    let nameToken: Int
    /// Inherited types and conformances, as written (`UIViewController`, `Foo.Bar`).
    let inheritance: [String]
    /// The scope of the body; nil when no `{` was found (truncated file).
    var scope: ScopeID?
    /// Token range from the first modifier to the closing brace.
    var extent: Range<Int>
}

/// A parameter of a function, initializer or subscript.
struct Parameter: Sendable {
    /// The argument label (`_` when none).
    let label: String
    let name: String
    let nameToken: Int
    /// Tokens of the type annotation (may be empty).
    let type: Range<Int>
    /// Whether it declares a default value: calls may leave it out.
    let hasDefault: Bool
    /// Whether its type ends in `...`: it takes any number of unlabelled arguments after its own.
    let isVariadic: Bool
}

struct FunctionDeclaration: Sendable {
    enum Kind: Sendable, Hashable { case function, initializer, deinitializer, `subscript` }
    let kind: Kind
    /// Base name (`init`, `deinit`, `subscript` for those kinds).
    let name: String
    let nameHash: UInt64
    /// The `func`/`init`/`deinit`/`subscript` keyword's name token (the function name for `func`).
    let nameToken: Int
    let parameters: [Parameter]
    /// Tokens of the return type after `->` (nil when none is written).
    let returnType: Range<Int>?
    /// Modifiers and attribute names without `@` (`override`, `objc`, `private`, `static`).
    let modifiers: [String]
    /// The scope of the body; nil for requirements without a body.
    var scope: ScopeID?
    /// The type that declares it directly.
    let owner: TypeID?

    var labels: [String] { parameters.map(\.label) }
    func hasModifier(_ name: String) -> Bool { modifiers.contains(name) }
}

enum AccessorKind: String, Sendable, Hashable {
    case get, set, didSet, willSet, other
}

struct PropertyDeclaration: Sendable {
    enum Kind: Sendable, Hashable { case stored, lazy, computed }
    let kind: Kind
    let isConstant: Bool
    let isStatic: Bool
    let name: String
    let nameHash: UInt64
    let nameToken: Int
    let type: Range<Int>
    /// The initializer expression after `=`.
    let initializer: Range<Int>?
    let modifiers: [String]
    /// The type that declares it directly (nil: global).
    let owner: TypeID?
    /// The scope of `{ … }` after the declaration (computed body or observers).
    var bodyScope: ScopeID?
    /// Accessor scopes (`get`, `set`, `didSet`, `willSet`) found inside the body.
    var accessors: [(kind: AccessorKind, scope: ScopeID)]
}

struct Closure: Sendable {
    let scope: ScopeID
    /// `[weak self]` and friends, brackets included.
    var captureList: Range<Int>?
    /// Parameter name tokens (`notification` in `{ notification in`).
    var parameters: [Int]
    /// The `in` keyword, when the closure has a signature.
    var inToken: Int?
    /// The call this closure is an argument of (index into `FileAnalysis.calls`).
    var call: Int?
    /// The argument label (`using`, `completion`); nil for the first trailing closure and
    /// unlabelled arguments.
    var argumentLabel: Int?
    var isTrailing: Bool
}

/// A region of code: a scope between braces.
struct Scope: Sendable {
    enum Kind: Sendable, Hashable {
        case type(TypeID)
        case function(FunctionID)
        /// A property's `{ … }`: an implicit getter, or a container of accessors.
        case property(PropertyID)
        case accessor(PropertyID, AccessorKind)
        case closure(ClosureID)
        /// A control-flow body; the keyword token (`if`, `else`, `for`, `switch`, …).
        case block(keyword: Int)
    }
    let kind: Kind
    let open: Int
    /// The matching `}`, or `code.count` when the file ends first.
    let close: Int
    let parent: ScopeID?

    var body: Range<Int> { (open + 1)..<max(open + 1, close) }
    var extent: Range<Int> { open..<max(open, close) + 1 }

    /// Functions, closures and accessors hold code that runs; types and blocks do not by
    /// themselves.
    var isExecutableBody: Bool {
        switch kind {
        case .function, .property, .accessor, .closure: true
        case .type, .block: false
        }
    }
}

/// `#if … #endif`.
struct ConditionalCompilationRegion: Sendable {
    let ifToken: Int
    let endifToken: Int
    let condition: Range<Int>
}

/// Code that runs only on `version` or later: an `if #available` body, the rest of a scope
/// after `guard #available`, or a declaration marked `@available(iOS x, *)`.
struct AvailabilityRegion: Sendable {
    let tokens: Range<Int>
    let version: OSVersion
}
