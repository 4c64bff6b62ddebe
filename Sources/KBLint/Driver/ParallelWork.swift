import Rules
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `work` for every index in `0..<count` on `jobs` threads and returns the results in
/// index order, so that the output never depends on scheduling. Workers take the next index
/// from a shared counter, so one slow file does not hold up a whole share of the work.
func parallelMap<Result: Sendable>(
    count: Int, jobs: Int, _ work: @Sendable (Int) -> Result
) -> [Result] {
    let slots = ResultSlots<Result>(count: count)
    let workers = max(1, min(jobs, count))
    if workers == 1 {
        for index in 0..<count { slots.store(work(index), at: index) }
    } else {
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let index = slots.claimNext() {
                slots.store(work(index), at: index)
            }
        }
    }
    return slots.results()
}

/// `parallelMap` with `side` run once beside the mapped work, by the first worker free: a
/// step that does not depend on the work overlaps it instead of waiting before or after it.
func parallelMap<Result: Sendable, Side: Sendable>(
    count: Int, jobs: Int, alongside side: @Sendable () -> Side, _ work: @Sendable (Int) -> Result
) -> (results: [Result], side: Side) {
    let sideResult = TakeOnceSlots<Side>([nil])
    let results = parallelMap(count: count + 1, jobs: jobs) { index -> Result? in
        guard index > 0 else {
            sideResult.store(side(), at: 0)
            return nil
        }
        return work(index - 1)
    }
    return (results.dropFirst().map { $0! }, sideResult.take(at: 0)!)
}

/// `parallelMap` over items that `produce` adds one by one (a file walk): the workers map
/// the first items while later ones are still being found. `produce` runs on the calling
/// thread, which is one of the `jobs`: `jobs - 1` workers beside it take the items in the
/// order they were added, and it joins them once it has added the last. The results come in
/// that order, so the output never depends on scheduling. With one job the items are all
/// produced first, then mapped, on the calling thread. Returns the items with their results.
func parallelMap<Item: Sendable, Result: Sendable>(
    producing produce: (ProducedItems<Item>) -> Void, jobs: Int, _ work: @Sendable (Int, Item) -> Result
) -> (items: [Item], results: [Result]) {
    let items = ProducedItems<Item>()
    let results = GrowingResultSlots<Result>()
    @Sendable func mapClaimedItems(_ work: @Sendable (Int, Item) -> Result) {
        while let (index, item) = items.claimNext() { results.store(work(index, item), at: index) }
    }
    // A worker waits only for the producer, which never waits for a worker: the workers
    // cannot stall it however the thread pool schedules them.
    withoutActuallyEscaping(work) { work in
        let workers = DispatchGroup()
        for _ in 1..<max(1, jobs) { DispatchQueue.global().async(group: workers) { mapClaimedItems(work) } }
        produce(items)
        items.finish()
        mapClaimedItems(work)
        workers.wait()
    }
    return (items.all, results.results(count: items.count))
}

/// The items a producer adds for `parallelMap(producing:)`, which workers claim in order,
/// each once, waiting while the producer is still finding the next one.
final class ProducedItems<Item: Sendable>: @unchecked Sendable {
    private let condition = PThreadCondition()
    private var items: [Item] = []
    private var claimed = 0
    private var isFinished = false

    /// Hands `item` to the workers.
    func add(_ item: Item) {
        condition.withLock {
            items.append(item)
            condition.signal()
        }
    }

    /// The items added so far.
    var all: [Item] { condition.withLock { items } }

    var count: Int { condition.withLock { items.count } }

    /// No more items come: waiting workers stop once the items are all claimed.
    fileprivate func finish() {
        condition.withLock {
            isFinished = true
            condition.broadcast()
        }
    }

    /// The next unclaimed item and its index, once it has been added; nil when the producer
    /// finished and every item is claimed.
    fileprivate func claimNext() -> (Int, Item)? {
        condition.withLock {
            while claimed == items.count, !isFinished { condition.wait() }
            guard claimed < items.count else { return nil }
            defer { claimed += 1 }
            return (claimed, items[claimed])
        }
    }
}

/// Result storage for a number of results known only at the end. Every slot is written
/// once, by the worker that claimed its index. Slots come in chunks, so that storing never
/// moves the results stored before (under the lock the other workers wait for).
private final class GrowingResultSlots<Result: Sendable>: @unchecked Sendable {
    private static var chunkSize: Int { 1024 }
    private let lock = PThreadLock()
    private var chunks: [[Result?]] = []

    func store(_ result: Result, at index: Int) {
        let (chunk, offset) = index.quotientAndRemainder(dividingBy: Self.chunkSize)
        lock.withLock {
            while chunks.count <= chunk { chunks.append(Array(repeating: nil, count: Self.chunkSize)) }
            chunks[chunk][offset] = result
        }
    }

    /// The results, moved out of their slots.
    func results(count: Int) -> [Result] {
        lock.withLock { (0..<count).map { chunks[$0 / Self.chunkSize][$0 % Self.chunkSize].take()! } }
    }
}

/// Releases `items` on `jobs` threads and leaves `items` empty. Freeing large object graphs
/// (the models and facts pass 1 kept) is work like any other: on one thread it would end
/// every run.
func releaseInParallel<Item: Sendable>(_ items: inout [Item], jobs: Int) {
    let slots = TakeOnceSlots(items)
    items = []
    _ = parallelMap(count: slots.count, jobs: jobs) { index in withExtendedLifetime(slots.take(at: index)) {} }
}

/// Items that workers take one by one: each slot is emptied by the worker that takes it, so
/// that the item lives on (and is freed) on that worker's thread only.
final class TakeOnceSlots<Item: Sendable>: @unchecked Sendable {
    private let lock = PThreadLock()
    private var slots: [Item?]
    let count: Int

    init(_ items: [Item?]) {
        slots = items
        count = items.count
    }

    /// The item at `index`; nil once taken.
    func take(at index: Int) -> Item? {
        lock.withLock { slots[index].take() }
    }

    /// Puts `item` in the slot at `index`, for the next `take`.
    func store(_ item: Item, at index: Int) {
        lock.withLock { slots[index] = item }
    }
}

/// Values kept alive until the process exits. The operating system takes a process's memory
/// back at once; freeing a run's results object by object just before exiting would only
/// delay the exit.
enum ProcessExit {
    private static let kept = KeptValues()

    static func keep(_ value: any Sendable) { kept.append(value) }

    private final class KeptValues: @unchecked Sendable {
        private let lock = PThreadLock()
        private var values: [any Sendable] = []

        func append(_ value: any Sendable) { lock.withLock { values.append(value) } }
    }
}

/// The number of processors this process may use (the `--jobs` default).
func activeProcessorCount() -> Int {
    max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
}

/// Result storage shared by the workers. Every slot is written once, by the worker that
/// claimed its index; the lock orders claims and makes the writes visible to the caller.
private final class ResultSlots<Result: Sendable>: @unchecked Sendable {
    private let lock = PThreadLock()
    private var next = 0
    private let count: Int
    private var slots: [Result?]

    init(count: Int) {
        self.count = count
        self.slots = Array(repeating: nil, count: count)
    }

    func claimNext() -> Int? {
        lock.withLock {
            guard next < count else { return nil }
            defer { next += 1 }
            return next
        }
    }

    func store(_ result: Result, at index: Int) {
        lock.withLock { slots[index] = result }
    }

    func results() -> [Result] {
        lock.withLock { slots.map { $0! } }
    }
}

/// A pthread mutex with a condition variable: threads wait inside `withLock` until another
/// signals that what they wait for changed.
final class PThreadCondition: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<Value>(_ body: () throws -> Value) rethrows -> Value {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Inside `withLock`: releases the lock until signalled (or spuriously woken: callers
    /// wait in a loop over their condition), then holds it again.
    func wait() { pthread_cond_wait(condition, mutex) }

    /// Inside `withLock`: wakes one waiting thread.
    func signal() { pthread_cond_signal(condition) }

    /// Inside `withLock`: wakes every waiting thread.
    func broadcast() { pthread_cond_broadcast(condition) }
}
