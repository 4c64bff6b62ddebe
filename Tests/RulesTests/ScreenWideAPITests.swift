import XCTest
import Lexer
@testable import Rules

final class ScreenWideAPITests: XCTestCase {
    /// `ScreenWideAPI.at` passes over names of other lengths before spelling them out: it
    /// finds what the spelling alone finds, at every token.
    func testLengthCheckKeepsEveryAPI() {
        var sources = ["""
        let a = UIScreen.main.bounds.height, s = UIScreen.main.scale, b = UIScreen.main
        let w = UIApplication.shared.keyWindow, f = UIApplication.shared.windows.first, z = app.windows[0]
        let d = UIApplication.shared.delegate?.window??.bounds, e = view.window, n = windows.count
        let `UIScreen` = 1, keyWindow = `window`, windowsX = 2
        """]
        for rule in RuleRegistry.all {
            for example in rule.metadata.triggering + rule.metadata.nonTriggering { sources.append(example.code) }
        }
        var found = 0
        for text in sources {
            let source = Lexer.tokenize(SourceFile(path: "Screen.swift", text: text.replacingOccurrences(of: "↓", with: "")))
            for index in -1...source.code.count {
                let fast = ScreenWideAPI.at(index, source), plain = ScreenWideAPI.spelled(at: index, source)
                XCTAssertEqual(fast?.range, plain?.range, text)
                XCTAssertEqual(fast?.name, plain?.name, text)
                if fast != nil { found += 1 }
            }
        }
        XCTAssertGreaterThan(found, 10)
    }
}
