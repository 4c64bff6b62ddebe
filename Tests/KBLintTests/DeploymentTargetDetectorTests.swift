import Foundation
import XCTest
import Rules
@testable import KBLint

final class DeploymentTargetDetectorTests: XCTestCase {
    func testPackageManifestSpellings() {
        XCTAssertEqual(DeploymentTargetDetector.versionInPackageManifest("platforms: [.iOS(.v15)]"), OSVersion(15))
        XCTAssertEqual(DeploymentTargetDetector.versionInPackageManifest("platforms: [.iOS( .v15_4 )]"), OSVersion(15, 4))
        XCTAssertEqual(DeploymentTargetDetector.versionInPackageManifest("platforms: [.iOS(\"15.4\"), .macOS(\"12\")]"), OSVersion(15, 4))
        XCTAssertEqual(DeploymentTargetDetector.versionInPackageManifest("""
            // platforms: [.iOS(.v11)]
            platforms: [.iOSApplicationExtension(.v12), .iOS(.v16), .macCatalyst(.v13)]
            """), OSVersion(16))
        XCTAssertNil(DeploymentTargetDetector.versionInPackageManifest("platforms: [.macOS(.v13)]"))
        XCTAssertNil(DeploymentTargetDetector.versionInPackageManifest(".iOS(someVariable)"))
    }

    func testXcodeProjectTakesTheLowest() {
        XCTAssertEqual(DeploymentTargetDetector.versionInXcodeProject("""
            \t\t\t\tIPHONEOS_DEPLOYMENT_TARGET = 17.0;
            \t\t\t\tIPHONEOS_DEPLOYMENT_TARGET = "14.1";
            \t\t\t\tIPHONEOS_DEPLOYMENT_TARGET = 15.0;
            \t\t\t\tMACOSX_DEPLOYMENT_TARGET = 10.9;
            """), OSVersion(14, 1))
        XCTAssertNil(DeploymentTargetDetector.versionInXcodeProject("MACOSX_DEPLOYMENT_TARGET = 10.9;"))
        XCTAssertNil(DeploymentTargetDetector.versionInXcodeProject("IPHONEOS_DEPLOYMENT_TARGET = $(INHERITED);"))
    }

    func testPodfile() {
        XCTAssertEqual(DeploymentTargetDetector.versionInPodfile("source 'x'\nplatform :ios, '14.0'\n"), OSVersion(14))
        XCTAssertEqual(DeploymentTargetDetector.versionInPodfile("  platform :ios, \"13.4\" # min"), OSVersion(13, 4))
        XCTAssertEqual(DeploymentTargetDetector.versionInPodfile("platform :ios, 12.1"), OSVersion(12, 1))
        XCTAssertNil(DeploymentTargetDetector.versionInPodfile("# platform :ios, '9.0'\nplatform :osx, '10.15'"))
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/DeploymentTargets").path

    func detected(from folder: String) -> DetectedDeploymentTarget? {
        DeploymentTargetDetector.detect(startingAt: Self.fixtures + "/" + folder, fileSystem: DiskFileSystem())
    }

    /// The project's build configuration is based on an .xcconfig in a group folder, which
    /// includes another that defines the variable the target is set from.
    func testXcconfigFollowedFromTheXcodeProject() throws {
        let found = try XCTUnwrap(detected(from: "Xcconfig/Chat/Sources"))
        XCTAssertEqual(found.version, OSVersion(17))
        XCTAssertEqual(found.origin, .xcconfig)
        XCTAssertEqual(found.source, Self.fixtures + "/Xcconfig/Configuration/Base.xcconfig")
        XCTAssertEqual(found.description, "iOS 17.0 (from IPHONEOS_DEPLOYMENT_TARGET in \(found.source))")
    }

    func testXcodeGenSpecTakesTheLowestIOSTarget() throws {
        let found = try XCTUnwrap(detected(from: "XcodeGen/Sources"))
        XCTAssertEqual(found.version, OSVersion(15))
        XCTAssertEqual(found.origin, .xcodeGen)
        XCTAssertEqual(ProjectDeploymentTargets.versionInXcodeGenSpec("targets:\n  App:\n    deploymentTarget: {iOS: 14.2, tvOS: 12.0}\n"), OSVersion(14, 2))
        XCTAssertNil(ProjectDeploymentTargets.versionInXcodeGenSpec("options:\n  deploymentTarget:\n    macOS: \"12.0\"\n"))
    }

    func testTuistManifest() throws {
        let found = try XCTUnwrap(detected(from: "Tuist/Sources"))
        XCTAssertEqual(found.version, OSVersion(16, 4))
        XCTAssertEqual(found.origin, .tuist)
        XCTAssertEqual(ProjectDeploymentTargets.versionInTuistManifest(
            "deploymentTarget: .iOS(targetVersion: \"15.0\", devices: [.iphone, .ipad]),"), OSVersion(15))
    }

    func testXcconfigIncludesVariablesAndCycles() throws {
        let folder = try TemporaryDirectory()
        try folder.write("A.xcconfig", "#include \"B.xcconfig\"\nIPHONEOS_DEPLOYMENT_TARGET = ${MINIMUM}\nIPHONEOS_DEPLOYMENT_TARGET[sdk=iphonesimulator*] = 16.0\n")
        try folder.write("B.xcconfig", "#include \"A.xcconfig\"\n#include? \"Missing.xcconfig\"\nMINIMUM = $(MAJOR).2\nMAJOR = 16\n")
        XCTAssertEqual(ProjectDeploymentTargets.versionInConfigurationFile(atPath: folder.path + "/A.xcconfig", fileSystem: DiskFileSystem()), OSVersion(16))
        try folder.write("C.xcconfig", "IPHONEOS_DEPLOYMENT_TARGET = $(inherited)\n")
        XCTAssertNil(ProjectDeploymentTargets.versionInConfigurationFile(atPath: folder.path + "/C.xcconfig", fileSystem: DiskFileSystem()))
        // Found by the folder search too, without a project.
        try folder.write("Sources/View.swift", "")
        XCTAssertEqual(DeploymentTargetDetector.detect(startingAt: folder.path + "/Sources", fileSystem: DiskFileSystem())?.version, OSVersion(16))
    }

    func testPropertyListReader() {
        let value = PropertyListReader.read("// !$*UTF8*$!\n{ a = (x, \"y z\", ); /* c */ b = { c = \"q\\\"\"; }; d = <0fab>; }")
        XCTAssertEqual(value?["a"]?.array, [.string("x"), .string("y z")])
        XCTAssertEqual(value?["b"]?["c"]?.string, "q\"")
        XCTAssertNil(PropertyListReader.read("{ a = (x; }"))
        XCTAssertNil(PropertyListReader.read(String(repeating: "(", count: 10_000)))
    }

    /// A run says when the target stays unknown, and `--timing` names the project it could
    /// not read one from.
    func testUnknownTargetIsReportedInOneLine() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: BinaryHarness.executable.path),
                          "kblint executable not built next to the tests")
        let project = try BinaryHarness.copyFixture("DeploymentTargets/Xcconfig")
        try FileManager.default.removeItem(atPath: project.path + "/Configuration/Shared.xcconfig")
        let unknown = try BinaryHarness.run(["--timing", "--reporter", "xcode", "."], in: project.path)
        let notices = unknown.standardError.split(separator: "\n").filter { $0.contains("deployment target is unknown") }
        XCTAssertEqual(notices, ["kblint: the iOS deployment target is unknown for 1 file (no iOS version found in Chat.xcodeproj), "
            + "so rules that depend on it stay silent there; set deployment_target in .kblint.yml "
            + "(or IPHONEOS_DEPLOYMENT_TARGET in the project's build settings)"], unknown.standardError)
        XCTAssertTrue(unknown.standardError.contains("deployment target: unknown (no iOS version found in Chat.xcodeproj)"), unknown.standardError)
        XCTAssertFalse(unknown.standardError.contains("no deployment_target, Package.swift, Xcode project"), unknown.standardError)
        XCTAssertFalse(try BinaryHarness.run(["--quiet", "."], in: project.path).standardError.contains("unknown"))

        try project.write("Configuration/Shared.xcconfig", "CHAT_MINIMUM_IOS = 17.0\n")
        let known = try BinaryHarness.run(["--timing", "--reporter", "xcode", "."], in: project.path)
        XCTAssertFalse(known.standardError.contains("deployment target is unknown"), known.standardError)
        XCTAssertTrue(known.standardError.contains(
            "deployment target: iOS 17.0 (from IPHONEOS_DEPLOYMENT_TARGET in \(project.path)/Configuration/Base.xcconfig)"), known.standardError)
    }
}
