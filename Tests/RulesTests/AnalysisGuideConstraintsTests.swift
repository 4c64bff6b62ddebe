import XCTest
import Lexer
@testable import Rules

final class AnalysisGuideConstraintsTests: XCTestCase {
    func testConstraintSidesAndActivation() {
        let analysis = analyze("""
        final class ChatViewController: UIViewController {
            lazy var barBottom = inputBar.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor)
            func layout() {
                tableView.bottomAnchor.constraint(equalTo: inputBar.topAnchor).isActive = true
                NSLayoutConstraint.activate([
                    view.keyboardLayoutGuide.leadingAnchor.constraint(equalTo: self.badge?.leadingAnchor),
                ])
                let away = toolbar.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor)
                view.keyboardLayoutGuide.setConstraints([away], activeWhenAwayFrom: .top)
                let loose = header.topAnchor.constraint(equalTo: topAnchor)
                barBottom.isActive = true
                _ = loose
            }
        }
        """)
        let constraints = analysis.anchorConstraints()
        func describe(_ constraint: AnchorConstraint) -> String {
            let sides = constraint.anchors.map { side in
                (side.owner.map { analysis.source.text(at: $0) } ?? "self") + "." + analysis.source.text(at: side.anchor)
            }
            return sides.joined(separator: "=") + " \(constraint.activation)"
        }
        XCTAssertEqual(constraints.map(describe), [
            "inputBar.bottomAnchor=keyboardLayoutGuide.topAnchor activated",
            "tableView.bottomAnchor=inputBar.topAnchor activated",
            "keyboardLayoutGuide.leadingAnchor=badge.leadingAnchor activated",
            "toolbar.bottomAnchor=keyboardLayoutGuide.topAnchor edgeAware",
            "header.topAnchor=self.topAnchor unknown",
        ])
        XCTAssertEqual(constraints.compactMap(\.keyboardLayoutGuideToken).count, 3)
    }

    func testViewsPinnedToTheGuideIncludeViewsStackedOnThem() {
        let analysis = analyze("""
        final class ChatViewController: UIViewController {
            func layout() {
                NSLayoutConstraint.activate([
                    tableView.topAnchor.constraint(equalTo: view.topAnchor),
                    tableView.bottomAnchor.constraint(equalTo: inputBar.topAnchor),
                    inputBar.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor),
                    banner.topAnchor.constraint(equalTo: view.safeAreaLayoutGuide.topAnchor),
                ])
            }
        }
        """)
        let byType = analysis.anchorConstraintsByType(analysis.anchorConstraints())
        XCTAssertEqual(Array(byType.keys), [TypeID(0)])
        let pinned = analysis.viewsPinnedToKeyboardLayoutGuide(byType[TypeID(0)] ?? [])
        let constrained = analysis.viewsConstrained(byType[TypeID(0)] ?? [])
        for name in ["tableView", "inputBar"] { XCTAssertTrue(pinned.contains(NameHash.of(name)), name) }
        for name in ["view", "banner", "safeAreaLayoutGuide"] { XCTAssertFalse(pinned.contains(NameHash.of(name)), name) }
        XCTAssertTrue(constrained.contains(NameHash.of("banner")))
    }

    func testGuideUsesOfATypeHonourShadowing() {
        let code = """
        final class EditorViewController: UIViewController {
            func layout() {
                editor.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true
                print(view.keyboardLayoutGuide.layoutFrame)
            }
        }
        """
        let analysis = analyze(code)
        let uses = analysis.keyboardLayoutGuideUses(ofType: "EditorViewController")
        XCTAssertEqual(uses.count, 1, "reading layoutFrame is not a use")
        XCTAssertEqual(analysis.source.text(at: uses[0]), "keyboardLayoutGuide")
        XCTAssertEqual(analysis.codeIndex(atByte: Int(analysis.source.code[uses[0]].start)), uses[0])
        XCTAssertNil(analysis.codeIndex(atByte: Int(analysis.source.code[uses[0]].start) + 1))

        let imported = analyze("import KeyboardLayoutGuide\n" + code)
        XCTAssertTrue(imported.keyboardLayoutGuideUses(ofType: "EditorViewController").isEmpty)
        let extensionFacts = collectFacts(Lexer.tokenize(SourceFile(
            path: "Guide.swift", text: "extension UIView { var keyboardLayoutGuide: UILayoutGuide { guide } }")))
        let shadowed = analyze(code, project: ProjectFacts(merging: [extensionFacts]))
        XCTAssertTrue(shadowed.keyboardLayoutGuideUses(ofType: "EditorViewController").isEmpty)
        XCTAssertEqual(analysis.placeDescription(FactLocation(path: "Test.swift", range: analysis.source.byteRange(uses[0]..<(uses[0] + 1)))), "line 3")
        XCTAssertEqual(analysis.placeDescription(FactLocation(path: "App/Other.swift", range: 0..<1)), "`Other.swift`")
    }

    func testUndockedAndEdgeAwareFactsMergeAcrossFiles() {
        let main = collectFacts(Lexer.tokenize(SourceFile(path: "Canvas.swift", text: """
        final class CanvasViewController: UIViewController {
            func setUp() {
                view.keyboardLayoutGuide.followsUndockedKeyboard = true
                view.keyboardLayoutGuide.usesBottomSafeArea = false
            }
        }
        final class PlainViewController: UIViewController {
            func setUp() { view.keyboardLayoutGuide.followsUndockedKeyboard = false }
        }
        """)))
        let other = collectFacts(Lexer.tokenize(SourceFile(path: "Canvas+Edges.swift", text: """
        extension CanvasViewController {
            func adapt() { view.keyboardLayoutGuide.setConstraints([c], activeWhenNearEdge: .top) }
        }
        """)))
        let project = ProjectFacts(merging: [main, other])
        let canvas = project.types["CanvasViewController"]!
        XCTAssertEqual(canvas.followsUndockedKeyboard.map(\.path), ["Canvas.swift"])
        XCTAssertTrue(canvas.usesEdgeAwareGuideConstraints)
        XCTAssertEqual(canvas.keyboardLayoutGuideUses.count, 3)
        let plain = project.types["PlainViewController"]!
        XCTAssertTrue(plain.followsUndockedKeyboard.isEmpty)
        XCTAssertFalse(plain.usesEdgeAwareGuideConstraints)
    }

    func testLocalAliasesAndLocalHomeMadeGuides() {
        let analysis = analyze("""
        final class NotesViewController: UIViewController {
            func layout() {
                let guide = view.keyboardLayoutGuide
                NSLayoutConstraint.activate([editor.bottomAnchor.constraint(equalTo: guide.topAnchor)])
            }
        }
        final class LegacyViewController: UIViewController {
            func layout() {
                let keyboardLayoutGuide = UILayoutGuide()
                view.addLayoutGuide(keyboardLayoutGuide)
                form.bottomAnchor.constraint(equalTo: keyboardLayoutGuide.topAnchor).isActive = true
            }
            func other() {
                list.bottomAnchor.constraint(equalTo: guide.topAnchor).isActive = true
            }
        }
        """)
        let notes = analysis.keyboardLayoutGuideUses(ofType: "NotesViewController")
        XCTAssertEqual(notes.map { analysis.source.text(at: $0) }, ["guide"])
        XCTAssertTrue(analysis.keyboardLayoutGuideUses(ofType: "LegacyViewController").isEmpty)
        let pinned = analysis.anchorConstraints().filter { $0.keyboardLayoutGuideToken != nil }
        XCTAssertEqual(pinned.count, 1, "only the alias of UIKit's guide, not the local guide nor an unrelated `guide`")
    }
}

final class KeyboardGuideLineageTests: XCTestCase {
    func testGuideUsersUpAndDownTheClassHierarchy() {
        let facts = collectFacts(Lexer.tokenize(SourceFile(path: "Screens.swift", text: """
        class KeyboardAwareViewController: UIViewController {}
        class ChatViewController: KeyboardAwareViewController {
            func pin() { bar.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true }
        }
        final class GroupChatViewController: ChatViewController {}
        final class SettingsViewController: KeyboardAwareViewController {}
        class HomeMadeViewController: UIViewController { let keyboardLayoutGuide = UILayoutGuide() }
        final class HomeMadeChildViewController: HomeMadeViewController {
            func pin() { bar.bottomAnchor.constraint(equalTo: keyboardLayoutGuide.topAnchor).isActive = true }
        }
        """)))
        let project = ProjectFacts(merging: [facts])
        XCTAssertEqual(project.subclasses(of: "KeyboardAwareViewController"),
                       ["ChatViewController", "GroupChatViewController", "SettingsViewController"])
        XCTAssertEqual(project.keyboardLayoutGuideUserInLineage(of: "GroupChatViewController"), "ChatViewController")
        XCTAssertNil(project.keyboardLayoutGuideUserInLineage(of: "SettingsViewController"))
        XCTAssertEqual(project.keyboardLayoutGuideUserSharingCode(with: "KeyboardAwareViewController"), "ChatViewController")
        XCTAssertNil(project.keyboardLayoutGuideUserSharingCode(with: "SettingsViewController"))
        XCTAssertNil(project.keyboardLayoutGuideUserSharingCode(with: "HomeMadeChildViewController"), "shadowed by its superclass")
    }

    /// Walking up from the guide's users gives what searching every type's superclasses
    /// gives: the first guide user by name, shadowed ones left out, cycles ended.
    func testSubclassIndexMatchesTheSearch() {
        let pin = "func pin() { bar.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor).isActive = true }"
        let facts = collectFacts(Lexer.tokenize(SourceFile(path: "Screens.swift", text: """
        class Base: UIViewController {}
        class Zed: Base { \(pin) }
        class Middle: Base {}
        class Alpha: Middle { \(pin) }
        final class Beta: Alpha {}
        class Shadowing: Base { let keyboardLayoutGuide = UILayoutGuide() }
        final class Aardvark: Shadowing { \(pin) }
        class Loop: Knot { \(pin) }
        class Knot: Loop {}
        """)))
        let project = ProjectFacts(merging: [facts])
        for name in project.types.names {
            let reference = project.keyboardLayoutGuideUserInLineage(of: name)
                ?? project.subclasses(of: name).first { project.usesKeyboardLayoutGuide($0) }
            XCTAssertEqual(project.keyboardLayoutGuideUserSharingCode(with: name), reference, name)
        }
        XCTAssertEqual(project.keyboardLayoutGuideUserSharingCode(with: "Base"), "Alpha")
        XCTAssertEqual(project.keyboardLayoutGuideUserSharingCode(with: "Middle"), "Alpha")
    }
}

private extension ProjectFacts {
    /// Project classes that inherit from `name`, directly or not, sorted by name: the plain
    /// search the lineage queries are checked against.
    func subclasses(of name: String) -> [String] {
        types.names.filter { $0 != name && superclasses(of: $0).contains(name) }.sorted()
    }
}
