"""Literal evaluation: the only values the ledger may state are ones a reviewer can re-derive.

Literals, containers of literals and arithmetic or concatenation of literals are folded here,
with bounds so a hostile file cannot make the folding itself expensive (``"x" * 10**12``). Names
are handed to a lookup supplied by the caller, which knows modules and imports. Nothing is ever
evaluated by Python: numbers and strings are read by libcst's own literal readers.
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import libcst as cst

from ..core.text import clip
from ..ledger.model import JSONValue

MAX_STRING = 10_000
MAX_INT_BITS = 256
MAX_ITEMS = 1_000
MAX_NESTING = 64


@dataclass(frozen=True)
class Known:
    value: JSONValue


@dataclass(frozen=True)
class Unknown:
    reason: str


Outcome = Known | Unknown
NameLookup = Callable[[str], Outcome]

_EMPTY_MODULE = cst.Module(body=[])

#: A lone surrogate (``"\udfff"`` in source) is a str Python allows and UTF-8 cannot encode.
_SURROGATE = re.compile("[\ud800-\udfff]")


def writable(text: str) -> str:
    """``text`` with each lone surrogate written as its escape (``\\udfff``), as the source
    spells it: prose such as a docstring stays readable and the ledger stays valid UTF-8, where
    U+FFFD would hide what was there and dropping the text would hide the rest."""
    return _SURROGATE.sub(lambda found: f"\\u{ord(found.group()):04x}", text)


def source_text(node: cst.CSTNode, limit: int = 80) -> str:
    """The code of ``node`` on one line, shortened for messages."""
    text = " ".join(_EMPTY_MODULE.code_for_node(node).split()).replace("\x00", "\\x00")
    return clip(text, limit)


def not_literal(node: cst.CSTNode) -> Unknown:
    if isinstance(node, cst.Call):
        return Unknown(f"{source_text(node)} is a call, not a literal")
    return Unknown(f"{source_text(node)} is not a literal")


def evaluate(node: cst.BaseExpression, lookup: NameLookup) -> Outcome:
    """Fold ``node`` to a JSON value, or say why it cannot be proved from the source."""
    return _Evaluator(lookup).eval(node)


_BINARY: dict[type[cst.BaseBinaryOp], Callable[[Any, Any], Any]] = {
    cst.Add: operator.add,
    cst.Subtract: operator.sub,
    cst.Multiply: operator.mul,
    cst.Divide: operator.truediv,
    cst.FloorDivide: operator.floordiv,
    cst.Modulo: operator.mod,
    cst.Power: operator.pow,
}


class _Evaluator:
    def __init__(self, lookup: NameLookup) -> None:
        self.lookup = lookup
        self.depth = 0

    def eval(self, node: cst.BaseExpression) -> Outcome:
        if self.depth >= MAX_NESTING:
            return Unknown("the expression is nested too deeply to evaluate")
        self.depth += 1
        try:
            return self._eval(node)
        finally:
            self.depth -= 1

    def _eval(self, node: cst.BaseExpression) -> Outcome:
        if isinstance(node, (cst.Integer, cst.Float)):
            return _number(node)
        if isinstance(node, cst.SimpleString):
            try:
                value = node.evaluated_value
            except (ValueError, SyntaxError, MemoryError, RecursionError):
                # a raw NUL byte: libcst parses it, the literal reader (Python's) refuses it
                return Unknown(
                    f"{source_text(node)} cannot be read as a string literal: it holds a raw NUL "
                    "byte (or another character Python refuses in source)"
                )
            if isinstance(value, bytes):
                return Unknown(f"{source_text(node)} is a byte string, not text")
            if _SURROGATE.search(value):
                return Unknown(
                    f"{source_text(node)} is not text: it holds a lone surrogate escape, which "
                    "no UTF-8 file, queue or task name can carry"
                )
            return Known(value)
        if isinstance(node, cst.ConcatenatedString):
            return self._concat(node)
        if isinstance(node, cst.FormattedString):
            return self._fstring(node)
        if isinstance(node, cst.Name):
            if node.value in ("True", "False", "None"):
                return Known({"True": True, "False": False, "None": None}[node.value])
            return self.lookup(node.value)
        if isinstance(node, cst.UnaryOperation):
            return self._unary(node)
        if isinstance(node, cst.BinaryOperation):
            return self._binary(node)
        if isinstance(node, (cst.Tuple, cst.List)):
            return self._sequence(node)
        if isinstance(node, cst.Dict):
            return self._dict(node)
        return not_literal(node)

    def _concat(self, node: cst.ConcatenatedString) -> Outcome:
        left = self.eval(node.left)
        right = self.eval(node.right)
        if isinstance(left, Unknown):
            return left
        if isinstance(right, Unknown):
            return right
        if not isinstance(left.value, str) or not isinstance(right.value, str):
            return not_literal(node)
        return Known(left.value + right.value)

    def _fstring(self, node: cst.FormattedString) -> Outcome:
        pieces: list[str] = []
        for part in node.parts:
            if isinstance(part, cst.FormattedStringText):
                pieces.append(part.value)
            elif (
                isinstance(part, cst.FormattedStringExpression)
                and part.conversion is None
                and part.format_spec is None
            ):
                value = self.eval(part.expression)
                if isinstance(value, Unknown):
                    return value
                if not isinstance(value.value, (str, int)) or isinstance(value.value, bool):
                    return not_literal(node)
                pieces.append(str(value.value))
            else:
                return not_literal(node)
        if "b" in node.prefix.lower() or "\\" in "".join(pieces) or "{{" in "".join(pieces):
            return not_literal(node)
        return Known("".join(pieces))

    def _unary(self, node: cst.UnaryOperation) -> Outcome:
        inner = self.eval(node.expression)
        if isinstance(inner, Unknown):
            return inner
        value = inner.value
        if isinstance(node.operator, cst.Not):
            return Known(not value)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return not_literal(node)
        if isinstance(node.operator, cst.Minus):
            return Known(-value)
        if isinstance(node.operator, cst.Plus):
            return Known(value)
        return not_literal(node)

    def _binary(self, node: cst.BinaryOperation) -> Outcome:
        fold = _BINARY.get(type(node.operator))
        if fold is None:
            return not_literal(node)
        left = self.eval(node.left)
        if isinstance(left, Unknown):
            return left
        right = self.eval(node.right)
        if isinstance(right, Unknown):
            return right
        a, b = left.value, right.value
        if not _safe_operands(node.operator, a, b):
            return Unknown(f"{source_text(node)} is not a small literal expression")
        try:
            result = fold(a, b)
        except (ArithmeticError, TypeError, ValueError):
            return Unknown(f"{source_text(node)} cannot be computed")
        if isinstance(result, int) and result.bit_length() > MAX_INT_BITS:
            return Unknown(f"{source_text(node)} is too large")
        if isinstance(result, float) and not math.isfinite(result):
            return Unknown(f"{source_text(node)} is not a finite number")
        if not isinstance(result, (int, float, str, list)):
            return not_literal(node)
        return Known(result)

    def _sequence(self, node: cst.Tuple | cst.List) -> Outcome:
        if len(node.elements) > MAX_ITEMS:
            return Unknown(f"{source_text(node)} is too long to record")
        items: list[JSONValue] = []
        for element in node.elements:
            if isinstance(element, cst.StarredElement):
                return not_literal(node)
            value = self.eval(element.value)
            if isinstance(value, Unknown):
                return value
            items.append(value.value)
        return Known(items)

    def _dict(self, node: cst.Dict) -> Outcome:
        if len(node.elements) > MAX_ITEMS:
            return Unknown(f"{source_text(node)} is too long to record")
        result: dict[str, JSONValue] = {}
        for element in node.elements:
            if not isinstance(element, cst.DictElement):
                return not_literal(node)
            key = self.eval(element.key)
            if isinstance(key, Unknown):
                return key
            if not isinstance(key.value, str):
                return Unknown(f"{source_text(node)} has a key that is not a string")
            value = self.eval(element.value)
            if isinstance(value, Unknown):
                return value
            result[key.value] = value.value
        return Known(result)


def _number(node: cst.Integer | cst.Float) -> Outcome:
    """A number literal, or why it is not recorded: one whose digits Python will not convert
    (past its int-string limit), or whose value JSON cannot hold or a queue could not use, is
    ``null`` with a reason, never a crash when the ledger is written."""
    digits = sum(char.isalnum() for char in node.value)
    if digits > _MAX_LITERAL_DIGITS:
        return Unknown(f"{source_text(node, 40)} is too large a number to record")
    try:
        value = node.evaluated_value
    except (ValueError, SyntaxError, MemoryError, OverflowError):
        return Unknown(f"{source_text(node, 40)} cannot be read as a number")
    if isinstance(value, int) and value.bit_length() > MAX_INT_BITS:
        return Unknown(f"{source_text(node, 40)} is too large a number to record")
    if isinstance(value, float) and not math.isfinite(value):
        return Unknown(f"{source_text(node, 40)} is not a finite number")
    if isinstance(value, complex):
        return not_literal(node)
    return Known(value)


#: Longer than any number a setting holds; reading more digits only costs time (a hex literal
#: of 3,700 digits converts, and its decimal form is past Python's int-string limit).
_MAX_LITERAL_DIGITS = 100


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _safe_operands(op: cst.BaseBinaryOp, a: object, b: object) -> bool:
    """Refuse folds whose result could be huge before computing them."""
    if _is_number(a) and _is_number(b):
        if isinstance(op, cst.Power):
            return isinstance(b, (int, float)) and abs(b) <= 64 and abs(a) <= 2**32  # type: ignore[arg-type]
        return True
    if isinstance(op, cst.Add):
        both_text = isinstance(a, str) and isinstance(b, str)
        return both_text and len(a) + len(b) <= MAX_STRING  # type: ignore[arg-type]
    if isinstance(op, cst.Multiply):
        text, count = (a, b) if isinstance(a, str) else (b, a)
        return (
            isinstance(text, str)
            and isinstance(count, int)
            and not isinstance(count, bool)
            and len(text) * max(count, 0) <= MAX_STRING
        )
    return False
