"""Text helpers every stage shares: the one text channel, one line, clipped, surrogates, and
"did you mean" (bounded).

Job ids, YAML keys, docstrings and paths come from the scanned repository, which may be hostile;
these helpers are how any of them is made safe to print on one line or short enough to show.
Every line of human output leaves through :func:`say` (``tests/test_text_channel.py`` fails on a
``print`` anywhere in ``cli/`` or ``reporters/``), so none can begin a CI workflow command.
"""

from __future__ import annotations

import contextlib
import difflib
import heapq
import os
import re
import sys
from collections.abc import Iterable
from typing import TextIO

ELLIPSIS = "…"


def one_line(text: str) -> str:
    """``text`` with control characters escaped (``\\n``), for terminal and log output.

    A raw newline would split a one-line-per-finding report and could start a forged CI workflow
    command.
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode() for ch in text)


def checked_out(text: str) -> str:
    """``text`` with the CRLF line endings a git checkout may add (``core.autocrlf``) undone.

    The tool writes LF only; a committed file compared with what it would write now is compared
    after this, so a Windows checkout of an up-to-date file is not called stale.
    """
    return text.replace("\r\n", "\n")


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``1 orphan``, ``2 orphans`` (``many`` when the plural is not ``noun + "s"``): every count a
    person reads is worded so."""
    return f"{count} {noun if count == 1 else many or noun + 's'}"


def clip(text: str, limit: int, *, ellipsis: str = ELLIPSIS) -> str:
    """``text`` cut to at most ``limit`` characters, the cut marked with ``ellipsis``."""
    if len(text) <= limit:
        return text
    return text[: max(limit - len(ellipsis), 0)] + ellipsis


def did_you_mean(word: str, options: Iterable[str], *, cutoff: float = 0.6) -> str | None:
    """The option closest to ``word`` (a likely typo of it), or ``None`` when none is close.

    For one word; to ask for many words among the same options, build one :class:`Suggester`.
    """
    return Suggester(options).closest(word, cutoff=cutoff)


def dotted_near(word: str, option: str, *, cutoff: float = 0.75) -> bool:
    """Whether ``option`` is a fitting suggestion for the dotted id ``word``: the same last name
    (the job moved), or close once the dotted prefix they share is set aside. Two jobs of one
    module share most of their text, so ``tasks.void_invoice`` is not a typo of
    ``tasks.refund_invoice`` though the whole ids compare as close."""
    if word.rpartition(".")[2] == option.rpartition(".")[2]:
        return True
    words, options = word.split("."), option.split(".")
    shared = 0
    while shared < min(len(words), len(options)) - 1 and words[shared] == options[shared]:
        shared += 1
    tail, other = ".".join(words[shared:]), ".".join(options[shared:])
    return (
        difflib.SequenceMatcher(None, tail[:COMPARED_CHARS], other[:COMPARED_CHARS]).ratio()
        >= cutoff
    )


#: Up to this many options, a word is compared with every one of them.
SMALL_SET = 64
#: Otherwise with at most this many, the options that share the most rare trigrams with it.
CANDIDATES = 16
#: How many index entries one word may visit while picking its candidates.
VISIT_BUDGET = 1024
#: Only this much of a word and of an option is compared (an id is far shorter; a hostile one
#: of a megabyte must not make one comparison cost seconds).
COMPARED_CHARS = 200


class Suggester:
    """ "Did you mean" among a fixed set of options, with bounded work per word.

    Comparing every word with every option (difflib) costs words x options comparisons: 2,000
    orphan entries against 1,000 jobs took 49 s, and an overlay of 42k orphans did not finish in
    15 minutes. Here each word is compared with at most :data:`CANDIDATES` options, picked by the
    trigrams they share (the rarest first, at most :data:`VISIT_BUDGET` index entries visited),
    and only the first :data:`COMPARED_CHARS` characters of each are compared. A small set is
    compared in full, so a typo among a handful of names is always found.
    """

    def __init__(self, options: Iterable[str]) -> None:
        self.options = sorted(set(options))
        self._clipped = [option[:COMPARED_CHARS] for option in self.options]
        self._index: dict[str, list[int]] = {}
        if len(self.options) > SMALL_SET:
            for number, option in enumerate(self._clipped):
                for gram in _trigrams(option):
                    self._index.setdefault(gram, []).append(number)

    def closest(self, word: str, *, cutoff: float = 0.6) -> str | None:
        """The option closest to ``word``, or ``None`` when none is close enough."""
        clipped = word[:COMPARED_CHARS]
        numbers = self._candidates(clipped)
        matcher = difflib.SequenceMatcher()
        matcher.set_seq2(clipped)
        best: tuple[float, int] | None = None
        for number in numbers:
            matcher.set_seq1(self._clipped[number])
            if matcher.real_quick_ratio() < cutoff or matcher.quick_ratio() < cutoff:
                continue
            score = matcher.ratio()
            # Ties go to the later option, as difflib.get_close_matches breaks them.
            if score >= cutoff and (best is None or (score, number) > best):
                best = (score, number)
        return self.options[best[1]] if best is not None else None

    def _candidates(self, word: str) -> list[int]:
        if not self._index:
            return list(range(len(self.options)))
        postings = sorted(
            (self._index[gram] for gram in _trigrams(word) if gram in self._index), key=len
        )
        shared: dict[int, int] = {}
        visited = 0
        for posting in postings:  # the rarest trigrams first: they tell options apart
            room = VISIT_BUDGET - visited
            if room <= 0:
                break
            for number in posting[:room]:
                shared[number] = shared.get(number, 0) + 1
            visited += min(len(posting), room)
        ranked = heapq.nsmallest(CANDIDATES, shared, key=lambda number: (-shared[number], number))
        return sorted(ranked)


def _trigrams(text: str) -> set[str]:
    padded = f"\0{text}\0"
    return {padded[i : i + 3] for i in range(len(padded) - 2)}


_SURROGATE = re.compile("[\ud800-\udfff]")


def has_surrogate(text: str) -> bool:
    """Whether ``text`` holds a lone surrogate (from a ``\\udfff`` escape): not a character, so
    it cannot be written as UTF-8."""
    return _SURROGATE.search(text) is not None


def escape_surrogates(text: str) -> str:
    """``text`` with each lone surrogate written as its ``\\uXXXX`` escape, so that it can be
    written as UTF-8 (inside a JSON string the escape reads back as the same value)."""
    return _SURROGATE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


# -- the one text channel: no line of human output is a workflow command ------------

#: GitHub reads a line that starts with ``::`` (after blanks) as a workflow command; the older
#: ``##[name]`` and Azure's ``##vso[`` are read anywhere in a line.
_COMMAND_START = re.compile(r"(\s*)(::)")
_LEGACY_COMMAND = re.compile(r"##(?=(?:vso)?\[)", re.IGNORECASE)
_LINE_BREAK = re.compile(r"(\r\n|\r|\n)")


def inert_line(line: str) -> str:
    """``line`` as it may be printed: a leading ``::`` (a path or job id that a pull request
    named ``::notice ...``) gets ``./`` before it, as a path to the same file would; in ``##[``
    and ``##vso[`` the second ``#`` is written ``\\u0023`` (inside a JSON string, the only place
    JSON can hold a ``#``, that escape reads back as the same text, so a JSON report stays the
    same document). Any other line is returned unchanged."""
    match = _COMMAND_START.match(line)
    if match is not None:
        line = f"{match.group(1)}./{line[match.start(2) :]}"
    if "##" in line:
        line = _LEGACY_COMMAND.sub(r"#\\u0023", line)
    return line


def inert(text: str) -> str:
    """``text`` with every line made inert (:func:`inert_line`); its line breaks are kept."""
    if "::" not in text and "##" not in text:
        return text
    return "".join(
        part if _LINE_BREAK.fullmatch(part) else inert_line(part)
        for part in _LINE_BREAK.split(text)
    )


def say(
    text: str = "", file: TextIO | None = None, *, end: str = "\n", flush: bool = False
) -> None:
    """Write human output (to ``file``, stdout unless given; ``print``'s own names): every line
    made inert first, so a hostile path or id can never begin a workflow command. The one way
    ``cli/`` and ``reporters/`` print."""
    _write(sys.stdout if file is None else file, inert(text + end), flush=flush)


def say_commands(text: str, stream: TextIO | None = None) -> None:
    """Write workflow commands we mean (``--format github``), each built and escaped by
    :mod:`pytest_jobledger.github.commands`: the one route around :func:`say`."""
    _write(sys.stdout if stream is None else stream, text, flush=False)


# -- a reader that goes away never stops a command ----------------------------------------------
#
# ``jobledger baseline | head -3``: once ``head`` has its lines it exits, and the next write to
# the pipe fails. Were that failure to end the command, a file it writes after printing (or with
# ``PYTHONUNBUFFERED=1``, after any line) would be lost while the line said "wrote". So the
# printer takes the failure: the stream's descriptor is pointed at the null device, the command
# runs to its end and writes every file, and ``jobledger`` then exits 141 (as ``cat`` would).

_gone: list[TextIO] = []


def _write(out: TextIO, text: str, *, flush: bool) -> None:
    try:
        out.write(text)
        if flush:
            out.flush()
    except BrokenPipeError:
        reader_went_away(out)


def reader_went_away(stream: TextIO) -> None:
    """The reader of ``stream`` left: what is still written to it goes to the null device, and
    :func:`reader_gone` says so at the end. Never raises."""
    from .outside import null_device  # outside -> paths; imported here, as text is a leaf

    if stream not in _gone:
        _gone.append(stream)
    with contextlib.suppress(OSError, ValueError):  # ValueError: a stream without a descriptor
        null = null_device()
        try:
            os.dup2(null, stream.fileno())
        finally:
            os.close(null)


def flush_output() -> None:
    """Flush stdout and stderr; a reader gone by now is noted, not raised."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BrokenPipeError:
            reader_went_away(stream)
            with contextlib.suppress(OSError, ValueError):
                stream.flush()  # what was buffered goes to the null device now


def reader_gone() -> bool:
    """Whether a reader of this process's output went away (the exit status is then 141)."""
    return bool(_gone)
