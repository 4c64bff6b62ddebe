import Foundation
import Lexer
@testable import Rules
import XCTest

/// `FactScope.declaredTypeNames(in:)` decides which files the driver analyses when a rule
/// looks a type up: it must find every type the outline finds (more is only slower).
final class DeclaredTypeNamesTests: XCTestCase {
    func outlineNames(_ text: String) -> Set<UInt64> {
        let source = Lexer.tokenize(SourceFile(path: "a.swift", text: text))
        return Set(Outline(source).types.map { FactScope.hash(ofTypeName: $0.simpleName) })
    }

    /// Hashes of the simple names of the outline's declared and nested types (not those of
    /// plain `extension Name`s): what `MarkerSet.Scan.declarationNames` must find.
    func outlineDeclarationNames(_ text: String) -> Set<UInt64> {
        let source = Lexer.tokenize(SourceFile(path: "a.swift", text: text))
        return Set(Outline(source).types.filter { $0.kind != .extension || $0.qualifiedName.contains(".") }
            .map { FactScope.hash(ofTypeName: $0.simpleName) })
    }

    func assertScanFindsTheOutlineTypes(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        let scan = MarkerSet([]).scan(Array(text.utf8), collectingDeclarations: true)
        guard let scanned = scan.declaredTypeNames, let declaring = scan.declarationNames else {
            XCTAssertNil(scan.declarationNames, file: file, line: line)
            return
        }
        XCTAssertEqual(scanned, FactScope.declaredTypeNames(in: Array(text.utf8)), file: file, line: line)
        let missing = outlineNames(text).subtracting(scanned)
        XCTAssertTrue(missing.isEmpty, "types the scan missed in:\n\(text)", file: file, line: line)
        let missingDeclarations = outlineDeclarationNames(text).subtracting(declaring)
        XCTAssertTrue(missingDeclarations.isEmpty, "declarations the scan missed in:\n\(text)", file: file, line: line)
    }

    /// A plain extension declares nothing: a lookup of what declarations say leaves its file
    /// out. A dotted one extends a nested type, which may decide what a name means.
    func testPlainExtensionsAreNoDeclarations() {
        func declaring(_ text: String) -> [UInt64]? {
            MarkerSet([]).scan(Array(text.utf8), collectingDeclarations: true).declarationNames
        }
        let hash = FactScope.hash(ofTypeName:)
        XCTAssertEqual(declaring("extension UIView { func pin() {} }"), [])
        XCTAssertEqual(declaring("extension UIView.AnimationCurve: CustomStringConvertible {}"), [hash("AnimationCurve")])
        XCTAssertEqual(declaring("extension UIView {}\nenum Layout { struct UIView {} }"), [hash("Layout"), hash("UIView")])
        XCTAssertEqual(declaring("final class Banner: UIView {}"), [hash("Banner")])
    }

    /// `import protocol Module.Name` imports one declaration and declares nothing.
    func testImportedDeclarationsDeclareNothing() {
        for text in ["import protocol WooFoundation.Analytics\n", "@testable import  class Kit.Store\n", "import struct Kit.Point"] {
            XCTAssertEqual(MarkerSet([]).scan(Array(text.utf8), collectingDeclarations: true).declaredTypeNames, [], text)
            XCTAssertTrue(outlineNames(text).isEmpty, text)
        }
        XCTAssertEqual(outlineNames("import UIKit\nclass Store {}"), [FactScope.hash(ofTypeName: "Store")])
        XCTAssertEqual(outlineNames("reimport class Store {}").count, 1)
    }

    func testEveryRuleExampleAndFixture() throws {
        for rule in RuleRegistry.all {
            let metadata = rule.metadata
            let examples = metadata.triggering + metadata.nonTriggering
            for example in examples {
                assertScanFindsTheOutlineTypes(example.code.replacingOccurrences(of: "↓", with: ""))
                for text in example.files.values { assertScanFindsTheOutlineTypes(text) }
            }
        }
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let files = FileManager.default.enumerator(atPath: tests.path)?.compactMap { $0 as? String } ?? []
        var count = 0
        for path in files where path.hasSuffix(".swift") {
            guard let data = FileManager.default.contents(atPath: tests.path + "/" + path) else { continue }
            assertScanFindsTheOutlineTypes(String(decoding: data, as: UTF8.self))
            count += 1
        }
        XCTAssertGreaterThan(count, 50)
    }

    func testDeclarationsWrittenEveryWay() {
        let cases = [
            "final class A: B {}", "public struct S<T> where T: Equatable {}", "indirect enum E { case a }",
            "extension Outer.Inner: P {}", "extension Swift . Array {}", "protocol P: AnyObject {}",
            "actor Store {}", "class /* note */ Commented {}", "class // note\nNextLine {}",
            "class /* outer /* nested */ still */ Nested {}", "struct `Type` {}", "@objc(Named) class Objc: NSObject {}",
            "}class Glued {}", "class\u{00A0}NoBreak {}", "\u{FEFF}struct AfterBOM {}", "enum\tTabbed {}",
            "class Generic<T>: Base<T> {}", "let x = 1; struct AfterSemicolon {}",
        ]
        for text in cases {
            XCTAssertNotNil(FactScope.declaredTypeNames(in: Array(text.utf8)), text)
            XCTAssertFalse(outlineNames(text).isEmpty, text)
            assertScanFindsTheOutlineTypes(text)
        }
    }

    func testNamesTheLexerMayEndElsewhereSendTheFileToAnalysis() {
        XCTAssertNil(FactScope.declaredTypeNames(in: Array("class Café {}".utf8)))
        XCTAssertNil(FactScope.declaredTypeNames(in: Array("struct `Ünïcode` {}".utf8)))
        XCTAssertNotNil(FactScope.declaredTypeNames(in: Array("let café = 1 // class Plain".utf8)))
    }

    func testWordsThatOnlyContainAKeywordAreNotDeclarations() {
        let names = FactScope.declaredTypeNames(in: Array("let subclass = superclass; let classy = enumerate; x.structure = 1".utf8))
        XCTAssertEqual(names, [])
    }

    func testByteClassesCoverEveryByte() {
        XCTAssertEqual(DeclarationScan.byteClasses.utf8CodeUnitCount, 256)
        for byte in 0...255 {
            let isWord = (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == 0x5F || byte == 0x24
            XCTAssertEqual(DeclarationScan.isWordByte(UInt8(byte)), isWord, "\(byte)")
        }
    }

    /// Found by fuzzing: a keyword inside a string followed by `/*` hid the declarations
    /// after it.
    func testAKeywordInAStringDoesNotHideTheCodeAfterIt() {
        for text in ["let s = \"class /* not a comment\"\nfinal class Real {}\n",
                     "let s = \"struct // not a comment\"; struct SameLine {}\n",
                     "let s = \"enum `x\"\nenum Next {}\n"] {
            XCTAssertFalse(outlineNames(text).isEmpty, text)
            assertScanFindsTheOutlineTypes(text)
        }
    }

    /// Found by fuzzing: the lexer reads ``` `` ``` as a name, which the scan skipped.
    func testEmptyBacktickedNames() {
        for text in ["final class ``````DetailViewController: Base {}\n", "class `` {}", "struct ``.Inner {}"] {
            XCTAssertFalse(outlineNames(text).isEmpty, text)
            assertScanFindsTheOutlineTypes(text)
        }
    }

    func testUnterminatedInput() {
        for text in ["class", "class ", "class /* never closed", "struct `Open", "extension A.", "extension A . /*"] {
            XCTAssertNotNil(FactScope.declaredTypeNames(in: Array(text.utf8)), text)
        }
    }

    /// The scan reads the runs near the ends of the file on their own and the others sixteen
    /// bytes per step: a keyword is found at every offset, up to the end of the file, and
    /// whatever precedes it.
    func testKeywordsAtEveryOffsetAndAfterEveryByte() {
        for keyword in ["class", "struct", "enum", "extension", "protocol", "actor"] {
            for padding in 0..<34 {
                let text = String(repeating: " ", count: padding) + keyword + " Name"
                let atTheEnd = String(repeating: " ", count: padding) + keyword + " N"
                XCTAssertEqual(FactScope.declaredTypeNames(in: Array(atTheEnd.utf8)), [FactScope.hash(ofTypeName: "N")], atTheEnd)
                XCTAssertEqual(FactScope.declaredTypeNames(in: Array(text.utf8)), [FactScope.hash(ofTypeName: "Name")], text)
                let glued = String(repeating: "x", count: padding + 1) + keyword + " Name"
                XCTAssertEqual(FactScope.declaredTypeNames(in: Array(glued.utf8)), [], glued)
            }
            for byte in UInt8(0)...UInt8(0x7F) {
                let bytes = [byte] + Array((keyword + " N").utf8)
                let expected = DeclarationScan.isWordByte(byte) ? [] : [FactScope.hash(ofTypeName: "N")]
                XCTAssertEqual(FactScope.declaredTypeNames(in: bytes), expected, "\(byte) \(keyword)")
            }
        }
    }

    /// A check reports the types its rules looked up, so that the driver analyses the files
    /// declaring them: here the superclass chain, walked through the project's facts as far
    /// as they go.
    func testCheckReportsTheTypesItsRulesLookedUp() {
        let checker = FileChecker(rules: RuleRegistry.all.map { ConfiguredRule($0) }, deploymentTarget: nil)
        let file = SourceFile(path: "Chat.swift", text: """
            import UIKit

            final class ChatViewController: BaseViewController {
                @objc func keyboardWillShow(_ note: Notification) {
                    let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect ?? .zero
                    tableView.contentInset.bottom = frame.height
                }
                func observe() { NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillShow(_:)), name: UIResponder.keyboardWillShowNotification, object: nil) }
            }
            """)
        func lookups(_ project: ProjectFacts) -> Set<UInt64> {
            let checked = checker.checkReportingLookups(file, project: project)
            XCTAssertEqual(checked.diagnostics.map(\.message), checker.check(file, project: project).map(\.message))
            return checked.lookups.all
        }
        let hash = FactScope.hash(ofTypeName:)
        XCTAssertTrue(lookups(.empty).isSuperset(of: [hash("ChatViewController"), hash("BaseViewController")]))
        XCTAssertFalse(lookups(.empty).contains(hash("UIViewController")))
        let base = collectFacts(Lexer.tokenize(SourceFile(
            path: "Base.swift", text: "class BaseViewController: UIViewController {}")))
        XCTAssertTrue(lookups(ProjectFacts(merging: [base])).contains(hash("UIViewController")))
        XCTAssertTrue(checker.checkReportingLookups(SourceFile(path: "Plain.swift", text: "struct Plain {}"), project: .empty)
            .lookups.all.isEmpty)
    }
}
