#!/usr/bin/env bash
# The steps of the kblint GitHub Action (action.yml), as one script so they can be run and
# tested outside GitHub. Inputs come as environment variables, outputs go to $GITHUB_OUTPUT.
#   cache-key  print the cache key of the release build: sources, toolchain, runner
#   build      build kblint in release mode unless INPUT_KBLINT_PATH names one, or the
#              restored cache holds one; outputs kblint=<path>
#   lint       run $KBLINT with the github reporter (+ SARIF to INPUT_SARIF_FILE), the
#              paths in INPUT_PATHS, --since INPUT_SINCE and INPUT_ARGS; outputs exit-code
#              (and sarif-file) and exits with kblint's status
# Works with the bash 3.2 of macOS runners (no `set -u` with arrays).
set -eo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
output="${GITHUB_OUTPUT:-/dev/null}"

case "${1:-}" in
cache-key)
    sources="$(cd "$here" && find Package.swift Sources -type f -name '*.swift' | LC_ALL=C sort | xargs cat | { sha256sum 2>/dev/null || shasum -a 256; } | cut -c1-16)"
    toolchain="$(swift --version 2>&1 | head -n 1 | { sha256sum 2>/dev/null || shasum -a 256; } | cut -c1-8)"
    key="kblint-${RUNNER_OS:-$(uname -s)}-${RUNNER_ARCH:-$(uname -m)}-$toolchain-$sources"
    echo "key=$key" >> "$output"
    echo "$key"
    ;;
build)
    if [ -n "${INPUT_KBLINT_PATH:-}" ]; then
        kblint="$INPUT_KBLINT_PATH"
    else
        kblint="$here/.build/release/kblint"
        if [ ! -x "$kblint" ]; then
            swift build -c release --product kblint --package-path "$here"
            kblint="$(swift build -c release --package-path "$here" --show-bin-path)/kblint"
        fi
    fi
    if [ ! -x "$kblint" ]; then
        echo "::error::kblint executable not found at $kblint"
        exit 2
    fi
    echo "kblint=$kblint" >> "$output"
    "$kblint" --version
    ;;
lint)
    arguments=(--reporter github)
    if [ -n "${INPUT_SARIF_FILE:-}" ]; then
        mkdir -p "$(dirname "$INPUT_SARIF_FILE")"
        arguments+=(--reporter sarif --output "$INPUT_SARIF_FILE")
    fi
    if [ -n "${INPUT_SINCE:-}" ]; then
        arguments+=(--since "$INPUT_SINCE")
    fi
    # Inputs are space-separated lists, like a command line without quoting.
    read -r -a extra <<< "${INPUT_ARGS:-}" || true
    read -r -a paths <<< "${INPUT_PATHS:-}" || true
    status=0
    "${KBLINT:?KBLINT must name the kblint executable}" "${arguments[@]}" ${extra[@]+"${extra[@]}"} ${paths[@]+"${paths[@]}"} || status=$?
    echo "exit-code=$status" >> "$output"
    if [ -n "${INPUT_SARIF_FILE:-}" ] && [ -f "$INPUT_SARIF_FILE" ]; then
        echo "sarif-file=$INPUT_SARIF_FILE" >> "$output"
    fi
    exit "$status"
    ;;
*)
    echo "usage: $0 cache-key|build|lint" >&2
    exit 2
    ;;
esac
