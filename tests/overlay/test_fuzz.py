"""Fuzz: generated YAML through the overlay reader and the stub never crashes.

Whatever the text, the reader returns an overlay or raises one located :class:`OverlayError`;
the stub returns text or raises one located :class:`OverlayError` (never a ``StubBug``, never
another exception), and what it returns means the old overlay plus the new entries, and is read
by the gate whenever the old text was. Texts are built from the pieces people (and hostile pull
requests) write: every quoting of keys, block scalars with each chomping, flow collections, tags,
anchors, escapes of control characters and surrogates, comments anywhere, tabs, CRLF, CR, a BOM,
documents markers, and lines of pure noise.

In CI this runs with the "ci" Hypothesis profile (derandomized, 50 examples). To fuzz:

    HYPOTHESIS_PROFILE=fuzz pytest tests/overlay/test_fuzz.py -p no:randomly -x

Every failure it finds becomes a fixed example here (``@example``) or in ``tests/cases/``.
"""

from __future__ import annotations

from typing import Any

from hypothesis import example, given
from hypothesis import strategies as st
from ruamel.yaml import YAML
from ruamel.yaml.comments import TaggedScalar

from pytest_jobledger.core.errors import OverlayError
from pytest_jobledger.ledger.model import Job, Ledger
from pytest_jobledger.overlay.model import Overlay
from pytest_jobledger.overlay.reader import parse_overlay
from pytest_jobledger.overlay.values import to_plain
from pytest_jobledger.stub.plan import stub_overlay

IDS = ("acme.a", "acme.b", "acme.c.job", "on", "1:20", "it's", "a b", "x" * 1030)
KEY_STYLES = st.sampled_from(["plain", "single", "double", "explicit"])
CELLS = ("idempotent", "paging_owner", "poison_policy", "queue", "odd key")
VALUES = (
    '"yes"',
    "no",
    "'park; page'",
    "",
    "~",
    "!!str 5",
    "!!binary aGVsbG8=",
    "!custom x",
    "[a, b]",
    "{a: 1}",
    '"\\udfff"',
    '"\\x00"',
    '"\\u200b"',
    "&anchor x",
    "*anchor",
    "|+\n      kept\n\n",
    ">-\n      folded\n",
    "|\n      # not a comment\n",
    '"a # b"',
    "2001-12-14",
    "0x1F",
    "\t tab",
)
NOISE = (
    "",
    "# a comment",
    "   # indented comment",
    "  ? explicit",
    "  : value",
    "---",
    "...",
    "%YAML 1.2",
    "  [",
    "  {",
    "\t",
    "  <<: *anchor",
    "  - item",
    "jobs: {}",
    "  !!omap",
)


@st.composite
def key_text(draw: st.DrawFn) -> str:
    job = draw(st.sampled_from(IDS))
    style = draw(KEY_STYLES)
    if style == "single":
        return "'" + job.replace("'", "''") + "'"
    if style == "double":
        return '"' + job.replace('"', '\\"') + '"'
    if style == "explicit":
        return f"? {job}\n  :"
    return job


@st.composite
def overlay_texts(draw: st.DrawFn) -> str:
    lines: list[str] = []
    if draw(st.booleans()):
        lines.append(draw(st.sampled_from(["%YAML 1.2\n---", "---", "# header"])))
    lines.append("jobs:" + draw(st.sampled_from(["", "  # note", " {}", " null"])))
    for _ in range(draw(st.integers(0, 4))):
        indent = " " * draw(st.sampled_from([2, 2, 4, 1]))
        lines.append(f"{indent}{draw(key_text())}:")
        for _ in range(draw(st.integers(0, 3))):
            cell = draw(st.sampled_from(CELLS))
            lines.append(f"{indent}  {cell}: {draw(st.sampled_from(VALUES))}".rstrip(" "))
        if draw(st.integers(0, 4)) == 0:
            lines.append(draw(st.sampled_from(NOISE)))
    text = "\n".join(lines) + draw(st.sampled_from(["\n", "", "\n\n"]))
    ending = draw(st.sampled_from(["\n", "\n", "\r\n", "\r"]))
    text = text.replace("\n", ending)
    return ("\ufeff" if draw(st.integers(0, 9)) == 0 else "") + text


def job(job_id: str) -> Job:
    return Job(
        id=job_id,
        function="f",
        module="acme",
        path="src/acme.py",
        line=1,
        framework="celery",
        decorator="celery.shared_task",
    )


def meaning(value: Any) -> Any:
    """A loaded document as comparable values (a tagged scalar has no equality of its own)."""
    if isinstance(value, TaggedScalar):
        return ("tagged", str(value.tag.value), value.value)
    if isinstance(value, dict):
        return {key: meaning(item) for key, item in value.items()}
    if isinstance(value, list):
        return [meaning(item) for item in value]
    return to_plain(value)


def read(text: str) -> Overlay | OverlayError:
    try:
        return parse_overlay(text, "overlays/job_policy.yaml")
    except OverlayError as error:
        return error


@given(overlay_texts())
@example("jobs:\n  x: !custom [1]\n")
@example("jobs: !!omap\n  - acme.a: {}\n")
@example("jobs:\n  acme.a: !!pairs [a: 1]\n")
def test_the_reader_returns_an_overlay_or_one_located_error(text: str) -> None:
    outcome = read(text)
    if isinstance(outcome, OverlayError):
        assert outcome.path == "overlays/job_policy.yaml"
        assert outcome.line is None or outcome.line >= 1


@given(overlay_texts(), st.lists(st.sampled_from(IDS), unique=True, max_size=3))
@example("jobs:\n  ? acme.a\n  : idempotent: x\n", ["acme.a", "acme.b"])
@example("jobs:\r  acme.a:\r    idempotent: x\r", ["acme.b"])
@example('jobs:\n  acme.a:\n    idempotent: "yes"\n', ["x" * 1030])
@example("\ufeffjobs:\n  acme.a:\n    idempotent: !custom x\n", [])  # found by the fuzz profile
# Found by the explore profile: a BOM, a repeated job key and a reused anchor
# made ruamel's ReusedAnchorWarning escape from stub/layout.read_events.
@example("\ufeffjobs:\n  acme.a: &a {}\n  acme.a: &a {}\n", ["acme.b"])
@example(
    "jobs:\n  acme.a:\n    reviewed_on: 2025-02-30\n", ["acme.b"]
)  # an impossible date once crashed the reader
@example("", ["acme.a"])  # an empty overlay is an empty one
@example("# only a comment\n", ["acme.a"])
def test_the_stub_returns_the_old_meaning_plus_additions_or_one_located_error(
    text: str, ids: list[str]
) -> None:
    ledger = Ledger.build([job(i) for i in ids])
    try:
        result = stub_overlay(text, ledger, required_cells=CELLS[:2])
    except OverlayError as error:  # a StubBug (an "internal error") is not one: it fails here
        refused: OverlayError | None = error
    else:
        refused = None
    if refused is not None:
        assert refused.path == "overlays/job_policy.yaml"
        return
    before = meaning(YAML(typ="rt").load(text)) or {}
    after = meaning(YAML(typ="rt").load(result.text)) or {}
    old_jobs = dict(before.get("jobs") or {})
    new_jobs = dict(after.get("jobs") or {})
    # Each old entry means what it meant, plus the required cells it lacked (the placeholder).
    filled = {fill.id: fill.cells for fill in result.filled}
    expected = {}
    for key, value in old_jobs.items():
        if key in filled:
            assert not set(filled[key]) & set(value or {})
            value = {**(value or {}), **dict.fromkeys(filled[key], "unknown")}
        expected[key] = value
    assert {k: v for k, v in new_jobs.items() if k in old_jobs} == expected
    assert set(new_jobs) == set(old_jobs) | set(ids)
    if not isinstance(read(text), OverlayError):
        assert isinstance(read(result.text), Overlay)
