import XCTest
@testable import Lexer

/// The code view holds what an iOS build compiles: branches that cannot be iOS code are left
/// out, branches that might be (build flags, unknown conditions) stay.
final class ConditionalCompilationTests: XCTestCase {
    /// The identifiers named `live…`/`dead…` left in the code view.
    private func kept(_ source: String) -> [String] {
        texts(source).filter { $0.hasPrefix("live") || $0.hasPrefix("dead") }
    }

    func testPlatformBranchesThatAreNotIOSAreLeftOut() {
        XCTAssertEqual(kept("""
        #if targetEnvironment(macCatalyst)
        dead1()
        #else
        live1()
        #endif
        #if os(macOS)
        dead2()
        #elseif os(iOS)
        live2()
        #else
        dead3()
        #endif
        #if os(watchOS) || os(tvOS)
        dead4()
        #endif
        #if canImport(AppKit)
        dead5()
        #elseif canImport(UIKit)
        live3()
        #endif
        """), ["live1", "live2", "live3"])
    }

    func testNegationsAndLiterals() {
        XCTAssertEqual(kept("""
        #if !os(iOS)
        dead1()
        #else
        live1()
        #endif
        #if os(iOS) && !targetEnvironment(macCatalyst)
        live2()
        #else
        dead2()
        #endif
        #if true
        live3()
        #else
        dead3()
        #endif
        #if false
        dead4()
        #endif
        #if 0
        dead5()
        #elseif (1)
        live4()
        #endif
        """), ["live1", "live2", "live3", "live4"])
    }

    func testUnknownConditionsKeepEveryBranch() {
        XCTAssertEqual(kept("""
        #if DEBUG
        live1()
        #else
        live2()
        #endif
        #if CUSTOM_FLAG && os(iOS)
        live3()
        #elseif swift(>=5.9)
        live4()
        #else
        live5()
        #endif
        #if targetEnvironment(simulator) || DEBUG
        live6()
        #endif
        #if DEBUG || os(macOS)
        live7()
        #endif
        #if DEBUG && os(macOS)
        dead1()
        #endif
        #if os(
        live8()
        #endif
        """), ["live1", "live2", "live3", "live4", "live5", "live6", "live7", "live8"])
    }

    func testNestedRegionsInsideDeadBranchesStayDead() {
        XCTAssertEqual(kept("""
        #if os(macOS)
        #if DEBUG
        dead1()
        #else
        dead2()
        #endif
        #else
        #if DEBUG
        live1()
        #endif
        #endif
        """), ["live1"])
    }

    func testBracketsPairAcrossTheLiveBranchOnly() {
        let result = Lexer.tokenize(SourceFile(path: "a.swift", text: """
        #if os(macOS)
        class A: NSView {
        #else
        class A: UIView {
        #endif
            func f() {}
        }
        """))
        let open = result.code.firstIndex { $0.kind == .leftBrace }!
        XCTAssertEqual(result.text(of: result.code[open - 1]), "UIView")
        XCTAssertEqual(result.code[Int(result.partner[open])].kind, .rightBrace)
        XCTAssertEqual(Int(result.partner[open]), result.code.count - 1)
        // Every token is still in the full token list.
        XCTAssertTrue(result.tokens.contains { result.text(of: $0) == "NSView" })
    }

    func testDirectivesOfLiveRegionsStayInTheCodeView() {
        XCTAssertEqual(texts("#if os(macOS)\nx()\n#else\ny()\n#endif"),
                       ["#if", "os", "(", "macOS", ")", "#else", "y", "(", ")", "#endif"])
    }

    func testDeeplyNestedConditionsReadAsUnknown() {
        let depth = 10_000
        let condition = String(repeating: "(", count: depth) + "false" + String(repeating: ")", count: depth)
        XCTAssertEqual(kept("#if \(condition)\nlive1()\n#endif"), ["live1"])
        let negations = String(repeating: "!", count: depth) + "false"
        XCTAssertEqual(kept("#if \(negations)\nlive1()\n#endif").count, 1)
    }
}
