import XCTest
import Lexer
@testable import Rules

/// Project facts are keyed by qualified type names, so nested types of the same simple name
/// stay apart, and names written in a type resolve from its scope.
final class QualifiedTypeNameTests: XCTestCase {
    let orders = """
    enum Orders {
        class Screen: UIViewController {
            func setUp() { table.contentInset.bottom = view.safeAreaInsets.bottom }
        }
        final class Detail: Screen {}
    }
    extension Orders.Screen {
        func reload() {}
    }
    """
    let profile = """
    enum Profile {
        class Screen: UIViewController {}
        final class Detail: Screen {}
    }
    final class Screen: UIView {}
    """

    /// An extension is only valid at file level: one an unclosed brace puts inside a type
    /// keeps the name it is written with, as the byte scan reads it.
    func testAnExtensionInsideAnUnclosedTypeKeepsItsWrittenName() {
        let outline = analyze("enum Report {\n    static let root = 1\nextension Finding: Codable {}\nclass Item {}").outline
        XCTAssertEqual(outline.types.map(\.qualifiedName), ["Report", "Finding", "Report.Item"])
    }

    func testNestedTypesOfOneSimpleNameStayApart() {
        let outline = analyze(orders).outline
        XCTAssertEqual(outline.types.map(\.qualifiedName), ["Orders", "Orders.Screen", "Orders.Detail", "Orders.Screen"])
        XCTAssertEqual(outline.types.map(\.simpleName), ["Orders", "Screen", "Detail", "Screen"])

        let project = ProjectFacts(merging: [analyze(orders, path: "Orders.swift").facts,
                                             analyze(profile, path: "Profile.swift").facts])
        XCTAssertEqual(project.types["Orders.Screen"]?.mentionsSafeArea, true)
        XCTAssertEqual(project.types["Orders.Screen"]?.paths, ["Orders.swift"])
        XCTAssertEqual(project.types["Profile.Screen"]?.mentionsSafeArea, false)
        // The top-level type of that simple name is the one the bare name means.
        XCTAssertEqual(project.types["Screen"]?.superclass, "UIView")
        // A simple name only nested types have stands for all of them.
        XCTAssertEqual(project.types["Detail"]?.paths, ["Orders.swift", "Profile.swift"])
    }

    /// A type no other file holds enters the project as its file has it (`TypeFacts.alone`),
    /// except that what it lists twice is listed once, as merging it into nothing gives.
    func testATypeOfOneFileEntersTheProjectAsMergedIntoNothing() {
        var repeated = TypeFacts(name: "Widget")
        repeated.inheritance = ["UIView", "Themed", "Themed"]
        repeated.paths = ["A.swift", "A.swift"]
        var plain = TypeFacts(name: "Plain")
        plain.inheritance = ["UIView", "Themed"]
        plain.paths = ["A.swift"]
        plain.isClass = true
        var file = FileFacts(path: "A.swift")
        file.types = [repeated, plain]
        for project in [ProjectFacts(merging: [file]), ProjectFacts.empty.including(file)] {
            XCTAssertEqual(project.types["Widget"]?.inheritance, ["UIView", "Themed"])
            XCTAssertEqual(project.types["Widget"]?.paths, ["A.swift"])
            XCTAssertEqual(project.types["Plain"]?.inheritance, ["UIView", "Themed"])
            XCTAssertEqual(project.types["Plain"]?.paths, ["A.swift"])
            XCTAssertEqual(project.types["Plain"]?.isClass, true)
        }
    }

    func testAQualifiedNameHasADotAnywhere() {
        for (name, qualified) in [("Orders.Screen", true), ("Screen", false), ("", false), (".", true), ("Écran.Détail", true),
                                  (String(repeating: "Long", count: 40) + ".X", true), (String(Substring("A.B").dropFirst(2)), false)] {
            XCTAssertEqual(TypeTable.isQualified(name), qualified, name)
        }
    }

    func testNamesResolveFromTheScopeTheyAreWrittenIn() {
        let project = ProjectFacts(merging: [analyze(orders, path: "Orders.swift").facts,
                                             analyze(profile, path: "Profile.swift").facts])
        XCTAssertEqual(project.types.resolve("Screen", from: "Orders"), "Orders.Screen")
        XCTAssertEqual(project.types.resolve("Screen", from: "Profile.Detail"), "Profile.Screen")
        XCTAssertEqual(project.types.resolve("Screen", from: nil), "Screen")
        XCTAssertEqual(project.types.resolve("UIViewController", from: "Orders"), "UIViewController")
        XCTAssertEqual(project.superclasses(of: "Orders.Detail"), ["Orders.Screen", "UIViewController"])
        XCTAssertEqual(project.superclasses(of: "Profile.Detail"), ["Profile.Screen", "UIViewController"])
        XCTAssertEqual(FactScope.hash(ofTypeName: "Orders.Screen"), FactScope.hash(ofTypeName: "Screen"))
    }
}
