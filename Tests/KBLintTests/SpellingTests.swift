import XCTest
@testable import KBLint

final class SpellingTests: XCTestCase {
    func testEditDistanceCountsInsertionsDeletionsSubstitutionsAndSwaps() {
        XCTAssertEqual(Spelling.editDistance("", ""), 0)
        XCTAssertEqual(Spelling.editDistance("", "abc"), 3)
        XCTAssertEqual(Spelling.editDistance("excluded", "excluded"), 0)
        XCTAssertEqual(Spelling.editDistance("exclude", "excluded"), 1)
        XCTAssertEqual(Spelling.editDistance("exculded", "excluded"), 1)
        XCTAssertEqual(Spelling.editDistance("kitten", "sitting"), 3)
        XCTAssertEqual(Spelling.editDistance("abc", "xyz"), 3)
        XCTAssertEqual(Spelling.editDistance("é", "e"), 1)
    }

    func testClosestMatchesPutsTheNearestFirst() {
        let keys = ["included", "excluded", "strict", "reporter"]
        XCTAssertEqual(Spelling.closestMatches(to: "exclude", among: keys), ["excluded"])
        XCTAssertEqual(Spelling.closestMatches(to: "inclded", among: keys), ["included", "excluded"].filter {
            Spelling.editDistance("inclded", $0) <= 2
        })
        XCTAssertEqual(Spelling.closestMatches(to: "colour", among: keys), [])
        XCTAssertEqual(Spelling.closestMatches(to: "strict", among: keys), [], "an exact name needs no suggestion")
    }

    func testDidYouMeanNamesEquallyCloseCandidates() {
        XCTAssertEqual(Spelling.didYouMean("stirct", among: ["strict", "reporter"]), "did you mean 'strict'?")
        XCTAssertEqual(Spelling.didYouMean("rule_b", among: ["rule_a", "rule_c", "other"]), "did you mean 'rule_a' or 'rule_c'?")
        XCTAssertNil(Spelling.didYouMean("zzzzzz", among: ["strict"]))
    }

    func testLongInputIsRejectedWithoutComparingEveryCharacter() {
        let long = String(repeating: "x", count: 1_000_000)
        XCTAssertEqual(Spelling.closestMatches(to: long, among: ["excluded", "included"]), [])
    }
}
