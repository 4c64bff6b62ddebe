import Lexer

/// Facts about one file gathered in pass 1 (types, their traits, keyboard accessors, …) so
/// that cross-file rules can ask about the whole project without re-reading files.
public struct FileFacts: Sendable {
    public let path: String
    public init(path: String) { self.path = path }
}

/// The merge of every file's facts.
public struct ProjectFacts: Sendable {
    public let files: [FileFacts]
    public init(merging files: [FileFacts]) { self.files = files }
    public static let empty = ProjectFacts(merging: [])
}

/// Pass 1 for one file.
public func collectFacts(_ source: TokenizedSource) -> FileFacts {
    FileFacts(path: source.file.path)
}
