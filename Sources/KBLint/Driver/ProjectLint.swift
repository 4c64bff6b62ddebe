#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Lints some files of a project with the facts of the whole project, so that a file gets the
/// same findings whichever way it is linted: a folder, one file, `--staged`, `--since`,
/// `--file-list`, `--use-stdin`, a plugin linting one target, or an editor through the
/// language server. A superclass, an extension or an accessory type declared in a file that
/// is not linted still counts; only the linted files are reported.
///
/// The facts come from the files a plain `kblint` run on the project root would lint: the
/// `.swift` files under the root that the configuration governing their folder lints
/// (`included`, `excluded`), hidden and build folders skipped. Pass 1 of a whole app costs
/// a tenth of a second or so: one read and one byte scan per file, the few files with
/// project-wide facts analysed.
struct ProjectLint {
    let driver: LintDriver
    /// Decides which of the project's files count (`included`, `excluded`).
    let resolver: ConfigurationResolver
    /// Shared with the resolver's file system, so that looking up a folder's configuration
    /// reuses discovery's listing of it.
    var lastListing = LastListing()

    /// Lints `inputs` (reported, in order) with the facts of every file of the project at
    /// `projectRoot` (absolute; nil: the facts of `inputs` alone). `contents` replaces the
    /// bytes of project files by absolute path (unsaved editor buffers); the inputs carry
    /// their own bytes (`LintInput.preloaded`) and are never read twice.
    func lint(_ inputs: [LintInput], projectRoot: String?, contents: [String: [UInt8]] = [:]) -> LintDriver.Outcome {
        lint(contents: contents) { feed in
            for input in inputs { feed.report(input) }
            return projectRoot
        }
    }

    /// Lints the inputs `discover` reports, as it finds them, with the facts of every file of
    /// the project at the folder it returns once it has reported them all (absolute; nil:
    /// the facts of the inputs alone). Listing the project's other files counts as pass 1 in
    /// the outcome's times.
    func lint(contents: [String: [UInt8]] = [:], discovering discover: (InputFeed) -> String?) -> LintDriver.Outcome {
        driver.run { feed in
            guard let projectRoot = discover(feed) else { return }
            let linted = Set(feed.reported.map(\.target.absolutePath))
            var discovery = FileDiscovery(currentDirectory: resolver.currentDirectory)
            discovery.lastListing = lastListing
            discovery.exclusion = Self.exclusion(resolver)
            _ = discovery.discover([projectRoot]) { target in
                if !linted.contains(target.absolutePath) {
                    feed.addFactSource(FactSource(target: target, preloaded: contents[target.absolutePath]))
                }
            }
        }
    }

    /// Configuration's exclusion test for a folder's entries, as discovery asks for it:
    /// `excluded` for folders (`included` is checked on files only: a folder above an included
    /// one must be entered), `included` and `excluded` for files. A folder whose configuration
    /// is broken excludes nothing here; the run reports the error where it lints a file.
    static func exclusion(_ resolver: ConfigurationResolver) -> (String) -> (String, Bool) -> Bool {
        { folder in
            guard let configuration = try? resolver.configuration(forDirectory: folder) else { return { _, _ in false } }
            return { absolute, isFolder in
                isFolder ? configuration.isExcluded(absolute) : !configuration.shouldLint(absolute)
            }
        }
    }
}

/// Which folder is the project of a set of files.
enum ProjectRoot {
    /// The nearest folder at or above the folder holding all of `absolutePaths` that holds a
    /// `.git`, a `Package.swift` or an `*.xcodeproj`; without one, the nearest holding a
    /// `.kblint.yml`; nil when there is none of these (the files are then their own project).
    /// A nested `.kblint.yml` (rule settings for one folder) does not cut the project short
    /// while a repository, package or Xcode project lies above it.
    static func find(containing absolutePaths: [String], fileSystem: any ConfigurationFileSystem) -> String? {
        guard var folder = commonFolder(of: absolutePaths) else { return nil }
        var nearestConfigured: String?
        while true {
            let names = fileSystem.namesInDirectory(atPath: folder)
            if names.contains(where: { $0 == ".git" || $0 == "Package.swift" || $0.hasFileNameSuffix(".xcodeproj") }) {
                return folder
            }
            if nearestConfigured == nil, names.contains(Configuration.fileName) { nearestConfigured = folder }
            guard let parent = LexicalPath.parent(of: folder) else { return nearestConfigured }
            folder = parent
        }
    }

    /// The deepest folder holding every path (each path's own folder for files).
    static func commonFolder(of absolutePaths: [String]) -> String? {
        var common: [Substring]?
        // `common` as a path: a path below it (nearly every one) leaves it as it is, found
        // without splitting the path (projects list thousands of files).
        var commonPath = ""
        for path in absolutePaths {
            if common?.isEmpty ?? false { break }
            if common != nil, isBelow(path, commonPath) { continue }
            let folder = (LexicalPath.parent(of: path) ?? "/").split(separator: "/")
            common = common.map { current in Array(zip(current, folder).prefix { $0 == $1 }.map(\.0)) } ?? folder
            commonPath = "/" + common!.joined(separator: "/")
        }
        return common.map { "/" + $0.joined(separator: "/") }
    }

    /// Whether `path`'s bytes continue `folder`'s (a path without empty components) with a
    /// `/`: then `path` lies below `folder` (by components as well). Compared with `memcmp`:
    /// asked once per file of the run.
    private static func isBelow(_ path: String, _ folder: String) -> Bool {
        var path = path, folder = folder
        return path.withUTF8 { path in
            folder.withUTF8 { folder in
                path.count > folder.count && path[folder.count] == UInt8(ascii: "/")
                    && (folder.isEmpty || memcmp(path.baseAddress!, folder.baseAddress!, folder.count) == 0)
            }
        }
    }

    /// Whether linting `searched` (absolute paths, as given) already reads every file under
    /// `root`: one of them is `root` or a folder above it.
    static func isCovered(_ root: String, by searched: [String]) -> Bool {
        searched.contains { $0 == "/" || $0 == root || root.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
    }
}
