# Shared by Benchmarks/corpus.sh and Benchmarks/ios-corpus.sh (sourced, not run).

# keep_only_swift FOLDER: the same file set for every tool: no links, no hidden, build or
# dependency folders, only regular .swift files.
keep_only_swift() {
    local target=$1
    find "$target" -type l -delete
    find "$target" -depth -mindepth 1 -type d \( -name '.*' -o -name .build -o -name Pods \
        -o -name Carthage -o -name DerivedData \) -exec rm -rf {} +
    find "$target" \( -type f ! -name '*.swift' -o -type f -name '.*' -o ! -type f ! -type d \) -delete
    find "$target" -depth -type d -empty -delete
}

# own_project FOLDER: makes FOLDER a project root of its own (a git repository), as the
# checkout of an app is. kblint reads the facts of every file of the project of the folder
# it lints (the nearest folder at or above it holding `.git`, `Package.swift` or an Xcode
# project): without this, a corpus under Benchmarks/ would be linted as part of this
# repository, whose sources and test fixtures would be read and analysed too.
own_project() {
    [[ -e $1/.git ]] || git init -q "$1" 2>/dev/null || mkdir "$1/.git"
}

# finish_corpus DEST [N…]: DEST-xN folders with N hard-linked copies of DEST each (for
# measuring how cost grows with corpus size), then DEST's file count and size. DEST and
# each DEST-xN are projects of their own (own_project).
finish_corpus() {
    local dest=$1; shift
    local n scaled i
    own_project "$dest"
    for n in "$@"; do
        scaled="$dest-x$n"
        if [[ ! -f $scaled/.complete ]]; then
            rm -rf "$scaled"; mkdir -p "$scaled"
            for i in $(seq 1 "$n"); do
                # Hard links where cp supports them (GNU), plain copies elsewhere.
                cp -al "$dest" "$scaled/copy-$i" 2>/dev/null || cp -R "$dest" "$scaled/copy-$i"
                rm -f "$scaled/copy-$i/.complete"
            done
            touch "$scaled/.complete"
        fi
        own_project "$scaled"
    done
    local files bytes
    files=$(find "$dest" -type f -name '*.swift' | wc -l)
    bytes=$(find "$dest" -type f -name '*.swift' -print0 | xargs -0 cat /dev/null | wc -c)
    echo "corpus: $dest: $files files, $((bytes / 1000000)) MB"
}
