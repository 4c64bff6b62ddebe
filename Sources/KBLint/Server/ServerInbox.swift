import Rules
import Dispatch

/// What the reading thread hands the server's loop, in arrival order.
enum InboundItem {
    case message(Result<JSONRPC.Message, JSONRPC.UnusableMessage>)
    case malformedHeader(String)
    case endOfInput
}

/// The queue between the thread that reads standard input and the server's loop. The reader
/// never waits for the loop, so a `$/cancelRequest` or a newer edit is seen while a check
/// runs: the loop asks `isCancelled` before answering a request and `hasPendingChange`
/// before publishing a check's results.
final class ServerInbox: @unchecked Sendable {
    private let lock = PThreadLock()
    private let available = DispatchSemaphore(value: 0)
    private var items: [InboundItem] = []
    private var head = 0
    private var cancelled: Set<JSONRPC.ID> = []

    func post(_ item: InboundItem) {
        lock.withLock {
            if case .message(.success(.notification("$/cancelRequest", let params))) = item,
               let id = params[member: "id"].flatMap(JSONRPC.ID.init) {
                cancelled.insert(id)
            }
            items.append(item)
        }
        available.signal()
    }

    /// The next item, waiting up to `timeout` (forever when nil); nil when none came in time.
    func take(timeout: Duration?) -> InboundItem? {
        if let timeout {
            let nanoseconds = max(0, timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000)
            guard available.wait(timeout: .now() + .nanoseconds(Int(min(nanoseconds, Int64(Int.max))))) == .success else { return nil }
        } else {
            available.wait()
        }
        return lock.withLock {
            let item = items[head]
            head += 1
            if head > 64, head * 2 > items.count {
                items.removeFirst(head)
                head = 0
            }
            return item
        }
    }

    var isEmpty: Bool { lock.withLock { head == items.count } }

    /// Whether the client cancelled request `id`; forgets the cancellation (ids are not reused).
    func isCancelled(_ id: JSONRPC.ID) -> Bool {
        lock.withLock { cancelled.remove(id) != nil }
    }

    /// Whether a change or close of the document `uri` waits in the queue: a check of its
    /// current text is stale before it is published.
    func hasPendingChange(of uri: String) -> Bool {
        lock.withLock {
            items[head...].contains { item in
                guard case .message(.success(.notification(let method, let params))) = item,
                      method == "textDocument/didChange" || method == "textDocument/didClose" else { return false }
                return params.at("textDocument", "uri")?.stringValue == uri
            }
        }
    }

    /// Forgets a cancellation that came for a request already answered.
    func forgetCancellation(of id: JSONRPC.ID) {
        _ = lock.withLock { cancelled.remove(id) }
    }
}
