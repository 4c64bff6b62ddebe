#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import KBLint
import Rules

/// libFuzzer entry for `--fix` over a small project on disk: the input chooses a project in a
/// temporary folder (a controller whose accessory needs the `canBecomeFirstResponder`
/// override, line endings, a second file of fuzz bytes), how it is reached (a symlink to the
/// file, a symlinked folder, the same file named twice) and an edit made between the passes
/// (the override added as another run would, a line added above, the file replaced by other
/// bytes). After the run:
/// - the controller's file holds one `canBecomeFirstResponder` declaration at most (or as
///   many as it held before the fixes): the override inserted twice broke the build;
/// - symlinks are still symlinks, and no temporary file is left behind;
/// - a file reported as not written is as it was before the run wrote anything.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFix(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let choices = bytes.first else { return 0 }
    let rest = Array(bytes.dropFirst())
    FixProject.shared.run(choices: choices, other: rest)
    return 0
}

private final class FixProject: @unchecked Sendable {
    static let shared = FixProject()
    let root: String
    var runs = 0

    init() {
        var template = Array("/tmp/kblint-fuzz-fix-XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            fatalError("cannot create a temporary folder")
        }
        root = String(cString: template.withUnsafeBufferPointer { $0.baseAddress! })
    }

    static let controller = """
        import UIKit

        final class ChatViewController: UIViewController {
            private lazy var composer = ComposerBar()
            override var inputAccessoryView: UIView? { composer }
        }

        """
    static let override = "    override var canBecomeFirstResponder: Bool { true }\n"

    func declarations(_ bytes: [UInt8]) -> Int {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.ranges(of: "var canBecomeFirstResponder").count
    }

    func run(choices: UInt8, other: [UInt8]) {
        runs += 1
        let folder = root + "/run-\(runs)"
        let src = folder + "/src"
        for path in [folder, src, folder + "/links"] { mkdir(path, 0o755) }
        defer { remove(folder) }

        var controller = Self.controller
        switch choices & 3 {
        case 1: controller = controller.replacing("\n", with: "\r\n")
        case 2: controller = controller.replacing("final class", with: "// kblint: a comment\r\nfinal class")
        case 3: controller = controller.replacing("\n", with: "\r")
        default: break
        }
        let a = src + "/A.swift", b = src + "/B.swift"
        write(a, Array(controller.utf8))
        write(b, other)
        var paths = ["."]
        switch choices >> 2 & 3 {
        case 1:
            symlink("../src/A.swift", folder + "/links/A.swift")
        case 2:
            symlink("src", folder + "/alias")
            paths = ["src", "alias"]
        case 3:
            paths = ["src/A.swift", "src/A.swift", "src"]
        default: break
        }
        // What each file holds before any fix: the edit between the passes included.
        var before = [a: Array(controller.utf8), b: other]
        let edited: [UInt8]?
        switch choices >> 4 & 3 {
        case 1: edited = Array(controller.replacing("    override var inputAccessoryView", with: Self.override + "    override var inputAccessoryView").utf8)
        case 2: edited = Array(("// edited between the passes\n" + controller).utf8)
        case 3: edited = other
        default: edited = nil
        }
        if let edited { before[a] = edited }

        var discovery = FileDiscovery(currentDirectory: folder)
        discovery.skippedFolders = []
        let targets = discovery.discover(paths).targets
        let plan = FilePlan(
            rules: RuleRegistry.all.map { rule in
                RuleSelection(rule: rule, severity: nil, options: Dictionary(uniqueKeysWithValues: rule.metadata.options.map { ($0.name, $0.defaultValue) }))
            },
            deploymentTarget: nil)
        var driver = LintDriver(
            jobs: 1, fixMode: .write(includingUnsafe: choices & 0x40 != 0), knownRuleIDs: Set(RuleRegistry.all.map { $0.metadata.id }),
            closeMatches: { _, _ in [] }, progressSink: nil)
        if let edited {
            driver.betweenPasses = { [a] in FixProject.write(a, edited) }
        }
        let outcome = driver.run(targets.map { LintInput(target: $0, plan: plan) })

        let notWritten = Set(zip(targets, outcome.files).filter { !$0.1.errors.isEmpty }.map { FileSystem.resolvedPath($0.0.absolutePath) ?? $0.0.absolutePath })
        for (path, original) in before {
            guard let after = try? FileSystem.readFile(path) else { FuzzChecks.require(false, "\(path) is gone"); return }
            // A declares one class; B, of fuzz bytes, may declare any number.
            FuzzChecks.require(path != a || declarations(after) <= max(1, declarations(original)),
                               "\(path) holds \(declarations(after)) canBecomeFirstResponder declarations, \(declarations(original)) before:\n"
                                   + String(decoding: after, as: UTF8.self))
            if notWritten.contains(path) {
                FuzzChecks.require(after == original, "\(path) was reported as not written but changed")
            }
        }
        if choices >> 2 & 3 == 1 { FuzzChecks.require(FileSystem.isSymbolicLink(folder + "/links/A.swift"), "the file symlink was replaced") }
        if choices >> 2 & 3 == 2 { FuzzChecks.require(FileSystem.isSymbolicLink(folder + "/alias"), "the folder symlink was replaced") }
        // Temporary files are named `.NAME.kblint-XXXXXX`.
        let leftovers = ((try? FileSystem.contentsOfDirectory(src))?.entries ?? []).filter { $0.name.contains(".kblint-") }
        FuzzChecks.require(leftovers.isEmpty, "temporary files left behind: \(leftovers.map(\.name))")
    }

    static func write(_ path: String, _ bytes: [UInt8]) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { fatalError("cannot write \(path)") }
        _ = FileSystem.writeAll(bytes, to: descriptor)
        close(descriptor)
    }

    func write(_ path: String, _ bytes: [UInt8]) { Self.write(path, bytes) }

    /// Removes the run's folder (its files, links and folders, one level of nesting).
    func remove(_ folder: String) {
        for sub in ["/src", "/links"] {
            for entry in (try? FileSystem.contentsOfDirectory(folder + sub))?.entries ?? [] {
                unlink(folder + sub + "/" + entry.name)
            }
            rmdir(folder + sub)
        }
        unlink(folder + "/alias")
        rmdir(folder)
    }
}
