import XCTest
import Lexer
@testable import Rules

/// A model's later analyses reuse the keyboard value flow of an earlier one when the project
/// tables agree on the file's names: what they reuse must be what a fresh analysis builds.
final class KeyboardEvaluationMemoTests: XCTestCase {
    /// Reads keyboard values through an accessor, a wrapper property and a helper of other
    /// files, and passes a frame to a function of another file.
    let handlerFile = """
    final class Screen: UIViewController {
        @IBOutlet var scrollView: UIScrollView!
        var bottom: NSLayoutConstraint!
        @objc func keyboardWillShow(_ note: Notification) {
            let frame = note.keyboardEndFrame ?? .zero
            let info = KeyboardInfo(note)
            let height = info.endFrame.height
            bottom.constant = frame.height
            let end = (note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? NSValue)?.cgRectValue ?? .zero
            scrollView.adjust(for: end)
            let duration = note.userInfo?[UIResponder.keyboardAnimationDurationUserInfoKey] as? Double ?? 0.25
            UIView.animate(withDuration: duration) { self.view.layoutIfNeeded() }
            update(lift: overlap(of: frame))
        }
        func overlap(of frame: CGRect) -> CGFloat { view.bounds.maxY - frame.minY }
        func update(lift: CGFloat) { scrollView.contentInset.bottom = lift }
    }
    """

    let accessorFile = """
    extension Notification {
        var keyboardEndFrame: CGRect? { userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect }
    }
    struct KeyboardInfo {
        var endFrame: CGRect = .zero
        init(_ note: Notification) {
            let info = note.userInfo ?? [:]
            self.endFrame = info[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect ?? .zero
        }
    }
    """

    let unrelatedFile = """
    extension Notification {
        var otherEndFrame: CGRect? {
            (userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? NSValue)?.cgRectValue
        }
    }
    final class Other: UIViewController {
        @objc func keyboardWillHide(_ note: Notification) {
            let frame = note.otherEndFrame ?? .zero
            resize(to: frame)
        }
    }
    """

    let helperFile = """
    extension UIScrollView {
        func adjust(for keyboardFrame: CGRect) { contentInset.bottom = keyboardFrame.height }
    }
    """

    func facts(_ path: String, _ text: String) -> FileFacts {
        collectFacts(Lexer.tokenize(SourceFile(path: path, text: text)))
    }

    /// Pass 1 on a model, then pass 2 on the same model with the project: its keyboard values
    /// and facts are those of a fresh model's analysis, whether the project names anything of
    /// the file or not.
    func testReusedFlowIsTheFreshFlow() {
        let others = [
            [],
            [facts("Unrelated.swift", unrelatedFile)],
            [facts("Accessors.swift", accessorFile)],
            [facts("Helper.swift", helperFile), facts("Unrelated.swift", unrelatedFile)],
            [facts("Accessors.swift", accessorFile), facts("Helper.swift", helperFile)],
        ]
        for (position, other) in others.enumerated() {
            for text in [handlerFile, accessorFile, unrelatedFile, helperFile] {
                let file = SourceFile(path: "Checked.swift", text: text)
                let model = FileModel(Lexer.tokenize(file))
                let own = collectFacts(model)
                let project = ProjectFacts(merging: other + [own])
                let reused = FileAnalysis(model, project: project)
                let fresh = FileAnalysis(FileModel(Lexer.tokenize(file)), project: project)
                assertSameKeyboardAnalysis(reused, fresh, "project \(position)")
                // And again, after the pass-2 flow became the model's latest.
                assertSameKeyboardAnalysis(FileAnalysis(model, project: ProjectFacts(merging: [own])),
                                           FileAnalysis(FileModel(Lexer.tokenize(file)), project: ProjectFacts(merging: [own])),
                                           "own facts after project \(position)")
            }
        }
    }

    /// Tables agree when they differ only on names the file never spells, and not when they
    /// differ on one it reads.
    func testTablesAgreeOnlyOnTheFileNames() {
        let model = FileModel(Lexer.tokenize(SourceFile(path: "Checked.swift", text: handlerFile)))
        let own = collectFacts(model)
        let names = KeyboardEvaluationNames(model.fileIndex, ResultExpressions(model.source, model.fileIndex.outline))
        let alone = KeyboardProjectTables(ProjectFacts(merging: [own]))
        let unrelated = KeyboardProjectTables(ProjectFacts(merging: [facts("Unrelated.swift", unrelatedFile), own]))
        let accessors = KeyboardProjectTables(ProjectFacts(merging: [facts("Accessors.swift", accessorFile), own]))
        let helper = KeyboardProjectTables(ProjectFacts(merging: [facts("Helper.swift", helperFile), own]))
        XCTAssertFalse(unrelated.accessors.isEmpty)
        XCTAssertTrue(alone.agree(with: unrelated, on: names))
        XCTAssertTrue(unrelated.agree(with: alone, on: names))
        XCTAssertFalse(alone.agree(with: accessors, on: names), "the file reads keyboardEndFrame")
        XCTAssertFalse(accessors.agree(with: alone, on: names))
        // The helper's facts are results and arguments of names the file does not declare.
        XCTAssertTrue(alone.agree(with: helper, on: names))
        let helperModel = FileModel(Lexer.tokenize(SourceFile(path: "Helper.swift", text: helperFile)))
        let helperNames = KeyboardEvaluationNames(
            helperModel.fileIndex, ResultExpressions(helperModel.source, helperModel.fileIndex.outline))
        let helperAlone = KeyboardProjectTables(ProjectFacts(merging: [collectFacts(helperModel)]))
        XCTAssertFalse(helperAlone.agree(with: KeyboardProjectTables(ProjectFacts(merging: [own])), on: helperNames),
                       "the handler file passes a frame to adjust(for:)")
    }

    /// `agree` gives the answer of comparing the tables key by key on every identifier of the
    /// file, for each pair of tables built from these files' facts.
    func testAgreementIsTheComparisonOnEveryIdentifier() {
        let texts = [handlerFile, accessorFile, unrelatedFile, helperFile]
        let allFacts = texts.enumerated().map { facts("File\($0.offset).swift", $0.element) }
        var tableSets: [KeyboardProjectTables] = [KeyboardProjectTables(ProjectFacts(merging: []))]
        for count in 1...allFacts.count {
            tableSets.append(KeyboardProjectTables(ProjectFacts(merging: Array(allFacts.prefix(count)))))
            tableSets.append(KeyboardProjectTables(ProjectFacts(merging: Array(allFacts.suffix(count)))))
        }
        var disagreements = 0
        for text in texts {
            let model = FileModel(Lexer.tokenize(SourceFile(path: "Checked.swift", text: text)))
            let names = KeyboardEvaluationNames(model.fileIndex, ResultExpressions(model.source, model.fileIndex.outline))
            for first in tableSets {
                for second in tableSets {
                    let expected = Self.agreeOnEveryIdentifier(first, second, model.fileIndex, names)
                    XCTAssertEqual(first.agree(with: second, on: names), expected)
                    if !expected { disagreements += 1 }
                }
            }
        }
        XCTAssertGreaterThan(disagreements, 0, "some pairs differ on names the files spell")
    }

    /// The agreement spelled out: every key of either table that the file can ask about.
    static func agreeOnEveryIdentifier(_ first: KeyboardProjectTables, _ second: KeyboardProjectTables,
                                       _ fileIndex: FileIndex, _ names: KeyboardEvaluationNames) -> Bool {
        var identifiers = Set<UInt64>()
        for index in fileIndex.source.code.indices where fileIndex.source.code[index].kind == .identifier {
            identifiers.insert(fileIndex.source.nameHash(index))
        }
        func same<Value>(_ one: NameHashTable<Value>, _ other: NameHashTable<Value>, asked: (UInt64) -> Bool,
                         _ equal: (Value, Value) -> Bool) -> Bool {
            for key in Set(one.keys).union(other.keys) where asked(key) {
                switch (one[key], other[key]) {
                case (nil, nil): continue
                case (let a?, let b?): if !equal(a, b) { return false }
                default: return false
                }
            }
            return true
        }
        return same(first.accessors, second.accessors, asked: identifiers.contains, ==)
            && same(first.heightAccessors, second.heightAccessors, asked: identifiers.contains) { _, _ in true }
            && same(first.frameProperties, second.frameProperties, asked: identifiers.contains, ==)
            && same(first.results, second.results, asked: { identifiers.contains($0) && !names.declaredResults.contains($0) }, ==)
            && same(first.arguments, second.arguments, asked: names.functions.contains, ==)
    }

    /// A flow rebuilt for other tables on what an earlier evaluator read off the file alone
    /// (result expressions, screen-wide getters, safe-area marker) is the flow a fresh
    /// evaluator builds with those tables.
    func testRebuildOnEarlierFileReadingsIsAFreshBuild() {
        let screenFile = """
        final class Chat: UIViewController {
            static var mainWindow: UIWindow? { UIApplication.shared.windows.first }
            var keyboardOverlap: CGFloat { 0 }
            @objc func keyboardWillShow(_ note: Notification) {
                let frame = note.keyboardEndFrame ?? .zero
                let screen = Chat.mainWindow?.bounds ?? UIScreen.main.bounds
                let lift = screen.height - frame.minY - view.safeAreaInsets.bottom
                view.frame.origin.y = -lift
                adjust(for: frame)
            }
            func adjust(for frame: CGRect) { additionalSafeAreaInsets.bottom = frame.height }
        }
        """
        for text in [handlerFile, screenFile, unrelatedFile] {
            let model = FileModel(Lexer.tokenize(SourceFile(path: "Checked.swift", text: text)))
            let own = collectFacts(model)
            let earlier = KeyboardEvaluation(model, tables: KeyboardProjectTables(ProjectFacts(merging: [own])))
            for others in [[facts("Accessors.swift", accessorFile)], [facts("Helper.swift", helperFile)], []] {
                let tables = KeyboardProjectTables(ProjectFacts(merging: others + [own]))
                let rebuilt = KeyboardEvaluation(model, tables: tables, earlier: earlier.evaluator)
                let fresh = KeyboardEvaluation(model, tables: tables)
                XCTAssertEqual(rebuilt.evaluator.flow.valueAt, fresh.evaluator.flow.valueAt)
                XCTAssertEqual(rebuilt.evaluator.carriers.returned, fresh.evaluator.carriers.returned)
                XCTAssertEqual(rebuilt.evaluator.carriers.computed, fresh.evaluator.carriers.computed)
                XCTAssertEqual(rebuilt.evaluator.carriers.insetBottoms, fresh.evaluator.carriers.insetBottoms)
                XCTAssertEqual(rebuilt.evaluator.mayNameSafeArea, fresh.evaluator.mayNameSafeArea)
                XCTAssertEqual(Set(rebuilt.evaluator.screenWideGetters.byName.keys),
                               Set(fresh.evaluator.screenWideGetters.byName.keys))
                XCTAssertEqual(rebuilt.results, fresh.results)
                XCTAssertEqual(rebuilt.arguments, fresh.arguments)
                XCTAssertEqual(rebuilt.frameProperties, fresh.frameProperties)
                XCTAssertEqual(rebuilt.heightAccessors, fresh.heightAccessors)
                for binding in model.fileIndex.bindings {
                    guard let value = binding.value else { continue }
                    XCTAssertEqual(rebuilt.evaluator.value(of: value), fresh.evaluator.value(of: value))
                }
            }
            XCTAssertFalse(text == screenFile && earlier.evaluator.screenWideGetters.byName.isEmpty,
                           "the screen file declares a screen-wide getter")
        }
    }

    func assertSameKeyboardAnalysis(_ reused: FileAnalysis, _ fresh: FileAnalysis, _ message: String,
                                    file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(reused.evaluator?.flow.valueAt, fresh.evaluator?.flow.valueAt, message, file: file, line: line)
        let reusedCarriers = reused.evaluator?.carriers, freshCarriers = fresh.evaluator?.carriers
        XCTAssertEqual(reusedCarriers?.returned, freshCarriers?.returned, message, file: file, line: line)
        XCTAssertEqual(reusedCarriers?.computed, freshCarriers?.computed, message, file: file, line: line)
        XCTAssertEqual(reusedCarriers?.stored, freshCarriers?.stored, message, file: file, line: line)
        XCTAssertEqual(reusedCarriers?.insetBottoms, freshCarriers?.insetBottoms, message, file: file, line: line)
        XCTAssertEqual(reused.facts.keyboardFrameProperties, fresh.facts.keyboardFrameProperties, message, file: file, line: line)
        XCTAssertEqual(reused.facts.keyboardHeightAccessors, fresh.facts.keyboardHeightAccessors, message, file: file, line: line)
        XCTAssertEqual(reused.facts.keyboardResults, fresh.facts.keyboardResults, message, file: file, line: line)
        XCTAssertEqual(reused.facts.keyboardArguments, fresh.facts.keyboardArguments, message, file: file, line: line)
        // Every expression of the file evaluates the same afterwards.
        for binding in reused.bindings {
            guard let value = binding.value else { continue }
            XCTAssertEqual(reused.keyboardValue(of: value), fresh.keyboardValue(of: value), message, file: file, line: line)
        }
    }
}
