import Rules

/// A deployment target and where it was found, so `kblint init` and `--timing` can say
/// "iOS 15.4 from Package.swift".
struct DetectedDeploymentTarget: Sendable, Hashable, CustomStringConvertible {
    enum Origin: String, Sendable, Hashable {
        case configuration, packageSwift, xcodeProject, xcconfig, xcodeGen, tuist, podfile

        /// What names the version inside the source file, when the file name does not say.
        var setting: String? {
            switch self {
            case .configuration: "deployment_target"
            case .xcodeProject, .xcconfig: "IPHONEOS_DEPLOYMENT_TARGET"
            case .xcodeGen: "deploymentTarget"
            case .tuist: "deploymentTargets"
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
/// Only text is inspected (no manifest is evaluated; of build settings only `.xcconfig`
/// variables are resolved), so the answer is a best effort: the lowest iOS version the
/// files name.
enum DeploymentTargetDetector {
    /// The target declared in `directory` itself, from the first of these that names an iOS
    /// version: its `Package.swift`; its `*.xcodeproj/project.pbxproj` files with the
    /// `.xcconfig` files their build configurations are based on (the lowest across them);
    /// XcodeGen's `project.yml`; Tuist's `Project.swift`; the `.xcconfig` files in the folder
    /// (the lowest); its `Podfile`.
    static func detect(inDirectory directory: String, fileSystem: any ConfigurationFileSystem) -> DetectedDeploymentTarget? {
        // One pass over the folder's names: nearly every folder holds none of these files.
        var hasPackageManifest = false, hasXcodeGenSpec = false, hasTuistManifest = false, hasPodfile = false
        var projects: [String] = [], configurationFiles: [String] = []
        for name in fileSystem.namesInDirectory(atPath: directory) {
            // Most names are Swift sources or folders: the name's last bytes rule them out.
            if name.hasFileNameSuffix(".swift") {
                if name == "Package.swift" {
                    hasPackageManifest = true
                } else if name == "Project.swift" {
                    hasTuistManifest = true
                }
            } else if name.hasFileNameSuffix(".xcodeproj") {
                projects.append(name)
            } else if name.hasFileNameSuffix(".xcconfig") {
                configurationFiles.append(name)
            } else if name == "project.yml" {
                hasXcodeGenSpec = true
            } else if name == "Podfile" {
                hasPodfile = true
            }
        }
        if hasPackageManifest {
            let path = LexicalPath.appending("Package.swift", to: directory)
            if let text = text(atPath: path, fileSystem), let version = versionInPackageManifest(text) {
                return DetectedDeploymentTarget(version: version, source: path, origin: .packageSwift)
            }
        }
        var lowest: DetectedDeploymentTarget?
        func consider(_ version: OSVersion?, _ source: String, _ origin: DetectedDeploymentTarget.Origin) {
            guard let version, lowest.map({ version < $0.version }) ?? true else { return }
            lowest = DetectedDeploymentTarget(version: version, source: source, origin: origin)
        }
        for name in projects.sorted() {
            let path = LexicalPath.appending("project.pbxproj", to: LexicalPath.appending(name, to: directory))
            guard let text = text(atPath: path, fileSystem) else { continue }
            consider(versionInXcodeProject(text), path, .xcodeProject)
            for configuration in ProjectDeploymentTargets.baseConfigurationFiles(ofProjectAt: path, text: text) {
                consider(ProjectDeploymentTargets.versionInConfigurationFile(atPath: configuration, fileSystem: fileSystem),
                         configuration, .xcconfig)
            }
        }
        if let lowest { return lowest }
        if hasXcodeGenSpec {
            let path = LexicalPath.appending("project.yml", to: directory)
            consider(text(atPath: path, fileSystem).flatMap(ProjectDeploymentTargets.versionInXcodeGenSpec), path, .xcodeGen)
            if let lowest { return lowest }
        }
        if hasTuistManifest {
            let path = LexicalPath.appending("Project.swift", to: directory)
            consider(text(atPath: path, fileSystem).flatMap(ProjectDeploymentTargets.versionInTuistManifest), path, .tuist)
            if let lowest { return lowest }
        }
        for name in configurationFiles.sorted() {
            let path = LexicalPath.appending(name, to: directory)
            consider(ProjectDeploymentTargets.versionInConfigurationFile(atPath: path, fileSystem: fileSystem), path, .xcconfig)
        }
        if let lowest { return lowest }
        if hasPodfile {
            let path = LexicalPath.appending("Podfile", to: directory)
            if let text = text(atPath: path, fileSystem), let version = versionInPodfile(text) {
                return DetectedDeploymentTarget(version: version, source: path, origin: .podfile)
            }
        }
        return nil
    }

    /// The project files at or above `directory` (absolute) that could declare a target, for
    /// saying where none was found: `*.xcodeproj`, `project.yml`, `Project.swift`,
    /// `Package.swift`, `Podfile`, nearest first.
    static func projectFiles(startingAt directory: String, fileSystem: any ConfigurationFileSystem) -> [String] {
        var found: [String] = []
        var current: String? = directory
        while let folder = current {
            for name in fileSystem.namesInDirectory(atPath: folder).sorted()
            where name.hasSuffix(".xcodeproj") || ["project.yml", "Project.swift", "Package.swift", "Podfile"].contains(name) {
                found.append(LexicalPath.appending(name, to: folder))
            }
            current = LexicalPath.parent(of: folder)
        }
        return found
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
        lowest(in: text, marker: ".iOS(", commentPrefix: "//") { line in
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
        lowest(in: text, marker: "IPHONEOS_DEPLOYMENT_TARGET", commentPrefix: nil) { line in
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
        lowest(in: text, marker: ":ios", commentPrefix: "#") { line in
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            guard trimmed.hasPrefix("platform"), let range = trimmed.firstRange(of: ":ios") else { return [] }
            var value = trimmed[range.upperBound...].drop { $0 == " " }
            guard value.first == "," else { return [] }
            value = value.dropFirst().drop { $0 == " " || $0 == "'" || $0 == "\"" }
            let digits = value.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            return OSVersion(parsing: digits).map { [$0] } ?? []
        }
    }

    /// The lowest of `versions` over the lines that contain `marker` (outside comments);
    /// `versions` finds nothing on other lines.
    private static func lowest(
        in text: String, marker: String, commentPrefix: String?, versions: (Substring) -> [OSVersion]
    ) -> OSVersion? {
        var lowest: OSVersion?
        for line in lines(of: text, containing: marker) {
            var code = line
            if let commentPrefix, let comment = line.firstRange(of: commentPrefix) { code = line[..<comment.lowerBound] }
            for version in versions(code) where lowest.map({ version < $0 }) ?? true {
                lowest = version
            }
        }
        return lowest
    }

    /// The lines of `text` whose bytes contain `marker`, split where `Character.isNewline`
    /// splits (LF, VT, FF, CR, NEL, LS, PS; a newline is always a character of its own).
    /// Project files are long and name the deployment target on a line or two: finding the
    /// marker in the bytes and taking the lines around it, rather than splitting every line
    /// into characters, keeps detection cheap.
    private static func lines(of text: String, containing marker: String) -> [Substring] {
        var text = text
        text.makeContiguousUTF8()  // a no-op for native strings
        let needle = Array(marker.utf8)
        var lines: [Range<Int>] = []
        _ = text.utf8.withContiguousStorageIfAvailable { bytes in
            var searchStart = 0
            while let hit = firstOccurrence(of: needle, in: bytes, from: searchStart) {
                var start = hit
                while start > 0, !endsNewline(bytes, at: start) { start -= 1 }
                var end = hit + needle.count
                while end < bytes.count, !startsNewline(bytes, at: end) { end += 1 }
                lines.append(start..<end)
                searchStart = end
            }
        }
        let utf8 = text.utf8
        return lines.map { line in
            text[utf8.index(utf8.startIndex, offsetBy: line.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: line.upperBound)]
        }
    }

    private static func firstOccurrence(of needle: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let first = needle.first, bytes.count - start >= needle.count else { return nil }
        var index = start
        while index <= bytes.count - needle.count {
            if bytes[index] == first, bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    /// Whether a newline scalar starts at `index`: LF, VT, FF, CR, or NEL, LS, PS in UTF-8.
    private static func startsNewline(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        switch bytes[index] {
        case 0x0A...0x0D: return true
        case 0xC2: return index + 1 < bytes.count && bytes[index + 1] == 0x85
        case 0xE2:
            return index + 2 < bytes.count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9)
        default: return false
        }
    }

    /// Whether a newline scalar ends just before `index` (the text is valid UTF-8, so a
    /// continuation byte's lead is where the scalar's length says).
    private static func endsNewline(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        switch bytes[index - 1] {
        case 0x0A...0x0D: return true
        case 0x85: return index >= 2 && bytes[index - 2] == 0xC2
        case 0xA8, 0xA9: return index >= 3 && bytes[index - 2] == 0x80 && bytes[index - 3] == 0xE2
        default: return false
        }
    }

    private static func text(atPath path: String, _ fileSystem: any ConfigurationFileSystem) -> String? {
        fileSystem.contentsOfFile(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }
}
