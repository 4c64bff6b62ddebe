import Foundation
import Lexer

// Lexing throughput on a folder of Swift files. Files are read into memory first; only
// `Lexer.tokenize` is timed, one core, several runs, median reported.
//
//   LexerBenchmark FOLDER [--runs N]

func usage() -> Never {
    FileHandle.standardError.write(Data("usage: LexerBenchmark FOLDER [--runs N]\n".utf8))
    exit(2)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var runs = 7
if let flag = arguments.firstIndex(of: "--runs") {
    guard flag + 1 < arguments.count, let value = Int(arguments[flag + 1]), value > 0 else { usage() }
    runs = value
    arguments.removeSubrange(flag...(flag + 1))
}
guard arguments.count == 1 else { usage() }
let root = URL(fileURLWithPath: arguments[0])

var files: [SourceFile] = []
var totalBytes = 0
if let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) {
    for case let url as URL in walker where url.pathExtension == "swift" {
        guard let data = try? Data(contentsOf: url) else { continue }
        files.append(SourceFile(path: url.path, bytes: [UInt8](data)))
        totalBytes += data.count
    }
}
guard !files.isEmpty else {
    FileHandle.standardError.write(Data("no .swift files under \(root.path)\n".utf8))
    exit(1)
}

let megabytes = Double(totalBytes) / 1_000_000
print(String(format: "corpus: %d files, %.1f MB", files.count, megabytes))

var seconds: [Double] = []
var tokenCount = 0
for run in 1...runs {
    let start = DispatchTime.now().uptimeNanoseconds
    var tokens = 0
    for file in files {
        tokens &+= Lexer.tokenize(file).tokens.count
    }
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    seconds.append(elapsed)
    tokenCount = tokens
    print(String(format: "run %d: %.3f s  %.1f MB/s  %.0f files/s", run, elapsed, megabytes / elapsed,
                 Double(files.count) / elapsed))
}
let median = seconds.sorted()[seconds.count / 2]
print(String(format: "median: %.1f MB/s  %.0f files/s  %.1f M tokens/s  (%d tokens)", megabytes / median,
             Double(files.count) / median, Double(tokenCount) / median / 1e6, tokenCount))
