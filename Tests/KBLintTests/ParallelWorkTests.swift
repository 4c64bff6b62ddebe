@testable import KBLint
import Rules
import Foundation
import XCTest

final class ParallelWorkTests: XCTestCase {
    /// Counts the instances freed, from any thread.
    private final class Counter: @unchecked Sendable {
        private let lock = PThreadLock()
        private var freed = 0
        var count: Int { lock.withLock { freed } }
        func add() { lock.withLock { freed += 1 } }
    }

    private final class Tracked: Sendable {
        let counter: Counter
        init(_ counter: Counter) { self.counter = counter }
        deinit { counter.add() }
    }

    func testParallelMapKeepsTheOrderOfTheIndices() {
        for jobs in [1, 2, 5] {
            XCTAssertEqual(parallelMap(count: 100, jobs: jobs) { $0 * 3 }, (0..<100).map { $0 * 3 })
        }
    }

    func testWorkAlongsideRunsOnceBesideTheMappedWork() {
        for jobs in [1, 2, 5] {
            for count in [0, 1, 300] {
                let sideRuns = Counter()
                let (results, side) = parallelMap(count: count, jobs: jobs, alongside: { () -> String in
                    sideRuns.add()
                    return "side"
                }) { $0 * 3 }
                XCTAssertEqual(results, (0..<count).map { $0 * 3 }, "jobs \(jobs)")
                XCTAssertEqual(side, "side")
                XCTAssertEqual(sideRuns.count, 1, "jobs \(jobs)")
            }
        }
    }

    func testProducedItemsAreMappedInTheOrderTheyCame() {
        for jobs in [1, 2, 5] {
            for count in [0, 1, 2_500] {
                let (items, results) = parallelMap(producing: { items in
                    for item in 0..<count {
                        items.add("item \(item)")
                        // Now and then slower than the workers, so that they wait for the next item.
                        if item % 97 == 0 { usleep(300) }
                    }
                }, jobs: jobs) { index, item in "\(index): \(item)" }
                XCTAssertEqual(items, (0..<count).map { "item \($0)" }, "jobs \(jobs)")
                XCTAssertEqual(results, (0..<count).map { "\($0): item \($0)" }, "jobs \(jobs)")
            }
        }
    }

    func testReleaseInParallelFreesEveryItemAndLeavesNone() {
        for jobs in [1, 3] {
            let counter = Counter()
            var items = (0..<200).map { _ in Tracked(counter) }
            releaseInParallel(&items, jobs: jobs)
            XCTAssertTrue(items.isEmpty)
            XCTAssertEqual(counter.count, 200, "jobs \(jobs)")
        }
    }

    func testEachSlotIsTakenOnce() {
        let slots = TakeOnceSlots(["a", nil, "c"])
        XCTAssertEqual(slots.take(at: 0), "a")
        XCTAssertNil(slots.take(at: 0))
        XCTAssertNil(slots.take(at: 1))
        XCTAssertEqual(slots.take(at: 2), "c")
    }

    func testValuesKeptUntilExitAreNotFreed() {
        let counter = Counter()
        do {
            let kept = Tracked(counter)
            ProcessExit.keep(kept)
        }
        XCTAssertEqual(counter.count, 0)
    }
}
