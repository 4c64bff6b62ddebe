import Rules

/// Where real projects set the iOS target besides `Package.swift` and the build settings
/// written into `project.pbxproj`: `.xcconfig` files (referenced by the project's build
/// configurations, or lying in a searched folder), XcodeGen's `project.yml` and Tuist's
/// `Project.swift`. Text is read, nothing is evaluated; each reader returns the lowest iOS
/// version it finds.
enum ProjectDeploymentTargets {
    // MARK: .xcconfig

    /// Files read at most per top-level `.xcconfig` (`#include` chains and cycles end there).
    static let maximumIncludedFiles = 32

    /// `IPHONEOS_DEPLOYMENT_TARGET` as the `.xcconfig` at `path` (absolute) sets it, with its
    /// `#include "…"` and `#include? "…"` files read first (a later assignment wins, as in
    /// Xcode) and `$(NAME)` / `${NAME}` resolved from the settings of the same files.
    /// Conditional assignments (`IPHONEOS_DEPLOYMENT_TARGET[sdk=iphoneos*]`) count too: the
    /// lowest value wins.
    static func versionInConfigurationFile(atPath path: String, fileSystem: any ConfigurationFileSystem) -> OSVersion? {
        var settings: [String: String] = [:]
        var conditionalTargets: [String] = []
        var read = 0
        var visiting: Set<String> = []
        func load(_ file: String) {
            guard read < maximumIncludedFiles, visiting.insert(file).inserted,
                  let bytes = fileSystem.contentsOfFile(atPath: file) else { return }
            read += 1
            defer { visiting.remove(file) }
            let folder = LexicalPath.parent(of: file) ?? "/"
            for rawLine in String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline) {
                var line = rawLine.drop { $0 == " " || $0 == "\t" }
                if line.hasPrefix("#include") {
                    let rest = line.dropFirst("#include".count).drop { $0 == "?" || $0 == " " || $0 == "\t" }
                    guard rest.first == "\"", let close = rest.dropFirst().firstIndex(of: "\"") else { continue }
                    let included = String(rest[rest.index(after: rest.startIndex)..<close])
                    // Xcode's own `<DEVELOPER_DIR>` includes are outside the project.
                    guard !included.hasPrefix("<") else { continue }
                    load(LexicalPath.absolute(included, relativeTo: folder))
                    continue
                }
                if let comment = line.firstRange(of: "//") { line = line[..<comment.lowerBound] }
                // `NAME[sdk=…] = value`: the assignment's `=` follows the condition.
                let conditionEnd = line.firstIndex(of: "[").flatMap { _ in line.firstIndex(of: "]") } ?? line.startIndex
                guard let equal = line[conditionEnd...].firstIndex(of: "=") else { continue }
                let name = line[..<equal].trimmingCharacters(in: " \t")
                let value = line[line.index(after: equal)...].trimmingCharacters(in: " \t;")
                guard !name.isEmpty else { continue }
                if let bracket = name.firstIndex(of: "[") {
                    if name[..<bracket] == "IPHONEOS_DEPLOYMENT_TARGET" { conditionalTargets.append(value) }
                    continue
                }
                settings[name] = value
            }
        }
        load(path)
        let candidates = (settings["IPHONEOS_DEPLOYMENT_TARGET"].map { [$0] } ?? []) + conditionalTargets
        return candidates.compactMap { resolve($0, in: settings).flatMap(version(in:)) }.min()
    }

    /// `value` with `$(NAME)` and `${NAME}` replaced from `settings`, a few levels deep; nil
    /// when a reference cannot be resolved (`$(inherited)`, a setting Xcode computes).
    static func resolve(_ value: String, in settings: [String: String], depth: Int = 0) -> String? {
        guard depth < 8 else { return nil }
        var result = ""
        var rest = Substring(value)
        while let dollar = rest.firstIndex(of: "$") {
            result += rest[..<dollar]
            let afterDollar = rest[rest.index(after: dollar)...]
            guard let open = afterDollar.first, open == "(" || open == "{" else {
                result.append("$")
                rest = afterDollar
                continue
            }
            let close: Character = open == "(" ? ")" : "}"
            guard let end = afterDollar.firstIndex(of: close) else { return nil }
            let name = String(afterDollar[afterDollar.index(after: afterDollar.startIndex)..<end])
            guard let referenced = settings[name], let resolved = resolve(referenced, in: settings, depth: depth + 1) else { return nil }
            result += resolved
            rest = afterDollar[afterDollar.index(after: end)...]
        }
        return result + rest
    }

    /// A version that is the whole value (quotes allowed).
    private static func version(in value: String) -> OSVersion? {
        OSVersion(parsing: value.trimmingCharacters(in: "\"' "))
    }

    /// The `.xcconfig` files the build configurations of the project at `pbxprojPath`
    /// (absolute path of a `project.pbxproj`) are based on (`baseConfigurationReference`),
    /// as absolute paths. File references are resolved through the groups that hold them
    /// (`sourceTree = "<group>"`), from the project folder (`SOURCE_ROOT`) or as absolute.
    static func baseConfigurationFiles(ofProjectAt pbxprojPath: String, text: String) -> [String] {
        guard text.contains("baseConfigurationReference"),
              let root = PropertyListReader.read(text), let objects = root["objects"]?.dictionary else { return [] }
        // The folder holding the `.xcodeproj`.
        let projectFolder = LexicalPath.parent(of: LexicalPath.parent(of: pbxprojPath) ?? "/") ?? "/"
        var parentOf: [String: String] = [:]
        for (id, object) in objects {
            for child in object.dictionary?["children"]?.array ?? [] {
                if let childID = child.string { parentOf[childID] = id }
            }
        }
        func folder(of id: String, depth: Int) -> String? {
            guard depth < 64, let object = objects[id]?.dictionary else { return nil }
            let path = object["path"]?.string
            switch object["sourceTree"]?.string {
            case "<absolute>":
                return path
            case "SOURCE_ROOT":
                return path.map { LexicalPath.absolute($0, relativeTo: projectFolder) } ?? projectFolder
            case "<group>", nil:
                // The main group has no parent: its folder is the project folder.
                let base = parentOf[id].flatMap { folder(of: $0, depth: depth + 1) } ?? projectFolder
                return path.map { LexicalPath.absolute($0, relativeTo: base) } ?? base
            default:
                return nil  // BUILT_PRODUCTS_DIR, SDKROOT, …: not project files
            }
        }
        var files: Set<String> = []
        for object in objects.values {
            guard let dictionary = object.dictionary, dictionary["isa"]?.string == "XCBuildConfiguration",
                  let reference = dictionary["baseConfigurationReference"]?.string,
                  let path = folder(of: reference, depth: 0) else { continue }
            files.insert(path)
        }
        return files.sorted()
    }

    // MARK: XcodeGen

    /// XcodeGen's `project.yml`: `options: deploymentTarget: iOS: "15.0"` and a target's
    /// `deploymentTarget: "15.0"` (or `{iOS: "15.0"}`). Read line by line, so files using
    /// YAML beyond kblint's configuration subset are read too.
    static func versionInXcodeGenSpec(_ text: String) -> OSVersion? {
        var versions: [OSVersion] = []
        let lines = text.split(whereSeparator: \.isNewline)
        for (index, line) in lines.enumerated() {
            let content = line.drop { $0 == " " || $0 == "\t" }
            guard content.hasPrefix("deploymentTarget:") else { continue }
            let value = content.dropFirst("deploymentTarget:".count).prefix { $0 != "#" }.trimmingCharacters(in: " \t")
            if value.hasPrefix("{") {
                versions += iOSValues(inFlowMapping: value)
            } else if !value.isEmpty {
                if let version = version(in: value) { versions.append(version) }
            } else {
                // A block mapping of platforms: the more indented lines that follow.
                let indent = line.count - content.count
                for next in lines[(index + 1)...] {
                    let nextContent = next.drop { $0 == " " || $0 == "\t" }
                    if nextContent.isEmpty || nextContent.hasPrefix("#") { continue }
                    guard next.count - nextContent.count > indent else { break }
                    if nextContent.hasPrefix("iOS:"),
                       let version = version(in: nextContent.dropFirst(4).prefix { $0 != "#" }.trimmingCharacters(in: " \t")) {
                        versions.append(version)
                    }
                }
            }
        }
        return versions.min()
    }

    private static func iOSValues(inFlowMapping text: String) -> [OSVersion] {
        text.trimmingCharacters(in: "{} ").split(separator: ",").compactMap { pair in
            let parts = pair.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: " \t\"'") == "iOS" else { return nil }
            return version(in: parts[1].trimmingCharacters(in: " \t"))
        }
    }

    // MARK: Tuist

    /// Tuist's `Project.swift`: `deploymentTargets: .iOS("17.0")` and the older
    /// `deploymentTarget: .iOS(targetVersion: "15.0", devices: …)`. Line comments are skipped.
    static func versionInTuistManifest(_ text: String) -> OSVersion? {
        var versions: [OSVersion] = []
        for rawLine in text.split(whereSeparator: \.isNewline) where rawLine.contains(".iOS(") {
            var rest = Substring(rawLine)
            if let comment = rest.firstRange(of: "//") { rest = rest[..<comment.lowerBound] }
            while let range = rest.firstRange(of: ".iOS(") {
                rest = rest[range.upperBound...].drop { $0 == " " }
                if rest.hasPrefix("targetVersion:") { rest = rest.dropFirst("targetVersion:".count).drop { $0 == " " } }
                guard rest.first == "\"" else { continue }
                if let version = OSVersion(parsing: rest.dropFirst().prefix { $0 != "\"" }) { versions.append(version) }
            }
        }
        return versions.min()
    }
}

private extension StringProtocol {
    func trimmingCharacters(in set: String) -> String {
        var text = Substring(self)
        while let first = text.first, set.contains(first) { text = text.dropFirst() }
        while let last = text.last, set.contains(last) { text = text.dropLast() }
        return String(text)
    }
}
