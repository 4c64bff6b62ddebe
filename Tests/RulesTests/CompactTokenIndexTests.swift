import XCTest
@testable import Rules

/// `KeyboardValue` keeps its token indices in 32 bits: each reads back what was written, and
/// values compare and hash as their indices do.
final class CompactTokenIndexTests: XCTestCase {
    static let indices: [Int?] = [nil, 0, 1, 7, 65_535, 1 << 20, Int(Int32.max) - 1, Int(Int32.max)]

    func testIndicesReadBackAsWritten() {
        for index in Self.indices {
            var compact = CompactTokenIndex(wrappedValue: index)
            XCTAssertEqual(compact.wrappedValue, index)
            for other in Self.indices {
                compact.wrappedValue = other
                XCTAssertEqual(compact.wrappedValue, other)
            }
        }
    }

    func testValuesCompareAsTheirIndices() {
        func value(_ first: Int?, _ second: Int?) -> KeyboardValue {
            var value = KeyboardValue(traits: .frameEnd, screenGeometry: first, origin: second)
            value.screenAPI = second
            return value
        }
        for first in Self.indices {
            for second in Self.indices {
                let one = value(first, second)
                XCTAssertEqual(one.screenGeometry, first)
                XCTAssertEqual(one.origin, second)
                XCTAssertEqual(one.screenAPI, second)
                XCTAssertNil(one.geometry)
                for third in Self.indices {
                    let other = value(first, third)
                    XCTAssertEqual(one == other, second == third)
                    if second == third { XCTAssertEqual(one.hashValue, other.hashValue) }
                }
            }
        }
        var merged = value(nil, 3)
        merged.merge(value(5, 9))
        XCTAssertEqual(merged.screenGeometry, 5)
        XCTAssertEqual(merged.origin, 3)
    }
}
