import Foundation
import Lexer
import XCTest
@testable import KBLint
import Rules

/// The protocol layer of `kblint server`: framing, JSON-RPC messages, positions, URIs, and
/// the server's answers to a scripted exchange run in process over a pipe.
final class LanguageServerProtocolTests: XCTestCase {
    func frame(_ body: String) -> [UInt8] {
        Array("Content-Length: \(body.utf8.count)\r\n\r\n".utf8) + Array(body.utf8)
    }

    func items(_ chunks: [[UInt8]]) -> [MessageReader.Item] {
        var reader = MessageReader(chunks: chunks)
        var items: [MessageReader.Item] = []
        while true {
            let item = reader.next()
            items.append(item)
            if item == .endOfInput { return items }
        }
    }

    // MARK: Framing

    func testMessagesSplitAnywhereAcrossReadsAreReassembled() {
        let stream = frame(#"{"a":"é"}"#) + Array("Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n".utf8) + frame("[1]")
        for split in 1..<stream.count {
            XCTAssertEqual(items([Array(stream[..<split]), Array(stream[split...])]),
                           [.message(Array(#"{"a":"é"}"#.utf8)), .message(Array("[1]".utf8)), .endOfInput], "split at \(split)")
        }
    }

    func testLineFeedOnlyHeadersAndCaseInsensitiveNames() {
        XCTAssertEqual(items([Array("content-length: 2\n\n{}".utf8)]), [.message(Array("{}".utf8)), .endOfInput])
    }

    func testMalformedHeadersAreSkippedAndTheNextMessageIsRead() {
        let stream = Array("Content-Type: x\r\n\r\n".utf8) + Array("Content-Length: many\r\n\r\n".utf8) + frame("{}")
        let read = items([stream])
        XCTAssertEqual(read.count, 4)
        guard case .malformedHeader(let first) = read[0], case .malformedHeader(let second) = read[1] else {
            return XCTFail("\(read)")
        }
        XCTAssertTrue(first.contains("without Content-Length"), first)
        XCTAssertTrue(second.contains("'many'"), second)
        XCTAssertEqual(Array(read[2...]), [.message(Array("{}".utf8)), .endOfInput])
    }

    func testTruncatedInputEndsWithAnErrorNotAHang() {
        guard case .malformedHeader(let reason) = items([Array("Content-Length: 10\r\n\r\n{}".utf8)])[0] else { return XCTFail() }
        XCTAssertTrue(reason.contains("8 bytes short"), reason)
        guard case .malformedHeader = items([Array("Content-Len".utf8)])[0] else { return XCTFail() }
        XCTAssertEqual(items([Array("\r\n".utf8)]), [.endOfInput])
        let endless = [UInt8](repeating: UInt8(ascii: "x"), count: MessageReader.maximumHeaderLength + 10)
        guard case .malformedHeader(let long) = items([endless])[0] else { return XCTFail() }
        XCTAssertTrue(long.contains("longer than"), long)
    }

    func testWriterFramesCompactJSON() throws {
        let output = CapturedOutput()
        let value = JSONValue.object([("text", "a \"b\"\n🎹"), ("list", [1, true, .null]), ("empty", .object([]))])
        MessageWriter(sink: output).send(value)
        let text = output.text
        let body = #"{"text":"a \"b\"\n🎹","list":[1,true,null],"empty":{}}"#
        XCTAssertEqual(text, "Content-Length: \(body.utf8.count)\r\n\r\n" + body)
        XCTAssertEqual(try JSONReader.value(of: Array(body.utf8)), value)
    }

    // MARK: JSON-RPC

    func testMessageKinds() throws {
        guard case .success(.request(.number(3), "shutdown", .null)) = JSONRPC.message(from: Array(#"{"jsonrpc":"2.0","id":3,"method":"shutdown"}"#.utf8)) else { return XCTFail() }
        guard case .success(.request(.string("x"), "a", _)) = JSONRPC.message(from: Array(#"{"jsonrpc":"2.0","id":"x","method":"a","params":[]}"#.utf8)) else { return XCTFail() }
        guard case .success(.notification("exit", _)) = JSONRPC.message(from: Array(#"{"jsonrpc":"2.0","method":"exit"}"#.utf8)) else { return XCTFail() }
        guard case .success(.response(.number(1))) = JSONRPC.message(from: Array(#"{"jsonrpc":"2.0","id":1,"result":null}"#.utf8)) else { return XCTFail() }
    }

    func testUnusableMessagesGetTheProtocolsErrorCodes() {
        func failure(_ text: String) -> (JSONRPC.ID?, JSONRPC.ErrorCode)? {
            guard case .failure(let unusable) = JSONRPC.message(from: Array(text.utf8)) else { return nil }
            return (unusable.id, unusable.failure.code)
        }
        XCTAssertEqual(failure("{oops")?.1, .parseError)
        XCTAssertEqual(failure("[]")?.1, .invalidRequest)
        XCTAssertEqual(failure(#"{"jsonrpc":"1.0","id":4,"method":"a"}"#)?.0, .number(4))
        XCTAssertEqual(failure(#"{"jsonrpc":"1.0","id":4,"method":"a"}"#)?.1, .invalidRequest)
        XCTAssertEqual(failure(#"{"jsonrpc":"2.0","id":[1],"method":"a"}"#)?.1, .invalidRequest)
        XCTAssertEqual(failure(#"{"jsonrpc":"2.0","id":1,"method":5}"#)?.1, .invalidRequest)
        XCTAssertEqual(failure(#"{"jsonrpc":"2.0","id":1,"method":"a","params":3}"#)?.1, .invalidRequest)
        XCTAssertEqual(failure(#"{"jsonrpc":"2.0","id":1}"#)?.1, .invalidRequest)
    }

    // MARK: Positions

    func testPositionsInUTF16AndUTF8() {
        // "🎹" is 4 bytes and 2 UTF-16 units; "é" 2 bytes and 1 unit; the CR belongs to line 0.
        let file = SourceFile(path: "a.swift", text: "a🎹é = 1\r\nlet x\n")
        XCTAssertEqual(TextDocument.position(of: 5, in: file, encoding: .utf16), TextPosition(line: 0, character: 3))
        XCTAssertEqual(TextDocument.position(of: 5, in: file, encoding: .utf8), TextPosition(line: 0, character: 5))
        XCTAssertEqual(TextDocument.offset(of: TextPosition(line: 0, character: 3), in: file, encoding: .utf16), 5)
        XCTAssertEqual(TextDocument.offset(of: TextPosition(line: 0, character: 5), in: file, encoding: .utf8), 5)
        // Inside a surrogate pair: the character's start. Past the line's end: before its CR LF.
        XCTAssertEqual(TextDocument.offset(of: TextPosition(line: 0, character: 2), in: file, encoding: .utf16), 1)
        XCTAssertEqual(TextDocument.offset(of: TextPosition(line: 0, character: 99), in: file, encoding: .utf16), 11)
        XCTAssertEqual(TextDocument.offset(of: TextPosition(line: 1, character: 4), in: file, encoding: .utf16), 17)
        XCTAssertEqual(TextDocument.offset(of: TextPosition(line: 9, character: 0), in: file, encoding: .utf16), file.bytes.count)
    }

    func testIncrementalChangesApplyInOrder() throws {
        var document = TextDocument(uri: "file:///a.swift", path: "a.swift", version: 1, text: "let 🎹 = 1\nlet b = 2\n")
        let changes: [JSONValue] = [
            .object([("range", TextRange(start: TextPosition(line: 0, character: 4), end: TextPosition(line: 0, character: 6)).json), ("text", "key")]),
            .object([("range", TextRange(start: TextPosition(line: 1, character: 0), end: TextPosition(line: 2, character: 0)).json), ("text", "")]),
            .object([("range", TextRange(start: TextPosition(line: 0, character: 7), end: TextPosition(line: 0, character: 7)).json), ("text", "s")]),
        ]
        try document.apply(changes, version: 2, encoding: .utf16)
        XCTAssertEqual(String(decoding: document.bytes, as: UTF8.self), "let keys = 1\n")
        XCTAssertEqual(document.version, 2)
        try document.apply([.object([("text", "whole")])], version: 3, encoding: .utf16)
        XCTAssertEqual(String(decoding: document.bytes, as: UTF8.self), "whole")
        XCTAssertThrowsError(try document.apply([.object([("text", 1)])], version: 4, encoding: .utf16))
    }

    func testFileURIs() {
        XCTAssertEqual(FileURI.path(of: "file:///Users/me/My%20App/A%2BB.swift"), "/Users/me/My App/A+B.swift")
        XCTAssertEqual(FileURI.path(of: "file://localhost/tmp/a.swift"), "/tmp/a.swift")
        XCTAssertNil(FileURI.path(of: "untitled:Untitled-1"))
        let path = "/tmp/Chat View/é#1.swift"
        XCTAssertEqual(FileURI.path(of: FileURI.uri(of: path)), path)
    }

    // MARK: A scripted exchange, in process

    /// Runs the server on `messages` (written before it starts) and returns what it sent.
    func exchange(_ messages: [String], workspace: TemporaryDirectory, arguments: [String] = []) throws -> (replies: [JSONValue], status: Int32, log: String) {
        var descriptors: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&descriptors), 0)
        let stream = messages.flatMap(frame)
        let writer = FileHandle(fileDescriptor: descriptors[1], closeOnDealloc: true)
        DispatchQueue.global().async {
            writer.write(Data(stream))
            try? writer.close()
        }
        let output = CapturedOutput(), log = CapturedOutput()
        let tool = CommandLineTool(
            rules: RuleRegistry.all, environment: [:], currentDirectory: workspace.path,
            readStandardInput: { [] }, standardOutput: output, standardError: log)
        let options = try LintOptions(parseArguments(arguments, for: ServerCommand.spec))
        let server = LanguageServer(tool: tool, options: options, settings: .init(debounce: .milliseconds(5)),
                                    input: descriptors[0], output: output, log: log)
        let status = server.run()
        // The read end stays open: the server's reading thread may still be reading it.
        var reader = MessageReader(chunks: [output.bytes])
        var replies: [JSONValue] = []
        while case .message(let body) = reader.next() { replies.append(try JSONReader.value(of: body)) }
        return (replies, status, log.text)
    }

    static func request(_ id: Int, _ method: String, _ params: String = "null") -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"#
    }

    static func notification(_ method: String, _ params: String = "null") -> String {
        #"{"jsonrpc":"2.0","method":"\#(method)","params":\#(params)}"#
    }

    func testLifecycleDiagnosticsCancellationAndShutdown() throws {
        let workspace = try TemporaryDirectory()
        let source = LanguageServerClientTests.chat
        let path = try workspace.write("A.swift", source)
        let uri = FileURI.uri(of: path)
        let text = String(decoding: JSONValue.quoted(source).utf8, as: UTF8.self)
        let result = try exchange([
            Self.request(1, "initialize", #"{"capabilities":{},"rootUri":"\#(FileURI.uri(of: workspace.path))"}"#),
            Self.notification("initialized", "{}"),
            Self.notification("textDocument/didOpen", #"{"textDocument":{"uri":"\#(uri)","languageId":"swift","version":1,"text":\#(text)}}"#),
            Self.request(2, "textDocument/hover", #"{"textDocument":{"uri":"\#(uri)"},"position":{"line":5,"character":58}}"#),
            Self.notification("$/cancelRequest", #"{"id":2}"#),
            Self.request(3, "textDocument/hover", #"{"textDocument":{"uri":"\#(uri)"},"position":{"line":5,"character":58}}"#),
            Self.request(4, "textDocument/definition", "{}"),
            Self.request(5, "shutdown"),
            Self.notification("exit"),
        ], workspace: workspace)
        XCTAssertEqual(result.status, 0, result.log)
        XCTAssertFalse(result.log.contains("error"), result.log)
        func reply(_ id: Int) -> JSONValue? { result.replies.first { $0[member: "id"] == .int(id) } }
        XCTAssertEqual(reply(1)?.at("result", "capabilities", "positionEncoding"), "utf-16")
        XCTAssertEqual(reply(2)?.at("error", "code"), .int(JSONRPC.ErrorCode.requestCancelled.rawValue))
        XCTAssertEqual(reply(3)?.at("result", "contents", "kind"), "markdown")
        XCTAssertEqual(reply(4)?.at("error", "code"), .int(JSONRPC.ErrorCode.methodNotFound.rawValue))
        XCTAssertEqual(reply(5)?[member: "result"], .null)
        let published = result.replies.filter { $0[member: "method"] == "textDocument/publishDiagnostics" }
        let diagnostics = try XCTUnwrap(published.last?.at("params", "diagnostics")?.arrayValue)
        let diagnostic = try XCTUnwrap(diagnostics.first { $0[member: "code"] == "keyboard_curve_unshifted" })
        XCTAssertEqual(diagnostic[member: "code"], "keyboard_curve_unshifted")
        XCTAssertEqual(diagnostic[member: "source"], "kblint")
        XCTAssertEqual(diagnostic.at("range", "start"), TextPosition(line: 5, character: 56).json)
        XCTAssertEqual(diagnostic.at("codeDescription", "href"), .string(ProjectLinks.ruleDocumentation("keyboard_curve_unshifted")))
    }

    func testRequestsBeforeInitializeAndExitWithoutShutdown() throws {
        let workspace = try TemporaryDirectory()
        let result = try exchange([Self.request(1, "textDocument/hover", "{}"), Self.notification("exit")], workspace: workspace)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.replies.first?.at("error", "code"), .int(JSONRPC.ErrorCode.serverNotInitialized.rawValue))
    }
}
