precedencegroup ComposePrecedence {
    associativity: left
    higherThan: AdditionPrecedence
}

infix operator >>> : ComposePrecedence
prefix operator √

func >>> <A, B, C>(f: @escaping (A) -> B, g: @escaping (B) -> C) -> (A) -> C {
    { g(f($0)) }
}

prefix func √ (value: Double) -> Double { value.squareRoot() }

struct Stack<Element: Equatable>: Sequence where Element: Sendable {
    private var storage: [Element] = []
    var top: Element? { storage.last }

    mutating func push(_ element: __owned Element) { storage.append(element) }
    func makeIterator() -> IndexingIterator<[Element]> { storage.makeIterator() }
    static func == (lhs: Self, rhs: Self) -> Bool { lhs.storage == rhs.storage }
}

let cache: [String: Array<Set<Int>>] = [:]
let boxes = Array<Optional<Int>>(repeating: nil, count: 3)
let maybe: Result<Int, Error>? = nil
let paths = people.map(\.name).filter { !$0.isEmpty && $0.count >= 2 }
let range = 0..<10, closed = 1...5, from = 3...
let mixed = a<b ? a : b, shifted = x >> 2 &+ y << 1
value &+= 1; flag = !flag; result = x! + y!
let chained = view?.superview?.frame.size.width ?? 0
let generic = foo<Int>(1) + bar(a < b, c > d)

#if os(iOS) && !targetEnvironment(macCatalyst)
let platform = "iOS"
#elseif compiler(>=6.0)
let platform = "other"
#else
#warning("unknown platform")
#endif

let selector = #selector(UIResponder.becomeFirstResponder)
let keyPath = #keyPath(UIView.frame)
let here = (#file, #line, #function)
@available(iOS, introduced: 13.0, deprecated: 17.2, message: "use the new API")
func legacy() {}
