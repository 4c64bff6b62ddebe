import Rules

/// The folder listing discovery took last, shared with the configuration lookup that
/// follows it: discovery lists a folder, then asks for the configuration of its entries,
/// which looks at the same entries (`.kblint.yml`, the project files naming the deployment
/// target). Only the last listing is kept, so memory does not grow with the tree.
final class LastListing: @unchecked Sendable {
    private let lock = PThreadLock()
    private var last: (folder: String, listing: FileSystem.DirectoryListing)?

    init() {}

    func record(_ listing: FileSystem.DirectoryListing, of folder: String) {
        lock.withLock { last = (folder, listing) }
    }

    /// The listing of `folder` if it is the last one recorded.
    func listing(of folder: String) -> FileSystem.DirectoryListing? {
        lock.withLock { last?.folder == folder ? last?.listing : nil }
    }
}
