// swift-tools-version:6.0
import PackageDescription

// kblint's SwiftPM plugins, running the prebuilt kblint of a release's artifact bundle so that
// a project's builds never compile kblint itself. The plugin sources are links to the
// repository's Plugins/, which run the kblint built from source: one behaviour for both.
// Here the binary target is a bundle next to this file: copy one from the dist/ of
// `Scripts/release.sh --allow-dirty --skip-tests VERSION` to try the plugins. The release
// script publishes a copy with real files and the release's bundle URL and checksum.
let package = Package(
    name: "KBLintPlugins",
    products: [
        // Lints a target's sources during `swift build` and Xcode builds.
        .plugin(name: "KBLintBuildToolPlugin", targets: ["KBLintBuildToolPlugin"]),
        // `swift package kblint [--target NAME] [-- kblint arguments]`.
        .plugin(name: "KBLintCommandPlugin", targets: ["KBLintCommandPlugin"]),
    ],
    targets: [
        .plugin(name: "KBLintBuildToolPlugin", capability: .buildTool(), dependencies: ["KBLintBinary"]),
        .plugin(
            name: "KBLintCommandPlugin",
            capability: .command(
                intent: .custom(verb: "kblint", description: "Lint the package's Swift files with kblint")),
            dependencies: ["KBLintBinary"]
        ),
        .binaryTarget(name: "KBLintBinary", path: "kblint.artifactbundle.zip"),
    ]
)
