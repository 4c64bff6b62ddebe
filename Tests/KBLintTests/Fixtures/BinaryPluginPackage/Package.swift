// swift-tools-version:6.0
import PackageDescription

// An app's package using the binary plugin package (Distribution/KBLintPlugins). The release
// tests copy this folder next to a copy of that package named `kblint-plugins`, whose
// artifact bundle they built from the kblint under test.
let package = Package(
    name: "BinaryPluginFixture",
    dependencies: [
        .package(path: "../kblint-plugins"),
    ],
    targets: [
        .target(
            name: "ChatKeyboard",
            plugins: [.plugin(name: "KBLintBuildToolPlugin", package: "kblint-plugins")]
        ),
        .target(name: "Clean"),
    ]
)
