"""How one cell is judged: signed, blocked, yes/no, text, a ledger field, an unknown key, an orphan.

Pure: each method takes the ledger job and the overlay entry the join paired and returns one
:class:`Check`, with a message that names the place and the fix.
"""

from __future__ import annotations

import datetime
import unicodedata
from collections.abc import Iterable
from typing import Any

from ..core.directives import scan
from ..core.text import Suggester, dotted_near
from ..findings import Check, Finding, Kind
from ..ledger.model import ALL_LEDGER_KEYS, Job
from ..overlay.cells import DRAFT_KEYS, CellKind, spec_for
from ..overlay.model import Cell, Entry, Overlay
from ..overlay.roster import Roster
from ..overlay.values import describe_value
from ..project import Config
from .promises import DEAD_LETTER
from .signatures import Signatures

YES_NO = ("yes", "no")
ORPHAN_CELL = "orphan"

#: Words YAML 1.1 readers (PyYAML) turn into booleans when unquoted, in any of three spellings.
YAML11_BOOL_WORDS = ("yes", "no", "true", "false", "on", "off", "y", "n")

#: Orphans that get a "did you mean" in one run; past this many (a mass rename: see
#: ``jobledger stub --renames``) the rest are reported without one, so the work stays bounded.
SUGGESTED_ORPHANS = 500

#: Why a check is skipped when the overlay could not be read.
SKIPPED = "the overlay could not be read; see the overlay status item"

#: Characters that draw nothing: controls, format characters (zero-width space and joiners, the
#: byte order mark, bidirectional marks), every kind of space and line separator...
_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zs", "Zl", "Zp"})
#: ... and letters, symbols and marks that are blank by design: the Hangul fillers, the empty
#: Braille pattern, Khmer inherent vowels, the combining grapheme joiner and variation selectors.
_BLANK_CHARACTERS = frozenset(
    "\u034f\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0"
    + "".join(map(chr, range(0x180B, 0x1810)))
    + "".join(map(chr, range(0xFE00, 0xFE10)))
    + "".join(map(chr, range(0xE0100, 0xE01F0)))
)


def _invisible(char: str) -> bool:
    return char in _BLANK_CHARACTERS or unicodedata.category(char) in _INVISIBLE_CATEGORIES


def normal_text(text: str) -> str:
    """``text`` as a reader sees it: invisible characters dropped, each run of spaces one space,
    no space at either end, case folded. The one definition of what a cell says: ``""`` is blank.
    """
    words = "".join(" " if char.isspace() else "" if _invisible(char) else char for char in text)
    return " ".join(words.split()).casefold()


def is_blank(text: str) -> bool:
    """Whether ``text`` shows nothing at all: empty, or only spaces, controls and characters that
    draw nothing (``"\\u200b"``, ``"\\0"``, ``"\\ufeff"``). A blank cell is an unsigned one."""
    return normal_text(text) == ""


class CellRules:
    """How each cell of one join is judged: the overlay's name and the configured cells."""

    def __init__(
        self,
        config: Config,
        overlay: Overlay | None,
        unreadable_line: int = 1,
        *,
        today: datetime.date | None = None,
        roster: Roster | None = None,
        queues: frozenset[str] | None = None,
    ) -> None:
        self.overlay = overlay
        #: The queues the code declares (``None``: not known here, a dead-letter queue passes).
        self.queues = queues
        self.unreadable_line = unreadable_line
        self.path = overlay.path if overlay is not None else config.overlay_display
        self.vocabulary = config.cells.vocabulary
        self.required: tuple[str, ...] = self.vocabulary.required
        self.signatures = Signatures(
            self.path,
            today or datetime.date.today(),
            config.review.max_age_days,
            roster,
        )
        self.blocked = {normal_text(value) for value in config.cells.blocked}
        self._rank = {cell: index for index, cell in enumerate(self.required)}
        self._cell_names = Suggester(self.vocabulary.cells)
        self._suggestions_left = SUGGESTED_ORPHANS

    def sort_key(self, check: Check) -> tuple[int, str, int, str]:
        unsupported = check.finding is not None and check.finding.kind is Kind.UNSUPPORTED
        section = 1 if unsupported else 0
        rank = self._rank.get(check.cell, len(self._rank))
        return (section, check.job, rank, check.cell)

    # -- one required cell -------------------------------------------------------------------

    def cell_check(self, job: Job, entry: Entry | None, cell: str) -> Check:
        if self.overlay is None:
            # Pointed at the overlay's error, where pytest's own skip markers would point.
            return Check(job.id, cell, self.path, self.unreadable_line, skipped=SKIPPED)
        if entry is None:
            return self._fail(
                Kind.UNSIGNED,
                job.id,
                cell,
                job.path,
                job.line,
                f"Job {job.id} (registered at {job.location}) has no entry in {self.path}, so "
                f"its {cell!r} cell is unsigned. {self._missing_file_hint()}Add `{job.id}:` under "
                f"`jobs:` in {self.path} with every required cell ({', '.join(self.required)}), "
                "each answered by the job's owner.",
            )
        found = entry.get(cell)
        if found is None:
            return self._fail(
                Kind.UNSIGNED,
                job.id,
                cell,
                self.path,
                entry.line,
                f"Job {job.id} has an entry at {self.path}:{entry.line} but no {cell!r} cell, so "
                f"it is unsigned. Add `{cell}: ...` under the entry, answered by the job's owner.",
            )
        if self._blocked(found.value):
            shown = describe_value(found.value)
            if isinstance(found.value, str) and found.value and is_blank(found.value):
                shown += ", only characters that show nothing (spaces, controls, zero-width)"
            return self._fail(
                Kind.UNSIGNED,
                job.id,
                cell,
                self.path,
                found.value_line,
                f"Job {job.id}: the {cell!r} cell at {self.path}:{found.value_line} holds "
                f"{shown}, which counts as unsigned (blocked: empty, null, "
                f"{self._blocked_list()}). Replace it with the real answer, agreed with the "
                "job's owner.",
            )
        return self._judge(job, found)

    def signed(self, job: Job, cell: Cell) -> bool:
        """Whether the cell holds an answer its own item accepts (what a cross-lane item may
        lean on)."""
        return not self._blocked(cell.value) and self._judge(job, cell).finding is None

    def _judge(self, job: Job, cell: Cell) -> Check:
        """A written, non-blank cell judged by the kind of answer it takes."""
        spec = self.vocabulary.spec(cell.key) or spec_for(cell.key)
        if spec.kind is CellKind.YES_NO:
            return self._yes_no_check(job, cell)
        if spec.kind is CellKind.DATE:
            return self.signatures.date_check(job, cell)
        if spec.kind is CellKind.WHOLE_NUMBER:
            return self._whole_number_check(job, cell)
        check = self._text_check(job, cell)
        if check.finding is not None:
            return check
        return (
            self._directive_check(job, cell)
            or self._queue_check(job, cell)
            or self.signatures.allowed_check(job, cell, spec)
            or self.signatures.owner_check(job, cell)
            or check
        )

    def _yes_no_check(self, job: Job, cell: Cell) -> Check:
        value = cell.value
        if value in YES_NO and cell.same_in_yaml11:
            return Check(job.id, cell.key, self.path, cell.value_line)
        where = f"Job {job.id}: the {cell.key!r} cell at {self.path}:{cell.value_line}"
        want = f'Write it quoted and lower-case, exactly `{cell.key}: "yes"` or `{cell.key}: "no"`'
        if value in YES_NO:
            detail = (
                f"reads as the text {value!r} to YAML 1.2 readers but as the boolean "
                f"{str(cell.yaml11).lower()} to PyYAML-based tools (YAML 1.1), because it is "
                "not quoted; the same file must mean the same to every tool that reads it."
            )
        elif isinstance(value, bool) or (
            isinstance(value, str) and value.strip().casefold() in YAML11_BOOL_WORDS
        ):
            detail = (
                f'holds {describe_value(value)}, not exactly "yes" or "no". YAML 1.1 readers '
                "such as PyYAML turn unquoted yes/no/on/off/y/n/true/false (in any case) into "
                "booleans while YAML 1.2 readers keep most of them as text, so such an answer "
                "means different things to different tools."
            )
            if not cell.same_in_yaml11:
                detail += f" Here PyYAML-based tools read it as {describe_value(cell.yaml11)}."
        else:
            detail = f'holds {describe_value(value)}; it must be exactly "yes" or "no".'
            if not cell.same_in_yaml11:
                detail += f" PyYAML-based tools read it as {describe_value(cell.yaml11)}."
        return self._fail(
            Kind.NOT_YES_NO,
            job.id,
            cell.key,
            self.path,
            cell.value_line,
            f"{where} {detail} {want}, which every YAML reader reads as the same text.",
        )

    def _text_check(self, job: Job, cell: Cell) -> Check:
        value = cell.value
        where = f"Job {job.id}: the {cell.key!r} cell at {self.path}:{cell.value_line}"
        if not isinstance(value, str):
            detail = (
                f"holds {describe_value(value)}, not text. A signed cell is a sentence or a name; "
                f'if you meant the text, quote it: `{cell.key}: "..."`.'
            )
        elif not cell.same_in_yaml11:
            detail = (
                f"reads as the text {value!r} to YAML 1.2 readers but as "
                f"{describe_value(cell.yaml11)} to PyYAML-based tools (YAML 1.1). Quote it "
                f'(`{cell.key}: "{value}"`) so every tool reads the same text.'
            )
        else:
            return Check(job.id, cell.key, self.path, cell.value_line)
        return self._fail(
            Kind.NOT_TEXT, job.id, cell.key, self.path, cell.value_line, f"{where} {detail}"
        )

    def _directive_check(self, job: Job, cell: Cell) -> Check | None:
        """A text cell that reads as an order (:mod:`..core.directives`) is not signed: one
        finding that ``check``, pytest, the Action, the runbook and the verdict all read. The
        message names the place and the pattern, never the text."""
        directive = scan(cell.value) if isinstance(cell.value, str) else None
        if directive is None:
            return None
        where = f"{self.path}:{cell.value_line}"
        return self._fail(
            Kind.INJECTED_INSTRUCTION,
            job.id,
            cell.key,
            self.path,
            cell.value_line,
            f"Job {job.id}: the {cell.key!r} cell at {where} reads as {directive.reads_as} "
            f"[{directive.name}], a possible injected instruction. Nothing in it is obeyed, it "
            "does not count as signed (no page shows it as signed, and `jobledger verdict` is "
            f"blocked on it). Have a person read {where} and rewrite it as policy: what happens "
            "and who is told, not an instruction to the tool or to an operator.",
        )

    def _queue_check(self, job: Job, cell: Cell) -> Check | None:
        """A ``dead_letter_queue`` names a queue the code declares, or the policy rots when the
        queue is renamed (:func:`.promises.declared_queues`)."""
        if cell.key != DEAD_LETTER or self.queues is None or not isinstance(cell.value, str):
            return None
        if cell.value in self.queues:
            return None
        where = f"{self.path}:{cell.value_line}"
        close = Suggester(sorted(self.queues)).closest(cell.value, cutoff=0.6)
        hint = f" (did you mean {close}?)" if close is not None else ""
        known = ", ".join(sorted(self.queues)[:8]) or "none"
        return self._fail(
            Kind.UNKNOWN_QUEUE,
            job.id,
            cell.key,
            self.path,
            cell.value_line,
            f"Job {job.id}: the {cell.key!r} cell at {where} names the queue {cell.value!r}"
            f"{hint}, which the code does not declare (declared: {known}). A payload parked "
            "there would go nowhere anyone reads. Name the queue the code uses (a job's queue, "
            "a Celery task_routes queue, Dramatiq's <queue>.XQ), or, if the broker declares it "
            "outside the code, list it in [tool.jobledger] broker_queues.",
        )

    def _whole_number_check(self, job: Job, cell: Cell) -> Check:
        """An unquoted integer, 0 or more, that YAML 1.1 readers read as the same integer: the
        signed form is the one an editor's schema checks and every tool reads as a number."""
        value = cell.value
        if is_whole_number(value) and cell.same_in_yaml11:
            return Check(job.id, cell.key, self.path, cell.value_line)
        where = f"Job {job.id}: the {cell.key!r} cell at {self.path}:{cell.value_line}"
        if isinstance(value, str) and value.strip().isdigit():
            detail = (
                f"holds {describe_value(value)}, a quoted number: tools read it as text, not as "
                f"a number. Write it without quotes: `{cell.key}: {value.strip()}`."
            )
        elif is_whole_number(value):
            detail = (
                f"reads as the number {value} to YAML 1.2 readers but as "
                f"{describe_value(cell.yaml11)} to PyYAML-based tools (YAML 1.1), e.g. a leading "
                f"zero is octal there. Write plain decimal digits: `{cell.key}: {value}`."
            )
        else:
            detail = (
                f"holds {describe_value(value)}; it must be a whole number, 0 or more, written "
                f"without quotes, e.g. `{cell.key}: 100`."
            )
        return self._fail(
            Kind.NOT_WHOLE_NUMBER, job.id, cell.key, self.path, cell.value_line, f"{where} {detail}"
        )

    # -- keys that are not required cells ----------------------------------------------------

    def extra_key_checks(self, job: Job, entry: Entry) -> Iterable[Check]:
        """Keys that are not required cells: an optional cell of the vocabulary is judged when it
        holds an answer (a blank one is simply not signed), anything else fails."""
        for cell in entry.cells:
            if cell.key in self._rank:
                continue
            if cell.key in self.vocabulary.cells and cell.key not in ALL_LEDGER_KEYS:
                if not self._blocked(cell.value):
                    yield self._judge(job, cell)
                continue
            if cell.key in DRAFT_KEYS:
                yield self._fail(
                    Kind.LANE_MIXING,
                    job.id,
                    cell.key,
                    self.path,
                    cell.key_line,
                    f"Job {job.id}: {cell.key!r} at {self.path}:{cell.key_line} is an unverified "
                    "draft; drafts live in their own file (`jobledger draft`) and are never a "
                    "signature. Delete the line here; to accept the text, its owner reviews it "
                    "and writes it as `purpose_accepted`.",
                )
            elif cell.key in ALL_LEDGER_KEYS:
                yield self._fail(
                    Kind.LANE_MIXING,
                    job.id,
                    cell.key,
                    self.path,
                    cell.key_line,
                    f"Job {job.id}: {cell.key!r} at {self.path}:{cell.key_line} is a ledger field; "
                    "the ledger reads it from the code and the overlay holds only signed policy. "
                    f"Delete the line here; if the value is wrong, change the registration at "
                    f"{job.location} and run `jobledger extract`.",
                )
            else:
                yield self._fail(
                    Kind.UNKNOWN_KEY,
                    job.id,
                    cell.key,
                    self.path,
                    cell.key_line,
                    f"Job {job.id}: unknown key {cell.key!r} at {self.path}:{cell.key_line}"
                    f"{_suggest(cell.key, self._cell_names)}. An entry holds the "
                    f"required cells ({', '.join(self.required)}) and the optional cells the "
                    "overlay schema lists; rename or delete the key.",
                )

    def orphan_check(self, entry: Entry, known: Suggester) -> Check:
        """``known`` holds the ledger's ids, built once for every orphan of the join."""
        return self._fail(
            Kind.ORPHAN,
            entry.job,
            ORPHAN_CELL,
            self.path,
            entry.line,
            f"The entry {entry.job} at {self.path}:{entry.line} matches no job in the ledger"
            f"{self._orphan_hint(entry.job, known)}. The job was renamed, moved or deleted: "
            "rename the entry to the job's new id (keeping its signed cells) or delete it.",
        )

    # -- helpers -----------------------------------------------------------------------------

    def _orphan_hint(self, job: str, known: Suggester) -> str:
        if self._suggestions_left <= 0:
            return ""
        self._suggestions_left -= 1
        return _suggest(job, known)

    def _fail(self, kind: Kind, job: str, cell: str, path: str, line: int, message: str) -> Check:
        return Check.failed(
            Finding(kind=kind, job=job, cell=cell, path=path, line=line, message=message)
        )

    def _blocked(self, value: Any) -> bool:
        if value is None:
            return True
        if not isinstance(value, str):
            return False
        folded = normal_text(value)
        return folded == "" or folded in self.blocked

    def _blocked_list(self) -> str:
        words = sorted(word for word in self.blocked if word)
        return ", ".join(repr(word) for word in words) if words else "nothing else"

    def _missing_file_hint(self) -> str:
        if self.overlay is not None and not self.overlay.exists:
            return f"({self.path} does not exist yet; create it.) "
        return ""


def is_whole_number(value: Any) -> bool:
    """0, 1, 2, ... as YAML reads an unquoted integer (a boolean is not a number here)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _suggest(word: str, options: Suggester) -> str:
    close = options.closest(word, cutoff=0.75)
    # Only a job that could be this one, renamed or moved: not a sibling of the same module.
    fits = close is not None and dotted_near(word, close)
    return f" (did you mean {close}?)" if fits else ""
