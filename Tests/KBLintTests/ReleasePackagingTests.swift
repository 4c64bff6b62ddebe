import Foundation
import XCTest
@testable import KBLint

/// `Scripts/release.sh` packaging the kblint under test (`--binary`, so no release build):
/// tarball, artifact bundle, sums, formula, notes, merging another machine's binaries, the
/// README's prebuilt-binary install lines, and the binary plugin package
/// (Distribution/KBLintPlugins) running both plugins from the bundle in a fixture package.
/// SwiftPM builds the fixture and its plugins, so this runs with KBLINT_PLUGIN_TESTS=1 (as
/// `.ci/run` does). The release's own static build is checked by the script itself, when it
/// runs for real.
final class ReleasePackagingTests: XCTestCase {
    static let root = PluginPackageTests.repositoryRoot
    let version = ProjectInfo.version
    var work: TemporaryDirectory!
    var dist = ""
    var triple = ""

    override func setUpWithError() throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment["KBLINT_PLUGIN_TESTS"] == "1",
                          "set KBLINT_PLUGIN_TESTS=1 to package a release and build the plugin fixture")
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: BinaryHarness.executable.path))
        work = try TemporaryDirectory()
        dist = work.path + "/dist"
        #if os(macOS)
        triple = "universal-apple-macosx"
        #else
        let info = try command(["swift", "-print-target-info"]).output
        triple = try XCTUnwrap(regexMatches(#""unversionedTriple": "([^"]+)""#, in: info).first?[1])
        #endif
    }

    /// Runs `arguments` (a program name is looked up in PATH) in `directory`; output and
    /// error together.
    @discardableResult
    func command(_ arguments: [String], in directory: String? = nil, expecting status: Int32? = 0) throws -> (status: Int32, output: String) {
        let environment = ProcessInfo.processInfo.environment
        let executable = arguments[0].contains("/") ? arguments[0]
            : try XCTUnwrap(ChildProcess.locate(arguments[0], environment: environment), "\(arguments[0]) not in PATH")
        let result = try ChildProcess(executable: executable, arguments: Array(arguments.dropFirst()),
                                      directory: directory ?? work.path).run()
        let output = String(decoding: result.output, as: UTF8.self) + String(decoding: result.errorOutput, as: UTF8.self)
        if let status { XCTAssertEqual(result.status, status, "\(arguments.joined(separator: " ")):\n\(output)") }
        return (result.status, output)
    }

    func sha256(_ path: String) throws -> String {
        String(try command(["shasum", "-a", "256", path]).output.prefix(64))
    }

    func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    func testReleaseScriptPackagesAndTheBinaryPluginsLintATarget() throws {
        try checkReleaseScriptWritesDist()
        #if os(Linux)
        try checkReadmeBinaryInstallLines() // its lines are the Linux ones
        #endif
        try checkFormulaInstallsTheBinaryOrBuildsTheSource()
        try checkMergingAnotherMachinesBinaries()
        try checkBinaryPluginsLintTheFixturePackage()
    }

    @discardableResult
    func release(_ arguments: String...) throws -> String {
        try command(["bash", Self.root + "/Scripts/release.sh", "--allow-dirty", "--skip-tests",
                     "--binary", BinaryHarness.executable.path, "--dist", dist] + arguments, in: Self.root).output
    }

    func checkReleaseScriptWritesDist() throws {
        let output = try release(version)
        XCTAssertTrue(output.contains("git tag -a v\(version)"), output)
        XCTAssertTrue(output.contains("gh release create v\(version)"), output)
        let tarball = "kblint-\(version)-\(triple).tar.gz", source = "kblint-\(version)-source.tar.gz"
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dist).sorted(), [
            "KBLintPlugins", "RELEASE_NOTES.md", "SHA256SUMS", source, tarball, "kblint.artifactbundle.zip", "kblint.rb",
        ].sorted())
        XCTAssertTrue(try command(["shasum", "-a", "256", "-c", "SHA256SUMS"], in: dist).output.contains("\(tarball): OK"))
        XCTAssertEqual(try command(["tar", "-tzf", "\(dist)/\(tarball)"]).output, "kblint\n")

        // The bundle: info.json lists this machine's variant, whose binary runs.
        try command(["unzip", "-q", "\(dist)/kblint.artifactbundle.zip", "-d", work.path + "/bundle"])
        let bundle = work.path + "/bundle/kblint.artifactbundle"
        let info = try JSONReader.value(of: Array(try text(bundle + "/info.json").utf8))
        func string(_ value: JSONValue?) -> String? {
            guard case .string(let text) = value else { return nil }
            return text
        }
        XCTAssertEqual(string(info[member: "schemaVersion"]), "1.0")
        let artifact = try XCTUnwrap(info[member: "artifacts"]?[member: "KBLint"])
        XCTAssertEqual(string(artifact[member: "version"]), version)
        XCTAssertEqual(string(artifact[member: "type"]), "executable")
        guard case .array(let variants) = artifact[member: "variants"] else { return XCTFail("no variants") }
        XCTAssertEqual(variants.count, 1)
        let triples = variants.first?[member: "supportedTriples"]?.rendered() ?? ""
        XCTAssertTrue(triples.contains(triple == "universal-apple-macosx" ? "\"arm64-apple-macosx\"" : "\"\(triple)\""), triples)
        let variantPath = try XCTUnwrap(string(variants.first?[member: "path"]))
        XCTAssertEqual(try command([bundle + "/" + variantPath, "--version"]).output, "\(version)\n")

        // The plugin package points at the release's bundle, the formula at its tarballs.
        let download = "\(ProjectInfo.home)/releases/download/v\(version)"
        let manifest = try text(dist + "/KBLintPlugins/Package.swift")
        XCTAssertTrue(manifest.contains("url: \"\(download)/kblint.artifactbundle.zip\""), manifest)
        XCTAssertTrue(manifest.contains("checksum: \"\(try sha256(dist + "/kblint.artifactbundle.zip"))\""), manifest)
        XCTAssertFalse(manifest.contains("path:"), manifest)
        let formula = try text(dist + "/kblint.rb")
        XCTAssertTrue(formula.contains("url \"\(download)/\(source)\"\n  sha256 \"\(try sha256(dist + "/" + source))\""), formula)
        XCTAssertTrue(formula.contains("\"swift\", \"build\", \"-c\", \"release\", \"--disable-sandbox\""), formula)
        #if os(Linux)
        XCTAssertTrue(formula.contains("url \"\(download)/\(tarball)\"\n      sha256 \"\(try sha256(dist + "/" + tarball))\""), formula)
        #endif

        // The notes are the CHANGELOG's section for the version.
        let notes = try text(dist + "/RELEASE_NOTES.md")
        let changelog = try text(Self.root + "/CHANGELOG.md")
        XCTAssertTrue(notes.contains("### Added"), notes)
        XCTAssertFalse(notes.contains("## ["), notes)
        XCTAssertTrue(changelog.contains("## [\(version)] - ") && changelog.contains(notes.trimmingCharacters(in: .newlines)))
    }

    /// The README's three prebuilt-binary lines, downloading from dist/ instead of GitHub and
    /// installing into a temporary folder instead of /usr/local/bin.
    func checkReadmeBinaryInstallLines() throws {
        let readme = try text(Self.root + "/README.md")
        let lines = try XCTUnwrap(regexMatches(#"```sh\n(curl -fLO .*)\n(sha256sum .*)\n(tar -xzf .*)\n```"#, in: readme).first)
        let download = "\(ProjectInfo.home)/releases/download/v\(version)/"
        let bin = work.path + "/bin"
        let script = lines[1].replacingOccurrences(of: download, with: "file://\(dist)/").replacingOccurrences(of: "kblint-\(version)-x86_64-unknown-linux-gnu", with: "kblint-\(version)-\(triple)")
            + "\n" + lines[2] + "\n"
            + lines[3].replacingOccurrences(of: "sudo install kblint /usr/local/bin/", with: "install kblint \(bin)/")
            .replacingOccurrences(of: "kblint-\(version)-x86_64-unknown-linux-gnu", with: "kblint-\(version)-\(triple)")
        XCTAssertNotEqual(script, lines[1...3].joined(separator: "\n"))
        try FileManager.default.createDirectory(atPath: work.path + "/download", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try command(["bash", "-e", "-c", script], in: work.path + "/download")
        XCTAssertEqual(try command([bin + "/kblint", "--version"]).output, "\(version)\n")
    }

    /// The formula, loaded as Homebrew would on Linux and macOS (Fixtures/Homebrew stands in
    /// for Homebrew's formula DSL; skipped without Ruby): the prebuilt tarball where this
    /// release has one, else the source tarball built with `swift build --disable-sandbox`.
    func checkFormulaInstallsTheBinaryOrBuildsTheSource() throws {
        guard ChildProcess.locate("ruby", environment: ProcessInfo.processInfo.environment) != nil else {
            return print("ReleasePackagingTests: Ruby is not installed; the formula is not loaded")
        }
        let loader = BinaryHarness.fixtures.path + "/Homebrew/load_formula.rb", formula = dist + "/kblint.rb"
        let download = "\(ProjectInfo.home)/releases/download/v\(version)"
        let source = "kblint-\(version)-source.tar.gz"
        let unpacked = work.path + "/formula"
        try FileManager.default.createDirectory(atPath: unpacked, withIntermediateDirectories: true)

        // Where this release has no binary, the sources are built (unpacked as Homebrew does,
        // into the archive's one folder).
        try command(["tar", "-xzf", "\(dist)/\(source)", "-C", unpacked])
        let other = triple.hasSuffix("linux-gnu") ? ["macos", "arm"] : ["linux", "intel"]
        let build = try command(["ruby", loader, formula] + other + ["install"], in: "\(unpacked)/kblint-\(version)").output
        XCTAssertTrue(build.hasPrefix("url \(download)/\(source)\nsha256 \(try sha256(dist + "/" + source))\n"), build)
        XCTAssertTrue(build.contains("system swift build -c release --disable-sandbox --product kblint\nbin.install .build/release/kblint\n"), build)

        #if os(Linux) && arch(x86_64)
        let tarball = "kblint-\(version)-\(triple).tar.gz"
        try command(["tar", "-xzf", "\(dist)/\(tarball)", "-C", unpacked])
        let binary = try command(["ruby", loader, formula, "linux", "intel", "install"], in: unpacked).output
        XCTAssertEqual(binary, "url \(download)/\(tarball)\nsha256 \(try sha256(dist + "/" + tarball))\nbin.install kblint\n")
        #endif
    }

    /// Another machine's dist/ (a stand-in macOS universal tarball) merged into this one.
    func checkMergingAnotherMachinesBinaries() throws {
        let other = try TemporaryDirectory()
        try other.write("stage/kblint", "#!/bin/sh\necho mac\n")
        let mac = "kblint-\(version)-universal-apple-macosx.tar.gz"
        try command(["tar", "-czf", "\(other.path)/\(mac)", "-C", "\(other.path)/stage", "kblint"])
        try release("merge", version, other.path)

        let info = try command(["unzip", "-p", "\(dist)/kblint.artifactbundle.zip", "kblint.artifactbundle/info.json"]).output
        XCTAssertTrue(info.contains("\"supportedTriples\": [\"arm64-apple-macosx\", \"x86_64-apple-macosx\"]"), info)
        XCTAssertTrue(info.contains("\"kblint-\(version)-\(triple)/bin/kblint\""), info)
        let sums = try text(dist + "/SHA256SUMS")
        XCTAssertTrue(sums.contains("\(try sha256(dist + "/" + mac))  \(mac)\n"), sums)
        let formula = try text(dist + "/kblint.rb")
        XCTAssertTrue(formula.contains("  on_macos do\n    depends_on macos: :ventura\n    url \"\(ProjectInfo.home)/releases/download/v\(version)/\(mac)\""), formula)
        let manifest = try text(dist + "/KBLintPlugins/Package.swift")
        XCTAssertTrue(manifest.contains("checksum: \"\(try sha256(dist + "/kblint.artifactbundle.zip"))\""), manifest)
    }

    /// The binary plugin package, its bundle a local file (`.binaryTarget(path:)`), used by
    /// Fixtures/BinaryPluginPackage: both plugins lint, and skip what `.kblint.yml` excludes.
    func checkBinaryPluginsLintTheFixturePackage() throws {
        let plugins = work.path + "/kblint-plugins", app = work.path + "/app"
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        // -L: the plugin sources are links to the repository's Plugins/.
        try command(["cp", "-RL", Self.root + "/Distribution/KBLintPlugins/Package.swift", Self.root + "/Distribution/KBLintPlugins/Plugins", plugins])
        XCTAssertTrue(try text(plugins + "/Package.swift").contains(#".binaryTarget(name: "KBLintBinary", path: "kblint.artifactbundle.zip")"#))
        try FileManager.default.copyItem(atPath: dist + "/kblint.artifactbundle.zip", toPath: plugins + "/kblint.artifactbundle.zip")
        let fixture = try BinaryHarness.copyFixture("BinaryPluginPackage")
        try FileManager.default.copyItem(atPath: fixture.path, toPath: app)

        let finding = "\(app)/Sources/ChatKeyboard/Chat Keyboard.swift:6:28: warning: 'some_rule' is not a kblint rule id"
        let build = try command(["swift", "build"], in: app)
        XCTAssertTrue(build.output.contains(finding), build.output)
        XCTAssertFalse(build.output.contains("generated_rule"), "excluded by .kblint.yml:\n\(build.output)")

        let target = try command(["swift", "package", "kblint", "--target", "ChatKeyboard", "--", "--reporter", "xcode"], in: app)
        XCTAssertTrue(target.output.contains(finding), target.output)
        XCTAssertFalse(target.output.contains("generated_rule"), target.output)

        let strict = try command(["swift", "package", "kblint", "--", "--strict", "--reporter", "xcode"], in: app, expecting: nil)
        XCTAssertNotEqual(strict.status, 0, strict.output)
        XCTAssertTrue(strict.output.contains(finding), strict.output)
        XCTAssertFalse(strict.output.contains("generated_rule"), strict.output)
        XCTAssertTrue(strict.output.contains("kblint exited with status 1"), strict.output)
    }
}
