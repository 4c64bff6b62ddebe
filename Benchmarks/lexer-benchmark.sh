#!/usr/bin/env bash
# Lexer throughput: builds the release LexerBenchmark and lexes a corpus of real Swift
# sources on one core, several runs, printing MB/s and files/s (median).
#
#   Benchmarks/lexer-benchmark.sh            # assemble Benchmarks/.corpus/ (cloned once), run
#   Benchmarks/lexer-benchmark.sh FOLDER     # run on the .swift files under FOLDER
#   RUNS=9 Benchmarks/lexer-benchmark.sh     # number of timed runs (default 7)
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

# Large, real, varied Swift: networking, collections, a compiler front end, generated code.
repositories=(
    apple/swift-nio
    apple/swift-collections
    apple/swift-protobuf
    apple/swift-nio-http2
    apple/swift-crypto
    apple/swift-argument-parser
    swiftlang/swift-syntax
    vapor/vapor
)

if [[ $# -ge 1 ]]; then
    corpus="$1"
else
    corpus="$root/Benchmarks/.corpus"
    mkdir -p "$corpus"
    for repository in "${repositories[@]}"; do
        target="$corpus/${repository//\//+}"
        if [[ ! -d "$target" ]]; then
            echo "fetching $repository" >&2
            git clone --quiet --depth 1 "https://github.com/$repository" "$target" 2>/dev/null \
                || git clone --quiet "https://github.com/$repository" "$target"
            rm -rf "$target/.git"
        fi
    done
fi

swift build -c release --product LexerBenchmark >&2
binary="$(swift build -c release --show-bin-path)/LexerBenchmark"
"$binary" "$corpus" --runs "${RUNS:-7}"
