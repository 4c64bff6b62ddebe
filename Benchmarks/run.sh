#!/usr/bin/env bash
# End-to-end speed of kblint against the I/O floor and a single-pass scanner, on two corpora.
#
#   Benchmarks/run.sh [--runs N] [--size MB] [--scales "2 4"] [--ios DIR] [--only server|ios]
#                     [--binary PATH] [FOLDER]
#
# Builds release as Scripts/release.sh ships it (on Linux with the Swift runtime linked in), or
# takes the kblint at --binary PATH, and measures, each --runs times (default 5) after one warm-up run, the
# median wall-clock time of:
#   cat        every file once (the I/O floor)
#   grep -r    one regular expression over the tree (a single-pass scanner, one core)
#   kblint     the whole corpus with every rule enabled (--jobs 2, then --jobs 1)
#   start-up   kblint on one small file
# It prints MB/s, files/s and peak memory (GNU time; "n/a" without it), the ratios against
# grep and cat and the targets, then kblint on --scales copies of the corpus (hard links)
# to show that time grows linearly and memory does not grow with the corpus.
# Corpora:
#   server   about --size MB (default 80) of Swift from the local package mirror (see
#            Benchmarks/corpus.sh), or every .swift file under FOLDER; few files mention the
#            keyboard.
#   ios      public iOS apps assembled by Benchmarks/ios-corpus.sh (default folder
#            Benchmarks/.kblint-corpus/ios, or --ios DIR); skipped when not assembled.
#            Targets: kblint --jobs 2 at most 2x grep, --jobs 2 at least 1.6x faster than
#            --jobs 1, peak memory under 150 MB, time linear in the corpus size.
# Results are also written to Benchmarks/.results/latest.txt. Needs bash 5 (EPOCHREALTIME).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
runs=5 size=80 scales="2 4" folder="" kblint="" ios="$root/Benchmarks/.kblint-corpus/ios" only=""
while [[ $# -gt 0 ]]; do
    case $1 in
        --runs) runs=$2; shift 2 ;;
        --size) size=$2; shift 2 ;;
        --scales) scales=$2; shift 2 ;;
        --ios) ios=$(cd "$2" && pwd); shift 2 ;;
        --only) only=$2; shift 2 ;;
        --binary) kblint=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2 ;;
        -h|--help) sed -n '2,25p' "$0"; exit 0 ;;
        *) folder=$1; shift ;;
    esac
done

if [[ -z $kblint ]]; then
    # The binary the release ships: on Linux with the Swift runtime linked in
    # (Scripts/release.sh), in a build folder of its own so that the usual release build stays.
    build=(swift build -c release)
    runtime=""
    if [[ $(uname -s) == Linux ]]; then
        build+=(--static-swift-stdlib --scratch-path "$root/.build/benchmark-static")
        runtime=" with the Swift runtime linked in"
    fi
    echo "== building release$runtime" >&2
    "${build[@]}" --product kblint >&2
    kblint="$("${build[@]}" --show-bin-path)/kblint"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Every rule, opt-in ones included; an empty configuration so that no .kblint.yml of the
# corpus or of this repository changes the rule set.
: > "$work/empty.yml"
rules=()
for id in $("$kblint" rules --format json | awk -F'"' '/"id":/ {id=$4} /"category":/ && $4 != "Engine" {print id}'); do
    rules+=(--enable "$id")
done
lint=("$kblint" --config "$work/empty.yml" "${rules[@]}" --reporter summary --quiet)
small="$root/Tests/KBLintTests/Fixtures/Project/App/ChatViewController.swift"

gnu_time=""
if /usr/bin/time -f %M true 2>/dev/null; then gnu_time=/usr/bin/time; fi

now() { echo "${EPOCHREALTIME/./}"; }   # microseconds

# median_seconds RUNS command…: warm-up, then the median of RUNS timed runs.
median_seconds() {
    local count=$1; shift
    "$@" >/dev/null 2>&1 || true
    local times=()
    for _ in $(seq 1 "$count"); do
        local start end
        start=$(now); "$@" >/dev/null 2>&1 || true; end=$(now)
        times+=($((end - start)))
    done
    printf '%s\n' "${times[@]}" | sort -n | awk '{t[NR]=$1} END {printf "%.4f", t[int((NR+1)/2)]/1e6}'
}

# peak_mb command…: maximum resident set size in MB.
peak_mb() {
    if [[ -z $gnu_time ]]; then echo "n/a"; return; fi
    local kb
    kb=$("$gnu_time" -f %M "$@" 2>&1 >/dev/null | tail -1)
    awk -v kb="$kb" 'BEGIN {printf "%.0f", kb/1024}'
}

grep_tree() { grep -r -E 'keyboard(Will|Did)(Show|Hide|ChangeFrame)Notification' "$1"; }
rate() { awk -v n="$1" -v t="$2" 'BEGIN {printf "%.1f", (t > 0 ? n / t : 0)}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", (b > 0 ? a / b : 0)}'; }
# verdict VALUE OP LIMIT: "ok" or "MISSED" for VALUE OP LIMIT (OP: le, ge, lt).
verdict() {
    awk -v v="$1" -v op="$2" -v l="$3" 'BEGIN {
        ok = (op == "le" ? v <= l : op == "ge" ? v >= l : v < l); print (ok ? "ok" : "MISSED") }'
}

# measure NAME CORPUS SCALES: the table, ratios and targets of one corpus.
measure() {
    local name=$1 corpus=$2 scales=$3
    find "$corpus" -type f -name '*.swift' -print0 > "$work/files"
    local files bytes mb
    files=$(tr -cd '\0' < "$work/files" | wc -c)
    bytes=$(xargs -0 cat < "$work/files" | wc -c)
    [[ $files -gt 0 ]] || { echo "no .swift files under $corpus" >&2; exit 1; }
    mb=$(awk -v b="$bytes" 'BEGIN {printf "%.1f", b/1e6}')
    cat_files() { xargs -0 cat < "$work/files"; }
    echo "== $name corpus: $corpus: $files files, $mb MB; $runs runs each, median; $(nproc) cores" >&2
    local t_cat t_grep t_lint t_lint1 t_small m_lint m_lint1 m_small m_grep
    t_cat=$(median_seconds "$runs" cat_files)
    t_grep=$(median_seconds "$runs" grep_tree "$corpus")
    t_lint=$(median_seconds "$runs" "${lint[@]}" --jobs 2 "$corpus")
    t_lint1=$(median_seconds "$runs" "${lint[@]}" --jobs 1 "$corpus")
    t_small=$(median_seconds $((runs * 4 + 1)) "${lint[@]}" "$small")
    m_lint=$(peak_mb "${lint[@]}" --jobs 2 "$corpus")
    m_lint1=$(peak_mb "${lint[@]}" --jobs 1 "$corpus")
    m_small=$(peak_mb "${lint[@]}" "$small")
    m_grep=$(peak_mb grep_tree "$corpus")
    row() { printf '%-24s %9.3f s %9s MB/s %9s files/s %8s MB\n' "$1" "$2" "$(rate "$mb" "$2")" "$(rate "$files" "$2")" "$3"; }
    echo "== $name: $files files, $mb MB (${corpus#"$root"/})"
    echo "machine: $(nproc) cores, $(uname -sm); $runs runs each, median wall clock"
    echo
    row "cat (I/O floor)" "$t_cat" "-"
    row "grep -r (one regex)" "$t_grep" "$m_grep"
    row "kblint --jobs 2" "$t_lint" "$m_lint"
    row "kblint --jobs 1" "$t_lint1" "$m_lint1"
    printf '%-24s %9.1f ms %40s %8s MB\n' "kblint one small file" "$(awk -v t="$t_small" 'BEGIN {print t*1000}')" "" "$m_small"
    echo
    local vs_grep speedup
    vs_grep=$(ratio "$t_lint" "$t_grep")
    speedup=$(ratio "$t_lint1" "$t_lint")
    echo "kblint/grep:          $vs_grep   (target <= 2: $(verdict "$vs_grep" le 2))"
    echo "--jobs 1 / --jobs 2:  $speedup   (target >= 1.6: $(verdict "$speedup" ge 1.6))"
    echo "kblint --jobs 1/grep: $(ratio "$t_lint1" "$t_grep")"
    echo "kblint/cat:           $(ratio "$t_lint" "$t_cat")"
    echo "kblint MB/s:          $(rate "$mb" "$t_lint")"
    echo "start-up:             $(awk -v t="$t_small" 'BEGIN {printf "%.1f", t*1000}') ms   (target < 20)"
    if [[ $m_lint == n/a ]]; then
        echo "peak memory:          n/a (no GNU time)"
    else
        echo "peak memory:          $m_lint MB   (target < 150: $(verdict "$m_lint" lt 150))"
    fi
    if [[ -n $scales ]]; then
        echo
        echo "linearity (kblint, all rules, --jobs 2; target: x N within 1.25 N):"
        printf '  %-6s %9s %9s %9s %9s %7s\n' scale MB seconds "x 1x" "peak MB" target
        printf '  %-6s %9s %9.3f %9s %9s\n' 1x "$mb" "$t_lint" 1.00 "$m_lint"
        for n in $scales; do
            local scaled="$corpus-x$n" t m r
            t=$(median_seconds "$(( (runs + 1) / 2 ))" "${lint[@]}" --jobs 2 "$scaled")
            m=$(peak_mb "${lint[@]}" --jobs 2 "$scaled")
            r=$(ratio "$t" "$t_lint")
            printf '  %-6s %9s %9.3f %9s %9s %7s\n' "${n}x" "$(awk -v a="$mb" -v n="$n" 'BEGIN {printf "%.1f", a*n}')" "$t" "$r" "$m" \
                "$(verdict "$r" le "$(awk -v n="$n" 'BEGIN {print n * 1.25}')")"
        done
    fi
    echo
}

copies=()
for n in $scales; do copies+=(--copies "$n"); done
mkdir -p Benchmarks/.results
{
    if [[ $only != ios ]]; then
        if [[ -n $folder ]]; then
            measure server "$(cd "$folder" && pwd)" ""
        else
            corpus="$root/Benchmarks/.kblint-corpus/base-$size"
            Benchmarks/corpus.sh --size "$size" "${copies[@]}" "$corpus" >&2
            measure server "$corpus" "$scales"
        fi
    fi
    if [[ $only != server ]]; then
        if [[ -d $ios ]]; then
            ios_scales=""
            for n in $scales; do [[ -d $ios-x$n ]] && ios_scales+="$n "; done
            measure ios "$ios" "$ios_scales"
        else
            echo "== ios: not assembled; see Benchmarks/ios-corpus.sh (then run again)"
        fi
    fi
} | tee Benchmarks/.results/latest.txt
