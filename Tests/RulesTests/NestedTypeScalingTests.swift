#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import XCTest
import Lexer
@testable import Rules

/// Thousands of nested type declarations (generated code), each with a property and an
/// assignment to it: finding an assignment's property searched every property of the file,
/// which made 2.5k/5k/10k/20k nested classes take 0.3/1.3/6.4/33 s. Checked by how the work
/// grows, in CPU time of this thread (other processes on the machine do not count), not
/// against a time limit.
final class NestedTypeScalingTests: XCTestCase {
    static func nested(_ count: Int) -> String {
        var text = "import UIKit\n"
        for index in 0..<count {
            text += "class C\(index): UIView { var a\(index) = 0; func f() { a\(index) = 1 }\n"
        }
        text += "let d = UIResponder.keyboardWillShowNotification\n"
        return text + String(repeating: "}\n", count: count)
    }

    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The least CPU time of two analyses of `count` nested types (facts and the analysis
    /// pass 2 builds).
    static func cost(_ count: Int) -> Double {
        let source = Lexer.tokenize(SourceFile(path: "Nested.swift", text: nested(count)))
        var best = Double.infinity
        for _ in 0..<2 {
            let start = threadCPUSeconds()
            let facts = collectFacts(source)
            _ = FileAnalysis(source, project: ProjectFacts(merging: [facts]))
            best = min(best, threadCPUSeconds() - start)
        }
        return best
    }

    func testNestedTypesCostLinearWork() {
        let small = Self.cost(1_000)
        let large = Self.cost(4_000)
        // Four times the input: about four times the work when linear, sixteen when quadratic
        // (above ten with the search, measured at these sizes).
        XCTAssertLessThan(large / small, 7, "ratio \(large / small); 1k nested types: \(small) s, 4k: \(large) s")
    }

    func testPropertyLookupFindsTheFirstPropertyOfTheNameInTheType() {
        let text = "class A { var x = 1; var x = 2; class B { var x = 3 } }\nvar x = 4\nstruct C { let y = 5 }\n"
        let source = Lexer.tokenize(SourceFile(path: "A.swift", text: text))
        let outline = Outline(source)
        for owner in [nil] + outline.typeIDs.map(Optional.some) {
            for hash in Set(outline.properties.map(\.nameHash)) {
                let reference = outline.properties.first { $0.owner == owner && $0.nameHash == hash }
                XCTAssertEqual(outline.property(named: hash, in: owner)?.nameToken, reference?.nameToken)
            }
        }
        XCTAssertEqual(outline.properties.count, 5)
    }
}
