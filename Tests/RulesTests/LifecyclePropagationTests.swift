import Lexer
import XCTest
@testable import Rules

/// `LifecycleGraph.propagated(seeds:)` works on bit masks: it must give what carrying sets of
/// phases along the callers level by level gives.
final class LifecyclePropagationTests: XCTestCase {
    func testPropagationMatchesCarryingSets() {
        var graph = LifecycleGraph(ownPhasesIn: Outline(Lexer.tokenize(SourceFile(path: "A.swift", text: ""))))
        var generator = SystemRandomNumberGenerator()
        func phases() -> Set<LifecyclePhase> {
            Set(LifecyclePhase.allCases.filter { _ in Int.random(in: 0..<4, using: &generator) == 0 })
        }
        var carried = 0
        for _ in 0..<500 {
            let methods = Int.random(in: 1...12, using: &generator)
            func method() -> FunctionID { FunctionID(Int.random(in: 0..<methods, using: &generator)) }
            graph.ownPhases = [:]
            for _ in 0..<Int.random(in: 0...4, using: &generator) { graph.ownPhases[method()] = phases() }
            graph.callers = [:]
            for _ in 0..<Int.random(in: 0...methods, using: &generator) {
                graph.callers[method()] = (0..<Int.random(in: 1...3, using: &generator)).map { _ in method() }
            }
            var seeds: [FunctionID: Set<LifecyclePhase>] = [:]
            for _ in 0..<Int.random(in: 0...2, using: &generator) { seeds[method()] = phases() }
            let expected = Self.carryingSets(graph, seeds: seeds)
            XCTAssertEqual(graph.propagated(seeds: seeds), expected, "\(graph.ownPhases) \(graph.callers) \(seeds)")
            if expected.count > graph.ownPhases.count + seeds.count { carried += 1 }
        }
        XCTAssertGreaterThan(carried, 50)
    }

    func testMaskRoundTrip() {
        for mask in UInt8(0)..<64 {
            XCTAssertEqual(LifecyclePhase.mask(of: LifecyclePhase.phases(in: mask)), mask)
        }
    }

    /// The plain way: sets of phases by method, each level reading the one before.
    static func carryingSets(_ graph: LifecycleGraph, seeds: [FunctionID: Set<LifecyclePhase>]) -> [FunctionID: Set<LifecyclePhase>] {
        var phases = graph.ownPhases
        for (method, seeded) in seeds { phases[method, default: []].formUnion(seeded) }
        for _ in 0..<Limits.lifecycleHelperLevels {
            let previous = phases
            var changed = false
            for (target, list) in graph.callers {
                var union = previous[target] ?? []
                for caller in list { union.formUnion(previous[caller] ?? []) }
                if union != (phases[target] ?? []) {
                    phases[target] = union
                    changed = true
                }
            }
            if !changed { break }
        }
        return phases
    }
}
