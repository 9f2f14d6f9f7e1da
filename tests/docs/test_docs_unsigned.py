"""``docs_unsigned``: what a real docs build does while a cell is unsigned. ``"fail"`` (the
default) refuses, as ``jobledger render`` does; ``"warn"`` publishes the page with a banner that
names every blocker, each cell marked, and the build still passes ``--strict`` / ``-W``. And an
``edit_uri`` that does not name the docs folder is refused, located, rather than linking every
source line to a URL without its branch."""

from __future__ import annotations

from pathlib import Path

import pytest

from ._site import HOSTILE_JOB, build, copy_example, parse, unsign

pytestmark = pytest.mark.docs

MKDOCS_YML = """\
site_name: Acme
repo_url: https://github.com/acme/shop
edit_uri: {edit_uri}
plugins:
  - jobledger:
      root: .
"""
CONF = 'project = "Acme"\nextensions = ["pytest_jobledger.docs.sphinx"]\n'
INDEX = "Acme\n====\n\n.. jobledger-runbook::\n   :root: ..\n"
BANNER = "Published with unsigned work: 1 check fails"


def _project(root: Path, setting: str | None, edit_uri: str = "edit/main/docs/") -> Path:
    copy_example(root)
    unsign(root)
    if setting is not None:
        pyproject = root / "pyproject.toml"
        text = pyproject.read_text("utf-8")
        text = text.replace(
            "[tool.jobledger]\n", f'[tool.jobledger]\ndocs_unsigned = "{setting}"\n'
        )
        pyproject.write_text(text, encoding="utf-8")
    (root / "docs").mkdir()
    (root / "docs" / "index.md").write_text("# Acme\n", encoding="utf-8")
    (root / "mkdocs.yml").write_text(MKDOCS_YML.format(edit_uri=edit_uri), encoding="utf-8")
    (root / "sdocs").mkdir()
    (root / "sdocs" / "conf.py").write_text(CONF, encoding="utf-8")
    (root / "sdocs" / "index.rst").write_text(INDEX, encoding="utf-8")
    return root


def _mkdocs(root: Path) -> tuple[int, str]:
    done = build(["mkdocs", "build", "--strict", "-q", "-d", "site"], root)
    return done.returncode, done.stderr


def _sphinx(root: Path) -> tuple[int, str]:
    done = build(["sphinx-build", "-W", "-E", "-q", "-b", "html", "sdocs", "ssite"], root)
    return done.returncode, done.stderr


@pytest.mark.parametrize("setting", [None, "fail"])
def test_fail_refuses_in_both_builders(tmp_path: Path, setting: str | None) -> None:
    root = _project(tmp_path, setting)
    for run in (_mkdocs, _sphinx):
        code, stderr = run(root)
        assert code != 0
        assert f"{HOSTILE_JOB}::paging_owner" in stderr


def test_warn_publishes_with_a_banner_naming_the_unsigned_cell(tmp_path: Path) -> None:
    root = _project(tmp_path, "warn")
    for run, page in ((_mkdocs, "site/jobs/index.html"), (_sphinx, "ssite/index.html")):
        code, stderr = run(root)
        assert code == 0, stderr
        body = parse(root / page).body
        assert BANNER in body, page
        banner = body[body.index(BANNER) :][:2000]
        assert f"{HOSTILE_JOB}::paging_owner" in banner, page
        assert "[UNSIGNED]" in body, page


def test_warn_is_the_only_other_setting(tmp_path: Path) -> None:
    root = _project(tmp_path, "sometimes")
    code, stderr = _mkdocs(root)
    assert code != 0
    assert "docs_unsigned" in stderr
    assert "'fail', 'warn'" in stderr


def test_an_edit_uri_without_the_docs_folder_is_refused_where_it_is_written(
    tmp_path: Path,
) -> None:
    root = _project(tmp_path, "warn", edit_uri="edit/main/")
    code, stderr = _mkdocs(root)
    assert code != 0
    assert "mkdocs.yml: edit_uri is 'edit/main/', which does not end in the docs folder" in stderr
    assert "edit_uri: edit/main/docs/" in stderr
