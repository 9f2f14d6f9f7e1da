"""One gitignore line as the scan reads it: translated by pathspec when first tried, compiled
once, and the translations of lines seen before handed in by a memo (``memo/fresh``), so a tree
whose lines were all seen before never imports pathspec. :mod:`.discovery` indexes the lines of
each ``.gitignore`` by these."""

from __future__ import annotations

import re
from dataclasses import dataclass

#: pathspec's translations known before this run: a gitignore line -> its expression and whether
#: it includes, and the group name of a match that stops at a folder. :func:`use_translations`
#: hands in what an earlier run recorded (``memo/fresh``), so a tree whose lines were all seen
#: before never imports pathspec; :func:`translations` is what this run knows.
_TRANSLATED: dict[str, tuple[str | None, bool | None]] = {}
_MARK: list[str] = []


def translations() -> dict[str, object]:
    """What this process knows of pathspec's translations (data, for a memo)."""
    return {"lines": {line: list(found) for line, found in _TRANSLATED.items()}, "mark": _MARK[:1]}


def use_translations(known: object) -> None:
    """Take translations an earlier run recorded with the same pathspec (malformed: ignored)."""
    if not isinstance(known, dict):
        return
    lines, mark = known.get("lines"), known.get("mark")
    if isinstance(lines, dict):
        for line, found in lines.items():
            if (
                isinstance(line, str)
                and isinstance(found, list)
                and len(found) == 2
                and (found[0] is None or isinstance(found[0], str))
                and (found[1] is None or isinstance(found[1], bool))
            ):
                _TRANSLATED.setdefault(line, (found[0], found[1]))
    if isinstance(mark, list) and mark and isinstance(mark[0], str) and not _MARK:
        _MARK.append(mark[0])


def dir_mark() -> str:
    """pathspec's group name for a match that stops at a folder (imported when first needed)."""
    if not _MARK:
        from pathspec.patterns.gitignore.spec import _DIR_MARK

        _MARK.append(_DIR_MARK)
    return _MARK[0]


@dataclass
class GitignoreLine:
    """One gitignore line, translated and compiled when first tried."""

    line: str
    folder_only: bool
    include: bool | None = None
    regex: str | None = None
    _translated: bool = False
    _compiled: re.Pattern[str] | None = None

    def translate(self) -> None:
        """Raises pathspec's error (a ``ValueError``) for a line it cannot read."""
        if not self._translated:
            known = _TRANSLATED.get(self.line)
            if known is None:
                from pathspec.patterns.gitignore.spec import GitIgnoreSpecPattern

                known = GitIgnoreSpecPattern.pattern_to_regex(self.line)
                _TRANSLATED[self.line] = known
            self.regex, self.include = known
            self._translated = True

    def compiled(self) -> re.Pattern[str] | None:
        """The pattern's expression, or ``None`` for a line that matches nothing."""
        self.translate()
        if self._compiled is None and self.regex is not None and self.include is not None:
            self._compiled = re.compile(self.regex)
        return self._compiled


def fragment(line: str) -> str:
    """The longest run of literal characters without ``/`` that every path matching the
    gitignore pattern ``line`` contains, or ``""`` when none is certain."""
    text = line.strip()
    if text.startswith("!"):
        text = text[1:]
    if "\\" in text:
        return ""  # an escape: not worth reading, the pattern is tried against every path
    text = text.split("[", 1)[0]
    return max(re.split(r"[*?/]", text), key=len)


def folder_only(pattern: object) -> bool:
    text = str(pattern).rstrip()
    return text.endswith("/") or text.endswith("/**")
