import XCTest
@testable import Lexer

final class NumberLiteralTests: XCTestCase {
    func testIntegersInEveryRadix() {
        XCTAssertEqual(lexed("0 42 1_000_000 0b1010_1010 0o7_7_7 0xDEAD_beef"), [
            "integer_literal 0", "integer_literal 42", "integer_literal 1_000_000", "integer_literal 0b1010_1010",
            "integer_literal 0o7_7_7", "integer_literal 0xDEAD_beef",
        ])
    }

    func testFloatsWithFractionsAndExponents() {
        XCTAssertEqual(lexed("1.5 1_000.5e-3 1e10 2.5E+3 0x1p-2 0x1.8p1 0xA.Bp+4"), [
            "float_literal 1.5", "float_literal 1_000.5e-3", "float_literal 1e10", "float_literal 2.5E+3",
            "float_literal 0x1p-2", "float_literal 0x1.8p1", "float_literal 0xA.Bp+4",
        ])
    }

    func testMemberAccessAndTupleIndexAreNotFractions() {
        XCTAssertEqual(texts("1.description"), ["1", ".", "description"])
        XCTAssertEqual(texts("0xff.description"), ["0xff", ".", "description"])
        XCTAssertEqual(texts("0xff.fpValue + 1"), ["0xff", ".", "fpValue", "+", "1"])
        XCTAssertEqual(texts("t.0.1"), ["t", ".", "0", ".", "1"])
        XCTAssertEqual(texts("1..<2"), ["1", "..<", "2"])
        XCTAssertEqual(texts("-1.5"), ["-", "1.5"])
    }

    func testLettersGluedToANumberStayInIt() {
        XCTAssertEqual(lexed("12abc 0xZ 0b102"), [
            "integer_literal 12abc", "integer_literal 0xZ", "integer_literal 0b102",
        ])
    }
}
