"""Bad overlays: each gives exactly one located, readable failure, never a crash.

How long each takes is measured by ``benchmarks/hostile_gate.py``, not asserted here: a timed
assertion fails on a loaded machine.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_jobledger.findings import GateResult, Kind
from pytest_jobledger.ledger.model import Job, Ledger
from pytest_jobledger.project import Config
from pytest_jobledger.session import evaluate

LEDGER = Ledger.build(
    [
        Job(
            id="acme.billing.tasks.capture_invoice",
            function="capture_invoice",
            module="acme.billing.tasks",
            path="src/acme/billing/tasks.py",
            line=12,
            framework="celery",
            decorator="celery.shared_task",
        )
    ]
)


def _gate(root: Path) -> GateResult:
    """The gate on ``root`` with :data:`LEDGER` committed, so only the overlay can fail."""
    committed = root / "generated" / "job_ledger.json"
    committed.parent.mkdir(exist_ok=True)
    committed.write_text(LEDGER.dumps(), encoding="utf-8")
    return evaluate(Config(root=root), ledger=LEDGER)


def _alias_bomb() -> str:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for index in range(1, 10):
        name, prev = f"l{index}", "a" if index == 1 else f"l{index - 1}"
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    lines.append("jobs:\n  acme.billing.tasks.capture_invoice: *l9")
    return "\n".join(lines) + "\n"


def _ten_megabytes() -> str:
    entry = (
        "  acme.generated.job{0}:\n"
        '    idempotent: "yes"\n'
        "    poison_policy: park payload and page the owner after three parks\n"
    )
    parts = ["jobs:\n"]
    size, index = 6, 0
    while size < 10 * 1024 * 1024:
        chunk = entry.format(index)
        parts.append(chunk)
        size += len(chunk)
        index += 1
    return "".join(parts)


BAD: dict[str, tuple[str | bytes, int, str]] = {
    "syntax_error": ("jobs:\n  acme.x: {idempotent: 'yes'\n", 2, "not valid YAML"),
    "duplicate_job": (
        "jobs:\n  acme.x: {}\n  acme.y: {}\n  acme.x: {}\n",
        4,
        "duplicate key 'acme.x'",
    ),
    "duplicate_cell": (
        'jobs:\n  acme.x:\n    idempotent: "yes"\n    idempotent: "no"\n',
        4,
        "duplicate key 'idempotent'",
    ),
    "top_level_list": ("- acme.x\n- acme.y\n", 1, "the top level must be a mapping"),
    "jobs_is_list": ("jobs:\n  - acme.x\n", 1, "`jobs` must be a mapping"),
    "entry_is_list": ("jobs:\n  acme.x:\n    - idempotent\n", 2, "the entry for acme.x must be"),
    "entry_is_text": ("jobs:\n  acme.x: signed by ops\n", 2, "not the text 'signed by ops'"),
    "top_level_typo": ("job:\n  acme.x: {}\n", 1, "unknown key 'job'"),
    "integer_key": ("jobs:\n  acme.x:\n    1: yes\n", 3, "the number 1, not text"),
    "boolean_key": ("jobs:\n  true: {}\n", 2, "the YAML boolean true, not text"),
    "null_key": ("jobs:\n  ~: {}\n", 2, "empty (null), not text"),
    "complex_key": ("jobs:\n  ? [a, b]\n  : {}\n", 2, "a list, not text"),
    "empty_job_id": ('jobs:\n  "": {}\n', 2, "an empty job id"),
    "alias_bomb": (_alias_bomb(), 12, "anchors and aliases"),
    "merge_key": ("jobs:\n  acme.x:\n    <<: {idempotent: 'yes'}\n", 3, "merge keys"),
    "two_documents": ("jobs: {}\n---\njobs: {}\n", 2, "single document"),
    "tab_indent": ("jobs:\n\tacme.x: {}\n", 2, "not valid YAML"),
    "not_utf8": (b"jobs:\n  acme.x:\n    paging_owner: caf\xe9\n", 3, "not UTF-8"),
    "deep_flow_nesting": ("jobs: " + "[" * 50_000, 1, "nest more than 64 deep"),
    "deep_block_nesting": (
        "jobs:\n" + "".join(" " * (2 * i + 2) + f"k{i}:\n" for i in range(400)),
        1,
        "nested too deeply",
    ),
    "ten_megabytes": (_ten_megabytes(), 1, "over the 1,048,576-byte limit"),
    # tracebacks before, located refusals now
    "lone_surrogate_value": (
        'jobs:\n  acme.x:\n    paging_owner: "\\udfff"\n',
        3,
        "lone surrogate",
    ),
    "lone_surrogate_key": ('jobs:\n  "acme.\\ud800x": {}\n', 2, "lone surrogate"),
    "local_tag_scalar": ("jobs:\n  acme.x:\n    paging_owner: !custom ops\n", 3, "tagged !custom"),
    "local_tag_sequence": (
        "jobs:\n  acme.x:\n    paging_owner: !custom [1]\n",
        3,
        "tagged !custom",
    ),
    "local_tag_jobs": ("jobs: !custom\n  acme.x: {}\n", 1, "tagged !custom"),
    "tagged_key": ("jobs:\n  !custom acme.x: {}\n", 2, "is a value tagged !custom, not text"),
    "omap_entry": ('jobs:\n  acme.x: !!omap\n    - idempotent: "yes"\n', 2, "(!!omap)"),
    "omap_jobs": ("jobs: !!omap\n  - acme.x: {}\n", 1, "(!!omap)"),
    "pairs_jobs": ("jobs: !!pairs [a: 1]\n", 1, "`jobs` must be a mapping"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_overlay_is_one_located_failure(tmp_path: Path, name: str) -> None:
    text, line, says = BAD[name]
    overlay = tmp_path / "overlays" / "job_policy.yaml"
    overlay.parent.mkdir()
    if isinstance(text, bytes):
        overlay.write_bytes(text)
    else:
        overlay.write_text(text, encoding="utf-8")
    # How long each takes is measured by benchmarks/, not asserted here: timings flake under load.
    result = _gate(tmp_path)
    [finding] = result.findings
    assert finding.kind is Kind.OVERLAY_INVALID
    assert (finding.path, finding.line) == ("overlays/job_policy.yaml", line)
    assert says in finding.message
    assert "Traceback" not in finding.message
    # The cells cannot be judged, so they are skipped rather than failed a second time.
    assert sum(1 for check in result.checks if check.skipped) == 5


def test_empty_overlay_is_valid_and_every_cell_unsigned(tmp_path: Path) -> None:
    (tmp_path / "overlays").mkdir()
    for text in ("", "# nothing signed yet\n", "jobs:\n", "jobs: {}\n"):
        (tmp_path / "overlays" / "job_policy.yaml").write_text(text, encoding="utf-8")
        findings = _gate(tmp_path).findings
        assert [f.kind for f in findings] == [Kind.UNSIGNED] * 5
        assert {(f.path, f.line) for f in findings} == {("src/acme/billing/tasks.py", 12)}


def test_an_entry_with_no_cells_is_unsigned_at_its_key(tmp_path: Path) -> None:
    (tmp_path / "overlays").mkdir()
    (tmp_path / "overlays" / "job_policy.yaml").write_text(
        "jobs:\n  acme.billing.tasks.capture_invoice:\n", encoding="utf-8"
    )
    findings = _gate(tmp_path).findings
    assert {(f.kind, f.path, f.line) for f in findings} == {
        (Kind.UNSIGNED, "overlays/job_policy.yaml", 2)
    }
    assert len(findings) == 5


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("!!binary aGVsbG8=", "holds binary data (a !!binary value), not text"),
        ("!!set {a, b}", "holds a set (a !!set value), not text"),
        ("!!pairs [a: 1]", "holds a list, not text"),
    ],
)
def test_standard_tags_are_described_in_words(tmp_path: Path, value: str, says: str) -> None:
    (tmp_path / "overlays").mkdir()
    (tmp_path / "overlays" / "job_policy.yaml").write_text(
        f"jobs:\n  acme.billing.tasks.capture_invoice:\n    paging_owner: {value}\n"
    )
    [finding] = [f for f in _gate(tmp_path).findings if f.line == 3]
    assert finding.kind is Kind.NOT_TEXT
    assert says in finding.message
    assert "TaggedScalar" not in finding.message
    assert "bytes" not in finding.message


def test_a_str_tag_is_the_text_it_tags(tmp_path: Path) -> None:
    (tmp_path / "overlays").mkdir()
    (tmp_path / "overlays" / "job_policy.yaml").write_text(
        "jobs:\n  acme.billing.tasks.capture_invoice:\n    paging_owner: !!str 5\n"
    )
    findings = _gate(tmp_path).findings
    assert [f.cell for f in findings if f.line == 3] == []
