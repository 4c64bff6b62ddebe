#!/usr/bin/env bash
# Builds a kblint release into dist/. Never tags, pushes or uploads: it prints the commands a
# maintainer runs for that.
#
#   Scripts/release.sh [options] VERSION
#       On a clean `main` whose Sources/KBLint/ProjectInfo.swift says VERSION and whose
#       CHANGELOG.md has a `## [VERSION] - date` section: runs the tests, builds kblint for
#       this machine and writes to dist/
#         kblint-VERSION-<triple>.tar.gz   Linux: one binary with the Swift runtime linked in
#                                          (--static-swift-stdlib), checked to run with the
#                                          toolchain's libraries out of reach
#         kblint-VERSION-universal-apple-macosx.tar.gz   macOS: arm64 + x86_64
#         kblint-VERSION-source.tar.gz     the sources (`git archive`), for Homebrew builds
#         kblint.artifactbundle.zip        SE-0305 bundle, one variant per binary tarball
#         KBLintPlugins/                   the binary plugin package, bundle URL and checksum in
#         kblint.rb                        Homebrew formula for a tap, checksums filled in
#         RELEASE_NOTES.md                 CHANGELOG.md's section for VERSION
#         SHA256SUMS
#   Scripts/release.sh [options] merge VERSION OTHER_DIST...
#       Copies the binary tarballs of dist/ folders built on other machines (say the macOS
#       one) into dist/ and writes the bundle, plugin package, formula and sums again, so the
#       bundle lists every machine's variants.
#
# Options:
#   --allow-dirty   skip the clean-main check (for trying the script; dist/ is then no release)
#   --skip-tests    do not run `swift test`
#   --binary PATH   package this kblint executable instead of building one (for testing the
#                   packaging; it is not checked for toolchain independence)
#   --dist DIR      write to DIR instead of dist/
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

allow_dirty=0 skip_tests=0 binary="" dist="$root/dist"
while [ $# -gt 0 ]; do
    case "$1" in
    --allow-dirty) allow_dirty=1 ;;
    --skip-tests) skip_tests=1 ;;
    --binary) binary="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"; shift ;;
    --dist) mkdir -p "$2"; dist="$(cd "$2" && pwd)"; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "release: unknown option $1" >&2; exit 2 ;;
    *) break ;;
    esac
    shift
done
mode=release
if [ "${1:-}" = merge ]; then mode=merge; shift; fi
version="${1:-}"
[ -n "$version" ] || { echo "usage: Scripts/release.sh [options] [merge] VERSION [OTHER_DIST...]" >&2; exit 2; }
shift
fail() { echo "release: $*" >&2; exit 1; }

# The version and home page, from the one place they are written.
project_value() {
    sed -n "s/^ *static let $1 = \"\\(.*\\)\"\$/\\1/p" Sources/KBLint/ProjectInfo.swift
}
declared="$(project_value version)"
home="$(project_value home)"
plugins_home="$home-plugins" # ProjectInfo.pluginsHome
tag="v$version"
download="$home/releases/download/$tag"

[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]] || fail "'$version' is not a version such as 1.2.3"
[ "$declared" = "$version" ] || fail "Sources/KBLint/ProjectInfo.swift says $declared, not $version"
notes="$(awk -v heading="## [$version]" '
    index($0, heading) == 1 { found = 1; next }
    found && /^## / { exit }
    found && /^\[[^]]*\]: / { exit }
    found { print }' CHANGELOG.md | sed -e '/./,$!d')"
grep -Eq "^## \[$version\] - [0-9]{4}-[0-9]{2}-[0-9]{2}\$" CHANGELOG.md && [ -n "$notes" ] \
    || fail "CHANGELOG.md needs a '## [$version] - YYYY-MM-DD' section with the changes"

sha256() { { sha256sum "$1" 2>/dev/null || shasum -a 256 "$1"; } | cut -d' ' -f1; }

# The Swift triple a binary tarball was built for, from its name; the macOS universal binary
# serves both Mac triples.
tarball_triples() {
    local triple="${1#kblint-"$version"-}"
    triple="${triple%.tar.gz}"
    if [ "$triple" = universal-apple-macosx ]; then echo "arm64-apple-macosx x86_64-apple-macosx"; else echo "$triple"; fi
}

# Runs a command where the Swift toolchain's libraries cannot be found: in a private mount
# namespace with an empty folder mounted over the toolchain's lib/swift (Linux, unprivileged
# user namespaces), with LD_LIBRARY_PATH cleared either way.
run_without_toolchain() {
    if [ -n "$binary" ]; then "$@"; return; fi # a given binary may need the toolchain
    local runtime; runtime="$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")/lib/swift"
    if [ -d "$runtime" ] && unshare -rm true 2>/dev/null; then
        unshare -rm sh -c 'mount -t tmpfs none "$1" && shift && exec env -u LD_LIBRARY_PATH "$@"' sh "$runtime" "$@"
    else
        echo "release: cannot hide the toolchain here (no unshare); its libraries are only left off the library path" >&2
        env -u LD_LIBRARY_PATH "$@"
    fi
}

# Builds this machine's binary tarball and checks it.
build_binary_tarball() {
    local work; work="$(mktemp -d)"
    mkdir -p "$work/stage"
    if [ -n "$binary" ]; then
        triple="$(swift -print-target-info | sed -n 's/^ *"unversionedTriple": "\(.*\)",$/\1/p' | head -n 1)"
        [ "$(uname -s)" = Darwin ] && triple=universal-apple-macosx
        cp "$binary" "$work/stage/kblint"
    elif [ "$(uname -s)" = Darwin ]; then
        triple=universal-apple-macosx
        swift build -c release --product kblint --arch arm64 --arch x86_64 -Xswiftc -warnings-as-errors
        local built; built="$(swift build -c release --arch arm64 --arch x86_64 --show-bin-path)/kblint"
        lipo "$built" -verify_arch arm64 x86_64 || fail "$built is not a universal binary"
        cp "$built" "$work/stage/kblint"
    else
        triple="$(swift -print-target-info | sed -n 's/^ *"unversionedTriple": "\(.*\)",$/\1/p' | head -n 1)"
        # A build folder of its own: the static build does not replace the usual release build.
        local scratch="$root/.build/release-static"
        swift build -c release --product kblint --static-swift-stdlib --scratch-path "$scratch" -Xswiftc -warnings-as-errors
        cp "$(swift build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)/kblint" "$work/stage/kblint"
        if readelf -d "$work/stage/kblint" | grep -E 'NEEDED.*(libswift|libFoundation|libdispatch|libBlocksRuntime)'; then
            fail "the static binary still needs the Swift runtime (see the lines above)"
        fi
    fi
    [ -n "$triple" ] || fail "cannot tell this machine's target triple"
    strip "$work/stage/kblint" 2>/dev/null || true
    local tarball="kblint-$version-$triple.tar.gz"
    COPYFILE_DISABLE=1 tar -czf "$dist/$tarball" -C "$work/stage" kblint

    # What a user gets: the unpacked tarball, run without the toolchain, linting Examples/.
    mkdir "$work/unpacked"
    tar -xzf "$dist/$tarball" -C "$work/unpacked"
    local reported status=0
    reported="$(run_without_toolchain "$work/unpacked/kblint" --version)" || fail "$tarball: kblint --version failed"
    [ "$reported" = "$version" ] || fail "$tarball: kblint --version says '$reported', not $version"
    run_without_toolchain "$work/unpacked/kblint" --reporter summary --quiet Examples >/dev/null || status=$?
    [ "$status" -le 1 ] || fail "$tarball: linting Examples/ exited with $status"
    echo "== $tarball: kblint $reported, lints Examples/ (exit $status)${binary:+ (given binary)}"
    rm -rf "$work"
}

# The artifact bundle (SE-0305): one variant per binary tarball in dist/. The artifact is
# named KBLint, like the executable target of this package, so the plugins' one source
# (Plugins/, linked from Distribution/KBLintPlugins) finds the tool by the same name in both.
write_artifact_bundle() {
    local work; work="$(mktemp -d)"
    local bundle="$work/kblint.artifactbundle" variants="" tarball triples path
    mkdir -p "$bundle"
    for tarball in "$dist"/kblint-"$version"-*.tar.gz; do
        tarball="$(basename "$tarball")"
        [ "$tarball" != "kblint-$version-source.tar.gz" ] || continue
        path="${tarball%.tar.gz}/bin/kblint"
        mkdir -p "$bundle/$(dirname "$path")"
        tar -xzf "$dist/$tarball" -C "$bundle/$(dirname "$path")" kblint
        triples="$(tarball_triples "$tarball" | sed 's/[^ ]*/"&"/g; s/ /, /g')"
        variants="${variants:+$variants,
}        { \"path\": \"$path\", \"supportedTriples\": [$triples] }"
    done
    [ -n "$variants" ] || fail "no binary tarball in $dist"
    cat > "$bundle/info.json" <<EOF
{
  "schemaVersion": "1.0",
  "artifacts": {
    "KBLint": {
      "version": "$version",
      "type": "executable",
      "variants": [
$variants
      ]
    }
  }
}
EOF
    rm -f "$dist/kblint.artifactbundle.zip"
    (cd "$work" && zip -qrX "$dist/kblint.artifactbundle.zip" kblint.artifactbundle)
    rm -rf "$work"
}

# The plugin package users depend on, with the binary target at this release's bundle.
write_plugin_package() {
    rm -rf "$dist/KBLintPlugins"
    mkdir -p "$dist/KBLintPlugins"
    # -L: the plugin sources are links to Plugins/ of this repository.
    cp -RL Distribution/KBLintPlugins/Package.swift Distribution/KBLintPlugins/Plugins "$dist/KBLintPlugins/"
    local checksum; checksum="$(sha256 "$dist/kblint.artifactbundle.zip")"
    local manifest="$dist/KBLintPlugins/Package.swift"
    grep -q '\.binaryTarget(name: "KBLintBinary", path: "kblint.artifactbundle.zip")' "$manifest" \
        || fail "Distribution/KBLintPlugins/Package.swift: its KBLintBinary target is not the local bundle"
    sed -e "s#\\.binaryTarget(name: \"KBLintBinary\", path: \"kblint.artifactbundle.zip\")#.binaryTarget(\\
            name: \"KBLintBinary\",\\
            url: \"$download/kblint.artifactbundle.zip\",\\
            checksum: \"$checksum\"\\
        )#" "$manifest" > "$manifest.new"
    mv "$manifest.new" "$manifest"
}

# A Homebrew formula for a tap: the prebuilt binary where this release has one for the
# platform, else a source build with `swift build -c release --disable-sandbox`.
write_formula() {
    local source="kblint-$version-source.tar.gz" mac="kblint-$version-universal-apple-macosx.tar.gz"
    local intel="kblint-$version-x86_64-unknown-linux-gnu.tar.gz" arm="kblint-$version-aarch64-unknown-linux-gnu.tar.gz"
    asset() { # indent, file
        printf '%*surl "%s/%s"\n%*ssha256 "%s"\n' "$1" "" "$download" "$2" "$1" "" "$(sha256 "$dist/$2")"
    }
    linux_arch() { # Homebrew CPU block, tarball
        echo "    $1 do"
        if [ -f "$dist/$2" ]; then asset 6 "$2"; else echo '      depends_on "swift" => :build'; fi
        echo "    end"
    }
    {
        cat <<EOF
# Homebrew formula for kblint $version, written by Scripts/release.sh. Put it in a tap
# (Formula/kblint.rb of a homebrew-kblint repository), then: brew install <owner>/kblint/kblint
class Kblint < Formula
  desc "Static analyzer for keyboard-handling UIKit code in Swift"
  homepage "$home"
  version "$version"
$(asset 2 "$source")

  on_macos do
    depends_on macos: :ventura
EOF
        if [ -f "$dist/$mac" ]; then asset 4 "$mac"; else echo '    depends_on xcode: ["16.0", :build]'; fi
        echo "  end"
        echo
        echo "  on_linux do"
        linux_arch on_intel "$intel"
        linux_arch on_arm "$arm"
        cat <<'EOF'
  end

  def install
    if File.exist?("Package.swift")
      system "swift", "build", "-c", "release", "--disable-sandbox", "--product", "kblint"
      bin.install ".build/release/kblint"
    else
      bin.install "kblint"
    end
  end

  test do
    assert_equal version.to_s, shell_output("#{bin}/kblint --version").strip
    (testpath/"Chat.swift").write "// kblint:disable not_a_rule\nstruct Chat {}\n"
    assert_match "not_a_rule", shell_output("#{bin}/kblint --reporter xcode Chat.swift")
  end
end
EOF
    } > "$dist/kblint.rb"
}

write_sums_and_notes() {
    printf '%s\n' "$notes" > "$dist/RELEASE_NOTES.md"
    (cd "$dist" && for file in kblint-"$version"-*.tar.gz kblint.artifactbundle.zip; do
        printf '%s  %s\n' "$(sha256 "$file")" "$file"
    done) > "$dist/SHA256SUMS"
}

print_maintainer_commands() {
    local assets; assets="$(cd "$dist" && ls kblint-"$version"-*.tar.gz kblint.artifactbundle.zip SHA256SUMS | sed "s#^#$dist/#" | tr '\n' ' ')"
    cat <<EOF

dist/ holds kblint $version. Nothing was tagged, pushed or uploaded. To publish:

  # 1. Tag this commit and publish the GitHub release with its assets.
  git tag -a $tag -m "kblint $version" && git push origin $tag
  gh release create $tag --title "kblint $version" --notes-file $dist/RELEASE_NOTES.md $assets

  # 2. The binary plugin package ($plugins_home): its manifest points at the uploaded bundle.
  git clone $plugins_home.git kblint-plugins && cp -R $dist/KBLintPlugins/. kblint-plugins/
  (cd kblint-plugins && git add -A && git commit -m "kblint $version" && git tag $version && git push origin HEAD $version)

  # 3. The Homebrew tap.
  git clone ${home%/*}/homebrew-kblint.git && cp $dist/kblint.rb homebrew-kblint/Formula/kblint.rb
  (cd homebrew-kblint && git commit -am "kblint $version" && git push)

Built on another machine too (macOS for the universal binary)? Copy that dist/ here and run
  Scripts/release.sh merge $version <that dist folder>
before uploading: the bundle, plugin package, formula and sums then cover both.
EOF
}

if [ "$mode" = release ]; then
    if [ "$allow_dirty" = 0 ]; then
        [ "$(git rev-parse --abbrev-ref HEAD)" = main ] || fail "not on main (--allow-dirty to try the script elsewhere)"
        [ -z "$(git status --porcelain)" ] || fail "the working tree has changes (--allow-dirty to try the script anyway)"
        ! git rev-parse -q --verify "refs/tags/$tag" >/dev/null || fail "tag $tag exists already"
    fi
    if [ "$skip_tests" = 0 ]; then swift test; fi
    # What an earlier run wrote, and nothing else (--dist may name a folder in use).
    mkdir -p "$dist"
    rm -rf "$dist"/kblint-*.tar.gz "$dist"/kblint.artifactbundle.zip "$dist"/kblint.rb \
        "$dist"/KBLintPlugins "$dist"/SHA256SUMS "$dist"/RELEASE_NOTES.md
    build_binary_tarball
    git archive --format=tar.gz --prefix="kblint-$version/" -o "$dist/kblint-$version-source.tar.gz" HEAD
else
    [ $# -gt 0 ] || fail "merge: name the dist folders to merge"
    for other in "$@"; do
        for tarball in "$other"/kblint-"$version"-*.tar.gz; do
            [ -f "$tarball" ] || fail "merge: no kblint-$version tarball in $other"
            [ "$(basename "$tarball")" = "kblint-$version-source.tar.gz" ] || cp "$tarball" "$dist/"
        done
    done
fi
write_artifact_bundle
write_plugin_package
write_formula
write_sums_and_notes
echo "== $dist:"
(cd "$dist" && ls -1)
print_maintainer_commands
