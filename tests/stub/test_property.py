"""Property: stubbing any valid overlay only adds lines, keeps every original line in order, and a
second stub changes nothing.

Overlays are generated in the styles people write: comments above, beside and below entries, blank
lines or none, 2/3/4-space indentation, sorted or not, flow mappings, block scalars whose text looks
like comments, quoted keys, ``%YAML``/``---`` headers, CRLF, a missing final newline.
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st
from ruamel.yaml import YAML

from pytest_jobledger.ledger.model import Job, Ledger
from pytest_jobledger.stub.emit import scalar
from pytest_jobledger.stub.plan import stub_overlay

from .test_golden import only_added

CELLS = ("idempotent", "poison_policy", "paging_owner")
POOL = (
    "acme.billing.capture",
    "acme.billing.refund",
    "acme.mail.send",
    "acme.mail.send_batch",
    "acme.search.reindex",
    "zeta.cleanup",
    "on",
    "1:20",
    "it's",
    "acme.colon: odd",
)
COMMENT = st.text(st.characters(codec="utf-8", exclude_categories=("Cc", "Cs", "Zl", "Zp")))
VALUES = st.sampled_from(
    ['"yes"', "'no'", "drop", "park; page oncall", '"a # not a comment"', "unknown", ""]
)


def job(job_id: str) -> Job:
    return Job(
        id=job_id,
        function=job_id.rpartition(".")[2],
        module=job_id.rpartition(".")[0],
        path="src/jobs.py",
        line=len(job_id),
        framework="celery",
        decorator="celery.shared_task",
    )


@st.composite
def entry_body(draw: st.DrawFn, column: int, step: int) -> list[str]:
    pad = " " * (column + step)
    style = draw(st.sampled_from(["block", "flow", "empty", "literal"]))
    if style == "empty":
        return []
    if style == "flow":
        cells = draw(st.lists(st.sampled_from(CELLS), unique=True, max_size=3))
        return ["{" + ", ".join(f"{cell}: x" for cell in cells) + "}"]
    lines: list[str] = []
    for cell in draw(st.lists(st.sampled_from(CELLS), unique=True, min_size=1, max_size=3)):
        if draw(st.booleans()):
            lines.append(f"{pad}# {draw(COMMENT)}")
        value = draw(VALUES)
        lines.append(f"{pad}{cell}: {value}".rstrip())
    if style == "literal":
        lines.append(f"{pad}purpose_accepted: |{draw(st.sampled_from(['', '+', '-']))}")
        lines.append(f"{pad}  Charges a card.")
        lines.append("")
        lines.append(f"{pad}  # text, not a comment")
        lines.extend([""] * draw(st.integers(0, 2)))
    return lines


@st.composite
def overlays(draw: st.DrawFn) -> tuple[str, tuple[str, ...]]:
    step = draw(st.sampled_from([2, 3, 4]))
    column = draw(st.sampled_from([step, 1, 4]))  # where job keys sit under ``jobs:``
    ids = draw(st.lists(st.sampled_from(POOL), unique=True, max_size=5))
    if draw(st.booleans()):
        ids.sort()
    separated = draw(st.booleans())
    out: list[str] = [f"# {draw(COMMENT)}" for _ in range(draw(st.integers(0, 2)))]
    if draw(st.booleans()):
        out += ["%YAML 1.2", "---"]
    out.append("jobs:" + (f"  # {draw(COMMENT)}" if draw(st.booleans()) else ""))
    for job_id in ids:
        if separated and out[-1].strip():
            out.append("")
        for _ in range(draw(st.integers(0, 2))):
            col = draw(st.integers(0, column))
            out.append(" " * col + f"# {draw(COMMENT)}")
        key = scalar(job_id, draw(st.sampled_from(['"', "'"])))
        if key == job_id and draw(st.booleans()):
            key = f'"{job_id}"' if "'" in job_id else f"'{job_id}'"
        body = draw(entry_body(column, step))
        eol = f"  # {draw(COMMENT)}" if draw(st.booleans()) else ""
        if body and body[0].startswith("{"):
            out.append(f"{' ' * column}{key}: {body[0]}{eol}")
        else:
            out.append(f"{' ' * column}{key}:{eol}")
            out.extend(body)
            for _ in range(draw(st.integers(0, 1))):
                out.append(" " * (column + step) + f"# {draw(COMMENT)}")
    for _ in range(draw(st.integers(0, 2))):
        out.append(draw(st.sampled_from(["", f"# {draw(COMMENT)}"])))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    text = newline.join(out) + (newline if draw(st.booleans()) else "")
    return text, tuple(ids)


def parsed_ids(text: str) -> set[str]:
    data = YAML(typ="rt").load(text)
    return set(data["jobs"] or {})


@given(overlays(), st.lists(st.sampled_from(POOL), unique=True))
def test_stub_only_adds_lines_and_is_idempotent(
    overlay: tuple[str, tuple[str, ...]], ledger_ids: list[str]
) -> None:
    text, existing = overlay
    assert parsed_ids(text) == set(existing)  # the generator wrote a valid overlay
    ledger = Ledger.build([job(job_id) for job_id in ledger_ids])
    result = stub_overlay(text, ledger, required_cells=CELLS)
    assert only_added(text, result.text)
    assert {added.id for added in result.added} == set(ledger_ids) - set(existing)
    assert parsed_ids(result.text) == set(existing) | set(ledger_ids)
    again = stub_overlay(result.text, ledger, required_cells=CELLS)
    assert not again.changed


@given(overlays(), st.data())
def test_a_rename_moves_the_entry_whole_and_only_it(
    overlay: tuple[str, tuple[str, ...]], data: st.DataObject
) -> None:
    text, existing = overlay
    if not existing:
        return
    old_id = data.draw(st.sampled_from(existing))
    new_id = data.draw(st.sampled_from(["aaa.first", "acme.mail.sendz", "zzz.last"]))
    others = [job(job_id) for job_id in existing if job_id != old_id]
    previous = Ledger.build([*others, replace(job(old_id), name="registered")])
    fresh = Ledger.build([*others, replace(job(new_id), name="registered")])

    hinted = stub_overlay(text, fresh, previous, required_cells=CELLS)
    assert [(hint.old, hint.new) for hint in hinted.hints] == [(old_id, new_id)]

    result = stub_overlay(text, fresh, previous, required_cells=CELLS, renames=True)
    assert [(move.old, move.new) for move in result.moved] == [(old_id, new_id)]
    assert result.added == ()
    after = dict(YAML(typ="rt").load(result.text)["jobs"])
    assert set(after) == set(existing) - {old_id} | {new_id}
    for fill in result.filled:  # the required cells an entry lacked are added; set them aside
        assert all(after[fill.id][cell] == "unknown" for cell in fill.cells)
        after[fill.id] = {k: v for k, v in after[fill.id].items() if k not in fill.cells} or None
    # A file without a final newline may gain one (a block scalar ending it then gains a "\n").
    ending = "\r\n" if "\r\n" in text else "\n"
    readings = [text, text + ending] if text and not text.endswith("\n") else [text]
    assert any(
        after[new_id] == before[old_id]
        and all(after[job_id] == before[job_id] for job_id in existing if job_id != old_id)
        for before in (YAML(typ="rt").load(reading)["jobs"] for reading in readings)
    )
    again = stub_overlay(result.text, fresh, previous, required_cells=CELLS, renames=True)
    assert not again.changed
