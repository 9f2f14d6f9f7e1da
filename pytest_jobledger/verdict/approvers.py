"""Who may approve, read at the base: ``allowed_signers`` and the owners roster as committed at
``--base``, never as a pull request's checkout has them.

On a pull request's checkout, a key or a rotation member the pull request added would approve
its own batch. With a base (``verdict --base REF``, and by default when ``CI`` is set and
``GITHUB_BASE_REF`` names the pull request's target: ``origin/<it>``), both files are read with
git at the base (the same hardened runner as the baseline's base, never through a checkout), and
what the checkout adds to them is a warning that names each added key and member; it approves
nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from .. import git
from ..core.errors import OverlayError
from ..core.text import clip, one_line
from ..overlay.roster import Roster, parse_roster
from ..project import Config
from ..project.files import as_text, limit_of, read_file
from .approval import ApprovalError


@dataclass(frozen=True)
class Approvers:
    """The approvers as committed at ``ref``: allowed_signers' text (``""`` when the base has
    none: nobody approves), the roster (``None``: none at the base), how messages name each, and
    a warning for each key or member the checkout adds."""

    ref: str
    allowed_text: str
    allowed_display: str
    roster: Roster | None
    roster_display: str | None
    warnings: tuple[str, ...] = ()


def default_base(args_base: str | None, environ: Mapping[str, str]) -> str | None:
    """``--base``, else in CI the pull request's target branch (``origin/$GITHUB_BASE_REF``)."""
    if args_base:
        return args_base
    target = environ.get("GITHUB_BASE_REF", "").strip()
    if environ.get("CI", "").strip() and target:
        return f"origin/{target}"
    return None


def at_base(config: Config, ref: str, checkout: Roster | None) -> Approvers:
    """The approvers at ``ref``, or an :class:`ApprovalError` when the base cannot be read."""
    try:
        repository = git.locate(config.root)
        commit = repository.resolve_commit(ref)
    except git.GitUnavailable as exc:
        raise ApprovalError(
            f"the approvers are read at the base {ref}, and it cannot be read ({exc.reason}); "
            "nothing was recorded"
        ) from None
    warnings: list[str] = []
    allowed_text, allowed_display = "", f"allowed_signers at {ref}"
    signers = config.allowed_signers_path
    if signers is not None:
        allowed_display = f"{config.display(signers)} at {ref}"
        allowed_text = _text_at(
            repository, commit, signers, limit_of("allowed_signers", config), ref
        )
        added = sorted(_keys(_checkout_text(config)) - _keys(allowed_text))
        if added:
            shown = "; ".join(one_line(clip(key, 120)) for key in added)
            warnings.append(
                f"{config.display(signers)}: this checkout adds {len(added)} key(s) that "
                f"{ref} does not have, and they approve nothing here: {shown}"
            )
    roster: Roster | None = None
    roster_display: str | None = None
    owners = config.owners_path
    if owners is not None:
        roster_display = f"{config.display(owners)} at {ref}"
        text = _text_at(repository, commit, owners, limit_of("owners", config), ref)
        if text:
            try:
                roster = parse_roster(text, roster_display)
            except OverlayError as exc:
                raise ApprovalError(
                    f"the roster at the base cannot be read ({exc.message}); nothing was recorded"
                ) from None
        warnings.extend(_added_members(checkout, roster, config.display(owners), ref))
    return Approvers(ref, allowed_text, allowed_display, roster, roster_display, tuple(warnings))


def _text_at(repository: git.Repository, commit: str, path: Path, limit: int, ref: str) -> str:
    try:
        raw = repository.show(commit, path, limit=limit)
    except git.NotAtCommit:
        return ""
    except git.GitUnavailable as exc:
        raise ApprovalError(
            f"the approvers are read at the base {ref}, and it cannot be read ({exc.reason}); "
            "nothing was recorded"
        ) from None
    text = as_text(f"{path.name} at {ref}", raw, by_hand=True).text
    if text is None:
        raise ApprovalError(f"{path.name} at {ref} is not UTF-8 text; nothing was recorded")
    return text


def _checkout_text(config: Config) -> str:
    """The checkout's file, for the warning only (unreadable: nothing to compare)."""
    return read_file("allowed_signers", config).text or ""


def _keys(text: str) -> set[str]:
    """Each allowed_signers line as ``principal keytype key`` (comments and options aside)."""
    found: set[str] = set()
    for line in text.splitlines():
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        found.add(" ".join(words[:3]))
    return found


def _added_members(
    checkout: Roster | None, base: Roster | None, display: str, ref: str
) -> list[str]:
    if checkout is None:
        return []
    before = base.members if base is not None else {}
    added = [
        f"{member} in {rotation}"
        for rotation, members in sorted(checkout.members.items())
        for member in members
        if member not in before.get(rotation, ())
    ]
    if not added:
        return []
    shown = ", ".join(one_line(clip(item, 120)) for item in added)
    return [
        f"{display}: this checkout adds {len(added)} member(s) that {ref} does not list, and "
        f"they approve nothing here: {shown}"
    ]
