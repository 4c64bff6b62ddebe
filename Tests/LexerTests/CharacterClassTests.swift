import XCTest
@testable import Lexer

final class CharacterClassTests: XCTestCase {
    /// The byte table must agree with the definitions it speeds up.
    func testByteTableMatchesDefinitions() {
        XCTAssertEqual(CharacterClass.byteClasses.utf8CodeUnitCount, 256)
        for value in 0...255 {
            let byte = UInt8(value)
            let scalar = Unicode.Scalar(byte)
            let continues = scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                || scalar == "_" || scalar == "$")
            XCTAssertEqual(CharacterClass.isASCIIIdentifierContinuation(byte), continues, "byte \(value)")
            let flags = CharacterClass.byteClasses.utf8Start[value] & 0x0F
            XCTAssertEqual(flags & 2 != 0, CharacterClass.isASCIIIdentifierStart(byte), "byte \(value)")
            XCTAssertEqual(flags & 4 != 0, CharacterClass.isASCIIOperator(byte), "byte \(value)")
        }
    }

    func testDecodingRejectsMalformedUTF8() {
        func decode(_ bytes: [UInt8]) -> (UInt32, Int) {
            bytes.withUnsafeBufferPointer { decodeScalar($0, at: 0) }
        }
        XCTAssertEqual(decode([0xC3, 0xA9]).0, 0xE9)
        XCTAssertEqual(decode([0xF0, 0x9F, 0x90, 0xB6]).0, 0x1F436)
        XCTAssertEqual(decode([0xC0, 0x80]).1, 0, "overlong")
        XCTAssertEqual(decode([0xED, 0xA0, 0x80]).1, 0, "surrogate")
        XCTAssertEqual(decode([0xE2, 0x82]).1, 0, "truncated")
        XCTAssertEqual(decode([0xF5, 0x80, 0x80, 0x80]).1, 0, "beyond U+10FFFF")
        XCTAssertEqual(decode([0x80]).1, 0, "continuation byte")
    }
}
