#!/usr/bin/env swift
// Every kind of literal the lexer knows, in one place.

let integers = [0, 42, 1_000_000, 0b1010_1010, 0o755, 0xFF_EC_DE_5E]
let floats = [1.5, 1_000.5e-3, 6.022E23, 0x1p-2, 0x1.8p+1]
let memberOfInteger = 0xff.description + 1.description
let tupleIndex = pair.0.1

let greeting = "Hello, \(name)! \u{1F44B}\t\"quoted\""
let nested = "outer \("inner \(value.map { "\($0)" }.joined())")"
let raw = #"C:\path\to "file" \#(folder)"#
let rawer = ##"one # and "# inside"##
let block = """
    Dear \(recipient),
      indented line \
    continued line
    """
let rawBlock = #"""
    \(not interpolated) but \#(this)
    """#
let character: Character = "é"

let words = /[a-z]+(?:-[a-z]+)*/
let division = total / count / 2
let extended = #/
    (?<year>\d{4}) - (?<month>\d{2})   # a date
    /#
let found = try? /^\s+/.firstMatch(in: text)

/* A block comment /* with a nested one */ still inside. */
/** Documentation block. */
//// Four slashes are still documentation to the compiler.
/**/
