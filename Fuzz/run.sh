#!/usr/bin/env bash
# Builds and runs kblint's libFuzzer targets.
#
#   Fuzz/run.sh TARGET SECONDS [libFuzzer options…]   fuzz TARGET for SECONDS
#   Fuzz/run.sh build [TARGET…]                       only build (all targets by default)
#
# Targets: lexer (bytes → tokens), analysis (tokens → facts → outline → every rule →
# suppression → fixes), config (YAML reader and .kblint.yml validation), fix (`--fix` over a
# small project on disk: symlinks, a file named twice, a file edited between the passes).
#
# The targets compile the Lexer and Rules sources (and, for config and fix, the KBLint sources
# without main.swift) directly with `swiftc -sanitize=fuzzer,address`, so they need no
# SwiftPM support for fuzzing. Linux only: the toolchain shipped with Xcode lacks libFuzzer.
# Seeds are our own fixtures and sources, gathered into Fuzz/.work/seeds-TARGET; what the
# fuzzer learns is kept in Fuzz/.work/corpus-TARGET, crashing inputs in Fuzz/.work/findings.
# Exit status: 0 when no crash was found, 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
work="$root/Fuzz/.work"
build="$work/build"
swiftc=${SWIFTC:-swiftc}

usage() { sed -n '2,8p' "$0" >&2; exit 2; }

compile_module() { # NAME [extra flags…] -- sources…
    local name=$1; shift
    local flags=()
    while [[ $1 != -- ]]; do flags+=("$1"); shift; done
    shift
    "$swiftc" -O -g -wmo -parse-as-library -sanitize=fuzzer,address -module-name "$name" \
        -I "$build" "${flags[@]}" -emit-module -emit-module-path "$build/$name.swiftmodule" \
        -c "$@" -o "$build/$name.o"
}

# Rebuilds when any source or target file is newer than the binary.
build_target() {
    local target=$1 binary="$build/fuzz-$1"
    local sources=(Sources/Lexer Sources/Rules Fuzz/Targets)
    [[ $target == config || $target == fix ]] && sources+=(Sources/KBLint)
    if [[ -x $binary ]] && [[ -z $(find "${sources[@]}" -name '*.swift' -newer "$binary" | head -1) ]]; then
        return
    fi
    mkdir -p "$build"
    echo "fuzz: building $target" >&2
    if [[ ! -f $build/Lexer.o || -n $(find Sources/Lexer -name '*.swift' -newer "$build/Lexer.o" | head -1) ]]; then
        compile_module Lexer -- $(find Sources/Lexer -name '*.swift' | sort)
    fi
    if [[ ! -f $build/Rules.o || -n $(find Sources/Rules Sources/Lexer -name '*.swift' -newer "$build/Rules.o" | head -1) ]]; then
        compile_module Rules -- $(find Sources/Rules -name '*.swift' | sort)
    fi
    local objects=("$build/Lexer.o" "$build/Rules.o")
    case $target in
        lexer) entry=(Fuzz/Targets/LexerFuzz.swift) ;;
        analysis) entry=(Fuzz/Targets/AnalysisFuzz.swift) ;;
        config|fix)
            if [[ ! -f $build/KBLint.o || -n $(find Sources -name '*.swift' -newer "$build/KBLint.o" | head -1) ]]; then
                compile_module KBLint -enable-testing -- $(find Sources/KBLint -name '*.swift' ! -name main.swift | sort)
            fi
            objects+=("$build/KBLint.o")
            if [[ $target == config ]]; then entry=(Fuzz/Targets/ConfigurationFuzz.swift); else entry=(Fuzz/Targets/FixFuzz.swift); fi ;;
        *) usage ;;
    esac
    # gold warns about every ASan helper symbol; keep only other messages.
    if ! "$swiftc" -O -g -parse-as-library -sanitize=fuzzer,address -I "$build" -module-name "Fuzz_$target" \
        "${entry[@]}" Fuzz/Targets/FuzzChecks.swift "${objects[@]}" -o "$binary" 2>"$build/link-$target.log"; then
        cat "$build/link-$target.log" >&2
        exit 1
    fi
    grep -v 'Cannot export local symbol' "$build/link-$target.log" >&2 || true
}

# Our own inputs: fixtures, sources and tests for the Swift targets; configuration files
# for config.
gather_seeds() {
    local target=$1 seeds="$work/seeds-$1"
    rm -rf "$seeds"; mkdir -p "$seeds"
    local n=0
    if [[ $target == config ]]; then
        while IFS= read -r -d '' file; do cp "$file" "$seeds/seed-$((n++)).yml"; done \
            < <(find .kblint.yml Tests Fuzz/Seeds/config -type f \( -name '*.yml' -o -name '*.yaml' -o -name '*.json' \) -print0 2>/dev/null)
    elif [[ $target == fix ]]; then
        # A first byte choosing the project's shape, then the second file's Swift.
        while IFS= read -r -d '' file; do cp "$file" "$seeds/seed-$((n++)).bin"; done \
            < <(find Fuzz/Seeds/fix -type f -print0 2>/dev/null)
    else
        while IFS= read -r -d '' file; do cp "$file" "$seeds/seed-$((n++)).swift"; done \
            < <(find Tests Sources Fuzz/Seeds/swift -type f -name '*.swift' -size -64k -print0 2>/dev/null)
    fi
    echo "fuzz: $n seed files for $target" >&2
}

[[ $# -ge 1 ]] || usage
if [[ $1 == build ]]; then
    shift
    for target in "${@:-lexer analysis config fix}"; do for t in $target; do build_target "$t"; done; done
    exit 0
fi
[[ $# -ge 2 ]] || usage
target=$1 seconds=$2; shift 2
case $target in lexer|analysis|config|fix) ;; *) usage ;; esac
build_target "$target"
gather_seeds "$target"
corpus="$work/corpus-$target" findings="$work/findings"
mkdir -p "$corpus" "$findings"
log="$work/$target.log"
echo "fuzz: running $target for $seconds s (log: ${log#$root/})" >&2
status=0
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} "$build/fuzz-$target" "$corpus" "$work/seeds-$target" \
    -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$findings/$target-" -print_final_stats=1 "$@" >"$log" 2>&1 || status=$?
grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+ +DONE)' "$log" >&2 || true
if [[ $status -ne 0 ]]; then
    echo "fuzz: $target FOUND A PROBLEM (exit $status); see ${log#$root/} and ${findings#$root/}" >&2
    grep -E 'ERROR|invariant|Fatal|SUMMARY|Test unit written' "$log" | head -20 >&2 || true
    exit 1
fi
echo "fuzz: $target: no crash in $seconds s" >&2
