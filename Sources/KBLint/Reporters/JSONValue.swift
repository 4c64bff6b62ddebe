/// A JSON document built in memory and written with a fixed layout, or read by `JSONReader`.
/// Objects keep their keys in the order given, so that reports are byte-for-byte
/// reproducible (Foundation's serializer neither guarantees key order on every platform nor
/// is needed for this).
enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case int(Int)
    /// A number that is not a whole `Int`; only read (reports write whole numbers).
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    /// Two-space indented text with `"key": value` pairs; empty containers stay on one line.
    func rendered() -> String {
        var output = ""
        write(to: &output, indent: 0)
        return output
    }

    /// The value on one line without spaces: what the language server sends.
    var compactText: String {
        var output = ""
        write(to: &output, indent: nil)
        return output
    }

    /// `indent` nil: compact.
    private func write(to output: inout String, indent: Int?) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .int(let value): output += String(value)
        // Swift's shortest round-trip spelling is valid JSON for finite values.
        case .double(let value): output += value.isFinite ? String(value) : "null"
        case .string(let value): output += JSONValue.quoted(value)
        case .array(let elements):
            writeContainer("[", "]", elements.indices, to: &output, indent: indent) { index, output, inner in
                elements[index].write(to: &output, indent: inner)
            }
        case .object(let members):
            writeContainer("{", "}", members.indices, to: &output, indent: indent) { index, output, inner in
                output += JSONValue.quoted(members[index].key) + (inner == nil ? ":" : ": ")
                members[index].value.write(to: &output, indent: inner)
            }
        }
    }

    /// Brackets around elements separated by commas: one per line, indented, unless compact.
    private func writeContainer(
        _ open: String, _ close: String, _ indices: Range<Int>, to output: inout String, indent: Int?,
        element: (Int, inout String, Int?) -> Void
    ) {
        guard !indices.isEmpty else { output += open + close; return }
        guard let indent else {
            output += open
            for index in indices {
                if index > indices.lowerBound { output += "," }
                element(index, &output, nil)
            }
            output += close
            return
        }
        output += open + "\n"
        for index in indices {
            output += String(repeating: "  ", count: indent + 1)
            element(index, &output, indent + 1)
            output += index == indices.upperBound - 1 ? "\n" : ",\n"
        }
        output += String(repeating: "  ", count: indent) + close
    }

    /// A JSON string literal: `"` and `\` escaped, `\n`, `\r`, `\t`, `\b`, `\f` in their short
    /// forms, every other control character as `\u00XX`; everything else, non-ASCII included,
    /// is kept as UTF-8.
    static func quoted(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16, uppercase: true)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral
{
    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int) { self = .int(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

/// Structural equality, for comparing what was read (member order counts).
extension JSONValue: Equatable {
    static func == (left: JSONValue, right: JSONValue) -> Bool {
        switch (left, right) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.elementsEqual(b) { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }
}
