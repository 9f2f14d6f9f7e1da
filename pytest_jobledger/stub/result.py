"""What one run of the stub did (or, with ``--check``, would do), and how a user reads it.

Kept apart from :mod:`.plan` (which computes the edits) so the report's wording is one small
table of facts: every line names one entry, and ``--check`` says "would add" where a run says
"added", because with ``--check`` nothing is written.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..ledger.renames import Ambiguity, Pair


@dataclass(frozen=True)
class Added:
    id: str
    location: str


@dataclass(frozen=True)
class Filled:
    """Required cells an existing entry lacked (``required_cells`` grew after it was written)."""

    id: str
    cells: tuple[str, ...]


@dataclass(frozen=True)
class Unfillable:
    """An entry that lacks required cells the stub cannot add as whole lines (say why)."""

    id: str
    cells: tuple[str, ...]
    reason: str


@dataclass(frozen=True)
class Requoted:
    """An unquoted ``yes``/``no`` cell value the stub wrote quoted (``--quote-yes-no``)."""

    id: str
    cell: str
    value: str
    line: int


@dataclass(frozen=True)
class StubResult:
    """The new overlay text and what changed; ``original`` is ``None`` for a file to create."""

    text: str
    original: str | None
    added: tuple[Added, ...] = ()
    moved: tuple[Pair, ...] = ()
    replaced: tuple[str, ...] = ()
    hints: tuple[Pair, ...] = ()
    ambiguous: tuple[Ambiguity, ...] = ()
    filled: tuple[Filled, ...] = ()
    unfillable: tuple[Unfillable, ...] = ()
    requoted: tuple[Requoted, ...] = ()
    unmatched: tuple[str, ...] = ()
    """Orphaned entries no evidence pairs with a job the stub adds (a person may know which)."""
    unseen: tuple[str, ...] = ()
    """Orphaned entries the committed ledger does not name: no evidence either way (``extract``
    ran before ``stub --renames``, or there is no committed ledger)."""

    @property
    def changed(self) -> bool:
        return self.original is None or self.text != self.original

    def report_lines(self, *, check: bool = False) -> list[str]:
        """What a user reads, one line per fact, in a stable order (``check``: nothing written)."""
        add, move, quote = (
            ("would add", "would move", "would quote")
            if check
            else (
                "added",
                "moved",
                "quoted",
            )
        )
        lines = [f"{add} {item.id}  # {item.location}" for item in self.added]
        for fill in self.filled:
            lines.append(
                f"{add} {', '.join(fill.cells)} to {fill.id} (required cells it did not have)"
            )
        for move_ in self.moved:
            note = "; its placeholder entry was removed" if move_.new in self.replaced else ""
            lines.append(f"{move} {move_.old} -> {move_.new} ({move_.reason}{note})")
        for item in self.requoted:
            lines.append(
                f'{quote} {item.id}: {item.cell}: {item.value} as "{item.value}" (line '
                f"{item.line}; YAML 1.1 readers read it unquoted as a boolean)"
            )
        for gap in self.unfillable:
            lines.append(
                f"cannot add {', '.join(gap.cells)} to {gap.id}: {gap.reason}; add them by hand"
            )
        for hint in self.hints:
            lines.append(
                f"hint: {hint.old} looks renamed to {hint.new} ({hint.reason}); "
                "run `jobledger stub --renames` to move its signed entry"
            )
        for orphan in self.unmatched:
            lines.append(
                f"hint: orphan {orphan} matches no job by name or docstring; if it became one "
                f"of the jobs added, run `jobledger stub --rename {orphan} NEW_ID`"
            )
        for orphan in self.unseen:
            lines.append(
                f"hint: orphan {orphan}: the committed ledger does not name it, so nothing shows "
                "what it became (`jobledger stub --renames` reads the old ids there: run it before "
                f"`jobledger extract`); if it became one of the jobs added, run `jobledger stub "
                f"--rename {orphan} NEW_ID`"
            )
        for case in self.ambiguous:
            options = " or ".join(case.candidates)
            if case.side == "orphan":
                lines.append(
                    f"ambiguous: orphan {case.id} could have become {options}; move its entry "
                    f"by hand with `jobledger stub --rename {case.id} NEW_ID`"
                )
            elif case.side == "weak":
                lines.append(
                    f"ambiguous: orphan {case.id} may have become {options} (same function name, "
                    f"no docstring to confirm); if so, move its entry with `jobledger stub "
                    f"--rename {case.id} NEW_ID`"
                )
            else:
                lines.append(
                    f"ambiguous: {case.id} could be the renamed {options}; move the right entry "
                    f"by hand with `jobledger stub --rename OLD_ID {case.id}`"
                )
        return lines

    def summary(self, *, check: bool, command: str = "jobledger stub") -> str:
        """The last line: what changed (or would), with the counts, or that nothing would;
        ``command`` is the run that would write it (the same flags, without ``--check``)."""
        if not self.changed:
            return "up to date, nothing to add"
        counts = [
            f"{count} {word}"
            for count, word in (
                (len(self.added), "to add" if check else "added"),
                (len(self.filled), "to fill" if check else "filled"),
                (len(self.moved), "to move" if check else "moved"),
                (len(self.requoted), "to quote" if check else "quoted"),
            )
            if count
        ] or [f"0 {'to add' if check else 'added'}"]
        if check:
            return f"would change ({', '.join(counts)}); run `{command}` to write it"
        verb = "created" if self.original is None else "updated"
        return f"{verb} ({', '.join(counts)})"
