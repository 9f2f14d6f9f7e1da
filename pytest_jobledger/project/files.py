"""One reader for a project file: the only ladder of "missing / too long a path / outside the
root / not a regular file / too large / not UTF-8", with the limit from the key table and one
sentence per reason. The format parsers (``core/readers.py``) below it only parse; each caller
frames a refusal in its own words once (:func:`refusal`), never re-reads or re-decodes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..core.paths import FileTooLarge, UnsafeFile, read_regular
from ..core.readers import Unreadable, decode_utf8
from .keys import BY_NAME
from .records import Config

#: The one sentence for a file the tool wrote that is not UTF-8 text (``{line}``: where
#: decoding stopped).
NOT_UTF8 = "it is not UTF-8 text (line {line}), so it is not a file jobledger wrote"
#: The same, for a file people write (the overlay, the roster, the approvers' keys).
NOT_UTF8_BY_HAND = "it is not UTF-8 text (line {line}); save it as UTF-8"


@dataclass(frozen=True)
class ProjectFile:
    """A project file as read: its bytes and text (CRLF undone: the tool writes LF only, so a
    Windows checkout reads the same), or why it cannot be read. Neither: there is no file."""

    display: str
    raw: bytes | None = None
    text: str | None = None
    #: Why it cannot be read, as a sentence ("cannot read it (...)", "it is not UTF-8 ...").
    refused: str | None = None
    #: The reason alone (the system's words, or the UTF-8 sentence), for a caller's own frame.
    reason: str | None = None
    #: Where decoding stopped, when the file is not UTF-8 text.
    line: int | None = None
    #: The file is over its read limit (a caller may name the key that raises it).
    too_large: bool = False

    @property
    def exists(self) -> bool:
        return self.raw is not None or self.refused is not None

    @property
    def exact(self) -> str | None:
        """The text exactly as written (no newline translation, a byte-order mark kept): what a
        writer that keeps every human byte starts from."""
        return None if self.text is None or self.raw is None else self.raw.decode("utf-8")


def limit_of(role: str, config: Config) -> int:
    """The most bytes read of the file the path key ``role`` names (the tree's or the base's)."""
    if role == "overlay":
        return config.files.max_overlay_bytes
    limit = BY_NAME[role].limit
    if limit is None:
        raise KeyError(f"{role} names no file jobledger reads by size")
    return limit


def read_file(
    role: str, config: Config, *, path: Path | None = None, limit: int | None = None
) -> ProjectFile:
    """The file the path key ``role`` names (``path``: one the operator named instead, which may
    lie outside the root), with that key's read limit (``limit``: a larger one, for a file
    re-read to see whether someone else changed it)."""
    key = BY_NAME[role]
    bound = path is None
    if path is None:
        value = getattr(getattr(config, key.record), key.field)
        path = config.root / (value if value is not None else key.fallback or "")
    display = config.display(path) if bound else str(path)
    return read_at(
        path,
        display,
        limit=limit if limit is not None else limit_of(role, config),
        root=config.root if bound else None,
        by_hand=key.by_hand,
    )


def read_at(
    path: Path, display: str, *, limit: int, root: Path | None = None, by_hand: bool = False
) -> ProjectFile:
    """The ladder itself, for a file no key names (a plan or signature an operator passes):
    ``root`` keeps it inside the project, ``by_hand`` accepts an editor's byte-order mark."""
    try:
        raw = read_regular(path, root=root, limit=limit)
    except FileNotFoundError:
        return ProjectFile(display)
    except UnsafeFile as error:
        return ProjectFile(
            display,
            refused=error.strerror,
            reason=error.strerror,
            too_large=isinstance(error, FileTooLarge),
        )
    except OSError as error:
        why = error.strerror or str(error)
        return ProjectFile(display, refused=f"cannot read it ({why})", reason=why)
    return as_text(display, raw, by_hand=by_hand)


def as_text(display: str, raw: bytes, *, by_hand: bool = False) -> ProjectFile:
    """The bytes of a file (the tree's, or the base's from git) as its text, or why they are
    not: the lower half of the ladder, the same for every reading."""
    try:
        text = decode_utf8(raw, bom=by_hand)
    except Unreadable as error:
        line = error.problem.line
        sentence = (NOT_UTF8_BY_HAND if by_hand else NOT_UTF8).format(line=line)
        return ProjectFile(display, raw=raw, refused=sentence, reason=sentence, line=line)
    return ProjectFile(display, raw=raw, text=text.replace("\r\n", "\n"))


def refusal(read: ProjectFile, what: str) -> str:
    """The one frame of a refusal: ``"{what} cannot be used: {why}"``."""
    return f"{what} cannot be used: {read.refused}"
