"""``jobledger baseline`` end to end: what it writes and prints, its exit codes, and that the file
is the same bytes every time and only ever shrinks under ``--shrink``."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from repo_files import copy_tracked

from pytest_jobledger.cli import main

from ._project import BASELINE, CAPTURE, HOMEGROWN, RECEIPT, baseline, legacy


def test_writes_every_failing_cell_sorted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = legacy(tmp_path)
    assert main(["check", "--root", str(root)]) == 1
    capsys.readouterr()
    assert baseline(root) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        f"jobledger: wrote {BASELINE}: 6 entries (added 6, removed 0)",
        f"  + {CAPTURE}::idempotent [not-yes-no]",
        *(
            f"  + {RECEIPT}::{cell} [unsigned]"
            for cell in ("idempotent", "paging_owner", "poison_policy", "purpose_accepted")
        ),
        f"  + {RECEIPT}::runtime_class [unsigned]",
    ]
    text = (root / BASELINE).read_text("utf-8")
    assert text.startswith(
        '{\n  "entries": [\n'
        f'    {{"cell": "idempotent", "id": "{CAPTURE}", "kind": "not-yes-no"}},\n'
    )
    assert text.endswith('  "format": "jobledger-baseline",\n  "schema_version": 1\n}\n')
    # The gate now passes: every failure is known.
    assert main(["check", "--root", str(root)]) == 0
    # One line: the known items are counted, and -v lists them.
    assert capsys.readouterr().out.splitlines() == [
        "jobledger: 2 jobs, 4 of 10 cells signed; 6 known (not failing; -v lists them)"
    ]


def test_the_same_failures_give_the_same_bytes_and_a_rerun_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    one, two = legacy(tmp_path, "one"), legacy(tmp_path, "two")
    assert baseline(one) == 0
    assert baseline(two) == 0
    first = (one / BASELINE).read_bytes()
    assert first == (two / BASELINE).read_bytes()
    capsys.readouterr()
    before = os.stat(one / BASELINE)
    assert baseline(one) == 0
    assert capsys.readouterr().out == f"jobledger: {BASELINE} is up to date (6 entries)\n"
    after = os.stat(one / BASELINE)
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert baseline(one, "--check") == 0
    assert (one / BASELINE).read_bytes() == first


def test_nothing_to_baseline_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "signed"
    copy_tracked(HOMEGROWN, root)
    assert baseline(root) == 0
    assert capsys.readouterr().out == (
        f"jobledger: nothing to baseline: no cell fails; {BASELINE} was not written\n"
    )
    assert not (root / BASELINE).exists()


def test_a_rerun_records_the_failures_as_they_are_and_lists_what_it_adds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = legacy(tmp_path)
    assert baseline(root) == 0
    overlay = root / "overlays" / "job_policy.yaml"
    text = overlay.read_text("utf-8").replace("idempotent: no", 'idempotent: "no"')
    overlay.write_text(text.replace("    paging_owner: billing-oncall\n", ""), encoding="utf-8")
    capsys.readouterr()
    assert baseline(root, "--check") == 1  # writes nothing, says what would change
    assert capsys.readouterr().out.splitlines() == [
        f"jobledger: would change {BASELINE}: 6 entries (added 1, removed 1)",
        f"  + {CAPTURE}::paging_owner [unsigned]",
        f"  - {CAPTURE}::idempotent [not-yes-no]",
        "jobledger: run `jobledger baseline` to write it",
    ]
    assert f'"id": "{CAPTURE}", "kind": "not-yes-no"' in (root / BASELINE).read_text("utf-8")
    assert baseline(root) == 0
    assert capsys.readouterr().out.splitlines()[0] == (
        f"jobledger: wrote {BASELINE}: 6 entries (added 1, removed 1)"
    )


def test_shrink_drops_fixed_entries_and_adds_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = legacy(tmp_path)
    assert baseline(root, "--shrink") == 2  # nothing to shrink yet
    assert "there is no baseline to shrink" in capsys.readouterr().err
    assert baseline(root) == 0
    overlay = root / "overlays" / "job_policy.yaml"
    text = overlay.read_text("utf-8").replace("idempotent: no", 'idempotent: "no"')
    overlay.write_text(text.replace("    paging_owner: billing-oncall\n", ""), encoding="utf-8")
    assert main(["check", "--root", str(root)]) == 1  # one stale entry, one new failure
    capsys.readouterr()
    assert baseline(root, "--shrink") == 0
    assert capsys.readouterr().out.splitlines() == [
        f"jobledger: wrote {BASELINE}: 5 entries (added 0, removed 1)",
        f"  - {CAPTURE}::idempotent [not-yes-no]",
        "jobledger: 1 failing cell is not in the baseline (--shrink adds none); "
        "`jobledger check` lists them",
    ]
    assert "paging_owner" not in (root / BASELINE).read_text("utf-8").split(RECEIPT)[0]
    assert main(["check", "--root", str(root)]) == 1  # the new failure still fails


def test_the_last_fix_leaves_an_empty_baseline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = legacy(tmp_path)
    assert baseline(root) == 0
    shutil.copy(HOMEGROWN / "overlays" / "job_policy.yaml", root / "overlays" / "job_policy.yaml")
    capsys.readouterr()
    assert baseline(root, "--shrink") == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"jobledger: wrote {BASELINE}: 0 entries (added 0, removed 6)"
    assert out[-1] == (
        f"jobledger: the baseline is empty: every known failure is fixed; {BASELINE} may go"
    )
    assert main(["check", "--root", str(root)]) == 0


def test_status_items_are_never_baselined(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = legacy(tmp_path)
    ledger = root / "generated" / "job_ledger.json"
    ledger.write_text(ledger.read_text("utf-8").replace('"billing"', '"billing-edited"'))
    assert baseline(root) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (
        f"jobledger: {BASELINE} was not written: status items are never baselined, and cells "
        "that cannot be judged are neither known nor fixed; fix these first"
    )
    assert out[1].startswith("generated/job_ledger.json:")
    assert "[ledger-stale]" in out[1]
    assert not (root / BASELINE).exists()
    # An overlay that does not parse: no cell can be judged, so none is recorded (or dropped).
    shutil.copy(HOMEGROWN / "generated" / "job_ledger.json", ledger)
    assert baseline(root) == 0
    before = (root / BASELINE).read_bytes()
    (root / "overlays" / "job_policy.yaml").write_text("jobs: [\n", encoding="utf-8")
    capsys.readouterr()
    assert baseline(root, "--shrink") == 1
    assert "[overlay-invalid]" in capsys.readouterr().out
    assert (root / BASELINE).read_bytes() == before


def test_the_baseline_path_is_configurable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = legacy(tmp_path)
    pyproject = root / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text("utf-8").replace(
            'paths = ["src"]', 'paths = ["src"]\nbaseline = "ci/known-failures.json"'
        )
    )
    assert baseline(root) == 0
    assert "wrote ci/known-failures.json: 6 entries" in capsys.readouterr().out
    assert not (root / BASELINE).exists()
    assert main(["check", "--root", str(root)]) == 0


def test_hostile_job_ids_print_as_inert_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A registered name that holds a newline and a workflow command stays one inert line."""
    root = tmp_path / "hostile"
    (root / "billing").mkdir(parents=True)
    (root / "billing" / "__init__.py").write_text("")
    forged = "x\\n::error title=forged::pwned"
    (root / "billing" / "tasks.py").write_text(
        "from celery import shared_task\n\n\n"
        f'@shared_task(name="{forged}")\ndef capture(invoice_id):\n    """Charge it."""\n'
    )
    (root / "pyproject.toml").write_text('[tool.jobledger]\njob_id = "registered-name"\n')
    assert main(["extract", "--root", str(root)]) == 0
    assert baseline(root) == 0
    assert main(["check", "--root", str(root), "--format", "github"]) == 0
    out, err = capsys.readouterr()
    assert not [line for line in (out + err).splitlines() if line.startswith("::error title=f")]
    assert "x\\n::error title=forged::pwned::idempotent [unsigned]" in out
