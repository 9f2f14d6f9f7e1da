"""The runbook page as on-call reads it, in both builders' default themes, built for real
(``mkdocs build``, ``sphinx-build``) from the bundled Celery and RQ examples: tables that fit a
1280 px window's content column (measured in headless Chromium), the jobs in the sidebar, the
operator's facts first, and the same words in both builders."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_jobledger.reporters.runbook.build import anchor_for

from ._browser import measure
from ._site import build, copy_example, ledger_jobs, parse

pytestmark = pytest.mark.docs

EXAMPLES = ("examples/celery", "examples/rq")
BUILDERS = ("mkdocs", "sphinx")
MKDOCS_YML = """\
site_name: Acme
repo_url: https://github.com/acme/shop
edit_uri: edit/main/docs/
plugins:
  - jobledger:
      root: .
"""
#: The runbook on a page of its own, in the root toctree: how a Sphinx site lists a page's
#: sections in the default theme's sidebar.
SPHINX = {
    "conf.py": 'project = "Acme"\nextensions = ["pytest_jobledger.docs.sphinx"]\n',
    "index.rst": "Acme\n====\n\n.. toctree::\n\n   jobs\n",
    "jobs.rst": "Job runbook\n===========\n\n.. jobledger-runbook::\n   :root: ..\n",
}


def _built(root: Path, builder: str) -> Path:
    """The job page of ``builder``'s site for the project at ``root``."""
    if builder == "mkdocs":
        (root / "docs").mkdir(exist_ok=True)
        (root / "docs" / "index.md").write_text("# Acme\n", encoding="utf-8")
        (root / "mkdocs.yml").write_text(MKDOCS_YML, encoding="utf-8")
        done = build(["mkdocs", "build", "--strict", "-q", "-d", "site"], root)
        assert done.returncode == 0, done.stderr
        return root / "site" / "jobs" / "index.html"
    (root / "sdocs").mkdir(exist_ok=True)
    for name, text in SPHINX.items():
        (root / "sdocs" / name).write_text(text, encoding="utf-8")
    done = build(["sphinx-build", "-W", "-E", "-q", "-b", "html", "sdocs", "ssite"], root)
    assert done.returncode == 0, done.stderr
    return root / "ssite" / "jobs.html"


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Path]:
    """Each example built with each builder: (example, builder) -> the built job page."""
    made = {}
    for example in EXAMPLES:
        root = copy_example(tmp_path_factory.mktemp(Path(example).name), example)
        for builder in BUILDERS:
            made[example, builder] = _built(root, builder)
    return made


def _anchors(page: Path, example: str) -> frozenset[str]:
    del page
    root = Path(__file__).resolve().parents[2] / example
    return frozenset(anchor_for(job["id"]) for job in ledger_jobs(root))


@pytest.mark.parametrize("builder", BUILDERS)
@pytest.mark.parametrize("example", EXAMPLES)
def test_no_table_is_wider_than_the_content_column(
    sites: dict[tuple[str, str], Path], example: str, builder: str
) -> None:
    measured = measure(sites[example, builder])
    assert measured.tables, "no table was measured"
    assert measured.width > 0
    assert not measured.too_wide(), (measured.right, measured.too_wide())


@pytest.mark.parametrize("example", EXAMPLES)
def test_both_builders_word_every_table_cell_alike(
    sites: dict[tuple[str, str], Path], example: str
) -> None:
    anchors = _anchors(sites[example, "mkdocs"], example)
    mkdocs = parse(sites[example, "mkdocs"], anchors).rows
    sphinx = parse(sites[example, "sphinx"], anchors).rows
    assert mkdocs
    assert mkdocs == sphinx


@pytest.mark.parametrize("builder", BUILDERS)
@pytest.mark.parametrize("example", EXAMPLES)
def test_every_job_is_in_the_sidebar(
    sites: dict[tuple[str, str], Path], example: str, builder: str
) -> None:
    html = sites[example, builder].read_text("utf-8")
    for anchor in _anchors(sites[example, builder], example):
        assert f'href="#{anchor}"' in html, anchor  # the index links it too: look in the nav
        nav = html[: html.index('role="main"')] if builder == "mkdocs" else html
        side = nav if builder == "mkdocs" else html[html.index('class="sphinxsidebar"') :]
        assert f"#{anchor}" in side, anchor


@pytest.mark.parametrize("builder", BUILDERS)
def test_the_operator_facts_come_first_and_the_digests_last(
    sites: dict[tuple[str, str], Path], builder: str
) -> None:
    page = parse(
        sites["examples/rq", builder], _anchors(sites["examples/rq", builder], "examples/rq")
    )
    body = page.body
    assert body.index("sha256") > body.rindex("From the source")
    index = [cells for where, cells in page.rows if where is None]
    assert index[0][:4] == ["job", "paging owner", "safe to retry", "poison message"]
    job = [cells[0] for where, cells in page.rows if where is not None]
    # the delivery fact (what the framework does on failure) sits beside the promise it tests
    operator = ["paging owner", "safe to retry (idempotent)", "delivery", "poison message"]
    assert [row for row in job[1:5] if row != "delivery"] == [
        r for r in operator if r != "delivery"
    ]
    assert job[1:5] == operator or "delivery" not in job
    # rq has no soft time limit and no registered name: no row says so, one footnote does
    assert "not stated: rq has no" not in body
    assert "soft time limit" not in job
    assert "rq has no soft time limit" in body
