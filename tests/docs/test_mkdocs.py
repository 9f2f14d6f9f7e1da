"""``mkdocs build`` with the ``jobledger`` plugin, for real, on a copy of the celery example."""

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

MKDOCS_YML = """\
site_name: Acme shop
repo_url: https://github.com/acme/shop
edit_uri: edit/main/docs/
plugins:
  - jobledger:
      root: .
{extra}"""


def _site(root: Path, extra: str = "") -> Path:
    (root / "docs").mkdir(exist_ok=True)
    (root / "docs" / "index.md").write_text("# Acme shop\n", encoding="utf-8")
    (root / "mkdocs.yml").write_text(MKDOCS_YML.format(extra=extra), encoding="utf-8")
    return root


def _anchors(root: Path) -> frozenset[str]:
    return frozenset(anchor_for(job["id"]) for job in ledger_jobs(root))


@pytest.fixture(scope="module")
def signed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example signed throughout, one job's cells hostile, built twice."""
    root = _site(copy_example(tmp_path_factory.mktemp("mkdocs-signed")))
    sign_hostile(root)
    marker = plant_import_markers(root)
    for out in ("site", "again"):
        done = build(["mkdocs", "build", "--strict", "-q", "-d", out], root)
        assert done.returncode == 0, done.stderr
    assert not marker.exists(), "a build imported the project"
    return root


def test_every_job_has_its_anchor_and_its_ledger_numbers(signed: Path) -> None:
    page = parse(signed / "site" / "jobs" / "index.html", _anchors(signed))
    check_jobs(page, signed)
    assert "Job runbook: acme-shop" in page.headings


def test_hostile_overlay_text_stays_text(signed: Path) -> None:
    page = parse(signed / "site" / "jobs" / "index.html", _anchors(signed))
    assert "script" not in page.tags
    assert "img" not in page.tags
    assert not [href for href in page.hrefs if "javascript" in href.lower()]
    assert HEADING not in page.headings
    assert RST_HEADING not in page.headings
    body = page.body
    # Python-Markdown keeps the backslash of an escape it does not know (`\<`): still text.
    for text in ("alert('xss')", "onerror=alert(1)", "javascript:alert(1)", "Owned heading"):
        assert text in body
    # The pipe stayed in its cell: the row has the table's three cells.
    anchor = anchor_for(HOSTILE_JOB)
    row = next(
        cells for where, cells in page.rows if where == anchor and cells[0] == "poison message"
    )
    assert len(row) == 3
    assert PIPE in row[1]
    assert SCRIPT.replace("<", "\\<") in row[1] or SCRIPT in row[1]
    assert IMG[1:] in row[1]
    assert JS_LINK in row[1].replace("\\", "")
    assert DRAFT not in body


def test_locations_link_to_their_lines(signed: Path) -> None:
    page = parse(signed / "site" / "jobs" / "index.html")
    job = next(job for job in ledger_jobs(signed) if job["id"] == HOSTILE_JOB)
    assert f"https://github.com/acme/shop/blob/main/{job['path']}#L{job['line']}" in page.hrefs
    overlay = [href for href in page.hrefs if OVERLAY in href]
    assert overlay
    assert all(
        href.startswith(f"https://github.com/acme/shop/blob/main/{OVERLAY}#L") for href in overlay
    )


def test_a_page_built_twice_is_byte_identical(signed: Path) -> None:
    first = (signed / "site" / "jobs" / "index.html").read_bytes()
    assert first == (signed / "again" / "jobs" / "index.html").read_bytes()


def test_nothing_is_written_to_the_repository(signed: Path) -> None:
    assert not (signed / "docs" / "jobs.md").exists()


@pytest.fixture(scope="module")
def unsigned(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    root = _site(copy_example(tmp_path_factory.mktemp("mkdocs-unsigned")))
    return root, unsign(root)


def test_an_unsigned_cell_fails_the_build_with_its_location(unsigned: tuple[Path, int]) -> None:
    root, line = unsigned
    done = build(["mkdocs", "build", "-q", "-d", "refused"], root)
    assert done.returncode != 0
    assert f"{OVERLAY}:{line}: {HOSTILE_JOB}::paging_owner [unsigned]" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (root / "refused" / "jobs").exists()


def test_a_preview_builds_with_the_cell_marked(unsigned: tuple[Path, int]) -> None:
    root, _ = unsigned
    _site(root, "      preview: true\n")
    done = build(["mkdocs", "build", "--strict", "-q", "-d", "preview"], root)
    assert done.returncode == 0, done.stderr
    page = parse(root / "preview" / "jobs" / "index.html", _anchors(root))
    anchor = anchor_for(HOSTILE_JOB)
    rows = {cells[0]: cells[1:] for where, cells in page.rows if where == anchor}
    assert rows["paging owner"][0] == "[UNSIGNED]"
    assert "Preview: 1 policy cell is unsigned; not for publication." in page.body
    assert DRAFT not in page.body


def test_a_wrong_root_is_a_located_build_error(tmp_path: Path) -> None:
    root = _site(tmp_path)
    (root / "mkdocs.yml").write_text(
        MKDOCS_YML.format(extra="").replace("root: .", "root: missing"), encoding="utf-8"
    )
    done = build(["mkdocs", "build", "-q"], root)
    assert done.returncode != 0
    assert f"jobledger: {root / 'missing'}: root is not a folder" in done.stderr
    assert "Traceback" not in done.stderr
