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
            [facts("Wrapper.swift", wrapperFile)],
        ]
        for (position, other) in others.enumerated() {
            for text in [handlerFile, accessorFile, unrelatedFile, helperFile, wrapperReaderFile, stateFile] {
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

    /// Another file's wrapper whose stored `state` receives keyboard frames: a frame
    /// property of the project.
    let wrapperFile = """
    struct KeyboardState {
        var state: CGRect = .zero
        var overlap: CGFloat { state.height }
        mutating func update(_ note: Notification) {
            state = (note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? NSValue)?.cgRectValue ?? .zero
        }
    }
    """

    /// Reads the wrapper's `state` in a keyboard handler.
    let wrapperReaderFile = """
    final class Panel: UIViewController {
        var keyboard = KeyboardState()
        var bottom: NSLayoutConstraint!
        override func viewDidLoad() {
            super.viewDidLoad()
            NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillShow(_:)),
                                                   name: UIResponder.keyboardWillShowNotification, object: nil)
        }
        @objc func keyboardWillShow(_ note: Notification) {
            keyboard.update(note)
            let lift = keyboard.state.height
            bottom.constant = lift
        }
    }
    """

    /// Spells `state` too, but only outside keyboard handlers and in a computed property of a
    /// type without a stored `state`, where no frame property is read.
    let stateFile = """
    final class Toggle: UIViewController {
        var state = false
        override func viewDidLoad() {
            super.viewDidLoad()
            NotificationCenter.default.addObserver(self, selector: #selector(keyboardWillShow(_:)),
                                                   name: UIResponder.keyboardWillShowNotification, object: nil)
        }
        @objc func keyboardWillShow(_ note: Notification) {
            let frame = (note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? NSValue)?.cgRectValue ?? .zero
            view.frame.origin.y = -frame.height
        }
        func flip() {
            state = !state
            self.state.toggle()
        }
    }
    enum Mode {
        case idle
        var state: Int { 0 }
        var label: String { String(state) }
    }
    """

    /// The evaluator of `text`'s flow with its own facts.
    func ownEvaluator(_ text: String) -> (evaluator: KeyboardValueEvaluator, facts: FileFacts) {
        let model = FileModel(Lexer.tokenize(SourceFile(path: "Checked.swift", text: text)))
        let own = collectFacts(model)
        return (KeyboardEvaluation(model, tables: KeyboardProjectTables(ProjectFacts(merging: [own]))).evaluator, own)
    }

    /// Tables agree when they differ only on names the file never spells or spells only where
    /// the flow does not read them, and not when they differ on one it reads.
    func testTablesAgreeOnlyOnWhatTheFlowAsks() {
        let (evaluator, own) = ownEvaluator(handlerFile)
        let alone = KeyboardProjectTables(ProjectFacts(merging: [own]))
        let unrelated = KeyboardProjectTables(ProjectFacts(merging: [facts("Unrelated.swift", unrelatedFile), own]))
        let accessors = KeyboardProjectTables(ProjectFacts(merging: [facts("Accessors.swift", accessorFile), own]))
        let helper = KeyboardProjectTables(ProjectFacts(merging: [facts("Helper.swift", helperFile), own]))
        XCTAssertFalse(unrelated.accessors.isEmpty)
        XCTAssertTrue(alone.agree(with: unrelated, askedBy: evaluator))
        XCTAssertTrue(unrelated.agree(with: alone, askedBy: evaluator))
        XCTAssertFalse(alone.agree(with: accessors, askedBy: evaluator), "the file reads keyboardEndFrame")
        XCTAssertFalse(accessors.agree(with: alone, askedBy: evaluator))
        // The helper's facts are results and arguments of names the file does not declare.
        XCTAssertTrue(alone.agree(with: helper, askedBy: evaluator))
        let (helperEvaluator, helperFacts) = ownEvaluator(helperFile)
        XCTAssertFalse(KeyboardProjectTables(ProjectFacts(merging: [helperFacts]))
            .agree(with: KeyboardProjectTables(ProjectFacts(merging: [own])), askedBy: helperEvaluator),
                       "the handler file passes a frame to adjust(for:)")

        let wrapper = facts("Wrapper.swift", wrapperFile)
        XCTAssertEqual(wrapper.keyboardFrameProperties, ["state": .frameEnd])
        for (text, reads) in [(wrapperReaderFile, true), (stateFile, false)] {
            let (evaluator, own) = ownEvaluator(text)
            let alone = KeyboardProjectTables(ProjectFacts(merging: [own]))
            let withWrapper = KeyboardProjectTables(ProjectFacts(merging: [wrapper, own]))
            XCTAssertEqual(alone.agree(with: withWrapper, askedBy: evaluator), !reads, text)
            XCTAssertEqual(withWrapper.agree(with: alone, askedBy: evaluator), !reads, text)
        }
    }

    /// Whenever tables agree on what a file's flow asks, the flows they build are the same,
    /// for each pair of tables built from these files' facts; and some pairs that agree
    /// differ on names the file spells.
    func testAgreeingTablesBuildTheSameFlow() {
        let texts = [handlerFile, accessorFile, unrelatedFile, helperFile, wrapperFile, wrapperReaderFile, stateFile]
        let allFacts = texts.enumerated().map { facts("File\($0.offset).swift", $0.element) }
        var tableSets: [KeyboardProjectTables] = [KeyboardProjectTables(ProjectFacts(merging: []))]
        for count in 1...allFacts.count {
            tableSets.append(KeyboardProjectTables(ProjectFacts(merging: Array(allFacts.prefix(count)))))
            tableSets.append(KeyboardProjectTables(ProjectFacts(merging: Array(allFacts.suffix(count)))))
        }
        var agreements = 0, disagreements = 0, agreementsOnSpelledNames = 0
        for text in texts {
            let model = FileModel(Lexer.tokenize(SourceFile(path: "Checked.swift", text: text)))
            var spelled = Set<UInt64>()
            for index in model.source.code.indices where model.source.code[index].kind == .identifier {
                spelled.insert(model.source.nameHash(index))
            }
            let evaluations = tableSets.map { KeyboardEvaluation(model, tables: $0) }
            for first in evaluations {
                for second in evaluations {
                    guard first.tables.agree(with: second.tables, askedBy: first.evaluator) else {
                        disagreements += 1
                        continue
                    }
                    agreements += 1
                    if Self.differingNames(first.tables, second.tables).contains(where: spelled.contains) {
                        agreementsOnSpelledNames += 1
                    }
                    let reused = first.rebound(to: second.tables)
                    XCTAssertEqual(reused.evaluator.flow.valueAt, second.evaluator.flow.valueAt)
                    XCTAssertEqual(reused.evaluator.carriers.returned, second.evaluator.carriers.returned)
                    XCTAssertEqual(reused.evaluator.carriers.computed, second.evaluator.carriers.computed)
                    XCTAssertEqual(reused.evaluator.carriers.stored, second.evaluator.carriers.stored)
                    XCTAssertEqual(reused.evaluator.carriers.insetBottoms, second.evaluator.carriers.insetBottoms)
                    XCTAssertEqual(reused.frameProperties, second.frameProperties)
                    XCTAssertEqual(reused.heightAccessors, second.heightAccessors)
                    XCTAssertEqual(reused.results, second.results)
                    XCTAssertEqual(reused.arguments, second.arguments)
                    let expressions = model.fileIndex.bindings.compactMap(\.value) + model.fileIndex.assignments.map(\.rhs)
                    for expression in expressions {
                        XCTAssertEqual(reused.evaluator.value(of: expression), second.evaluator.value(of: expression))
                    }
                }
            }
        }
        XCTAssertGreaterThan(agreements, 0)
        XCTAssertGreaterThan(disagreements, 0, "some pairs differ on names the files read")
        XCTAssertGreaterThan(agreementsOnSpelledNames, 0, "some pairs differ only where the files do not read them")
    }

    /// The keys of any table the two do not answer alike about.
    static func differingNames(_ first: KeyboardProjectTables, _ second: KeyboardProjectTables) -> Set<UInt64> {
        var names = Set<UInt64>()
        func collect<Value>(_ one: NameHashTable<Value>, _ other: NameHashTable<Value>, _ equal: (Value, Value) -> Bool) {
            for key in Set(one.keys).union(other.keys) {
                switch (one[key], other[key]) {
                case (let a?, let b?) where equal(a, b): continue
                default: names.insert(key)
                }
            }
        }
        collect(first.accessors, second.accessors, ==)
        collect(first.heightAccessors, second.heightAccessors) { _, _ in true }
        collect(first.frameProperties, second.frameProperties, ==)
        collect(first.results, second.results, ==)
        collect(first.arguments, second.arguments, ==)
        return names
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
