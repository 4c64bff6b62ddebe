import Foundation
import XCTest
import Lexer
@testable import Rules

/// Pass 1 skips the full analysis for files without keyboard markers (most of a project)
/// and collects only their types. Whatever facts that path gives must be exactly the facts
/// of the full analysis: a fact added later that needs more than the types must either
/// need a keyboard marker or be collected on the fast path too, or this test fails.
final class FactsFastPathTests: XCTestCase {
    static let samples = [
        """
        import UIKit
        open class BaseController: UIViewController, UITextFieldDelegate {
            override var canBecomeFirstResponder: Bool { true }
            var inset: CGFloat { view.safeAreaInsets.bottom }
            class Nested: UIView { let guide = safeAreaLayoutGuide }
        }
        extension BaseController: Sendable where Self: AnyObject {}
        struct Settings<Value: Codable>: Codable, Equatable { let value: Value }
        enum Mode: String, CaseIterable { case a, b }
        protocol Screen: AnyObject { func show() }
        actor Store {}
        final class Chat: BaseController { override func viewDidLoad() { super.viewDidLoad() } }
        manager.disabledDistanceHandlingClasses.append(Chat.self)
        """,
        "class `Weird Name`: NSObject {}\nextension Outer.Inner: CustomStringConvertible { var description: String { \"\" } }\n",
        "class Broken: UIView { func f() { if x { \n",
        "",
    ]

    func assertSameFacts(_ bytes: [UInt8], _ name: String, file: StaticString = #filePath, line: UInt = #line) {
        let source = Lexer.tokenize(SourceFile(path: name, bytes: bytes))
        guard !KeyboardVocabulary.mayContain(KeyboardVocabulary.keyboardMarkers, in: bytes) else { return }
        XCTAssertEqual(String(describing: collectFacts(source)), String(describing: FileAnalysis(source).facts),
                       name, file: file, line: line)
    }

    func testFastPathMatchesTheFullAnalysis() {
        for (index, sample) in Self.samples.enumerated() {
            assertSameFacts(Array(sample.utf8), "Sample\(index).swift")
        }
    }

    /// Every file of this repository that has no keyboard marker.
    func testFastPathMatchesTheFullAnalysisOnThisRepository() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var checked = 0
        for folder in ["Sources", "Tests", "Fuzz", "Benchmarks"] {
            guard let walker = FileManager.default.enumerator(
                at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil, options: [.skipsHiddenFiles]) else { continue }
            for case let url as URL in walker where url.pathExtension == "swift" {
                let bytes = [UInt8](try Data(contentsOf: url))
                if !KeyboardVocabulary.mayContain(KeyboardVocabulary.keyboardMarkers, in: bytes) { checked += 1 }
                assertSameFacts(bytes, url.lastPathComponent)
            }
        }
        XCTAssertGreaterThan(checked, 10)
    }
}
