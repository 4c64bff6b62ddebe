import Foundation
import XCTest
@testable import KBLint
@testable import Rules

final class FixApplicationTests: XCTestCase {
    func edit(_ range: Range<Int>, _ text: String) -> Edit { Edit(range: range, replacement: text) }

    func testOverlappingFixesAreDeferredWholeToTheNextRound() {
        let first = Fix(.safe, edits: [edit(0..<3, "x"), edit(10..<12, "y")])
        let overlapping = Fix(.safe, edits: [edit(11..<13, "z")])
        let later = Fix(.safe, edits: [edit(20..<21, "w")])
        let chosen = FixApplication.compatibleFixes([later, overlapping, first], fileSize: 30)
        XCTAssertEqual(chosen, [first, later])
    }

    func testOutOfRangeAndSameOffsetInsertionsAreSkipped() {
        let outside = Fix(.safe, edits: [edit(5..<40, "")])
        let insertA = Fix(.safe, edits: [edit(4..<4, "a")])
        let insertB = Fix(.safe, edits: [edit(4..<4, "b")])
        XCTAssertEqual(FixApplication.compatibleFixes([outside, insertA, insertB], fileSize: 10), [insertA])
    }

    func testApplyKeepsCRLFAndBOM() {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("a\r\nb\r\n".utf8)
        let result = FixApplication.apply([edit(4..<4, "x\ny")], to: bytes)
        XCTAssertEqual(result, [0xEF, 0xBB, 0xBF] + Array("ax\r\ny\r\nb\r\n".utf8))
    }

    /// An LF first line and CRLF elsewhere: the inserted lines take CRLF, as their neighbours.
    func testInsertedLinesTakeTheEndingOfTheLineTheyGoInto() {
        let bytes = Array("import UIKit\nclass A {\r\n    var x = 1\r\n}\r\n".utf8)
        let offset = Array("import UIKit\nclass A {\r\n".utf8).count
        let result = FixApplication.apply([edit(offset..<offset, "    var y = 2\n")], to: bytes)
        XCTAssertEqual(String(decoding: result, as: UTF8.self), "import UIKit\nclass A {\r\n    var y = 2\r\n    var x = 1\r\n}\r\n")
        // And an LF line among CRLF ones keeps LF.
        let mixed = Array("a\r\nb\nc\r\n".utf8)
        XCTAssertEqual(FixApplication.apply([edit(3..<3, "x\n")], to: mixed), Array("a\r\nx\nb\nc\r\n".utf8))
    }

    func testCarriageReturnOnlyFilesGetCarriageReturns() {
        let bytes = Array("class A {\r    var x = 1\r}\r".utf8)
        let result = FixApplication.apply([edit(10..<10, "    var y = 2\n    var z = 3\n")], to: bytes)
        XCTAssertEqual(String(decoding: result, as: UTF8.self), "class A {\r    var y = 2\r    var z = 3\r    var x = 1\r}\r")
        // The last line, without an ending, takes the one before it.
        XCTAssertEqual(FixApplication.apply([edit(3..<3, "\nb")], to: Array("a\rc".utf8)), Array("a\rc\rb".utf8))
        XCTAssertEqual(FixApplication.apply([edit(1..<1, "\nb")], to: Array("a".utf8)), Array("a\nb".utf8))
    }

    func testApplicability() {
        XCTAssertTrue(FixApplication.isApplicable(Fix(.safe, edits: []), includingUnsafe: false))
        XCTAssertFalse(FixApplication.isApplicable(Fix(.unsafe, edits: []), includingUnsafe: false))
        XCTAssertTrue(FixApplication.isApplicable(Fix(.unsafe, edits: []), includingUnsafe: true))
    }
}

final class UnifiedDiffTests: XCTestCase {
    func render(_ old: String, _ new: String) -> String {
        String(decoding: UnifiedDiff.render(path: "A.swift", old: Array(old.utf8), new: Array(new.utf8)), as: UTF8.self)
    }

    /// On a terminal: headers bold, hunks cyan, removals red, additions green; context plain,
    /// and each colour closed before the line break (CRLF kept).
    func testColoredDiff() {
        let diff = "--- a/A.swift\n+++ b/A.swift\n@@ -1,2 +1,2 @@\n same\r\n-old\n+new\n"
        let colored = String(decoding: UnifiedDiff.colored(Array(diff.utf8)), as: UTF8.self)
        XCTAssertEqual(colored, "\u{1B}[1m--- a/A.swift\u{1B}[0m\n\u{1B}[1m+++ b/A.swift\u{1B}[0m\n"
                       + "\u{1B}[36m@@ -1,2 +1,2 @@\u{1B}[0m\n same\r\n\u{1B}[31m-old\u{1B}[0m\n\u{1B}[32m+new\u{1B}[0m\n")
    }

    func testSingleChangeWithContext() {
        let old = (1...10).map { "line \($0)\n" }.joined()
        let new = old.replacingOccurrences(of: "line 5\n", with: "line five\n")
        XCTAssertEqual(render(old, new), """
            --- a/A.swift
            +++ b/A.swift
            @@ -2,7 +2,7 @@
             line 2
             line 3
             line 4
            -line 5
            +line five
             line 6
             line 7
             line 8

            """)
    }

    func testFarApartChangesMakeTwoHunksAndInsertionsCountLines() {
        let old = (1...20).map { "l\($0)\n" }.joined()
        let new = old.replacingOccurrences(of: "l2\n", with: "l2\nnew\n")
            .replacingOccurrences(of: "l18\n", with: "")
        XCTAssertEqual(render(old, new), """
            --- a/A.swift
            +++ b/A.swift
            @@ -1,5 +1,6 @@
             l1
             l2
            +new
             l3
             l4
             l5
            @@ -15,6 +16,5 @@
             l15
             l16
             l17
            -l18
             l19
             l20

            """)
    }

    func testEqualInputsGiveNothingAndMissingFinalNewlineIsMarked() {
        XCTAssertEqual(render("a\n", "a\n"), "")
        XCTAssertEqual(render("a", "b"), """
            --- a/A.swift
            +++ b/A.swift
            @@ -1,1 +1,1 @@
            -a
            \\ No newline at end of file
            +b
            \\ No newline at end of file

            """)
    }

    func testMyersFindsTheShortestScript() {
        let old = ["a", "b", "c", "a", "b", "b", "a"].map { Array($0.utf8) }
        let new = ["c", "b", "a", "b", "a", "c"].map { Array($0.utf8) }
        let changes = UnifiedDiff.changes(old, new)
        let edits = changes.reduce(0) { $0 + ($1.oldEnd - $1.oldStart) + ($1.newEnd - $1.newStart) }
        XCTAssertEqual(edits, 5)  // the classic example: D = 5
    }
}

/// Random edits rendered by `UnifiedDiff` and applied by patch(1) reproduce the new file: an
/// independent check of hunk headers, context and line counts.
final class UnifiedDiffPatchTests: XCTestCase {
    func testRandomDiffsApplyWithPatch() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/patch"), "patch(1) not installed")
        // A fixed linear congruential sequence, so failures reproduce.
        var state: UInt64 = 42
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        let tree = try TemporaryDirectory()
        for round in 0..<30 {
            let old = (0..<Int(next() % 40)).map { _ in "line \(next() % 6)\n" }
            var new = old
            for _ in 0..<Int(next() % 5) {
                let position = new.isEmpty ? 0 : Int(next() % UInt64(new.count))
                switch next() % 3 {
                case 0: new.insert("inserted \(next() % 100)\n", at: position)
                case 1: if !new.isEmpty { new.remove(at: position) }
                default: if !new.isEmpty { new[position] = "changed \(next() % 100)\n" }
                }
            }
            let oldText = old.joined(), newText = new.joined()
            try tree.write("File.swift", oldText)
            let diff = UnifiedDiff.render(path: "File.swift", old: Array(oldText.utf8), new: Array(newText.utf8))
            XCTAssertEqual(diff.isEmpty, oldText == newText, "round \(round)")
            guard !diff.isEmpty else { continue }
            let patch = Process()
            patch.executableURL = URL(fileURLWithPath: "/usr/bin/patch")
            patch.arguments = ["-s", "-p1", "--no-backup-if-mismatch"]
            patch.currentDirectoryURL = URL(fileURLWithPath: tree.path)
            let input = Pipe()
            patch.standardInput = input
            try patch.run()
            input.fileHandleForWriting.write(Data(diff))
            try input.fileHandleForWriting.close()
            patch.waitUntilExit()
            XCTAssertEqual(patch.terminationStatus, 0, "round \(round):\n\(String(decoding: diff, as: UTF8.self))")
            XCTAssertEqual(try tree.text("File.swift"), newText, "round \(round):\n\(String(decoding: diff, as: UTF8.self))")
        }
    }
}
