"""Text that reads as an order to the tool or to an operator: a possible injected instruction.

One detector for every entry point: the gate fails a signed cell that trips it
(``injected-instruction``), so ``check``, pytest and the Action fail it, no page shows it as
signed, and the verdict (:mod:`pytest_jobledger.verdict.directives`) blocks on that finding.

Every artifact the tool reads is data. No rule reads what a cell, a docstring or a ticket
*says*, so an order hidden in one is never obeyed. This detector makes the attempt *visible*: a
cell whose text matches is a failing ``injected-instruction`` item of the gate and is not counted
as signed evidence (the verdict labels it ``suspect`` and blocks on the gate's finding); a
docstring or a ``--ticket`` that matches is a verdict review item. Each names the place and its
``path:line`` and tells a person to read it, never what the text says.

The text is normalised first, because the simplest disguises cost an attacker nothing: Unicode
NFKC (fullwidth letters, U+FF29 and on, are ASCII), every format character dropped (zero-width
spaces and joiners, the soft hyphen, bidirectional controls: ``ign\\u200bore`` is ``ignore``),
case folded, and every run of whitespace (newlines included) one space.
A negated order is policy, not an order ("never skip the review", "do not approve the retry"):
the verbs below do not trip after not, never, cannot, no or n't.

The patterns, each with why it exists (``tests/cases/directives/phrasings.yaml`` has real
phrasings that must trip each one, and ordinary runbook sentences that must not):

``ignore-rules``
    "ignore previous rules", "disregard the checks above", "override every blocker": the opening
    of a prompt injection, aimed at a model or a tired operator reading the card. A policy says
    what happens; it never tells its reader to set the rules aside.
``approve``
    "approve this retry", "auto-approve", "just approve", "verdict: approved": an answer the
    tool gives only from signatures and rules, asked for in the text itself. An operator step
    such as "get approval in #billing-oncall first" or "approve in #billing-oncall" is a process,
    not an order to approve this request, and does not trip it.
``bypass-check``
    "skip the review", "bypass the gate", "disable the checks", "turn off jobledger": a check
    switched off by the text it checks. "Skip weekends" or "disable the cron in staging" name
    things a job does, not the tool's checks, and do not trip it.
``waive-step``
    "no reconciliation needed", "review is not required": the step the cell exists to describe,
    waved away. A person may mean it; it is still a review item, because the rules, not a cell,
    decide what a retry needs.
``treat-as-signed``
    "treat as signed", "consider this approved", "pre-approved": a status the tool grants only
    from a signature, claimed in the text.
``other-credentials``
    "use the admin token", "use other credentials", "run it as root": an identity switched by
    the text. A policy names who is paged, never which credentials to use.
``addressed-to-a-model``
    "SYSTEM:", "new instructions", "you are now", "as an AI": text written to a language model
    that reads the card or the ``--json``, not to a person.

A hit is a *possible* injected instruction, never a proof: the answer is a person who reads
the cell and rewrites it as policy, or a review of the docstring and the ticket. The detector
is small on purpose and can be evaded (a homoglyph, a paraphrase); that is why the rules never
read text at all. It makes the common attempts visible, it does not make a rewritten one safe.
"""

from __future__ import annotations

import functools
import hashlib
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Directive:
    """One pattern: its stable name, what a hit reads as (shown instead of the text), the regex
    (compiled on first use: a command whose texts the memo answers compiles none)."""

    name: str
    reads_as: str
    source: str

    @property
    def pattern(self) -> re.Pattern[str]:
        return _compiled(self.source)


@functools.cache
def _compiled(source: str) -> re.Pattern[str]:
    return re.compile(source)


def _compile(*alternatives: str) -> str:
    return "|".join(f"(?:{alternative})" for alternative in alternatives)


#: A negated order is the opposite of one: "never skip the review", "do not approve it".
_NOT = r"(?<!\bnot )(?<!\bnever )(?<!\bcannot )(?<!n't )(?<!\bno )"
_ARTICLE = (
    r"(?:(?:the|this|that|these|those|all|any|every|each|your|my|our|its|of|previous|prior|"
    r"above|earlier|preceding|other|such) )*"
)
_CHECKS = (
    r"(?:rules?|instructions?|checks?|gates?|policy|policies|blockers?|review|reviews|"
    r"verdicts?|guards?|limits?|approvals?|reconciliation|audit|trail|validation|jobledger|"
    r"safeguards?|restrictions?|constraints?)"
)

DIRECTIVES: tuple[Directive, ...] = (
    Directive(
        "ignore-rules",
        "an order to ignore the rules",
        _compile(
            rf"{_NOT}\b(?:ignore|disregard|forget|override|overrule) {_ARTICLE}{_CHECKS}\b",
        ),
    ),
    Directive(
        "approve",
        "an order to approve",
        _compile(
            r"\bauto-?approve",
            r"\b(?:please|just|simply|always|then|and|now|must|should) approve\b(?! in\b)",
            rf"{_NOT}\bapprove (?:it|this|that|them|all|every|any|each|everything|anyway|"
            r"regardless)\b",
            rf"{_NOT}\bapprove (?:the )?(?:retry|retries|request|requests|replay|replays|requeue|"
            r"job|jobs|batch|batches|verdict)\b",
            r"\b(?:verdict|answer|decision|status|result) ?[:=] ?(?:approved?|green|pass(?:ed)?)\b",
            r"\bmark (?:it |this |them |the \w+ )?(?:as )?(?:approved|safe|signed)\b",
        ),
    ),
    Directive(
        "bypass-check",
        "an order to skip or disable a check",
        _compile(
            rf"{_NOT}\b(?:skip|skipping|bypass|bypassing|circumvent|get around|work around|disable|"
            rf"disabling|turn off|switch off|silence|suppress|mute|remove) {_ARTICLE}{_CHECKS}\b",
            r"--no-verify\b",
        ),
    ),
    Directive(
        "waive-step",
        "a step declared unnecessary",
        _compile(
            r"\bno (?:reconciliation|review|approval|sign-?off|check|checks|verification|"
            r"dedupe guard|guard) (?:is |are )?(?:needed|required|necessary)\b",
            r"\b(?:reconciliation|review|approval|sign-?off|verification) (?:is |are )?"
            r"(?:not needed|not required|not necessary|unnecessary|optional|waived)\b",
        ),
    ),
    Directive(
        "treat-as-signed",
        "a claim to count as signed or approved",
        _compile(
            rf"{_NOT}\b(?:treat|consider|regard) (?:it |this |them |this cell |this entry |"
            r"the \w+ )?as (?:signed|approved|reviewed|verified|trusted)\b",
            rf"{_NOT}\bconsider (?:it |them |(?:this|the) \w+ |this )?"
            r"(?:signed|approved|verified)\b",
            r"\bpre-?(?:approved|signed|verified|authori[sz]ed)\b",
        ),
    ),
    Directive(
        "other-credentials",
        "an order to use other credentials",
        _compile(
            r"\buse (?:(?:the|a|an|another|other|different|my|our|these|this|admin|root|prod|"
            r"production|service|deploy|owner's|shared|break-?glass) )+(?:credentials?|tokens?|"
            r"keys?|passwords?|api keys?|secrets?|accounts?|logins?|identity)\b",
            r"\b(?:run|retry|replay|requeue) (?:it |this |them |the \w+ )?as (?:root|admin|"
            r"administrator|superuser|another user)\b",
            r"\bsudo\b",
        ),
    ),
    Directive(
        "addressed-to-a-model",
        "text addressed to a language model",
        _compile(
            r"(?:^|[.;!?] )(?:system|assistant|developer) ?:",
            r"\b(?:new|updated|real|hidden) instructions?\b",
            r"\byou are now\b",
            r"\bas an ai\b",
            r"<\|?(?:im_start|system|endoftext)\|?>",
            r"\[/?inst\]",
        ),
    ),
)

_BY_NAME = {directive.name: directive for directive in DIRECTIVES}
_SPACE = re.compile(r"\s+")


def normalise(text: str) -> str:
    """NFKC, without format characters (zero-width, soft hyphen, bidi), case-folded, one space."""
    text = unicodedata.normalize("NFKC", text)
    text = "".join(char for char in text if unicodedata.category(char) != "Cf")
    return _SPACE.sub(" ", text.casefold()).strip()


#: Earlier runs' answers (:func:`use_memo`, kept with the redactions by
#: :mod:`pytest_jobledger.memo.redaction`): a key -> the directive's name, ``""`` for none.
_recall: Callable[[str], str | None] | None = None
_record: Callable[[str, str], None] | None = None


def use_memo(
    recall: Callable[[str], str | None] | None, record: Callable[[str, str], None] | None
) -> None:
    """Answer from (and add to) a memo of earlier scans; ``None`` stops using it."""
    global _recall, _record
    _recall, _record = recall, record


def scan(text: str) -> Directive | None:
    """The first pattern the text matches once normalised (``None``: it reads as data)."""
    if _recall is None or _record is None:
        return _scan(text)
    key = "directive:" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    found = _recall(key)
    if found is not None and (found == "" or found in _BY_NAME):
        return _BY_NAME.get(found)
    hit = _scan(text)
    _record(key, hit.name if hit is not None else "")
    return hit


def _scan(text: str) -> Directive | None:
    normal = normalise(text)
    for directive in DIRECTIVES:
        if directive.pattern.search(normal):
            return directive
    return None
