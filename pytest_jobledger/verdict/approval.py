"""A signed approval, checked; and what the trail already says about a job and ticket.

:func:`check` takes the signature file (``plan.json.sig``), the plan beside it, the plan derived
again from the inputs as they are now, ``allowed_signers`` (git's format, plus ``@revoked`` lines)
and the members of the job's ``paging_owner`` rotation, and returns an :class:`ApprovalCheck`:
who signed, and every reason the signature does not approve this request (another job, count,
action or ticket; a changed row or entry; an expired plan; a revoked key; a signer outside the
rotation; a plan already used). Input that cannot be checked at all (a missing or corrupt
signature, an ``allowed_signers`` ssh-keygen cannot read, no ssh-keygen) is an
:class:`ApprovalError`: the command exits 2 and appends nothing.

:func:`history` reads the trail's records (pure): the approved counts of a job and ticket add up
against its limit, and a batch after the first needs the one before it reconciled.
"""

from __future__ import annotations

import datetime
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import JobledgerError
from ..core.outside import write_scratch
from ..project.files import ProjectFile, read_at, refusal
from ..project.keys import BY_NAME
from . import sshkeygen
from .model import History as History  # where the trail's history of a request is defined
from .plan import MAX_PLAN_BYTES, NotAPlan, Plan, parse_plan

#: An SSH signature is under a kilobyte.
MAX_SIGNATURE_BYTES = 64 * 1024
#: The marker of a revoked key's line in allowed_signers (as ``@revoked`` in known_hosts).
REVOKED = "@revoked"


class ApprovalError(JobledgerError):
    """The approval cannot be checked at all (exit 2, nothing appended)."""


@dataclass(frozen=True)
class ApprovalCheck:
    """What a signature approves: the plan's digest, who signed it (``None``: nobody the
    allowed_signers file knows), and each reason it does not approve this request
    (``(subject, message, fix)``; none: it does)."""

    plan_sha256: str
    signature: str
    principal: str | None
    problems: tuple[tuple[str, str, str], ...] = ()
    rotation: str | None = None

    @property
    def verified(self) -> bool:
        return self.principal is not None and not self.problems

    def to_json(self) -> dict[str, Any]:
        return {
            "plan_sha256": self.plan_sha256,
            "signature": self.signature,
            "principal": self.principal,
            "rotation": self.rotation,
            "verified": self.verified,
            "problems": [subject for subject, _, _ in self.problems],
        }


def event_of(record: Mapping[str, Any]) -> str:
    """A record's kind (lines written before kinds existed are verdicts)."""
    kind = record.get("event", "verdict")
    return kind if isinstance(kind, str) else "unknown"


def history(
    records: Iterable[tuple[int, Mapping[str, Any] | None]], job: str, ticket: str | None
) -> History:
    """The :class:`History` of ``job`` and ``ticket`` in the trail's ``(line, record)`` pairs."""
    approved = batches = pending = 0
    pending_line: int | None = None
    mismatch: int | None = None
    plans: dict[str, int] = {}
    used: set[str] = set()
    for number, record in records:
        if record is None:
            continue
        kind = event_of(record)
        if kind == "plan" and isinstance(record.get("plan_sha256"), str):
            plans.setdefault(record["plan_sha256"], number)
        if kind == "verdict" and record.get("verdict") == "approved":
            digest = record.get("approval_plan_sha256")
            if isinstance(digest, str):
                used.add(digest)
        if record.get("job") != job or record.get("ticket") != ticket:
            continue
        if kind == "verdict" and record.get("verdict") == "approved":
            count = record.get("count")
            approved += count if isinstance(count, int) and not isinstance(count, bool) else 1
            batches += 1
            pending += 1
            pending_line = pending_line or number
        elif kind == "reconciliation":
            pending, pending_line = 0, None
            mismatch = number if record.get("outcome") == "mismatch" else None
    return History(approved, batches, pending, pending_line, mismatch, plans, frozenset(used))


def decisive(past: History, plan: str | None = None) -> tuple[object, ...]:
    """What of a :class:`History` a decision about one job, ticket and plan rests on."""
    used = plan in past.used if plan is not None else None
    return (past.approved, past.batches, past.pending, past.mismatch_line, used)


def changed_by(
    records: Sequence[tuple[int, Mapping[str, Any] | None]],
    job: str,
    ticket: str | None,
    plan: str | None = None,
) -> Callable[[Sequence[Mapping[str, Any] | None]], bool]:
    """Whether events appended after ``records`` change what the decision read (so an append
    resting on it is refused, and the operator asks again)."""
    before = decisive(history(records, job, ticket), plan)

    def changes(new: Sequence[Mapping[str, Any] | None]) -> bool:
        after = [*records, *((len(records) + index, record) for index, record in enumerate(new, 1))]
        return decisive(history(after, job, ticket), plan) != before

    return changes


def plan_path_of(signature: Path) -> Path:
    """The plan a signature is over: ``plan.json.sig`` -> ``plan.json`` (ssh-keygen's naming)."""
    if signature.suffix != ".sig" or not signature.stem:
        raise ApprovalError(
            f"{signature}: an approval is the .sig file `ssh-keygen -Y sign` wrote beside the "
            "plan (plan.json -> plan.json.sig); pass that file"
        )
    return signature.with_name(signature.stem)


def read_plan(signature: Path) -> tuple[Plan, bytes]:
    """The plan beside ``signature`` and its bytes, or an :class:`ApprovalError`."""
    path = plan_path_of(signature)
    raw = _read_bytes(path, MAX_PLAN_BYTES, "the plan")
    try:
        return parse_plan(raw), raw
    except NotAPlan as exc:
        raise ApprovalError(
            f"{path}: not a plan this tool can check: {exc}; make a new one with --plan"
        ) from None


def check(
    *,
    signature: Path,
    derived: Plan,
    now: datetime.datetime,
    allowed_signers: Path | None,
    allowed_display: str,
    root: Path,
    owner: str | None,
    members: Sequence[str] | None,
    roster_display: str | None,
    history: History,
    allowed_text: str | None = None,
) -> ApprovalCheck:
    """Check the signature in ``signature`` against the plan ``derived`` from the inputs now.

    The signature and its plan are the operator's files, wherever they are; ``allowed_signers``
    is the project's, read only inside ``root`` (a symlink out of it is refused), unless
    ``allowed_text`` gives it as read at the base (:mod:`.approvers`)."""
    plan, raw = read_plan(signature)
    sig = _read(signature, MAX_SIGNATURE_BYTES, "the signature")
    if allowed_signers is None:
        raise ApprovalError(
            "an approval is checked against allowed_signers, and none is configured: set "
            '[tool.jobledger] allowed_signers = "overlays/allowed_signers" (git\'s format: '
            "`alice@example.com ssh-ed25519 AAAA...`)"
        )
    text = allowed_text
    if text is None:
        text = _read(
            allowed_signers,
            BY_NAME["allowed_signers"].limit or 0,
            "allowed_signers",
            allowed_display,
            root=root,
        )
    kept, revoked = _split(text)
    problems: list[tuple[str, str, str]] = []
    fix_new = "have an approver sign a new plan (--plan) for exactly this request"
    problems.extend((subject, message, fix_new) for subject, message in plan.differences(derived))
    if plan.sha256 not in history.plan_lines:
        problems.append(
            (
                "unrecorded",
                f"the signed plan {plan.sha256[:12]} was not made in this trail (its `plan` "
                "event is not here): a plan approves only in the trail that recorded it",
                "make a new plan with --plan against this trail and have it signed",
            )
        )
    if plan.expired(now):
        problems.append(
            ("expired", f"the signed plan expired at {plan.expires} (made {plan.created})", fix_new)
        )
    with tempfile.TemporaryDirectory(prefix="jobledger-ssh-") as folder:
        scratch = Path(folder)
        sig_copy = write_scratch(scratch, "approval.sig", sig)
        allowed_copy = write_scratch(scratch, "allowed_signers", kept)
        revoked_copy = write_scratch(scratch, "revoked_signers", revoked)
        if any(line.strip() for line in revoked.splitlines()):
            found = _principals(revoked_copy, sig_copy, scratch, allowed_display, signature)
            if found:
                return ApprovalCheck(
                    plan.sha256,
                    str(signature),
                    None,
                    (
                        *problems,
                        (
                            "revoked",
                            f"the signing key of {found[0]} is marked {REVOKED} in "
                            f"{allowed_display}",
                            "have a member of the rotation sign with a key that is not revoked",
                        ),
                    ),
                )
        principals = _principals(allowed_copy, sig_copy, scratch, allowed_display, signature)
        principal = None
        for candidate in principals:
            try:
                done = sshkeygen.verify(allowed_copy, candidate, sig_copy, raw, scratch=scratch)
            except sshkeygen.Unavailable as exc:
                raise ApprovalError(f"{exc.reason}. Nothing was recorded") from None
            if done.returncode == 0:
                principal = candidate
                break
    if principal is None:
        problems.append(
            (
                "signature",
                f"no key in {allowed_display} made this signature over this plan in the "
                f"{sshkeygen.NAMESPACE} namespace",
                f"sign the plan with `ssh-keygen -Y sign -f KEY -n {sshkeygen.NAMESPACE} "
                f"{plan_path_of(signature).name}`, with a key listed in {allowed_display}",
            )
        )
        return ApprovalCheck(plan.sha256, str(signature), None, tuple(problems))
    problems.extend(_rotation_problems(principal, owner, members, roster_display))
    if plan.sha256 in history.used:
        problems.append(
            (
                "reused",
                f"the plan {plan.sha256[:12]} already approved a batch; a plan approves one",
                fix_new,
            )
        )
    return ApprovalCheck(plan.sha256, str(signature), principal, tuple(problems), owner)


def _rotation_problems(
    principal: str, owner: str | None, members: Sequence[str] | None, roster: str | None
) -> list[tuple[str, str, str]]:
    if owner is None:
        return [
            (
                "rotation",
                f"{principal} signed, but no signed `paging_owner` says whose approval counts",
                "sign `paging_owner` for the job, then have a member of that rotation approve",
            )
        ]
    if members is None:
        where = roster or "no owners roster is configured"
        return [
            (
                "rotation",
                f"{principal} signed, but the members of {owner} are not listed ({where})",
                f"list the members of {owner} in the owners roster (`{owner}: {{members: "
                f"[{principal}]}}`) through a reviewed change",
            )
        ]
    if principal not in members:
        return [
            (
                "rotation",
                f"{principal} signed, but is not a member of {owner}, the job's paging owner "
                f"(members in {roster}: {', '.join(members) or 'none'})",
                f"have a member of {owner} sign the plan",
            )
        ]
    return []


def _principals(
    allowed: Path, signature: Path, scratch: Path, display: str, named: Path
) -> list[str]:
    """Who ``allowed`` says made the signature; a corrupt signature or an allowed_signers line
    ssh-keygen cannot read is an :class:`ApprovalError`."""
    try:
        done = sshkeygen.find_principals(allowed, signature, scratch=scratch)
    except sshkeygen.Unavailable as exc:
        raise ApprovalError(f"{exc.reason}. Nothing was recorded") from None
    complaint = done.complaint(allowed)
    if complaint is not None:
        line, what = complaint
        raise ApprovalError(
            f"ssh-keygen cannot read this line ({what}); write `principal ssh-ed25519 AAAA...` "
            f"(git's allowed_signers format, or {REVOKED} before a revoked key's line)",
            path=display,
            line=line,
        )
    if "parse signature" in done.stderr or "sshsig" in done.stderr:
        raise ApprovalError(
            f"not an SSH signature ssh-keygen can read ({done.first_error}); sign the plan with "
            f"`ssh-keygen -Y sign -f KEY -n {sshkeygen.NAMESPACE} PLAN`",
            path=str(named),
        )
    if done.returncode != 0:
        return []
    names = (name.strip() for line in done.stdout.splitlines() for name in line.split(","))
    return [name for name in names if name]


def _split(text: str) -> tuple[str, str]:
    """allowed_signers without its ``@revoked`` lines, and those lines without the marker."""
    kept: list[str] = []
    revoked: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        rest = stripped[len(REVOKED) :]
        if stripped.startswith(REVOKED) and rest[:1].isspace():
            revoked.append(rest.strip())
            kept.append("")  # blank in the other file: the line numbers ssh-keygen reports stay
        else:
            kept.append(line)
            revoked.append("")
    return "\n".join(kept) + "\n", "\n".join(revoked) + "\n"


def _read_file(
    path: Path, limit: int, what: str, display: str | None = None, *, root: Path | None = None
) -> ProjectFile:
    """``path`` through the one reader's ladder, or an :class:`ApprovalError` saying why not."""
    read = read_at(path, display or str(path), limit=limit, root=root, by_hand=True)
    if not read.exists:
        raise ApprovalError(f"{what} does not exist", path=read.display)
    if read.raw is None:
        raise ApprovalError(refusal(read, what), path=read.display, line=read.line)
    return read


def _read_bytes(
    path: Path, limit: int, what: str, display: str | None = None, *, root: Path | None = None
) -> bytes:
    raw = _read_file(path, limit, what, display, root=root).raw
    assert raw is not None
    return raw


def _read(
    path: Path, limit: int, what: str, display: str | None = None, *, root: Path | None = None
) -> str:
    read = _read_file(path, limit, what, display, root=root)
    if read.exact is None:
        raise ApprovalError(refusal(read, what), path=read.display, line=read.line)
    return read.exact
