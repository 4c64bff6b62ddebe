#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension String {
    /// Whether the name's bytes end with the bytes of `suffix` (an extension such as `.swift`):
    /// file systems name files by bytes, and `hasSuffix`, which compares characters, costs far
    /// more on the thousands of names a walk meets.
    func hasFileNameSuffix(_ suffix: StaticString) -> Bool {
        let count = suffix.utf8CodeUnitCount
        guard count > 0 else { return true }
        return suffix.withUTF8Buffer { suffix in
            utf8.withContiguousStorageIfAvailable { name in
                name.count >= count && memcmp(name.baseAddress! + (name.count - count), suffix.baseAddress!, count) == 0
            } ?? utf8.reversed().starts(with: suffix.reversed())
        }
    }
}
