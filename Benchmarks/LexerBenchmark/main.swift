import Foundation
import Lexer

// Lexing throughput on a folder of Swift files. Files are read into memory first; only
// `Lexer.tokenize` is timed, on one thread, several runs, median reported. Both wall-clock
// and thread CPU time are shown: on a busy machine the CPU figure is the one-core speed.
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

/// CPU time consumed by this thread, in seconds.
func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

var wallSeconds: [Double] = []
var cpuSeconds: [Double] = []
var tokenCount = 0
for run in 1...runs {
    let wallStart = DispatchTime.now().uptimeNanoseconds
    let cpuStart = threadCPUSeconds()
    var tokens = 0
    for file in files {
        tokens &+= Lexer.tokenize(file).tokenCount
    }
    let cpu = threadCPUSeconds() - cpuStart
    let wall = Double(DispatchTime.now().uptimeNanoseconds - wallStart) / 1e9
    wallSeconds.append(wall)
    cpuSeconds.append(cpu)
    tokenCount = tokens
    print(String(format: "run %d: wall %.3f s (%.1f MB/s)  cpu %.3f s (%.1f MB/s, %.0f files/s)", run, wall,
                 megabytes / wall, cpu, megabytes / cpu, Double(files.count) / cpu))
}
let wall = wallSeconds.sorted()[runs / 2]
let cpu = cpuSeconds.sorted()[runs / 2]
print(String(format: "median wall: %.1f MB/s  %.0f files/s", megabytes / wall, Double(files.count) / wall))
print(String(format: "median cpu:  %.1f MB/s  %.0f files/s  %.1f M tokens/s  (%d tokens)", megabytes / cpu,
             Double(files.count) / cpu, Double(tokenCount) / cpu / 1e6, tokenCount))
