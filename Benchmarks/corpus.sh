#!/usr/bin/env bash
# Assembles a corpus of real Swift code for benchmarks and corpus-wide checks.
#
#   Benchmarks/corpus.sh [--mirror DIR] [--size MB] [--copies N] DEST
#
# Extracts the .swift files at HEAD of every bare repository under the package mirror
# (default /opt/swift-packages, laid out OWNER/NAME.git; a repository reachable under two
# names, or two repositories with the same HEAD tree, is taken once) into DEST/OWNER/NAME,
# in name order, until about --size MB (default: everything). Only regular .swift files are
# kept, outside hidden and build folders, so that cat, grep -r and kblint all see exactly
# the same files. --copies N then adds DEST-xN folders holding N hard-linked copies of DEST
# (no extra disk space), for measuring how cost grows with corpus size.
# Prints DEST's file count and size. Nothing is downloaded; an existing DEST is reused.
set -euo pipefail
source "$(dirname "$0")/corpus-common.sh"
mirror=/opt/swift-packages size_mb=0 copies=()
while [[ $# -gt 1 ]]; do
    case $1 in
        --mirror) mirror=$2; shift 2 ;;
        --size) size_mb=$2; shift 2 ;;
        --copies) copies+=("$2"); shift 2 ;;
        *) break ;;
    esac
done
[[ $# -eq 1 ]] || { sed -n '2,12p' "$0" >&2; exit 2; }
dest=$1

if [[ ! -f $dest/.complete ]]; then
    rm -rf "$dest"; mkdir -p "$dest"
    limit=$((size_mb * 1000000)) total=0
    declare -A seen_repo seen_tree
    while IFS= read -r git_dir; do
        real=$(readlink -f "$git_dir")
        [[ -z ${seen_repo[$real]:-} ]] || continue
        seen_repo[$real]=1
        tree=$(git --git-dir="$real" rev-parse 'HEAD^{tree}' 2>/dev/null) || continue
        [[ -z ${seen_tree[$tree]:-} ]] || continue
        seen_tree[$tree]=1
        relative=${git_dir#"$mirror"/}; relative=${relative%.git}
        target="$dest/$relative"
        mkdir -p "$target"
        git --git-dir="$real" archive HEAD 2>/dev/null | tar -x -C "$target" 2>/dev/null || true
        # Same file set for every tool: no links, no hidden or build folders, only .swift.
        keep_only_swift "$target"
        if [[ -d $target ]]; then
            total=$((total + $(find "$target" -type f -print0 | xargs -0 cat /dev/null | wc -c)))
        fi
        if [[ $limit -gt 0 && $total -ge $limit ]]; then break; fi
    done < <(find "$mirror" -mindepth 2 -maxdepth 2 -name '*.git' | LC_ALL=C sort)
    touch "$dest/.complete"
fi

finish_corpus "$dest" "${copies[@]}"
