/// Findings count columns in UTF-8 bytes; SARIF, GitHub and checkstyle consumers count
/// UTF-16 code units (what editors and browsers index strings by).
enum ColumnConversion {
    /// The 1-based UTF-16 column of the 1-based UTF-8 byte `column` in `line`. A byte column
    /// inside a multi-byte character maps to that character's column; columns past the end
    /// of the line (the position after the last character, or beyond) keep their distance
    /// from the end.
    static func utf16Column(_ column: Int, in line: String) -> Int {
        var remainingBytes = max(column - 1, 0)
        var units = 0
        for scalar in line.unicodeScalars {
            let width = UTF8.width(scalar)
            if remainingBytes < width { return units + 1 }
            remainingBytes -= width
            units += UTF16.width(scalar)
        }
        return units + remainingBytes + 1
    }
}
