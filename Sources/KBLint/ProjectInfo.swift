/// kblint's version and home page: the one place they are written. `kblint --version`, SARIF
/// (`tool.driver.version`, `informationUri`, each rule's `helpUri`) and `Scripts/release.sh`
/// read them from here; CHANGELOG.md and the README's install lines must agree, which
/// `ReleaseMetadataTests` checks.
///
/// Both are single-line string literals because the release script reads them with `sed`.
enum ProjectInfo {
    static let version = "0.2.0"
    static let home = "https://github.com/kblint/kblint"
    /// The repository holding the binary plugin package (Distribution/KBLintPlugins, filled
    /// in by the release script): SwiftPM takes a package only from a repository's root.
    static let pluginsHome = home + "-plugins"
}
