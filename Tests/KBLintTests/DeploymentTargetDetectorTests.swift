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
}
