"""A finding's short form: the first line ``jobledger check`` and pytest print by default.

A finding's message is a paragraph (what is wrong, where, why, what to do), 300-400 characters
that would make a red run of 200 cells a wall of repeated advice. Its short form is the first
sentence, without what the line already says (the job's id, the location) and clipped so the
whole line fits :data:`WIDTH`; the paragraph is shown whole under ``-v``.
"""

from __future__ import annotations

import re

from ..core.paths import Shown
from ..core.text import ELLIPSIS, clip, one_line
from ..findings import Finding

#: The longest first line of a finding (ruff and mypy lines rarely pass it; a terminal tab does
#: not wrap it).
WIDTH = 160
#: The narrowest room a message keeps after a long id, before it is clipped.
LEAST = 40

#: A sentence ends at ``.``, ``?`` or ``!`` followed by a blank and a capital or a backquote.
_SENTENCE_END = re.compile(r"(?<=[.?!])\s+(?=[A-Z`])")


def message(finding: Finding, shown: Shown | None = None) -> str:
    """The whole message on one line; the project root in it (a status item names it) shown
    from the current folder, as every path of the report is."""
    text = one_line(finding.message)
    if shown is not None:
        text = text.replace(str(shown.root), shown.path("."))
    return text


def first_sentence(finding: Finding, shown: Shown | None = None, *, named: bool = True) -> str:
    """The message's first sentence; when the line ``named`` the job and the location already
    (``jobledger check``'s does, pytest's failure text does not), without them."""
    text = message(finding, shown)
    head = _SENTENCE_END.split(text, maxsplit=1)[0]
    if not named:
        return head
    job = finding.job
    for said, then in (
        (f"Job {job}: ", ""),
        (f"Job {job} ", "the job "),
        (f"The entry {job} ", "the entry "),
        (f"At {finding.location}: ", ""),
    ):
        if head.startswith(said):
            head = then + head[len(said) :]
            break
    for where in (
        f" (registered at {finding.location})",
        f" at {finding.location}",
        f" ({finding.location})",
    ):
        head = re.sub(re.escape(where) + r"(?=[ ,;:])", "", head)
    # "The baseline overlays/jobledger-baseline.json lists ...": the line names that file already.
    head = re.sub(r"^(The \w+) " + re.escape(finding.path) + r"(?= )", r"\1", head)
    first = head.split(" ", 1)[0]
    # A plain word starts the sentence with a capital; a name (celery.shared_task) is kept as is.
    return head[:1].upper() + head[1:] if first.isalpha() and first.islower() else head


def fitted(finding: Finding, used: int, shown: Shown | None = None, *, named: bool = True) -> str:
    """The short form clipped to what is left of :data:`WIDTH` after ``used`` characters."""
    text = first_sentence(finding, shown, named=named)
    room = max(WIDTH - used, LEAST)
    if len(text) <= room:
        return text
    cut = text[: room - 1]
    blank = cut.rfind(" ")
    # At a word's end when one is near, so the line does not end inside a word.
    return clip(cut[:blank] if blank > room // 2 else cut, room - 1) + ELLIPSIS


def shortened(finding: Finding, shown_text: str) -> bool:
    """Whether ``shown_text`` (the short form) left part of the message out: a later sentence,
    or the end of a clipped one."""
    more = len(_SENTENCE_END.split(one_line(finding.message), maxsplit=1)) > 1
    return more or shown_text.endswith(ELLIPSIS)


def paragraph(finding: Finding, indent: str, shown: Shown | None = None) -> list[str]:
    """The whole message on one line, indented under its first line (``-v``): not wrapped, so
    a search for any of its words finds it."""
    return [indent + message(finding, shown)]
