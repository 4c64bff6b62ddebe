import XCTest
@testable import KBLint

final class ProgressIndicatorTests: XCTestCase {
    func testDrawsOnTerminalsAfterTheDelayAndErasesItself() throws {
        let terminal = CapturedOutput(isTerminal: true)
        let progress = try XCTUnwrap(ProgressIndicator(sink: terminal, total: 3, phase: "kblint: linting", delay: .zero))
        progress.fileFinished()
        progress.fileFinished()
        progress.fileFinished()
        progress.finish()
        XCTAssertTrue(terminal.text.hasPrefix("\r\u{1B}[Kkblint: linting: 1/3 files"), terminal.text)
        XCTAssertTrue(terminal.text.contains("3/3 files"), "the last count is always drawn")
        XCTAssertTrue(terminal.text.hasSuffix("\r\u{1B}[K"))
    }

    /// While discovery is still finding files, the count has no total.
    func testCountsWithoutATotalUntilTheFilesAreAllFound() throws {
        let terminal = CapturedOutput(isTerminal: true)
        let progress = try XCTUnwrap(ProgressIndicator(sink: terminal, total: nil, phase: "p", delay: .zero))
        progress.fileFinished()
        XCTAssertEqual(terminal.text, "\r\u{1B}[Kp: 1 files")
        progress.setTotal(2)
        progress.fileFinished()
        XCTAssertTrue(terminal.text.hasSuffix("\r\u{1B}[Kp: 2/2 files"), terminal.text)
        XCTAssertNil(ProgressIndicator(sink: terminal, total: 0, phase: "p", delay: .zero))
    }

    func testShortRunsAndPipesStayQuiet() throws {
        XCTAssertNil(ProgressIndicator(sink: CapturedOutput(isTerminal: false), total: 3, phase: "p", delay: .zero))
        let terminal = CapturedOutput(isTerminal: true)
        let progress = try XCTUnwrap(ProgressIndicator(sink: terminal, total: 3, phase: "p"))
        progress.fileFinished()
        progress.finish()
        XCTAssertEqual(terminal.text, "", "nothing within the first second")
    }
}
