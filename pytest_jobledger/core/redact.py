"""Minimised text: the one redaction step every docstring and cell text passes before it is shown.

A docstring or a signed cell is copied into a terminal, a CI log that keeps it, a runbook page,
a docs site and ``--json``; a key left in one would land in all of them. :func:`redact` replaces
each secret it finds with a marker that says a secret was withheld, of which kind, and where
(``path:line``), and leaves the rest of the text as it was.

Two detectors, always both:

- **detect-secrets** (the ``drafts`` extra, the detector the draft lane screens with), its default
  plugins and filters run line by line, when it is installed;
- **built-in patterns** of high signal, so a machine without the extra still withholds the common
  leaks: AWS access key ids, GitHub and Slack tokens, private key blocks, credentials in a URL, and
  ``password=``/``secret:``/``token=``/``api_key=`` assignments.

Neither is a proof: a secret neither knows is printed. The marker never repeats any of the text
it replaces. No I/O; results are cached per text, so a page with the same docstring twice costs
one scan, and the read-only commands hand in a memo of earlier runs' results
(:func:`use_memo`, kept by :mod:`pytest_jobledger.memo.redaction`): a text seen before is not
scanned again, so detect-secrets is not even imported.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import Any

#: What a withheld secret is replaced by (``{kind}``, ``{where}``).
MARKER = "[secret withheld: {kind} at {where}]"

_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "private key",
        re.compile(
            r"-----BEGIN[A-Z ]*PRIVATE KEY-----.*?(?:-----END[A-Z ]*PRIVATE KEY-----|\Z)", re.S
        ),
    ),
    ("AWS access key id", re.compile(r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b")),
    ("GitHub token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})")),
    ("Slack token", re.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}")),
    ("credentials in a URL", re.compile(r"(?<=://)[^\s/:@]+:[^\s/@]+(?=@)")),
    (
        "assigned secret",
        re.compile(
            r"(?i)(\b(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|"
            r"secret[_-]?key|auth[_-]?token)\b\s*[:=]\s*['\"]?)[^\s'\",;]{4,}"
        ),
    ),
)

#: Characters of a token around the part a detector names (detect-secrets reports ``ghp`` of a
#: GitHub token): the whole run is withheld, not just the part it matched.
_TOKEN = re.compile(r"[A-Za-z0-9+/=_\-.~]+")

#: Earlier runs' results (:func:`use_memo`): how to look one up by its key, and how to add one.
_recall: Callable[[str], str | None] | None = None
_record: Callable[[str, str], None] | None = None


def use_memo(
    recall: Callable[[str], str | None] | None, record: Callable[[str, str], None] | None
) -> None:
    """Answer from (and add to) a memo keyed by :func:`memo_key`; ``None`` stops using it."""
    global _recall, _record
    _recall, _record = recall, record


def memo_key(text: str, where: str) -> str:
    """What a result is remembered by: the text and where it is shown (the marker names it)."""
    data = f"{where}\0{text}".encode("utf-8", "surrogatepass")
    return hashlib.sha256(data).hexdigest()


def redact(text: str, where: str | None = None) -> str:
    """``text`` with every secret found replaced by a marker naming its kind and ``where``
    (``path:line`` of the text's first line; a later line of the text gets its own line)."""
    if not text:
        return text
    return _redact(text, where or "an unnamed place")


def redact_value(value: Any, where: str | None = None) -> Any:
    """A cell's value, redacted when it is text (a list or mapping keeps its shape)."""
    if isinstance(value, str):
        return redact(value, where)
    if isinstance(value, list):
        return [redact_value(item, where) for item in value]
    if isinstance(value, dict):
        return {key: redact_value(item, where) for key, item in value.items()}
    return value


def withheld(text: str) -> bool:
    """Whether :func:`redact` withheld something of ``text`` (it holds a marker)."""
    return "[secret withheld: " in text


def detector() -> str:
    """Which detectors run here: said in docs and tests, so nobody assumes the extra is there."""
    return "detect-secrets and built-in patterns" if _scanner() is not None else "built-in patterns"


@lru_cache(maxsize=4096)
def _redact(text: str, where: str) -> str:
    if _recall is None or _record is None:
        return _scanned(text, where)
    key = memo_key(text, where)
    found = _recall(key)
    if found is None:
        found = _scanned(text, where)
        _record(key, found)
    return found


def _scanned(text: str, where: str) -> str:
    path, line = _split(where)
    spans: list[tuple[int, int, str]] = []
    for kind, pattern in _PATTERNS:
        for match in pattern.finditer(text):
            start = match.start() + (len(match.group(1)) if match.groups() else 0)
            spans.append((start, match.end(), kind))
    offset = 0
    for row in text.split("\n"):
        for kind, secret in _detected(row):
            for found in re.finditer(re.escape(secret), row):
                start, end = _widen(row, found.start(), found.end())
                spans.append((offset + start, offset + end, kind))
        offset += len(row) + 1
    if not spans:
        return text
    pieces: list[str] = []
    cursor = 0
    for start, end, kind in _merged(spans):
        at = f"{path}:{line + text.count(chr(10), 0, start)}" if line is not None else path
        pieces.append(text[cursor:start])
        pieces.append(MARKER.format(kind=kind, where=at))
        cursor = end
    pieces.append(text[cursor:])
    return "".join(pieces)


def _split(where: str) -> tuple[str, int | None]:
    path, _, line = where.rpartition(":")
    if path and line.isdigit():
        return path, int(line)
    return where, None


def _widen(row: str, start: int, end: int) -> tuple[int, int]:
    """The whole token around ``row[start:end]``."""
    for token in _TOKEN.finditer(row):
        if token.start() <= start and end <= token.end():
            return token.start(), token.end()
    return start, end


def _merged(spans: list[tuple[int, int, str]]) -> Iterator[tuple[int, int, str]]:
    """Overlapping spans as one (the first kind found names it), in text order."""
    current: tuple[int, int, str] | None = None
    for start, end, kind in sorted(spans):
        if current is not None and start < current[1]:
            current = (current[0], max(current[1], end), current[2])
            continue
        if current is not None:
            yield current
        current = (start, end, kind)
    if current is not None:
        yield current


def _detected(row: str) -> list[tuple[str, str]]:
    scanner = _scanner()
    if scanner is None or not row.strip():
        return []
    found: list[tuple[str, str]] = scanner(row)
    return found


@lru_cache(maxsize=1)
def _scanner() -> Any:
    """detect-secrets' line scan with its default plugins and filters, or ``None`` when the
    ``drafts`` extra is not installed (or its internals moved: the built-in patterns still run)."""
    try:
        from detect_secrets.core.scan import _is_filtered_out
        from detect_secrets.settings import default_settings, get_plugins
        from detect_secrets.util.code_snippet import get_code_snippet
    except ImportError:
        return None

    def scan(row: str) -> list[tuple[str, str]]:
        found: list[tuple[str, str]] = []
        with default_settings():
            context = get_code_snippet(lines=[row], line_number=1)
            for plugin in get_plugins():
                for secret in plugin.analyze_line(
                    filename="text", line=row, line_number=1, context=context
                ):
                    value = secret.secret_value
                    if value and not _is_filtered_out(
                        required_filter_parameters=["context"],
                        filename=secret.filename,
                        secret=value,
                        plugin=plugin,
                        line=row,
                        context=context,
                    ):
                        found.append((str(secret.type), str(value)))
        return found

    return scan
