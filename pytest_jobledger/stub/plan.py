"""``jobledger stub``'s core: add an entry for every unsigned job, keeping every byte people wrote.

The overlay is edited as text, not re-dumped: ruamel.yaml parses it (syntax, duplicate keys, YAML
1.2 meaning) and says where each job key and each piece of content is; new entries are then
spliced in as whole lines at a place chosen from those positions (see :mod:`.layout`). A
re-dump through ruamel's round-trip emitter would have to be coaxed into keeping comments next to
the right entry, the indentation, the quoting and the line width; splicing lines keeps them by
construction, and the result is parsed again and compared event by event with the input before
anything is returned.

:func:`stub_overlay` is pure (text in, text and a report out) so it can be tested on hand-made
ledgers; the command does the reading, locking and writing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ..core.errors import OverlayError
from ..ledger.model import Job, Ledger
from ..ledger.renames import Ambiguity, Pair, pair
from ..project import DEFAULT_BLOCKED_VALUES
from ..project.records import MAX_OVERLAY_BYTES
from .emit import IMPLICIT_KEY_LIMIT, comment_text, entry_lines, placeholder_for, scalar
from .fill import fill_text, plan_fills
from .layout import EntrySpan, Layout, locate
from .proof import verify
from .quoting import quote_only
from .refusals import (
    gate_refusal,
    refuse_oversized,
    refuse_unwritable_ids,
    refuse_what_the_gate_refuses,
)
from .rename import by_hand
from .result import Added, Requoted, StubResult

__all__ = ["StubResult", "header_text", "is_empty_overlay", "is_placeholder", "stub_overlay"]

HEADER = (
    "# Job policy overlay: the promises a person signs for each background job.",
    "# `jobledger stub` adds every new job here with its cells set to a placeholder; the gate",
    "# (`pytest --jobledger`) fails until a reviewer replaces each one. Queues, retries and time",
    "# limits belong to the generated ledger, never to this file.",
)


def header_text(schema: str | None, newline: str = "\n") -> str:
    """What a newly created overlay starts with."""
    lines = list(HEADER)
    if schema:
        lines.insert(0, f"# yaml-language-server: $schema={comment_text(schema)}")
    return newline.join([*lines, "jobs:", ""])


def is_placeholder(entry: EntrySpan, required: Sequence[str], blocked: Sequence[str]) -> bool:
    """An entry nobody signed: only required cells, each missing, empty or blocked."""
    if entry.cells is None or entry.has_other_content:
        return False
    normal = {value.strip().lower() for value in blocked}
    for cell, value in entry.cells.items():
        if cell not in required:
            return False
        if value is not None and value.strip().lower() not in normal:
            return False
    return True


def stub_overlay(
    text: str | None,
    ledger: Ledger,
    previous: Ledger | None = None,
    *,
    required_cells: Sequence[str],
    blocked_values: Sequence[str] = DEFAULT_BLOCKED_VALUES,
    renames: bool = False,
    path: str = "overlays/job_policy.yaml",
    schema: str | None = None,
    max_bytes: int = MAX_OVERLAY_BYTES,
    rename: tuple[str, str] | None = None,
    quote_yes_no: bool = False,
) -> StubResult:
    """The overlay with an entry for every unsigned job, the cells newly required in existing
    entries, and (with ``renames``) moved entries; ``rename`` moves one entry by hand and
    ``quote_yes_no`` only quotes unquoted ``yes``/``no`` cell values (nothing else changes).

    Raises :class:`OverlayError` (located) when the text does not parse or cannot take new
    entries without rewriting a line a person wrote, or when ``rename`` is refused.
    """
    if text is not None:
        refuse_what_the_gate_refuses(text, path)
    if quote_yes_no:  # only quotes: never adds an entry or a cell beside a misspelt key
        if renames or rename:
            raise OverlayError(
                "--quote-yes-no only quotes yes/no answers; run --renames or --rename on its "
                "own. Nothing was written",
                path=path,
            )
        return quote_only(text, path, max_bytes)
    source = header_text(schema) if text is None else _with_jobs_key(text, schema)
    requoted: tuple[Requoted, ...] = ()
    layout = locate(source, path)
    fresh = ledger.by_id()
    refuse_unwritable_ids(fresh.values(), path)
    entries = {entry.id: entry for entry in layout.entries}

    def signed(job_id: str) -> bool:
        entry = entries.get(job_id)
        return entry is not None and not is_placeholder(entry, required_cells, blocked_values)

    manual = by_hand(rename, entries, fresh, signed, path) if rename else None
    orphans = [e.id for e in layout.entries if e.id not in fresh and not _in(e.id, manual)]
    unsigned = [job for job_id, job in fresh.items() if not signed(job_id)]
    unsigned = [job for job in unsigned if not _in(job.id, manual)]
    before = previous.by_id() if previous else {}
    pairs, ambiguous = pair(orphans, unsigned, before)
    moves = (*((manual,) if manual else ()), *(pairs if renames else ()))
    targets = {move.new for move in moves}
    replaced = tuple(sorted(target for target in targets if target in entries))
    to_add = [job for job_id, job in sorted(fresh.items()) if job_id not in entries]
    to_add = [job for job in to_add if job.id not in targets]
    move_map = {move.old: move.new for move in moves}
    final = {
        entry.id: move_map.get(entry.id, entry.id)
        for entry in layout.entries
        if entry.id not in replaced and (entry.id in fresh or entry.id in move_map)
    }
    fills, filled, unfillable = plan_fills(layout, final, required_cells)
    placeholder = placeholder_for(blocked_values)
    plan = _Plan(layout, path, required_cells, placeholder)
    new_text = plan.apply(to_add, move_map, set(replaced), fills)
    if text is not None and is_empty_overlay(text) and new_text == source:
        new_text = text  # nothing to add to an empty overlay: it stays as it is
    if new_text != (source if text is None else text):
        refuse_oversized(new_text, path, max_bytes)  # cheap, so first
        filled_as = {final[job_id]: cells for job_id, cells in fills.items()}
        refused = gate_refusal(new_text, path)  # one parse, for the proof too
        verify(source, new_text, path, to_add, move_map, set(replaced), filled_as, placeholder)
        if refused is not None:
            raise refused
    unmatched = _unmatched(orphans, pairs, ambiguous) if to_add else ()
    return StubResult(
        text=new_text,
        original=text,
        added=tuple(Added(job.id, job.location) for job in to_add),
        moved=tuple(moves),
        replaced=replaced,
        hints=() if renames else tuple(pairs),
        ambiguous=ambiguous,
        filled=filled,
        unfillable=unfillable,
        requoted=requoted,
        unmatched=tuple(o for o in unmatched if o in before),
        unseen=tuple(o for o in unmatched if o not in before),
    )


def is_empty_overlay(text: str) -> bool:
    """Whether ``text`` holds no YAML at all: empty, blank lines or comments only (the README: an
    empty overlay is an empty one, not an error)."""
    for line in text.lstrip("\ufeff").split("\n"):
        body = line.strip(" \t\r")
        if body and not body.startswith("#"):
            return False
    return True


def _with_jobs_key(text: str, schema: str | None) -> str:
    """What the stub edits: ``text`` itself, or for an empty overlay the start of one after
    every byte it holds (a blank file gets a new file's header, comments get ``jobs:``)."""
    if not is_empty_overlay(text):
        return text
    newline = "\r\n" if "\r\n" in text else "\n"
    ending = "" if text.endswith("\n") or not text.strip("\ufeff") else newline
    if not text.strip(" \t\r\n\ufeff"):
        return f"{text}{ending}{header_text(schema, newline)}"
    return f"{text}{ending}jobs:{newline}"


def _unmatched(
    orphans: Sequence[str], pairs: Sequence[Pair], ambiguous: Sequence[Ambiguity]
) -> tuple[str, ...]:
    """Orphans no pair, hint or ambiguity already names (``unsigned`` cases list orphans)."""
    named = {p.old for p in pairs} | {a.id for a in ambiguous if a.side != "unsigned"}
    named |= {c for a in ambiguous if a.side == "unsigned" for c in a.candidates}
    return tuple(sorted(orphan for orphan in orphans if orphan not in named))


def _in(job_id: str, manual: Pair | None) -> bool:
    return manual is not None and job_id in (manual.old, manual.new)


@dataclass
class _Plan:
    """Line edits on the original text: insertions before a line, deletions, one-line rewrites."""

    layout: Layout
    path: str
    cells: Sequence[str]
    placeholder: str
    inserts: dict[int, list[str]] = field(default_factory=dict)
    fills: Mapping[str, Sequence[str]] = field(default_factory=dict)
    deleted: set[int] = field(default_factory=set)
    rewritten: dict[int, str] = field(default_factory=dict)

    @property
    def newline(self) -> str:
        return self.layout.lines.newline

    def apply(
        self,
        to_add: Sequence[Job],
        moves: Mapping[str, str],
        replaced: set[str],
        fills: Mapping[str, Sequence[str]],
    ) -> str:
        layout = self.layout
        self.fills = fills
        if not to_add and not moves and not fills:
            return layout.lines.text
        if not to_add and not moves:
            self._fill_in_place(layout.entries)
            return self._render()
        if layout.jobs_kind == "other" or layout.top_kind == "other":
            line = layout.jobs_line + 1 if layout.top_kind == "block" else 1
            raise OverlayError(
                "the stub can only add entries to a block mapping: write `jobs:` on its own line "
                "with one job per indented line below it (no `{...}`, `null` or list), then run "
                "the stub again; nothing was written",
                path=self.path,
                line=line,
            )
        items: list[tuple[str, str, bool]] = [
            (job.id, self._entry_text(job), False) for job in to_add
        ]
        entries = layout.entries
        staying = [e for e in entries if e.id not in moves and e.id not in replaced]
        for entry in entries:
            if entry.id in replaced:
                self._delete(entry)
        # A moved ``|+`` block would take in any blank line that follows it at its new place, so
        # such an entry is renamed where it stands even if the file then is no longer sorted.
        in_place = (
            not layout.is_sorted
            or _sorted_after_rename(entries, moves, replaced)
            or any(entry.open_ended for entry in entries if entry.id in moves)
        )
        for entry in entries:
            if entry.id not in moves:
                continue
            if in_place:
                self._rename_in_place(entry, moves[entry.id])
                staying.append(entry)
            else:
                text = self._moved_text(entry, moves[entry.id])
                items.append((moves[entry.id], text, entry.open_ended))
                self._delete(entry)
        staying.sort(key=lambda e: e.key_line)
        self._fill_in_place(staying)
        self._place(sorted(items), staying, moves)
        self._seal_open_ends()
        return self._render()

    def _fill_in_place(self, entries: Sequence[EntrySpan]) -> None:
        """New cell lines right after each entry that stays where it is (before anything
        inserted at the same line, so they stay inside the entry)."""
        for entry in entries:
            cells = self.fills.get(entry.id)
            if cells:
                self._insert_at(entry.tail_line + 1, [self._fill(entry)])

    def _fill(self, entry: EntrySpan) -> str:
        cells = self.fills.get(entry.id, ())
        return fill_text(entry, cells, self.layout, self.placeholder, self.newline)

    def _entry_text(self, job: Job) -> str:
        layout = self.layout
        lines = entry_lines(
            job,
            self.cells,
            placeholder=self.placeholder,
            column=layout.entry_column,
            cell_indent=layout.cell_indent,
            quote=layout.quote,
        )
        return "".join(line + self.newline for line in lines)

    def _key_text(self, entry: EntrySpan, new_id: str) -> str:
        quote = entry.key_style if entry.key_style in ("'", '"') else self.layout.quote
        text = scalar(new_id, quote)
        if entry.key_style in ("'", '"') and not text.startswith(entry.key_style):
            text = scalar(new_id, '"') if entry.key_style == '"' else text
        line = self.layout.lines.lines[entry.key_line]
        explicit = line.lstrip().startswith("?")
        if len(text) > IMPLICIT_KEY_LIMIT and not explicit:
            raise OverlayError(
                f"cannot move the entry {entry.id} to {new_id[:60]}...: the new id is "
                f"{len(new_id):,} characters, and YAML readers refuse a `key:` longer than 1,024; "
                "move it by hand, writing the key as `? key` with `:` on the next line; "
                "nothing was written",
                path=self.path,
                line=entry.key_line + 1,
            )
        return text

    def _rename_in_place(self, entry: EntrySpan, new_id: str) -> None:
        lines = self.layout.lines
        line = entry.key_line
        start = entry.key_start - lines.starts[line]
        end = entry.key_end - lines.starts[line]
        old = lines.lines[line]
        self.rewritten[line] = old[:start] + self._key_text(entry, new_id) + old[end:]

    def _moved_text(self, entry: EntrySpan, new_id: str) -> str:
        lines = self.layout.lines
        first = lines.starts[entry.head_line]
        block = "".join(lines.lines[entry.head_line : entry.tail_line + 1])
        start, end = entry.key_start - first, entry.key_end - first
        block = block[:start] + self._key_text(entry, new_id) + block[end:]
        block = block if block.endswith("\n") else block + self.newline
        return block + (self._fill(entry) if self.fills.get(entry.id) else "")

    def _delete(self, entry: EntrySpan) -> None:
        self.deleted.update(range(entry.head_line, entry.tail_line + 1))
        if self.layout.blank_separated:
            after, before = entry.tail_line + 1, entry.head_line - 1
            if self._loose_blank(after):
                self.deleted.add(after)
            elif self._loose_blank(before):
                self.deleted.add(before)

    def _seal_open_ends(self) -> None:
        """Keep each ``|+``/``>+`` block scalar's text as it was when what followed it is deleted.

        Such a scalar keeps every blank line up to the next content line: once the lines right
        after it are gone, the blank lines beyond them would become part of its text, so they go
        too (they belong to no entry; see :meth:`_loose_blank`).
        """
        lines = self.layout.lines
        for entry in self.layout.entries:
            after = entry.tail_line + 1
            if not entry.open_ended or entry.tail_line in self.deleted or after not in self.deleted:
                continue
            line = after
            while line < len(lines.lines) and (line in self.deleted or self._loose_blank(line)):
                self.deleted.add(line)
                line += 1

    def _loose_blank(self, line: int) -> bool:
        """A blank line that is no entry's (one inside a ``|+`` block scalar is its text)."""
        lines = self.layout.lines
        if not 0 <= line < len(lines.lines) or not lines.is_blank(line) or line in self.deleted:
            return False
        return not any(e.head_line <= line <= e.tail_line for e in self.layout.entries)

    def _place(
        self,
        items: Sequence[tuple[str, str, bool]],
        staying: Sequence[EntrySpan],
        moves: Mapping[str, str],
    ) -> None:
        layout = self.layout
        blank = self.newline if layout.blank_separated else ""
        final_id = {entry.id: moves.get(entry.id, entry.id) for entry in staying}
        at_end: list[str] = []
        for item_id, text, open_ended in items:
            anchor = None
            if layout.is_sorted:
                later = [e for e in staying if final_id[e.id] > item_id]
                anchor = later[0] if later else None
            if anchor is None:
                at_end.append(text)
            else:
                # A blank line after a ``|+`` block scalar would become part of its text.
                after = "" if open_ended else blank
                self.inserts.setdefault(anchor.head_line, []).append(text + after)
        if not at_end:
            return
        if layout.jobs_kind == "block":
            self._insert_at(layout.jobs_end_line + 1, [blank + text for text in at_end])
        elif layout.jobs_kind == "empty":
            self._insert_at(layout.jobs_end_line + 1, at_end)
        else:  # no jobs key yet: append one to the top-level mapping (or to an empty file)
            pad = " " * layout.top_column
            at = layout.top_end_line + 1 if layout.top_kind == "block" else len(layout.lines.lines)
            self._insert_at(at, [f"{pad}jobs:{self.newline}", *at_end])

    def _insert_at(self, line: int, texts: Sequence[str]) -> None:
        self.inserts.setdefault(line, []).extend(texts)

    def _render(self) -> str:
        lines = self.layout.lines.lines
        open_tails = {entry.tail_line for entry in self.layout.entries if entry.open_ended}
        out: list[str] = []
        last = -1  # the last original line written
        for index in range(len(lines) + 1):
            if index in self.inserts:
                texts = list(self.inserts[index])
                if last in open_tails and texts[0].startswith(self.newline):
                    # A blank line right after a ``|+`` block scalar would become part of it.
                    texts[0] = texts[0][len(self.newline) :]
                if out and not out[-1].endswith("\n"):
                    out[-1] += self.newline  # the file had no final newline; new lines need one
                out.extend(texts)
            if index < len(lines) and index not in self.deleted:
                out.append(self.rewritten.get(index, lines[index]))
                last = index
        return "".join(out)


def _sorted_after_rename(
    entries: Sequence[EntrySpan], moves: Mapping[str, str], replaced: set[str]
) -> bool:
    ids = [moves.get(e.id, e.id) for e in entries if e.id not in replaced]
    return ids == sorted(ids)
