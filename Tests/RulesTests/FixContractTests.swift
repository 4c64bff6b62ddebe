import Foundation
import XCTest
import Lexer
@testable import Rules

/// The contract every fix keeps, checked on every rule's correction examples with every rule
/// enabled: the fixed file parses with the Swift toolchain's own parser, the finding is gone,
/// a second fix pass changes nothing, no other rule gains a finding, and fixes of several
/// rules in one file (overlapping ones are taken in later rounds) never corrupt it.
final class FixContractTests: XCTestCase {
    static let allRules = FileChecker(rules: RuleRegistry.all.map { ConfiguredRule($0) }, deploymentTarget: nil)

    static func fix(_ code: String, with checker: FileChecker = allRules) -> FileChecker.FixOutcome {
        checker.fix(SourceFile(path: "Example.swift", text: code),
                    project: RuleExamplesTests.project(code: code, files: [:]), includingUnsafe: true)
    }

    static func counts(_ diagnostics: [Diagnostic]) -> [String: Int] {
        diagnostics.reduce(into: [:]) { $0[$1.ruleID, default: 0] += 1 }
    }

    /// Every correction, with the rule it belongs to.
    static let corrections: [(rule: any Rule.Type, before: String, after: String, options: [String: OptionValue])] =
        RuleRegistry.all.flatMap { rule in
            rule.metadata.corrections.map { (rule, RuleExamplesTests.stripMarkers($0.before).code, $0.after, $0.options) }
        }

    func testEveryFixRemovesItsFindingOnceAndAddsNoOtherFinding() {
        for (rule, before, after, options) in Self.corrections {
            let id = rule.metadata.id
            let own = FileChecker(rules: [ConfiguredRule(rule, options: options)], deploymentTarget: nil)
            XCTAssertTrue(Self.fix(after, with: own).diagnostics.filter { $0.fix != nil }.isEmpty,
                          "\(id): a fixable finding is left after the fix\n\(after)")
            let again = Self.fix(after, with: own)
            XCTAssertEqual(again.fixesApplied, 0, "\(id): a second fix pass changes the file\n\(after)")
            XCTAssertEqual(String(decoding: again.bytes, as: UTF8.self), after, id)

            let found = Self.counts(Self.allRules.check(SourceFile(path: "Example.swift", text: before),
                                                         project: RuleExamplesTests.project(code: before, files: [:])))
            let left = Self.counts(Self.allRules.check(SourceFile(path: "Example.swift", text: after),
                                                        project: RuleExamplesTests.project(code: after, files: [:])))
            for (other, count) in left where other != id {
                XCTAssertLessThanOrEqual(count, found[other] ?? 0, "\(id): its fix gives \(other) a new finding\n\(after)")
            }
        }
    }

    /// Every rule's fixes at once, on each correction and on all corrections in one file: the
    /// result parses, and fixing it again changes nothing.
    func testAllRulesFixingTogetherLeaveFilesThatParse() throws {
        var fixed: [String: String] = [:]
        for (index, correction) in Self.corrections.enumerated() {
            let outcome = Self.fix(correction.before)
            let text = String(decoding: outcome.bytes, as: UTF8.self)
            XCTAssertEqual(Self.fix(text).fixesApplied, 0, "\(correction.rule.metadata.id): not idempotent\n\(text)")
            fixed["\(correction.rule.metadata.id)_\(index).swift"] = text
            fixed["\(correction.rule.metadata.id)_\(index)_expected.swift"] = correction.after
        }
        let combined = Self.fix(Self.corrections.map(\.before).joined(separator: "\n"))
        let combinedText = String(decoding: combined.bytes, as: UTF8.self)
        XCTAssertEqual(Self.fix(combinedText).fixesApplied, 0, "all corrections in one file: not idempotent")
        fixed["all_corrections.swift"] = combinedText
        try SwiftParser.assertParses(fixed)
    }

    /// The regression cases of `keyboard_curve_unshifted`: other options beside the curve keep
    /// their bits, and a fallback that is already an options value is not shifted again.
    func testCurveFixShiftsOnlyTheCurve() throws {
        let combined = """
        func keyboardWillShow(_ notification: Notification) {
            let curve = notification.userInfo?[UIResponder.keyboardAnimationCurveUserInfoKey] as? UInt
            let options = UIView.AnimationOptions(rawValue: (curve ?? 7) | UIView.AnimationOptions.beginFromCurrentState.rawValue)
        }
        """
        let checker = FileChecker(rules: [ConfiguredRule(KeyboardCurveUnshifted.self)], deploymentTarget: nil)
        XCTAssertEqual(String(decoding: Self.fix(combined, with: checker).bytes, as: UTF8.self),
                       combined.replacingOccurrences(of: "(curve ?? 7) |", with: "(curve ?? 7) << 16 |"))

        let fallback = """
        func keyboardWillShow(_ notification: Notification) {
            let curve = notification.userInfo?[UIResponder.keyboardAnimationCurveUserInfoKey] as? UInt
            let options = UIView.AnimationOptions(rawValue: curve ?? UIView.AnimationOptions.curveEaseOut.rawValue)
        }
        """
        let outcome = Self.fix(fallback, with: checker)
        XCTAssertEqual(outcome.fixesApplied, 0)
        XCTAssertEqual(String(decoding: outcome.bytes, as: UTF8.self), fallback)
        XCTAssertTrue(outcome.initial.allSatisfy { $0.fix == nil }, "\(outcome.initial)")
    }
}

extension FixContractTests {
    /// `frame.size.height` converts the rect, not its size (`convert(_: CGSize, from:)` does
    /// not exist): found on a public app.
    func testScreenSpaceFixConvertsTheRect() {
        let code = """
        final class WritingViewController: UIViewController {
            @objc func keyboardWillShow(_ notification: Notification) {
                guard let bound = notification.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect else { return }
                textView.contentInset = UIEdgeInsets(top: 0, left: 0, bottom: bound.size.height, right: 0)
            }
        }
        """
        let checker = FileChecker(rules: [ConfiguredRule(KeyboardFrameScreenSpace.self)], deploymentTarget: nil)
        XCTAssertEqual(String(decoding: Self.fix(code, with: checker).bytes, as: UTF8.self),
                       code.replacingOccurrences(of: "bottom: bound.size.height", with: "bottom: view.convert(bound, from: nil).size.height"))
    }
}

extension FixContractTests {
    /// Closures whose capture cannot be made weak by an insertion keep their finding without
    /// a fix: a capture that renames `self`, and a body that uses `$0` (a signature forbids it).
    func testWeakCaptureFixLeavesClosuresItCannotRewrite() {
        let code = """
        final class SearchViewController: UIViewController {
            private var cancellables = Set<AnyCancellable>()
            override func viewDidLoad() {
                super.viewDidLoad()
                NotificationCenter.default.publisher(for: UIResponder.keyboardWillChangeFrameNotification)
                    .sink { self.move(with: $0) }
                    .store(in: &cancellables)
                NotificationCenter.default.publisher(for: UIResponder.keyboardWillHideNotification)
                    .sink { [controller = self] _ in controller.reset() }
                    .store(in: &cancellables)
            }
        }
        """
        let checker = FileChecker(rules: [ConfiguredRule(ObserverCapturesSelfStrongly.self)], deploymentTarget: nil)

        // Capture, signature and guard all go in right after a brace with no space.
        let tight = code.replacingOccurrences(of: ".sink { self.move(with: $0) }", with: ".sink {self.reset()}")
        XCTAssertEqual(String(decoding: Self.fix(tight, with: checker).bytes, as: UTF8.self), tight.replacingOccurrences(
            of: ".sink {self.reset()}", with: ".sink { [weak self] _ in guard let self else { return }; self.reset()}"))

        let outcome = Self.fix(code, with: checker)
        XCTAssertEqual(outcome.initial.count, 2, "\(outcome.initial)")
        XCTAssertTrue(outcome.initial.allSatisfy { $0.fix == nil }, "\(outcome.initial)")
        XCTAssertEqual(outcome.fixesApplied, 0)
    }

    /// The default copies the `.easeInOut` clause found among the clause labels, not an
    /// `if case` inside a clause; cases split by `#if` get no fix.
    func testCurveDefaultCopiesTheEaseInOutClause() {
        let code = """
        func options(for note: Notification, reduced: Bool) -> UIView.AnimationOptions {
            let raw = note.userInfo?[UIResponder.keyboardAnimationCurveUserInfoKey] as? Int ?? 0
            switch UIView.AnimationCurve(rawValue: raw)! {
            case .easeIn, .easeOut:
                if case .some = Optional(reduced) { return .curveLinear }
                return .curveEaseIn
            case .linear: return .curveLinear
            case .easeInOut: return reduced ? .curveLinear : .curveEaseInOut
            }
        }
        """
        let checker = FileChecker(rules: [ConfiguredRule(KeyboardCurveSwitchWithoutDefault.self)], deploymentTarget: nil)
        XCTAssertEqual(String(decoding: Self.fix(code, with: checker).bytes, as: UTF8.self), code.replacingOccurrences(
            of: "    case .easeInOut: return reduced ? .curveLinear : .curveEaseInOut\n",
            with: "    case .easeInOut: return reduced ? .curveLinear : .curveEaseInOut\n    @unknown default: return reduced ? .curveLinear : .curveEaseInOut\n"))

        let conditional = code.replacingOccurrences(of: "    case .linear: return .curveLinear\n",
                                                    with: "    #if os(iOS)\n    case .linear: return .curveLinear\n    #endif\n")
        let outcome = Self.fix(conditional, with: checker)
        XCTAssertEqual(outcome.initial.count, 1)
        XCTAssertEqual(outcome.fixesApplied, 0)

        // A file that ends inside the switch has no `}` to put the clause before.
        let truncated = String(code[..<code.range(of: "    }\n}")!.lowerBound])
        let unclosed = Self.fix(truncated, with: checker)
        XCTAssertEqual(unclosed.initial.count, 1)
        XCTAssertEqual(unclosed.fixesApplied, 0)

        // A clause label without its colon (code being typed): the colon after it belongs to
        // the next clause, so no clause is copied.
        let colonless = """
        func options(for note: Notification) -> Int {
            let raw = note.userInfo?[UIResponder.keyboardAnimationCurveUserInfoKey] as? Int ?? 0
            switch UIView.AnimationCurve(rawValue: raw)! {
            case .easeIn: return 0
            case .easeInOut
            case .linear: return 1
            }
        }
        """
        let broken = Self.fix(colonless, with: checker)
        XCTAssertEqual(broken.initial.count, 1)
        XCTAssertEqual(broken.fixesApplied, 0)
    }
}

extension FixContractTests {
    /// The guide's guard is raised only where a fallback exists: an `if` without `else` and
    /// `guard #available` keep their finding without a fix.
    func testGuideGuardIsRaisedOnlyWithAFallback() {
        let code = """
        final class SearchViewController: UIViewController {
            func configure() {
                guard #available(iOS 15, *) else { return }
                view.keyboardLayoutGuide.followsUndockedKeyboard = true
            }
        }
        final class FilterViewController: UIViewController {
            func configure() {
                if #available(iOS 15.1, *) {
                    list.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                }
            }
        }
        """
        let checker = FileChecker(rules: [ConfiguredRule(KeyboardGuideAvailability.self)], deploymentTarget: nil)
        let outcome = Self.fix(code, with: checker)
        XCTAssertEqual(outcome.initial.count, 2, "\(outcome.initial)")
        XCTAssertTrue(outcome.initial.allSatisfy { $0.fix == nil }, "\(outcome.initial)")
    }
}

extension FixContractTests {
    /// A visible height whose top inset cancels against another `contentInset.top` read, and
    /// whose bottom adds the safe area by hand: swapping one read would break the arithmetic
    /// (found on a public app), so the finding has no fix.
    func testInsetSwapIsWithheldWhereOtherReadsCancelAgainstIt() {
        let code = """
        final class NewsViewController: UICollectionViewController {
            override func scrollViewDidScroll(_ scrollView: UIScrollView) {
                let viewport = scrollView.bounds.height - scrollView.contentInset.top
                footer.isHidden = scrollView.contentOffset.y >= scrollView.contentSize.height - viewport - scrollView.contentInset.top
            }
        }
        """
        let checker = FileChecker(rules: [ConfiguredRule(VisibleHeightUsesContentInset.self)], deploymentTarget: nil)
        let outcome = Self.fix(code, with: checker)
        XCTAssertEqual(outcome.initial.count, 1, "\(outcome.initial)")
        XCTAssertEqual(outcome.fixesApplied, 0)
    }

    /// A statement that adds the safe area itself already has the whole inset; its
    /// `contentInset` reads are not the defect (and `adjustedContentInset` would count the safe
    /// area twice).
    func testStatementAddingItsOwnSafeAreaTermIsNotReported() {
        let code = """
        final class NewsViewController: UICollectionViewController {
            override func scrollViewDidScroll(_ scrollView: UIScrollView) {
                let viewport = scrollView.bounds.height - scrollView.contentInset.top - (scrollView.contentInset.bottom + view.safeAreaInsets.bottom)
                footer.isHidden = scrollView.contentOffset.y >= scrollView.contentSize.height - viewport - scrollView.contentInset.top
            }
        }
        """
        let checker = FileChecker(rules: [ConfiguredRule(VisibleHeightUsesContentInset.self)], deploymentTarget: nil)
        XCTAssertEqual(Self.fix(code, with: checker).initial.count, 0)
    }
}

/// `swiftc -frontend -parse`: the toolchain's parser, without type checking (the examples
/// use UIKit, which Linux lacks).
enum SwiftParser {
    static var executable: URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent("swiftc") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Fails the test with the parser's errors unless every file parses; skips without swiftc.
    static func assertParses(_ files: [String: String], file: StaticString = #filePath, line: UInt = #line) throws {
        guard let swiftc = executable else {
            print("FixContractTests: no swiftc on PATH, the fixed files were not parsed")
            throw XCTSkip("no swiftc on PATH")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kblint-parse-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var paths: [String] = []
        for (name, text) in files.sorted(by: { $0.key < $1.key }) {
            let url = folder.appendingPathComponent(name)
            try Data(text.utf8).write(to: url)
            paths.append(url.path)
        }
        let process = Process()
        process.executableURL = swiftc
        process.arguments = ["-frontend", "-parse"] + paths
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "fixed files that do not parse:\n\(message)", file: file, line: line)
    }
}
