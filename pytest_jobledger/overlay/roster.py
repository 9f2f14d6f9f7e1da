"""The owners roster (``owners = "overlays/owners.yaml"``): the rotations that exist.

A YAML list of names (``- billing-oncall``) or a mapping of name to an optional contact
(``billing-oncall: "#billing-pager"``), or to its contact and members (``billing-oncall:
{contact: "#billing-pager", members: [alice@example.com]}``: the principals of
``allowed_signers`` whose signed approval counts for a job that rotation owns).
It is read like the overlay: inside the root, a regular file, size-limited, YAML 1.2 with
timestamps as text, duplicate keys refused; anything unusable is one located
:class:`~pytest_jobledger.core.errors.OverlayError`, which the gate reports as its ``owners-valid``
status item.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..core.errors import OverlayError
from ..core.readers import Unreadable
from ..project.files import ProjectFile, refusal
from .reader import load_strict
from .values import describe_value, short

if TYPE_CHECKING:
    from ruamel.yaml.comments import CommentedMap


@dataclass(frozen=True)
class Roster:
    """The rotations a ``paging_owner`` may name, each with its contact (``None``: not given)."""

    path: str
    owners: Mapping[str, str | None] = field(default_factory=dict)
    #: Each rotation's members (principals of ``allowed_signers``), when the roster lists them.
    members: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def __contains__(self, name: object) -> bool:
        return name in self.owners


def load_roster(read: ProjectFile) -> Roster:
    """The roster the one reader read, or one located error saying what to fix."""
    if not read.exists:
        raise OverlayError(
            "the owners roster does not exist; create it (a YAML list of rotation names) or "
            "remove `owners` from [tool.jobledger]",
            path=read.display,
        )
    if read.text is None:
        raise OverlayError(refusal(read, "the owners roster"), path=read.display, line=read.line)
    return parse_roster(read.text, read.display)


def parse_roster(text: str, display: str) -> Roster:
    """The roster in ``text``, or one located :class:`OverlayError`."""
    try:
        data = load_strict(text)
    except Unreadable as exc:
        problem = exc.problem
        what = (
            "is not valid YAML" if problem.reason in ("syntax", "duplicate") else "cannot be read"
        )
        raise OverlayError(
            f"the owners roster {what}: {problem.detail}", path=display, line=problem.line
        ) from None
    from ruamel.yaml.comments import CommentedMap, CommentedSeq  # loaded by the parse above

    owners: dict[str, str | None] = {}
    members: dict[str, tuple[str, ...]] = {}
    if isinstance(data, CommentedSeq):
        for index, item in enumerate(data):
            owners[_name(item, display, data.lc.item(index)[0] + 1)] = None
    elif isinstance(data, CommentedMap):
        for key, contact in data.items():
            line = data.lc.key(key)[0] + 1
            if isinstance(contact, CommentedMap):
                name = _name(key, display, line)
                contact, members[name] = _rotation(contact, name, display, line)
            if contact is not None and not isinstance(contact, str):
                raise OverlayError(
                    f"the contact of {short(key)} is {describe_value(contact)}; write text "
                    '(e.g. "#billing-pager") or leave it empty',
                    path=display,
                    line=line,
                )
            owners[_name(key, display, line)] = None if contact is None else str(contact)
    elif data is not None:
        raise OverlayError(
            f"the owners roster is {describe_value(_plain(data))}; write a YAML list of rotation "
            "names (`- billing-oncall`) or a mapping of name to contact",
            path=display,
            line=1,
        )
    return Roster(path=display, owners=owners, members=members)


def _rotation(
    data: CommentedMap, name: str, display: str, line: int
) -> tuple[Any, tuple[str, ...]]:
    """A rotation written as ``{contact: ..., members: [...]}``: its contact and members."""
    unknown = sorted(str(key) for key in data if key not in ("contact", "members"))
    if unknown:
        raise OverlayError(
            f"the rotation {short(name)} has the key {short(unknown[0])}; a rotation holds "
            "`contact` and `members` (a list of allowed_signers principals)",
            path=display,
            line=line,
        )
    from ruamel.yaml.comments import CommentedSeq  # loaded by the parse that gave ``data``

    if "members" not in data:  # `{}` or only a contact: a rotation that lists no members
        return data.get("contact"), ()
    found = data["members"]
    if not isinstance(found, CommentedSeq) or not all(
        isinstance(item, str) and item.strip() for item in found
    ):
        raise OverlayError(
            f"the members of {short(name)} are not a list of names; write "
            "`members: [alice@example.com]` (the principals in allowed_signers)",
            path=display,
            line=line,
        )
    return data.get("contact"), tuple(str(item).strip() for item in found)


def _name(item: Any, display: str, line: int) -> str:
    if not isinstance(item, str) or not item.strip():
        raise OverlayError(
            f"a roster entry is {describe_value(_plain(item))}; each owner is a rotation's name",
            path=display,
            line=line,
        )
    return str(item)


def _plain(value: Any) -> Any:
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    if isinstance(value, CommentedMap):
        return {}
    if isinstance(value, CommentedSeq):
        return []
    return value
