"""Each text's redaction and directive scan, remembered: a signed cell shown again imports no
detector and compiles no pattern.

:func:`remembered` hands :mod:`~pytest_jobledger.core.redact` the results of earlier runs (keyed
by the text and where it is shown, under a memo keyed by the detectors installed and the tool's
code), and :mod:`~pytest_jobledger.core.directives` which pattern each text matched (keyed by the
text), and records what this run added. A text not in the memo goes through the full detectors.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager

from ..core import directives, redact
from ..core.fingerprint import libraries
from ..project import Config
from .signed import open_signed

#: detect-secrets, when installed, decides what is withheld: an upgrade is a new memo.
LIBRARIES = ("detect_secrets",)
#: Past this many texts the memo keeps only those this run used.
MAX_TEXTS = 50_000


class Book(dict[str, str]):
    """The remembered results, and which of them this run added or used."""

    def __init__(self, known: dict[str, str]) -> None:
        super().__init__(known)
        self.used: set[str] = set()
        self.added = False

    def get_result(self, key: str) -> str | None:
        found = self.get(key)
        if found is not None:
            self.used.add(key)
        return found

    def add(self, key: str, result: str) -> None:
        self[key] = result
        self.used.add(key)
        self.added = True


@contextmanager
def remembered(config: Config) -> Iterator[None]:
    """Within this block, redaction answers from (and adds to) this project's memo."""
    signed = open_signed(config, "redaction", {"libraries": libraries(LIBRARIES)})
    if signed is None:
        yield
        return
    book = Book(_known(signed.read()))
    redact.use_memo(book.get_result, book.add)
    directives.use_memo(book.get_result, book.add)
    try:
        yield
    finally:
        redact.use_memo(None, None)
        directives.use_memo(None, None)
    if book.added:
        kept = book if len(book) <= MAX_TEXTS else {key: book[key] for key in book.used}
        signed.write(json.dumps(kept, sort_keys=True, ensure_ascii=True).encode("ascii"))


def _known(payload: bytes | None) -> dict[str, str]:
    if payload is None:
        return {}
    try:
        data = json.loads(payload)
    except ValueError:
        return {}
    if not isinstance(data, dict):
        return {}
    return {key: value for key, value in data.items() if isinstance(value, str)}
