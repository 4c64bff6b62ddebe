#!/usr/bin/env bash
# Assembles the iOS-app corpus: keyboard-dense Swift of public iOS apps, where kblint works
# hardest (most files of server-side Swift never mention the keyboard).
#
#   Benchmarks/ios-corpus.sh [--copies N] DEST SOURCE…
#
# Each SOURCE is a folder of an app's code or a bare git repository (its HEAD is read with
# git archive); fetch them yourself (a shallow clone is enough). Nothing here downloads: CI
# machines cannot, and the code of the apps is never committed (DEST belongs under an
# ignored folder such as Benchmarks/.kblint-corpus/). Only regular .swift files are kept,
# outside hidden, build and dependency folders, so that cat, grep -r and kblint all see the
# same files. --copies N adds DEST-xN with N hard-linked copies, for the linearity check.
# The apps used for the figures in README.md (about 64 MB, 13.5k files; none of them is
# among the repositories reserved for measuring accuracy):
#   woocommerce/woocommerce-ios instructure/canvas-ios ProtonVPN/ios-mac-app
#   rileytestut/Delta nightscout/Trio damus-io/damus jellyfin/Swiftfin
#   Artificial-Pancreas/iAPS mullvad/mullvadvpn-app JohanDegraeve/xdripswift
#   alphagov/govuk-mobile-ios-app LoopKit/Loop Dimillian/IceCubesApp kiwix/kiwix-apple
# Prints DEST's file count and size; an existing complete DEST is reused.
set -euo pipefail
source "$(dirname "$0")/corpus-common.sh"
copies=()
while [[ $# -gt 0 ]]; do
    case $1 in
        --copies) copies+=("$2"); shift 2 ;;
        -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
        *) break ;;
    esac
done
[[ $# -ge 2 ]] || { sed -n '2,21p' "$0" >&2; exit 2; }
dest=$1; shift

if [[ ! -f $dest/.complete ]]; then
    rm -rf "$dest"; mkdir -p "$dest"
    for source in "$@"; do
        # A folder named `repo` (as some mirrors lay copies out) is named by its parent.
        name=$(basename "$source")
        [[ $name == repo ]] && name=$(basename "$(dirname "$source")")
        target="$dest/${name%.git}"
        mkdir -p "$target"
        if git --git-dir="$source" rev-parse --verify -q 'HEAD^{tree}' >/dev/null 2>&1; then
            # Only the Swift files: large binaries of a shallow copy may be absent.
            git --git-dir="$source" archive HEAD -- '*.swift' 2>/dev/null | tar -x -C "$target"
        elif [[ -d $source ]]; then
            (cd "$source" && tar -c --exclude-vcs .) | tar -x -C "$target"
        else
            echo "ios-corpus: $source is neither a folder nor a git repository" >&2; exit 2
        fi
        keep_only_swift "$target"
    done
    touch "$dest/.complete"
fi

finish_corpus "$dest" "${copies[@]}"
