import Rules

/// A deployment target and where it was found, so `kblint init` and `--timing` can say
/// "iOS 15.4 from Package.swift".
struct DetectedDeploymentTarget: Sendable, Hashable, CustomStringConvertible {
    enum Origin: String, Sendable, Hashable {
        case configuration, packageSwift, xcodeProject, podfile

        /// What names the version inside the source file, when the file name does not say.
        var setting: String? {
            switch self {
            case .configuration: "deployment_target"
            case .xcodeProject: "IPHONEOS_DEPLOYMENT_TARGET"
            case .packageSwift, .podfile: nil
            }
        }
    }

    let version: OSVersion
    /// Absolute path of the file it was read from.
    let source: String
    let origin: Origin

    /// "iOS 15.4 (from /p/Package.swift)", "iOS 14.0 (from IPHONEOS_DEPLOYMENT_TARGET in /p/A.xcodeproj/project.pbxproj)".
    var description: String {
        "iOS \(version) (from " + (origin.setting.map { "\($0) in " } ?? "") + source + ")"
    }
}

/// Finds the iOS deployment target a project declares when `.kblint.yml` does not say.
/// Only text is inspected (no manifest is evaluated, no build setting resolved), so the
/// answer is a best effort: the lowest iOS version the file names.
enum DeploymentTargetDetector {
    /// The target declared in `directory` itself: its `Package.swift`, else its
    /// `*.xcodeproj/project.pbxproj` files (the lowest across them), else its `Podfile`.
    /// A file that names no iOS version does not count.
    static func detect(inDirectory directory: String, fileSystem: any ConfigurationFileSystem) -> DetectedDeploymentTarget? {
        let names = fileSystem.namesInDirectory(atPath: directory)
        if names.contains("Package.swift") {
            let path = LexicalPath.appending("Package.swift", to: directory)
            if let text = text(atPath: path, fileSystem), let version = versionInPackageManifest(text) {
                return DetectedDeploymentTarget(version: version, source: path, origin: .packageSwift)
            }
        }
        var lowest: DetectedDeploymentTarget?
        for name in names.sorted() where name.hasSuffix(".xcodeproj") {
            let path = LexicalPath.appending("project.pbxproj", to: LexicalPath.appending(name, to: directory))
            guard let text = text(atPath: path, fileSystem), let version = versionInXcodeProject(text) else { continue }
            if lowest.map({ version < $0.version }) ?? true {
                lowest = DetectedDeploymentTarget(version: version, source: path, origin: .xcodeProject)
            }
        }
        if let lowest { return lowest }
        if names.contains("Podfile") {
            let path = LexicalPath.appending("Podfile", to: directory)
            if let text = text(atPath: path, fileSystem), let version = versionInPodfile(text) {
                return DetectedDeploymentTarget(version: version, source: path, origin: .podfile)
            }
        }
        return nil
    }

    /// The nearest declaration at or above `directory` (absolute), searching up to the root.
    static func detect(startingAt directory: String, fileSystem: any ConfigurationFileSystem) -> DetectedDeploymentTarget? {
        var current: String? = directory
        while let folder = current {
            if let found = detect(inDirectory: folder, fileSystem: fileSystem) { return found }
            current = LexicalPath.parent(of: folder)
        }
        return nil
    }

    /// `.iOS(.v15)`, `.iOS(.v15_4)`, `.iOS("15.4")` in `platforms:`; the lowest when several
    /// appear. Line comments are skipped.
    static func versionInPackageManifest(_ text: String) -> OSVersion? {
        lowest(in: text, commentPrefix: "//") { line in
            var versions: [OSVersion] = []
            var rest = Substring(line)
            while let range = rest.firstRange(of: ".iOS(") {
                rest = rest[range.upperBound...].drop { $0 == " " }
                if rest.hasPrefix(".v") {
                    let digits = rest.dropFirst(2).prefix { $0.isASCII && ($0.isNumber || $0 == "_") }
                    if let version = OSVersion(parsing: digits) { versions.append(version) }
                } else if rest.hasPrefix("\"") {
                    let literal = rest.dropFirst().prefix { $0 != "\"" }
                    if let version = OSVersion(parsing: literal) { versions.append(version) }
                }
            }
            return versions
        }
    }

    /// Every `IPHONEOS_DEPLOYMENT_TARGET = 14.0;` of the project's build configurations; the lowest.
    static func versionInXcodeProject(_ text: String) -> OSVersion? {
        lowest(in: text, commentPrefix: nil) { line in
            guard let range = line.firstRange(of: "IPHONEOS_DEPLOYMENT_TARGET") else { return [] }
            var value = line[range.upperBound...].drop { $0 == " " || $0 == "\t" }
            guard value.first == "=" else { return [] }
            value = value.dropFirst().drop { $0 == " " || $0 == "\t" || $0 == "\"" }
            let digits = value.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            return OSVersion(parsing: digits).map { [$0] } ?? []
        }
    }

    /// `platform :ios, '14.0'` (or with double quotes, or unquoted).
    static func versionInPodfile(_ text: String) -> OSVersion? {
        lowest(in: text, commentPrefix: "#") { line in
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            guard trimmed.hasPrefix("platform"), let range = trimmed.firstRange(of: ":ios") else { return [] }
            var value = trimmed[range.upperBound...].drop { $0 == " " }
            guard value.first == "," else { return [] }
            value = value.dropFirst().drop { $0 == " " || $0 == "'" || $0 == "\"" }
            let digits = value.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            return OSVersion(parsing: digits).map { [$0] } ?? []
        }
    }

    private static func lowest(
        in text: String, commentPrefix: String?, versions: (Substring) -> [OSVersion]
    ) -> OSVersion? {
        var lowest: OSVersion?
        for line in text.split(whereSeparator: \.isNewline) {
            var code = line
            if let commentPrefix, let comment = line.firstRange(of: commentPrefix) { code = line[..<comment.lowerBound] }
            for version in versions(code) where lowest.map({ version < $0 }) ?? true {
                lowest = version
            }
        }
        return lowest
    }

    private static func text(atPath path: String, _ fileSystem: any ConfigurationFileSystem) -> String? {
        fileSystem.contentsOfFile(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }
}
