"""The drafts file (default ``overlays/purpose_drafts.yaml``): unverified text, beside the overlay.

Per job: the text, ``status: unverified-draft``, the program that wrote it and the SHA-256 of
the docstring it was drafted from (so a draft whose docstring changed shows as stale). The gate
never reads this file; a person accepts a draft by writing it, reviewed, as ``purpose_accepted``.
Written deterministically (sorted ids), atomically and under the file's lock.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..core.atomic import atomic_write, locked
from ..core.errors import JobledgerError
from ..core.readers import Unreadable, parse_yaml
from ..project.files import ProjectFile, read_file, refusal
from ..project.records import Config

STATUS = "unverified-draft"
_KEYS = ("status", "program", "docstring_sha256", "text")
HEADER = (
    "# Unverified drafts written by `jobledger draft`. The gate never reads this file and no\n"
    "# draft is a promise: to accept one, the job's owner reviews it and writes it as\n"
    "# purpose_accepted in the overlay.\n"
)


class DraftsError(JobledgerError):
    """The drafts file cannot be read or written; nothing was changed."""


@dataclass(frozen=True)
class Draft:
    job: str
    text: str
    program: str
    docstring_sha256: str
    status: str = STATUS

    def stale(self, digest: str) -> bool:
        """Whether the docstring changed since this draft was written (``digest``: the current)."""
        return digest != self.docstring_sha256


def read_drafts(read: ProjectFile) -> dict[str, Draft]:
    """Every draft in the file the one reader read (none when there is no file), or a
    :class:`DraftsError`."""
    if not read.exists:
        return {}
    if read.text is None:
        raise DraftsError(refusal(read, "the drafts file"), path=read.display, line=read.line)
    return parse_drafts(read.text, display=read.display)


def parse_drafts(text: str, *, display: str) -> dict[str, Draft]:
    """The drafts in a drafts file's text, or a :class:`DraftsError`."""
    try:
        data = parse_yaml(text)
    except Unreadable as error:
        problem = error.problem
        what = (
            "is not valid YAML" if problem.reason in ("syntax", "duplicate") else "cannot be read"
        )
        raise DraftsError(
            f"the drafts file {what}: {problem.detail}; delete it and run `jobledger draft` again",
            path=display,
            line=problem.line,
        ) from None
    if data is None:
        return {}
    drafts = data.get("drafts") if isinstance(data, dict) else None
    if (
        not isinstance(data, dict)
        or set(data) - {"drafts"}
        or not isinstance(drafts, (dict, type(None)))
    ):
        raise DraftsError("the drafts file must be a mapping with one key, `drafts:`", path=display)
    return {str(job): _draft(str(job), body, display) for job, body in (drafts or {}).items()}


def _draft(job: str, body: Any, display: str) -> Draft:
    if not isinstance(body, dict) or set(body) != set(_KEYS):
        raise DraftsError(
            f"the draft of {job} must hold exactly {', '.join(_KEYS)}; delete the entry and run "
            "`jobledger draft` again",
            path=display,
        )
    if not all(isinstance(body[key], str) for key in _KEYS) or body["status"] != STATUS:
        raise DraftsError(
            f"the draft of {job} must hold text values and status {STATUS}", path=display
        )
    text, program, digest, status = (
        str(body[key]) for key in ("text", "program", "docstring_sha256", "status")
    )
    return Draft(job, text, program, digest, status)


def dumps_drafts(drafts: Mapping[str, Draft]) -> str:
    """The file's exact text: a header, then every draft by sorted id, keys in a fixed order."""
    lines = [HEADER.rstrip("\n"), "drafts:" if drafts else "drafts: {}"]
    for job in sorted(drafts):
        draft = drafts[job]
        lines.append(f"  {_quoted(job)}:")
        lines.append(f"    status: {STATUS}")
        lines.append(f"    program: {_quoted(draft.program)}")
        lines.append(f"    docstring_sha256: {_quoted(draft.docstring_sha256)}")
        lines.append(f"    text: {_block(draft.text)}")
    return "\n".join(lines) + "\n"


def add_drafts(config: Config, made: Mapping[str, Draft]) -> None:
    """Add ``made`` to the drafts file under its lock, over what it holds now (another run may
    have added drafts meanwhile), atomically: what finished is kept, the rest untouched."""
    with locked(config.drafts_path, root=config.root):
        current = read_drafts(read_file("drafts", config))
        write_drafts(config, {**current, **made})


def write_drafts(config: Config, drafts: Mapping[str, Draft]) -> None:
    """Replace the drafts file atomically (the caller holds :func:`~..atomic.locked`)."""
    try:
        atomic_write(config.drafts_path, dumps_drafts(drafts), root=config.root)
    except OSError as error:
        raise DraftsError(
            f"cannot write the drafts file ({error.strerror or error}); the old file is unchanged",
            path=config.drafts.path,
        ) from None


#: What JSON leaves raw but YAML refuses or reads as a line break (NEL, U+2028, U+2029).
_NOT_YAML_PRINTABLE = re.compile("[\x7f-\x9f\u2028\u2029\ufffe\uffff]")


def _quoted(text: str) -> str:
    """A double-quoted scalar (JSON's escapes are valid YAML), whatever the text holds."""
    quoted = json.dumps(text, ensure_ascii=False)
    return _NOT_YAML_PRINTABLE.sub(lambda match: f"\\u{ord(match.group()):04x}", quoted)


def _block(text: str) -> str:
    """A literal block when the text reads back exactly that way, else a quoted scalar."""
    lines = text.split("\n")
    plain = (
        text
        and text == text.strip()
        and all(line.isprintable() and line == line.rstrip() for line in lines)
    )
    if not plain:
        return _quoted(text)
    return "|-\n" + "\n".join(f"      {line}" if line else "" for line in lines)
