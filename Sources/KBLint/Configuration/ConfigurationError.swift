import Lexer

/// Why a configuration could not be used: a YAML syntax error, an unknown key or rule id, a
/// value of the wrong type, an unreadable file, an unknown id on the command line. Prints
/// like a compiler diagnostic (`file:line:column: error: message`) so editors can jump to it;
/// the CLI prints it and exits with status 2.
struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The configuration file; nil for errors in command-line flags.
    let path: String?
    /// Where in the file; nil when the whole file is concerned (it cannot be read).
    let location: SourceLocation?
    let message: String

    /// The problems found after this one in the same run, each reported on its own line.
    var further: [ConfigurationError] = []

    init(path: String?, location: SourceLocation?, message: String) {
        self.path = path
        self.location = location
        self.message = message
    }

    /// `first` followed by `further`.
    init(_ first: ConfigurationError, further: [ConfigurationError]) {
        self = first
        self.further = first.further + further
    }

    /// One line per problem, in compiler form.
    var description: String {
        ([line] + further.map(\.line)).joined(separator: "\n")
    }

    private var line: String {
        switch (path, location) {
        case let (path?, location?): "\(path):\(location.line):\(location.column): error: \(message)"
        case let (path?, nil): "\(path): error: \(message)"
        case let (nil, location?): "\(location.line):\(location.column): error: \(message)"
        case (nil, nil): "error: \(message)"
        }
    }
}
