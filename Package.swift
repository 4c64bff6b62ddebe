// swift-tools-version:6.0
import PackageDescription

// kblint has no package dependencies: the tokenizer, the YAML subset reader and the
// argument parser are part of this package.
let package = Package(
    name: "kblint",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "kblint", targets: ["KBLint"]),
        // Lints a target's sources during `swift build` and Xcode builds.
        .plugin(name: "KBLintBuildToolPlugin", targets: ["KBLintBuildToolPlugin"]),
        // `swift package kblint [--target NAME] [-- kblint arguments]`.
        .plugin(name: "KBLintCommandPlugin", targets: ["KBLintCommandPlugin"]),
    ],
    targets: [
        .target(name: "Lexer"),
        .target(name: "Rules", dependencies: ["Lexer"]),
        .executableTarget(name: "KBLint", dependencies: ["Lexer", "Rules"]),
        .plugin(name: "KBLintBuildToolPlugin", capability: .buildTool(), dependencies: ["KBLint"]),
        .plugin(
            name: "KBLintCommandPlugin",
            capability: .command(
                intent: .custom(verb: "kblint", description: "Lint the package's Swift files with kblint")),
            dependencies: ["KBLint"]
        ),
        // Lexing throughput; run it with Benchmarks/lexer-benchmark.sh.
        .executableTarget(name: "LexerBenchmark", dependencies: ["Lexer"], path: "Benchmarks/LexerBenchmark"),
        .testTarget(name: "LexerTests", dependencies: ["Lexer"], exclude: ["Fixtures"]),
        .testTarget(name: "RulesTests", dependencies: ["Lexer", "Rules"], exclude: ["Snapshots"]),
        .testTarget(
            name: "KBLintTests", dependencies: ["KBLint", "Lexer", "Rules"],
            // Golden files and sample inputs, read through #filePath.
            exclude: ["Fixtures"]
        ),
    ]
)
