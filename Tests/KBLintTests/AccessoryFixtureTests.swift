import Foundation
import XCTest
@testable import KBLint
@testable import Rules

/// The accessory rules through the real driver on a small multi-file project
/// (Fixtures/Accessories): facts from one file decide findings in another.
final class AccessoryFixtureTests: XCTestCase {
    func lint(_ arguments: [String], in project: TemporaryDirectory) -> [String] {
        let run = runTool(arguments + ["--reporter", "xcode", "--quiet"], in: project.path, rules: RuleRegistry.all)
        return run.standardOutput.split(separator: "\n").map {
            String($0).replacingOccurrences(of: project.path + "/", with: "")
        }
    }

    func testCanBecomeFirstResponderInAnotherFileSilencesTheOverride() throws {
        let project = try BinaryHarness.copyFixture("Accessories")
        let rule = ["--only", "accessory_missing_can_become_first_responder"]
        let findings = lint(rule, in: project)
        XCTAssertEqual(findings.count, 1, findings.joined(separator: "\n"))
        XCTAssertEqual(lint(rule + ["Support/SupportViewController.swift"], in: project), [],
                       "a superclass the file does not show may well become first responder")
        XCTAssertTrue(findings[0].hasPrefix("Compose/ComposeViewController.swift:7:18: error: `ComposeViewController` overrides `inputAccessoryView`"),
                      findings.joined(separator: "\n"))
        XCTAssertEqual(lint(rule + ["Chat"], in: project), [], "the extension in another file overrides it")
        let alone = lint(rule + ["Chat/ChatViewController.swift"], in: project)
        XCTAssertEqual(alone.count, 1, "without the extension's file the override is flagged")
    }

    func testFlexibleHeightSetWhereTheAccessoryIsCreatedInAnotherFile() throws {
        let project = try BinaryHarness.copyFixture("Accessories")
        let rule = ["--only", "accessory_missing_flexible_height"]
        XCTAssertEqual(lint(rule + ["Chat", "Compose"], in: project), [
            "Compose/ReplyBar.swift:4:13: warning: `ReplyBar` overrides `intrinsicContentSize` and is an input accessory view, but neither it nor the code that creates it sets `.flexibleHeight` in its `autoresizingMask`; UIKit pins it to its initial height (accessory_missing_flexible_height)",
            "Compose/ComposeViewController.swift:7:18: note: it becomes an input accessory view here",
        ])
        let alone = lint(rule + ["Chat/ComposerBar.swift"], in: project)
        XCTAssertEqual(alone, [], "not an accessory as far as that file alone shows")
        XCTAssertEqual(lint(rule + ["Chat"], in: project), [], "the creator sets .flexibleHeight")
    }

    func testAccessoryHeldByASuperclassPropertyInAnotherFile() throws {
        let project = try BinaryHarness.copyFixture("Accessories")
        XCTAssertEqual(lint(["--only", "accessory_missing_flexible_height", "Support"], in: project), [
            "Support/SupportReplyBar.swift:4:13: warning: `SupportReplyBar` overrides `intrinsicContentSize` and is an input accessory view, but neither it nor the code that creates it sets `.flexibleHeight` in its `autoresizingMask`; UIKit pins it to its initial height (accessory_missing_flexible_height)",
            "Support/SupportViewController.swift:5:18: note: it becomes an input accessory view here",
        ])
        XCTAssertEqual(lint(["--only", "accessory_missing_flexible_height", "Support/SupportReplyBar.swift",
                             "Support/SupportViewController.swift"], in: project), [],
                       "without the superclass's file the property's type is unknown")
        let responders = ["--only", "accessory_missing_can_become_first_responder", "--only", "accessory_retain_cycle"]
        XCTAssertEqual(lint(responders + ["Support"], in: project), [],
                       "the superclass becomes first responder and resigns on disappear")
    }

    func testFixAddsTheOverrideToTheType() throws {
        let project = try BinaryHarness.copyFixture("Accessories")
        _ = lint(["--only", "accessory_missing_can_become_first_responder", "--fix"], in: project)
        let fixed = try project.text("Compose/ComposeViewController.swift")
        XCTAssertTrue(fixed.contains("""
                override var inputAccessoryView: UIView? {
                    return replyBar
                }
                override var canBecomeFirstResponder: Bool { true }
            }
            """), fixed)
        XCTAssertEqual(lint(["--only", "accessory_missing_can_become_first_responder"], in: project), [])
    }
}
