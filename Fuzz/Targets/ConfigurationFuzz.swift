@testable import KBLint
import Rules

/// libFuzzer entry for configuration files: any bytes read as `.kblint.yml` either parse or
/// fail with a `ConfigurationError`; nothing traps.
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
    return 0
}

private let knownRules = RuleRegistry.all.map { $0.metadata }
