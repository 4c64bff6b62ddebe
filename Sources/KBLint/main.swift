import Lexer
import Rules

print("kblint")
