"""How the pre-parse scan (:mod:`.limits`) reads Python: one regular expression for the tokens
of code, one per kind of string literal, and how tightly each operator binds.

These only tell tokens apart; they validate nothing (libcst reports a malformed file). They are
written out here rather than taken from :mod:`tokenize` so that they read every Python version's
source the same way.
"""

from __future__ import annotations

import re

#: How tightly each operator binds, loosest first: a chain of operators nests the tree one level
#: per operator, but an operator of lower precedence starts a fresh operand for the tighter ones
#: (``a*b*c + d*e`` is three levels deep, not four).
_LAMBDA, _TERNARY, _OR, _AND, _NOT, _COMPARE, _BITOR, _BITXOR, _BITAND = range(9)
_SHIFT, _SUM, _PRODUCT, _UNARY, _POWER, _AWAIT, POSTFIX = range(9, 16)

KEYWORD_CLASS = {
    "lambda": _LAMBDA,
    "for": _LAMBDA,  # each ``for`` clause of a comprehension nests the next one
    "if": _TERNARY,
    "else": _TERNARY,
    "or": _OR,
    "and": _AND,
    "not": _NOT,
    "in": _COMPARE,
    "is": _COMPARE,
    "await": _AWAIT,
}
PREFIX_KEYWORDS = frozenset({"not", "lambda", "await"})
#: Keywords after which an operator is unary (``return -x``); the rest of the names are operands.
STATEMENT_KEYWORDS = frozenset(
    {
        *("as", "assert", "async", "break", "class", "continue", "def", "del", "elif"),
        *("except", "finally", "from", "global", "import", "nonlocal", "pass", "raise"),
        *("return", "try", "while", "with", "yield"),
    }
)
OPERATOR_CLASS = {
    "|": _BITOR,
    "^": _BITXOR,
    "&": _BITAND,
    "<<": _SHIFT,
    ">>": _SHIFT,
    "/": _PRODUCT,
    "//": _PRODUCT,
    "%": _PRODUCT,
    "<": _COMPARE,
    ">": _COMPARE,
    "==": _COMPARE,
    "!=": _COMPARE,
    "<=": _COMPARE,
    ">=": _COMPARE,
    ":=": _LAMBDA,
    "~": _UNARY,
}
#: Operators that are binary after an operand and unary (or unpacking) otherwise.
BINARY_OR_UNARY = {
    "+": (_SUM, _UNARY),
    "-": (_SUM, _UNARY),
    "*": (_PRODUCT, _UNARY),
    "**": (_POWER, _UNARY),
    "@": (_PRODUCT, None),  # a decorator's ``@`` nests nothing
    ".": (POSTFIX, None),  # ``from . import x``
}

CODE = re.compile(
    r"""
    [ \t\f]*
    (?:
    (?P<continuation>\\(?:\r\n|\r|\n))
    |(?P<newline>\r\n|\r|\n)
    |(?P<comment>\#[^\r\n]*)
    |(?P<string>(?P<prefix>[rRbBuUfFtT]{0,2})(?P<quote>'''|\"\"\"|'|\"))
    |(?P<name>(?:[^\W\d]|[^\x00-\x7f\s])(?:\w|[^\x00-\x7f\s])*)
    |(?P<number>\.?\d(?:[\w.]|(?<=[eE])[-+])*)
    |(?P<open>[(\[{])
    |(?P<close>[)\]}])
    |(?P<reset>(?://|\*\*|>>|<<|[-+*/%@&|^])=|=(?!=)|,|;|->)
    |(?P<ellipsis>\.\.\.)
    |(?P<op>\*\*|//|>>|<<|:=|==|!=|<=|>=|[-+*/%@&|^~<>.])
    |(?P<neutral>[:!])
    |(?P<other>.)
    |(?P<end>\Z)
    )
    """,
    re.VERBOSE | re.DOTALL,
)

NEWLINES = re.compile(r"\r\n|\r|\n")


def _string_end(quote: str) -> re.Pattern[str]:
    """The rest of a plain string literal up to and including its closing quote."""
    q = re.escape(quote[0])
    if len(quote) == 3:
        return re.compile(rf"(?:[^{q}\\]|\\[\s\S]|{q}(?!{q}{q}))*{q}{q}{q}")
    return re.compile(rf"(?:[^{q}\\\r\n]|\\(?:\r\n|[\s\S]))*{q}")


def _fstring_text(quote: str, *, raw: bool) -> re.Pattern[str]:
    """Literal text of an f-string up to the next ``{``, ``}``, closing quote or line end."""
    q = re.escape(quote[0])
    escapes = r"\\[^{}]|\\(?=[{}])" if raw else r"\\N\{[^{}\r\n]*\}|\\(?!N\{)[^{}]|\\(?=[{}])"
    if len(quote) == 3:
        return re.compile(rf"(?:[^{q}{{}}\\]|{escapes}|{q}(?!{q}{q}))*")
    return re.compile(rf"(?:[^{q}{{}}\\\r\n]|{escapes})*")


_QUOTES = ("'''", '"""', "'", '"')
STRING_END = {quote: _string_end(quote) for quote in _QUOTES}
FSTRING_TEXT = {
    (quote, raw): _fstring_text(quote, raw=raw) for quote in _QUOTES for raw in (False, True)
}


def line_of(text: str, offset: int) -> int:
    """The 1-based line of ``offset`` in ``text``; CR LF, a lone CR and LF each end a line."""
    return len(NEWLINES.findall(text, 0, offset)) + 1


SPEC_COLON = re.compile(r"[ \t\f]*:")


def match_end(pattern: re.Pattern[str], text: str, pos: int) -> int:
    match = pattern.match(text, pos)
    return pos if match is None else match.end()
