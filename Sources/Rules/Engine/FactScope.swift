import Lexer

/// Which files a run analyses for the project's facts.
///
/// Nearly every fact of a file is about the types it declares or extends (their lineage,
/// observers, properties, keyboard layout guide…), and rules look types up by name. The few
/// facts that are not about the file's own types (keyboard accessors, accessory uses,
/// IQKeyboardManager switches, scroll views set up by their owners) need words that
/// `projectWideMarkers` lists, or a word of each group of `projectWideMarkerGroups`. So pass 1
/// analyses the files that hold such words, and only scans the others for the names of the
/// types they declare; the files pass 2 checks are analysed too. Each check returns the type
/// names its rules looked up (`FileChecker.checkReportingLookups`); the driver then analyses
/// the scanned files declaring one of them (and those declaring their superclasses) and
/// checks again the files whose lookups those files answer differently, until no lookup
/// meets a file not analysed. Every answer a rule gets is then the one analysing every file
/// gives, at the cost of a byte scan for most files (most files of most projects have
/// nothing to do with the keyboard). A test compares both on multi-file projects.
public enum FactScope {
    /// Words without which a file holds no fact beyond those about its own types, apart from
    /// those of `projectWideMarkerGroups`.
    public static let projectWideMarkers: [StaticString] = KeyboardVocabulary.keyboardMarkers + AccessoryFacts.markers
        + ["disabledDistanceHandlingClasses", "contentInsetAdjustmentBehavior"]

    /// Groups of words that together (a word of each group) mark a file that may build
    /// another class's `contentInset` from the safe area (`ScrollViewInsetFacts`); either
    /// alone is everyday layout code.
    public static let projectWideMarkerGroups: [[StaticString]] = [["contentInset"], KeyboardVocabulary.safeAreaMarkers]

    /// The hash a declaration scan records for a type name (`` `Type` `` as `Type`); of its
    /// last component for a qualified or dotted name (the scan records each component).
    public static func hash(ofTypeName name: String) -> UInt64 {
        var name = name
        return name.withUTF8 { bytes in
            NameHash.ofName(bytes, (bytes.lastIndex(of: UInt8(ascii: ".")) ?? -1) + 1, bytes.count)
        }
    }

    /// Name hashes of the words after every `class`, `struct`, `enum`, `extension`,
    /// `protocol` and `actor` of a file (each part of a dotted name; not after `import`, as in
    /// `import protocol Module.Name`), read off its bytes: a
    /// superset of the names of the types it declares or extends. Comments and strings may
    /// add names, which costs an analysis but never a fact. Nil when a name is not plain
    /// ASCII: where such a name ends is the lexer's decision, so the file must be analysed.
    public static func declaredTypeNames(in bytes: [UInt8]) -> [UInt64]? {
        keywordsOnly.scan(bytes, collectingDeclarations: true).declaredTypeNames
    }

    private static let keywordsOnly = MarkerSet([])
}

/// The type names one check looked up (`FileChecker.checkReportingLookups`), as name hashes
/// (`FactScope.hash(ofTypeName:)`). The answers are complete when the project holds the facts
/// of the files these names need; a driver that analysed fewer files analyses those and
/// checks again.
public struct TypeNameLookups: Sendable, Equatable {
    /// Simple names whose facts were read: every file declaring or extending them is needed
    /// (`MarkerSet.Scan.declaredTypeNames`).
    public var facts: Set<UInt64> = []
    /// Qualified names whose facts were read (`Home.RootView`), as the hashes of their
    /// components. Only the type of exactly that name answers (`TypeTable[name]`), and a file
    /// can declare or extend it only by naming every component, so only the files whose
    /// scan holds every component are needed.
    public var qualifiedFacts: Set<[UInt64]> = []
    /// Names of which only what the declaration says was read (`TypeTable.declaration(of:)`):
    /// the files that may declare them are needed (`MarkerSet.Scan.declarationNames`), and
    /// for a name of nested types alone one file extending it.
    public var declarations: Set<UInt64> = []

    public init(facts: Set<UInt64> = [], qualifiedFacts: Set<[UInt64]> = [], declarations: Set<UInt64> = []) {
        self.facts = facts
        self.qualifiedFacts = qualifiedFacts
        self.declarations = declarations
    }

    /// Writes down that the facts of the type named `name` (simple or qualified) were read.
    public mutating func insertFacts(ofTypeName name: String) {
        if !insertQualified(name) { facts.insert(FactScope.hash(ofTypeName: name)) }
    }

    /// Writes down that what the declaration of the type named `name` says was read. For a
    /// qualified name, the files naming every component: those that may declare it, and a
    /// few that extend it.
    public mutating func insertDeclaration(ofTypeName name: String) {
        if !insertQualified(name) { declarations.insert(FactScope.hash(ofTypeName: name)) }
    }

    /// Inserts `name` in `qualifiedFacts` when it is qualified.
    private mutating func insertQualified(_ name: String) -> Bool {
        guard TypeTable.isQualified(name) else { return false }
        qualifiedFacts.insert(name.split(separator: ".").map { FactScope.hash(ofTypeName: String($0)) })
        return true
    }

    public mutating func formUnion(_ other: TypeNameLookups) {
        facts.formUnion(other.facts)
        qualifiedFacts.formUnion(other.qualifiedFacts)
        declarations.formUnion(other.declarations)
    }

    /// The last component of every name looked up, whichever way: the names whose facts,
    /// when they change, may change the answers.
    public var all: Set<UInt64> { facts.union(declarations).union(qualifiedFacts.compactMap(\.last)) }
}

/// Declarations read off bytes for `FactScope.declaredTypeNames(in:)`; `MarkerSet` finds
/// where they may start. Words are runs of ASCII identifier bytes; anything else separates
/// them, which can only find more keywords than the lexer does, never fewer.
struct DeclarationScan {
    let bytes: UnsafeBufferPointer<UInt8>
    var names: [UInt64] = []
    /// The names that may carry what a type's declaration says (whether it is declared, its
    /// superclass): those after `class`, `struct`, `enum`, `protocol` and `actor`, and the
    /// last name of a dotted `extension Outer.Name` (a nested type). A plain `extension Name`
    /// declares nothing, so its name is in `names` only (unless the file names it another
    /// way too).
    var declarationNames: [UInt64] = []

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Reads the declaration when the word starting at `start` is a declaration keyword;
    /// false when its name is not plain ASCII.
    mutating func readDeclaration(at start: Int) -> Bool {
        var end = start
        while end < bytes.count, Self.isWordByte(bytes[end]) { end += 1 }
        guard let keyword = declarationKeyword(start, end), !followsImport(start) else { return true }
        return readNames(after: end, extending: keyword == .extension)
    }

    /// Whether the word before `start`, on the same line, is `import` (`import protocol
    /// Module.Name` imports a declaration; the outline declares nothing there either).
    func followsImport(_ start: Int) -> Bool {
        var end = start
        while end > 0, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        guard end >= 6, end < start, matches(end - 6, "import") else { return false }
        return end == 6 || !Self.isWordByte(bytes[end - 7])
    }

    enum Keyword { case `extension`, other }

    static let keywords: [StaticString] = ["class", "struct", "enum", "extension", "protocol", "actor"]

    static let word: UInt8 = 1

    /// One entry per byte value, `0x40` plus `word` for `[A-Za-z0-9_$]`. A string literal
    /// keeps the table in constant data: no initialisation on the hot path.
    static let byteClasses: StaticString = """
        @@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@A@@@@@@@@@@@AAAAAAAAAA@@@@@@@AAAAAAAAAAAAAAAAAAAAAAAAAA@@@@A\
        @AAAAAAAAAAAAAAAAAAAAAAAAAA@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\
        @@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@
        """

    @inline(__always)
    static func isWordByte(_ byte: UInt8) -> Bool { byteClasses.utf8Start[Int(byte)] & word != 0 }

    /// The declaration keyword spanning `start..<end`, if it is one.
    func declarationKeyword(_ start: Int, _ end: Int) -> Keyword? {
        let isKeyword = switch (bytes[start], end - start) {
        case (0x63, 5): matches(start, "class")
        case (0x73, 6): matches(start, "struct")
        case (0x65, 4): matches(start, "enum")
        case (0x65, 9): matches(start, "extension")
        case (0x70, 8): matches(start, "protocol")
        case (0x61, 5): matches(start, "actor")
        default: false
        }
        guard isKeyword else { return nil }
        return end - start == 9 ? .extension : .other
    }

    func matches(_ start: Int, _ word: StaticString) -> Bool {
        let expected = word.utf8Start
        for offset in 0..<word.utf8CodeUnitCount where bytes[start + offset] != expected[offset] { return false }
        return true
    }

    /// Records the name after a keyword (and `.Part`s after it); false when it is not plain
    /// ASCII.
    mutating func readNames(after keyword: Int, extending: Bool) -> Bool {
        // An extension declares only the last of its dotted names, and only when there are
        // several.
        var read = 0, last: UInt64 = 0
        defer { if extending, read > 1 { declarationNames.append(last) } }
        var index = skipTrivia(from: keyword)
        while index < bytes.count {
            let start: Int, end: Int, next: Int
            if bytes[index] == 0x60 {
                // `Name`: the name without its backticks, as the rules compare names.
                start = index + 1
                var close = start
                while close < bytes.count, bytes[close] != 0x60, bytes[close] != 0x0A, bytes[close] != 0x0D { close += 1 }
                guard close < bytes.count, bytes[close] == 0x60 else { return true }
                end = close
                next = close + 1
            } else {
                start = index
                var cursor = index
                while cursor < bytes.count, Self.isWordByte(bytes[cursor]) { cursor += 1 }
                end = cursor
                next = cursor
            }
            if next < bytes.count, bytes[next] >= 0x80, !isTriviaScalar(next) { return false }
            for offset in start..<end where bytes[offset] >= 0x80 { return false }
            // ``` `` ``` is a name too (an empty one) to the lexer.
            guard end > start || bytes[index] == 0x60 else { return true }
            last = NameHash.of(bytes, start, end)
            read += 1
            names.append(last)
            if !extending { declarationNames.append(last) }
            let afterName = skipTrivia(from: next)
            guard afterName < bytes.count, bytes[afterName] == 0x2E else { return true }
            index = skipTrivia(from: afterName + 1)
        }
        return true
    }

    /// A no-break space or a byte order mark: trivia to the lexer.
    func isTriviaScalar(_ index: Int) -> Bool {
        (bytes[index] == 0xC2 && index + 1 < bytes.count && bytes[index + 1] == 0xA0)
            || (bytes[index] == 0xEF && index + 2 < bytes.count && bytes[index + 1] == 0xBB && bytes[index + 2] == 0xBF)
    }

    /// Past whitespace, newlines, comments (nested block comments too), no-break spaces and
    /// byte order marks.
    func skipTrivia(from start: Int) -> Int {
        var index = start
        let count = bytes.count
        while index < count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0B, 0x0C, 0x0A, 0x0D:
                index += 1
            case 0xC2, 0xEF:
                guard isTriviaScalar(index) else { return index }
                index += bytes[index] == 0xC2 ? 2 : 3
            case 0x2F where index + 1 < count && bytes[index + 1] == 0x2F:
                while index < count, bytes[index] != 0x0A, bytes[index] != 0x0D { index += 1 }
            case 0x2F where index + 1 < count && bytes[index + 1] == 0x2A:
                var depth = 0
                repeat {
                    if bytes[index] == 0x2F, index + 1 < count, bytes[index + 1] == 0x2A {
                        depth += 1
                        index += 2
                    } else if bytes[index] == 0x2A, index + 1 < count, bytes[index + 1] == 0x2F {
                        depth -= 1
                        index += 2
                    } else {
                        index += 1
                    }
                } while depth > 0 && index < count
            default:
                return index
            }
        }
        return index
    }
}
