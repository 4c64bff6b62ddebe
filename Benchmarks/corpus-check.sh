#!/usr/bin/env bash
# Proves that kblint survives real code: every rule enabled over the whole local package
# mirror (or any folder), then --fix safety on a sample of it.
#
#   Benchmarks/corpus-check.sh [--sample MB] [--no-fix] [FOLDER]
#
# 1. Assembles the corpus (Benchmarks/corpus.sh: every repository of the package mirror,
#    default /opt/swift-packages, about 120 MB of Swift) unless FOLDER is given.
# 2. Runs the release kblint with all rules over it with several reporters, with the default
#    number of jobs and with --jobs 1: exit status 0 or 1 (never 2, never a crash), no error
#    message, and the same report whatever the number of jobs.
# 3. Runs FixSafetyTests on the first --sample MB (default 8) of the corpus: each file gets a
#    rule's correction example appended, --fix must change exactly that, the result must lex
#    no worse, and a second --fix must change nothing.
# Without the mirror (and no FOLDER), it says so and exits 0: CI machines without it skip.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
sample=8 fix=1 folder="" mirror=${KBLINT_PACKAGE_MIRROR:-/opt/swift-packages}
while [[ $# -gt 0 ]]; do
    case $1 in
        --sample) sample=$2; shift 2 ;;
        --no-fix) fix=0; shift ;;
        -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
        *) folder=$1; shift ;;
    esac
done

if [[ -n $folder ]]; then
    corpus=$(cd "$folder" && pwd)
elif [[ -d $mirror ]]; then
    corpus="$root/Benchmarks/.kblint-corpus/mirror"
    Benchmarks/corpus.sh --mirror "$mirror" "$corpus"
else
    echo "corpus-check: no package mirror at $mirror and no folder given; skipped"
    exit 0
fi

swift build -c release --product kblint >/dev/null
kblint="$(swift build -c release --show-bin-path)/kblint"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
: > "$work/empty.yml"
rules=()
for id in $("$kblint" rules --format json | awk -F'"' '/"id":/ {id=$4} /"category":/ && $4 != "Engine" {print id}'); do
    rules+=(--enable "$id")
done

failed=0
check_run() { # NAME command…
    local name=$1; shift
    local status=0
    "$@" >"$work/$name.out" 2>"$work/$name.err" || status=$?
    if [[ $status -ge 2 ]] || grep -qE 'Fatal error|kblint: error|Segmentation|Illegal instruction' "$work/$name.err"; then
        echo "corpus-check: FAILED: $name exited $status" >&2
        head -20 "$work/$name.err" >&2
        failed=1
    else
        echo "corpus-check: $name: exit $status, $(tail -1 "$work/$name.err" 2>/dev/null || true)"
    fi
}

files=$(find "$corpus" -type f -name '*.swift' | wc -l)
echo "corpus-check: $files files under $corpus, ${#rules[@]} options enabling every rule"
for reporter in xcode json sarif; do
    check_run "$reporter" "$kblint" --config "$work/empty.yml" "${rules[@]}" --reporter "$reporter" "$corpus"
done
check_run jobs1 "$kblint" --config "$work/empty.yml" "${rules[@]}" --reporter xcode --jobs 1 "$corpus"
if ! cmp -s "$work/xcode.out" "$work/jobs1.out"; then
    echo "corpus-check: FAILED: the report depends on the number of jobs" >&2
    diff "$work/xcode.out" "$work/jobs1.out" | head -20 >&2
    failed=1
fi

if [[ $fix -eq 1 ]]; then
    # A sample of whole repositories, in name order, hard-linked (--fix replaces files by
    # renaming, so the corpus itself is never written).
    mkdir -p "$work/sample"
    total=0
    while IFS= read -r repository; do
        copy="$work/sample/$(basename "$(dirname "$repository")")+$(basename "$repository")"
        cp -al "$repository" "$copy" 2>/dev/null || cp -R "$repository" "$copy"
        total=$((total + $(find "$repository" -type f -name '*.swift' -print0 | xargs -0 cat /dev/null | wc -c)))
        [[ $total -lt $((sample * 1000000)) ]] || break
    done < <(find "$corpus" -mindepth 2 -maxdepth 2 -type d | LC_ALL=C sort)
    echo "corpus-check: --fix safety on $(find "$work/sample" -name '*.swift' | wc -l) files ($((total / 1000000)) MB)"
    if ! KBLINT_FIX_CORPUS="$work/sample" swift test --filter 'FixSafetyTests.testFixChangesOnlyTheFixSitesAndIsIdempotent' \
        >"$work/fix.log" 2>&1; then
        echo "corpus-check: FAILED: --fix safety" >&2
        grep -E 'error:' "$work/fix.log" | head -20 >&2
        failed=1
    fi
fi

[[ $failed -eq 0 ]] && echo "corpus-check: ok" || exit 1
