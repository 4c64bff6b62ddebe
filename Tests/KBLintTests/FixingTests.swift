import Foundation
import XCTest
@testable import KBLint
@testable import Rules

/// `--fix`, `--unsafe-fixes` and `--diff` through the command line, on real files.
final class FixingTests: XCTestCase {
    func testFixRoundTripIsIdempotentAndKeepsCRLFBOMAndPermissions() throws {
        let tree = try TemporaryDirectory()
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let path = try tree.write("A.swift", bytes: bom + Array("let forbidden = 1\r\nlet dangerous = forbidden\r\n".utf8))
        XCTAssertEqual(chmod(path, 0o600), 0)

        let first = runTool(["--fix", "--reporter", "xcode"], in: tree.path)
        XCTAssertEqual(try tree.read("A.swift"), bom + Array("let allowed = 1\r\nlet dangerous = allowed\r\n".utf8))
        XCTAssertEqual(try FileSystem.status(of: path).permissions, 0o600)
        XCTAssertEqual(first.status, 1, "the unsafe fix was not applied: the error remains")
        XCTAssertEqual(first.standardOutput.split(separator: "\n").count, 1, first.standardOutput)
        XCTAssertTrue(first.standardError.contains("Fixed 2 findings ("), first.standardError)

        let again = runTool(["--fix", "--reporter", "xcode"], in: tree.path)
        XCTAssertEqual(try tree.read("A.swift"), bom + Array("let allowed = 1\r\nlet dangerous = allowed\r\n".utf8))
        XCTAssertTrue(again.standardError.contains("Fixed 0 findings in 0 files."), again.standardError)

        let unsafe = runTool(["--fix", "--unsafe-fixes", "--reporter", "xcode"], in: tree.path)
        XCTAssertEqual(unsafe.status, 0)
        XCTAssertEqual(try tree.read("A.swift"),
                       bom + Array("let allowed = 1\r\n// was dangerous\r\nlet defused = allowed\r\n".utf8))
        XCTAssertEqual(unsafe.standardOutput, "")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: tree.path).filter { $0.hasPrefix(".") }
        XCTAssertEqual(leftovers, [], "no temporary files left behind")
    }

    func testDiffShowsTheFixesAndWritesNothing() throws {
        let tree = try TemporaryDirectory()
        try tree.write("Sub/A.swift", "import UIKit\nlet forbidden = 1\nlet dangerous = 2\n")
        let run = runTool(["--diff", "--unsafe-fixes"], in: tree.path)
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.standardOutput, """
            --- a/Sub/A.swift
            +++ b/Sub/A.swift
            @@ -1,3 +1,4 @@
             import UIKit
            -let forbidden = 1
            -let dangerous = 2
            +let allowed = 1
            +// was dangerous
            +let defused = 2

            """)
        XCTAssertEqual(try tree.text("Sub/A.swift"), "import UIKit\nlet forbidden = 1\nlet dangerous = 2\n")
        // The diff applies with patch(1).
        let patch = Process()
        patch.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        patch.arguments = ["patch", "-s", "-p1"]
        patch.currentDirectoryURL = URL(fileURLWithPath: tree.path)
        let input = Pipe()
        patch.standardInput = input
        if (try? patch.run()) != nil {
            input.fileHandleForWriting.write(Data(run.standardOutput.utf8))
            try input.fileHandleForWriting.close()
            patch.waitUntilExit()
            if patch.terminationStatus == 0 {
                XCTAssertEqual(try tree.text("Sub/A.swift"), "import UIKit\nlet allowed = 1\n// was dangerous\nlet defused = 2\n")
            }
        }
        XCTAssertEqual(runTool(["--diff"], in: tree.path + "/Sub", environment: [:]).status, 0, "nothing left to fix")
    }

    func testAFileChangedSinceItWasReadIsNotOverwritten() throws {
        let tree = try TemporaryDirectory()
        let path = try tree.write("A.swift", "edited meanwhile\n")
        let driver = LintDriver(jobs: 1, fixMode: .write(includingUnsafe: false), knownRuleIDs: [],
                                closeMatches: { _, _ in [] }, progressSink: nil)
        let target = LintTarget(path: "A.swift", absolutePath: path)
        XCTAssertThrowsError(try driver.write(Array("fixed\n".utf8), over: target, expecting: Array("original\n".utf8))) { error in
            XCTAssertTrue("\(error)".contains("changed while kblint was fixing it"), "\(error)")
        }
        XCTAssertEqual(try tree.text("A.swift"), "edited meanwhile\n")
    }

    func testOverlappingFixesConvergeOverRounds() throws {
        let tree = try TemporaryDirectory()
        // `also_flag: allowed` makes the fix's result trigger again with a fix that changes
        // nothing: fixing stops instead of looping.
        try tree.write(".kblint.yml", "rules:\n  test_forbidden_identifier:\n    also_flag: allowed\n")
        try tree.write("A.swift", "let forbidden = 1\n")
        let run = runTool(["--fix", "--reporter", "xcode"], in: tree.path)
        XCTAssertEqual(try tree.text("A.swift"), "let allowed = 1\n")
        XCTAssertTrue(run.standardOutput.contains("'allowed' is forbidden"), run.standardOutput)
        XCTAssertTrue(run.standardError.contains("Fixed 1 finding ("), run.standardError)
    }
}
