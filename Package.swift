// swift-tools-version:6.0
import PackageDescription

// kblint has no package dependencies: the tokenizer, the YAML subset reader and the
// argument parser are part of this package.
let package = Package(
    name: "kblint",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "kblint", targets: ["KBLint"]),
    ],
    targets: [
        .target(name: "Lexer"),
        .target(name: "Rules", dependencies: ["Lexer"]),
        .executableTarget(name: "KBLint", dependencies: ["Lexer", "Rules"]),
        // Lexing throughput; run it with Benchmarks/lexer-benchmark.sh.
        .executableTarget(name: "LexerBenchmark", dependencies: ["Lexer"], path: "Benchmarks/LexerBenchmark"),
        .testTarget(name: "LexerTests", dependencies: ["Lexer"], exclude: ["Fixtures"]),
        .testTarget(name: "RulesTests", dependencies: ["Lexer", "Rules"]),
        .testTarget(
            name: "KBLintTests", dependencies: ["KBLint", "Lexer", "Rules"],
            // Golden files and sample inputs, read through #filePath.
            exclude: ["Fixtures"]
        ),
    ]
)
