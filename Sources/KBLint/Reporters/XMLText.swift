/// Escaping for the XML reporters (checkstyle, junit).
enum XMLText {
    /// Text safe inside a double-quoted attribute or element content: markup characters as
    /// entities; tab, LF and CR as character references so that attribute-value
    /// normalization keeps them; characters XML 1.0 forbids (other C0 controls, U+FFFE,
    /// U+FFFF) replaced by U+FFFD.
    static func escaped(_ text: String) -> String {
        escaped(text, keepingLineBreaks: false)
    }

    /// Like `escaped`, but keeps tab and LF as they are, for multi-line element content
    /// such as a JUnit failure's body.
    static func escapedContent(_ text: String) -> String {
        escaped(text, keepingLineBreaks: true)
    }

    private static func escaped(_ text: String, keepingLineBreaks: Bool) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case let lineBreak
            where keepingLineBreaks && (lineBreak == "\t" || lineBreak == "\n"):
                output.unicodeScalars.append(lineBreak)
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&apos;"
            case "\t": output += "&#9;"
            case "\n": output += "&#10;"
            case "\r": output += "&#13;"
            case let forbidden where forbidden.value < 0x20
                || forbidden.value == 0xFFFE || forbidden.value == 0xFFFF:
                output += "\u{FFFD}"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
