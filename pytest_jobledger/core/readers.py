"""One strict reader per format (JSON, TOML, YAML): the data, or one located :class:`Unreadable`.

Every file jobledger reads comes from the repository, which may be a hostile pull request, so a
reader must turn *every* failure its library can raise into a value a caller can locate: the
library's own syntax errors, and also what it lets through from Python itself, a ``ValueError``
for an integer literal of 4,301+ digits (CPython's int-string limit), a ``RecursionError`` for deep
nesting, a ``MemoryError``, a ``UnicodeDecodeError``, and ruamel.yaml's warnings (a reused
``&anchor``). Each caller then says what its file is, in its own located message; no reader may
end in a traceback. The adapter that locates YAML libraries' errors lives here too, so the
overlay, the roster, the drafts file and the stub explain a file the same way. ruamel.yaml is
imported only when YAML is read: a pytest session without ``--jobledger`` never loads it.
"""

from __future__ import annotations

import functools
import json
import re
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

T = TypeVar("T")

#: Why a text could not be read: its syntax, a repeated key, a limit of Python's (a number too
#: long, nesting too deep, not enough memory) or its encoding.
Reason = Literal["syntax", "duplicate", "number", "deep", "memory", "encoding"]


@dataclass(frozen=True)
class Problem:
    """What is wrong (a clause a caller puts in its own sentence) and the 1-based line."""

    detail: str
    line: int
    reason: Reason = "syntax"


class Unreadable(Exception):
    """A file's text cannot be read as its format; ``problem`` says what and where."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        super().__init__(f"line {problem.line}: {problem.detail}")


# -- the readers -----------------------------------------------------------------------------


def decode_utf8(raw: bytes, *, bom: bool = False) -> str:
    """``raw`` as UTF-8 text (``bom``: a leading byte-order mark is allowed and dropped)."""
    try:
        return raw.decode("utf-8-sig" if bom else "utf-8")
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        raise Unreadable(Problem("it is not UTF-8 text", line, "encoding")) from None


def parse_json(text: str) -> Any:
    """``text`` as JSON; a key written twice in one object is refused (the last would win)."""

    def load(source: str) -> Any:
        return json.loads(source, object_pairs_hook=_unique_pairs)

    return guarded(load, text, _json_problem)


def parse_toml(text: str) -> dict[str, Any]:
    """``text`` as TOML (tomllib already refuses a repeated key)."""
    return guarded(tomllib.loads, text, _toml_problem)


def parse_yaml(text: str, events: list[Any] | None = None) -> Any:
    """``text`` read as YAML 1.2 round-trip data, strictly: a duplicate key or any ruamel warning
    is refused, and dates stay the text they are (YAML 1.2 has no timestamp type).

    ``events`` gets ruamel's parse events of this same pass (what ``YAML(typ="rt").parse``
    yields): the stub reads a big overlay's layout without parsing it a second time."""

    line = flow_too_deep(text)
    if line is not None:
        raise Unreadable(
            Problem(f"brackets ([ or {{) nest more than {MAX_FLOW_DEPTH} deep", line, "deep")
        )

    def load(source: str) -> Any:
        from ruamel.yaml import YAML

        reader = YAML(typ="rt")
        reader.Constructor = text_timestamp_constructor()
        if events is not None:
            reader.Parser = recording_parser(events)
        reader.allow_duplicate_keys = False
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            return reader.load(source)

    return guarded(load, text, yaml_problem)


@functools.cache
def text_timestamp_constructor() -> type[Any]:
    """ruamel's round-trip constructor, with timestamps kept as the text they are in YAML 1.2
    (made on first use, so that importing this module does not import ruamel.yaml)."""
    from ruamel.yaml.constructor import RoundTripConstructor

    class TextTimestampConstructor(RoundTripConstructor):
        """Timestamps stay text."""

    TextTimestampConstructor.add_constructor(
        "tag:yaml.org,2002:timestamp", RoundTripConstructor.construct_yaml_str
    )
    return TextTimestampConstructor


def recording_parser(events: list[Any]) -> type[Any]:
    """ruamel's round-trip parser, appending each event it hands the composer to ``events``."""
    from ruamel.yaml.parser import RoundTripParser

    class RecordingParser(RoundTripParser):
        def get_event(self) -> Any:
            event = super().get_event()
            events.append(event)
            return event

    return RecordingParser


def guarded(
    load: Callable[[str], T], text: str, own: Callable[[BaseException, str], Problem | None]
) -> T:
    """``load(text)``, with every failure turned into :class:`Unreadable`: ``own`` locates the
    library's own errors (``None``: not one of them), then Python's limits are located here."""
    try:
        return load(text)
    except Exception as error:  # the boundary: RecursionError and MemoryError are Exceptions
        problem = own(error, text) or python_problem(error, text)
        raise Unreadable(problem) from None


# -- Python's own limits ---------------------------------------------------------------------

#: CPython refuses to convert longer decimal strings (``sys.get_int_max_str_digits``).
_LONG_DIGITS = re.compile(r"\d[\d_]{4300,}")
_BRACKETS = re.compile(r"[\[\]{}]")
#: Deeper than any file jobledger reads; where a deep-nesting error is placed.
_DEEP = 100


def python_problem(error: BaseException, text: str) -> Problem:
    """A located problem for what any parser may let through from Python itself."""
    if isinstance(error, RecursionError):
        return Problem("it is nested too deeply to read", deep_line(text), "deep")
    if isinstance(error, MemoryError):
        return Problem("it is too large to read into memory", 1, "memory")
    if isinstance(error, ValueError) and "integer string conversion" in str(error):
        return long_number(text) or Problem(_first_line(error), 1, "number")
    if isinstance(error, UnicodeError):
        return Problem(f"it holds text no tool can read ({_first_line(error)})", 1, "encoding")
    return Problem(_first_line(error), 1)


def long_number(text: str) -> Problem | None:
    """Where the first integer too long for Python is written, if there is one."""
    match = _LONG_DIGITS.search(text)
    if match is None:
        return None
    digits = sum(char.isdigit() for char in match.group())
    limit = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 4300
    return Problem(
        f"a number of {digits:,} digits, over the {limit:,} digits Python reads (no real value "
        "has that many); if it is text, quote it",
        text.count("\n", 0, match.start()) + 1,
        "number",
    )


#: No file jobledger reads as YAML needs more; ruamel's scanner slows down badly on deeper flow
#: nesting (seconds for a few thousand brackets), so deeper is refused before parsing.
MAX_FLOW_DEPTH = 64


def flow_too_deep(text: str) -> int | None:
    """The line where ``[``/``{`` first nest deeper than :data:`MAX_FLOW_DEPTH`, else ``None``."""
    depth = 0
    for match in _BRACKETS.finditer(text):
        if match.group() in "[{":
            depth += 1
            if depth > MAX_FLOW_DEPTH:
                return text.count("\n", 0, match.start()) + 1
        elif depth:
            depth -= 1
    return None


def deep_line(text: str) -> int:
    """The line where brackets first nest :data:`_DEEP` deep (1 when they never do: the nesting
    is by indentation)."""
    depth = 0
    for match in _BRACKETS.finditer(text):
        if match.group() in "[{":
            depth += 1
            if depth >= _DEEP:
                return text.count("\n", 0, match.start()) + 1
        elif depth:
            depth -= 1
    return 1


# -- JSON and TOML ---------------------------------------------------------------------------


class _DuplicateJsonKey(ValueError):
    def __init__(self, key: str) -> None:
        self.key = key
        super().__init__(key)


def _unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _DuplicateJsonKey(key)
        result[key] = value
    return result


def _json_problem(error: BaseException, text: str) -> Problem | None:
    if isinstance(error, json.JSONDecodeError):
        return Problem(error.msg, error.lineno)
    if isinstance(error, _DuplicateJsonKey):
        needle = json.dumps(error.key, ensure_ascii=False)
        lines = [
            n
            for n, line in enumerate(text.splitlines(), 1)
            if needle + ":" in line.replace(" ", "")
        ]
        line = lines[1] if len(lines) > 1 else 1
        return Problem(
            f"the key {_short(error.key)} is written twice in one object, and JSON readers "
            "disagree about which copy wins",
            line,
            "duplicate",
        )
    return None


def _toml_problem(error: BaseException, text: str) -> Problem | None:
    if isinstance(error, tomllib.TOMLDecodeError):
        match = re.search(r"line (\d+)", str(error))
        return Problem(str(error), int(match.group(1)) if match else 1)
    return None


# -- YAML (ruamel.yaml, and PyYAML as the YAML 1.1 second opinion) -------------------------

_DUPLICATE = re.compile(r'found duplicate key "(.*?)" with value')
_WARNING_LINE = re.compile(r"line (\d+), column")


def yaml_problem(error: BaseException, text: str) -> Problem | None:
    """A located problem for an error or warning ruamel.yaml or PyYAML raised (``None``: it is
    none of theirs)."""
    from ruamel.yaml.constructor import DuplicateKeyError
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    if isinstance(error, DuplicateKeyError):
        return Problem(_duplicate(error), _line(error, text), "duplicate")
    if isinstance(error, MarkedYAMLError) or _is_pyyaml_marked(error):
        problem = getattr(error, "problem", None)
        context = getattr(error, "context", None)
        context_mark = getattr(error, "context_mark", None)
        parts = [str(problem)] if problem else []
        if context:
            where = f" at line {context_mark.line + 1}" if context_mark is not None else ""
            parts.insert(0, f"{context}{where}")
        return Problem("; ".join(parts) or _first_line(error), _line(error, text))
    if isinstance(error, (YAMLError, Warning)) or type(error).__name__.endswith("YAMLError"):
        lines = _WARNING_LINE.findall(str(error))
        line = max(1, min(int(lines[-1]), len(text.splitlines()) or 1)) if lines else 1
        return Problem(_first_line(error), line)
    return None


def describe(error: BaseException, text: str) -> Problem:
    """A located description of any error raised while reading YAML ``text``. The line is where
    the problem was found; where the construct it belongs to started (an unclosed quote, a
    mapping with a duplicate key) is named in the detail."""
    return yaml_problem(error, text) or python_problem(error, text)


def _is_pyyaml_marked(error: BaseException) -> bool:
    return hasattr(error, "problem_mark") and hasattr(error, "problem")


def _duplicate(error: Any) -> str:
    match = _DUPLICATE.search(str(error.problem))
    key = match.group(1) if match else "?"
    first = error.context_mark.line + 1 if error.context_mark is not None else None
    where = f" in the mapping that starts at line {first}" if first else ""
    return (
        f"duplicate key {key!r}{where}: a key may appear once in a mapping, and YAML readers "
        "disagree about which copy wins; merge the two into one"
    )


def _line(error: Any, text: str) -> int:
    mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
    line = mark.line + 1 if mark is not None else 1
    # "found '<stream end>'" points past the last line; name the last line there is.
    return max(1, min(line, len(text.splitlines())))


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def _short(text: str, limit: int = 60) -> str:
    shown = json.dumps(text, ensure_ascii=True)
    return shown if len(shown) <= limit else shown[: limit - 4] + '..."'
