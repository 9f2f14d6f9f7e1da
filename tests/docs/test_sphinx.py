"""``sphinx-build -W -b html`` with the ``jobledger-runbook`` directive, for real, on a copy of the
celery example."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_jobledger.reporters.runbook.build import anchor_for

from ._site import (
    DRAFT,
    HEADING,
    HOSTILE_JOB,
    IMG,
    JS_LINK,
    OVERLAY,
    PIPE,
    RST_HEADING,
    SCRIPT,
    build,
    check_jobs,
    copy_example,
    ledger_jobs,
    parse,
    plant_import_markers,
    sign_hostile,
    unsign,
)

pytestmark = pytest.mark.docs

CONF = 'project = "Acme shop"\nextensions = ["pytest_jobledger.docs.sphinx"]\n'
INDEX = "Acme shop\n=========\n\nJobs\n----\n\n.. jobledger-runbook::\n   :root: ..\n{options}"
#: The directive's line in index.rst, where a refusal is located.
DIRECTIVE_LINE = 7


def _project(root: Path, options: str = "") -> Path:
    (root / "docs").mkdir(exist_ok=True)
    (root / "docs" / "conf.py").write_text(CONF, encoding="utf-8")
    (root / "docs" / "index.rst").write_text(INDEX.format(options=options), encoding="utf-8")
    return root


def _build(root: Path, out: str) -> tuple[int, str]:
    done = build(
        ["sphinx-build", "-W", "-E", "-q", "-b", "html", "-d", f"{out}-doctrees", "docs", out],
        root,
    )
    return done.returncode, done.stderr


def _anchors(root: Path) -> frozenset[str]:
    return frozenset(anchor_for(job["id"]) for job in ledger_jobs(root))


@pytest.fixture(scope="module")
def signed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example signed throughout, one job's cells hostile, grouped by module, built twice."""
    root = _project(
        copy_example(tmp_path_factory.mktemp("sphinx-signed")), "   :group-by: module\n"
    )
    sign_hostile(root)
    marker = plant_import_markers(root)
    for out in ("html", "again"):
        code, stderr = _build(root, out)
        assert code == 0, stderr
    assert not marker.exists(), "a build imported the project"
    return root


def test_every_job_has_its_anchor_and_its_ledger_numbers(signed: Path) -> None:
    page = parse(signed / "html" / "index.html", _anchors(signed))
    check_jobs(page, signed)
    assert "Module acme_shop.billing.tasks" in page.headings


def test_hostile_overlay_text_stays_text(signed: Path) -> None:
    page = parse(signed / "html" / "index.html", _anchors(signed))
    assert "script" not in page.tags
    assert "img" not in page.tags
    assert not [href for href in page.hrefs if "javascript" in href.lower()]
    assert HEADING not in page.headings
    assert RST_HEADING not in page.headings
    body = page.body
    for text in (SCRIPT, IMG, JS_LINK, HEADING, RST_HEADING, ".. raw:: html"):
        assert text in body
    anchor = anchor_for(HOSTILE_JOB)
    row = next(
        cells for where, cells in page.rows if where == anchor and cells[0] == "poison message"
    )
    assert row == ["poison message", f"{SCRIPT} {IMG} {JS_LINK} {PIPE}", "signed, overlay line 12"]
    assert DRAFT not in body


def test_a_page_built_twice_is_byte_identical(signed: Path) -> None:
    assert (signed / "html" / "index.html").read_bytes() == (
        signed / "again" / "index.html"
    ).read_bytes()


@pytest.fixture(scope="module")
def unsigned(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    root = _project(copy_example(tmp_path_factory.mktemp("sphinx-unsigned")))
    return root, unsign(root)


def test_an_unsigned_cell_is_a_build_error_at_the_directive(unsigned: tuple[Path, int]) -> None:
    root, line = unsigned
    code, stderr = _build(root, "refused")
    assert code != 0
    assert f"index.rst:{DIRECTIVE_LINE}: ERROR: jobledger: the runbook is not published" in stderr
    assert f"{OVERLAY}:{line}: {HOSTILE_JOB}::paging_owner [unsigned]" in stderr
    assert "Traceback" not in stderr


def test_a_preview_builds_with_the_cell_marked(unsigned: tuple[Path, int]) -> None:
    root, _ = unsigned
    _project(root, "   :preview:\n")
    code, stderr = _build(root, "preview")
    assert code == 0, stderr
    page = parse(root / "preview" / "index.html", _anchors(root))
    rows = {cells[0]: cells[1:] for where, cells in page.rows if where == anchor_for(HOSTILE_JOB)}
    assert rows["paging owner"][0] == "[UNSIGNED]"
    assert "Preview: 1 policy cell(s) unsigned; not for publication." in page.body
    assert DRAFT not in page.body
