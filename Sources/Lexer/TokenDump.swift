/// The `kblint tokens` format: one token per line, `LINE<TAB>COLUMN<TAB>KIND<TAB>TEXT`, with
/// 1-based line and UTF-8 byte column, the kind's `dumpName`, and the token's text with
/// backslash, tab, CR and LF escaped so that every token stays on one line. Comments are
/// listed only when `includeComments` is set. Invalid UTF-8 in TEXT prints as U+FFFD.
public func dumpTokens(_ source: TokenizedSource, includeComments: Bool) -> String {
    let file = source.file
    var output: [UInt8] = []
    output.reserveCapacity(file.bytes.count * 3 + 64)
    var line = 0  // index into lineStarts
    let lineStarts = file.lineStarts
    file.bytes.withUnsafeBufferPointer { bytes in
        for token in source.tokens where includeComments || !token.kind.isComment {
            let start = Int(token.start)
            while line + 1 < lineStarts.count, lineStarts[line + 1] <= start { line += 1 }
            appendDecimal(line + 1, to: &output)
            output.append(0x09)
            appendDecimal(start - lineStarts[line] + 1, to: &output)
            output.append(0x09)
            output.append(contentsOf: token.kind.dumpName.utf8)
            output.append(0x09)
            let end = min(Int(token.end), bytes.count)
            var index = start
            while index < end {
                let c = bytes[index]
                switch c {
                case 0x5C: output.append(0x5C); output.append(0x5C)
                case 0x09: output.append(0x5C); output.append(UInt8(ascii: "t"))
                case 0x0D: output.append(0x5C); output.append(UInt8(ascii: "r"))
                case 0x0A: output.append(0x5C); output.append(UInt8(ascii: "n"))
                default: output.append(c)
                }
                index += 1
            }
            output.append(0x0A)
        }
    }
    return String(decoding: output, as: UTF8.self)
}

private func appendDecimal(_ value: Int, to output: inout [UInt8]) {
    let value = max(value, 0)
    var divisor = 1
    while divisor <= value / 10 { divisor *= 10 }
    var remaining = value
    repeat {
        output.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: remaining / divisor))
        remaining %= divisor
        divisor /= 10
    } while divisor > 0
}
