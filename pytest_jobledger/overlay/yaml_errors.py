"""The one adapter around YAML libraries' errors: a located sentence for any error they raise.

ruamel.yaml (the YAML 1.2 reader of record) and PyYAML (the YAML 1.1 second opinion) each mark
errors in their own way; the overlay reader and the stub both turn them into a message through
here, so a file gets the same explanation and the same line whichever command read it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ruamel.yaml.constructor import DuplicateKeyError
from ruamel.yaml.error import MarkedYAMLError

_DUPLICATE = re.compile(r'found duplicate key "(.*?)" with value')


@dataclass(frozen=True)
class YamlProblem:
    """What is wrong (a clause a caller puts in its own sentence) and the 1-based line."""

    detail: str
    line: int


def describe(error: BaseException, text: str) -> YamlProblem:
    """A located description of any error ruamel.yaml or PyYAML raised while reading ``text``.

    The line is where the problem was found; where the construct it belongs to started (an
    unclosed quote, a mapping with a duplicate key) is named in the detail.
    """
    if isinstance(error, DuplicateKeyError):
        return YamlProblem(_duplicate(error), _line(error, text))
    if isinstance(error, MarkedYAMLError) or _is_pyyaml_marked(error):
        problem = getattr(error, "problem", None)
        context = getattr(error, "context", None)
        context_mark = getattr(error, "context_mark", None)
        parts = [str(problem)] if problem else []
        if context:
            where = f" at line {context_mark.line + 1}" if context_mark is not None else ""
            parts.insert(0, f"{context}{where}")
        return YamlProblem("; ".join(parts) or _first_line(error), _line(error, text))
    if isinstance(error, RecursionError):
        return YamlProblem("it is nested too deeply to read", 1)
    return YamlProblem(_first_line(error), 1)


def _is_pyyaml_marked(error: BaseException) -> bool:
    return hasattr(error, "problem_mark") and hasattr(error, "problem")


def _duplicate(error: DuplicateKeyError) -> str:
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
