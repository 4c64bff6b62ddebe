// swift-tools-version:6.0
import PackageDescription

// A package that uses kblint's plugins the way an app's package would. The dependency path
// points at the kblint repository from this folder; the plugin tests copy this package to a
// temporary folder and replace it with the repository's absolute path.
let package = Package(
    name: "PluginFixture",
    dependencies: [
        .package(name: "kblint", path: "../../../.."),
    ],
    targets: [
        .target(
            name: "ChatKeyboard",
            plugins: [.plugin(name: "KBLintBuildToolPlugin", package: "kblint")]
        ),
        .target(name: "Clean"),
    ]
)
