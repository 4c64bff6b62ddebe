@testable import KBLint
import Rules

/// libFuzzer entry for configuration and command-line input: any bytes read as `.kblint.yml`
/// either parse or fail with a `ConfigurationError`, read as JSON (a baseline) either parse
/// or fail with a `SyntaxError` whose text is the same again, and the same bytes split at NUL into
/// arguments either parse as a `lint` command line or fail with a `UsageError`; nothing traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfiguration(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        _ = try YAMLReader.read(bytes, path: "/fuzz/.kblint.yml")
    } catch {
        _ = error.description
    }
    do {
        let file = try ConfigurationFile.parse(
            bytes, path: "/fuzz/.kblint.yml", knownRules: knownRules, knownReporters: ["xcode", "json"])
        _ = file.included?.map { $0.matches("/fuzz/Sources/A.swift") }
        _ = file.excluded.map { $0.matches("/fuzz/Sources/A.swift") }
    } catch {
        _ = error.description
    }
    do {
        let value = try JSONReader.value(of: bytes)
        // What the writer prints reads back as the same document.
        let printed = Array(value.rendered().utf8)
        if (try? JSONReader.value(of: printed)).map({ Array($0.rendered().utf8) }) != printed {
            fatalError("JSON written from a read document does not read back the same")
        }
    } catch {
        _ = error.description
    }
    let arguments = bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    do {
        _ = try LintOptions(try parseArguments(arguments, for: LintCommand.spec))
    } catch {
        _ = error.message
    }
    return 0
}

private let knownRules = RuleRegistry.all.map { $0.metadata }
