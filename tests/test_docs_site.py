"""The documentation site in ``docs/`` builds with ``mkdocs build --strict`` (a broken link or a
page missing from the navigation fails), and every command has its page."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_jobledger.cli import COMMANDS
from pytest_jobledger.project.reference import configuration_page

REPO = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.docs


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site")],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "site" / "commands" / "gate" / "index.html").is_file()


@pytest.mark.parametrize("name", [command.name for command in COMMANDS])
def test_every_command_has_its_page(name: str) -> None:
    page = REPO / "docs" / "commands" / f"{name}.md"
    assert page.read_text("utf-8").startswith(f"# jobledger {name}\n")
    assert f"commands/{name}.md" in (REPO / "mkdocs.yml").read_text("utf-8")


def test_the_readme_links_the_site_and_starts_with_the_two_commands() -> None:
    readme = (REPO / "README.md").read_text("utf-8").splitlines()
    assert readme[2].startswith("    pip install -e . && (cd examples/homegrown")
    assert readme[3] == "    pip install -e '.[test]' && pytest -n auto"
    assert "docs/index.md" in "\n".join(readme[:60])


def test_the_configuration_page_is_the_key_table() -> None:
    """docs/configuration.md is rendered from project/keys.py; regenerate it with
    ``JOBLEDGER_UPDATE_GOLDEN=1 pytest tests/test_docs_site.py``."""
    page = REPO / "docs" / "configuration.md"
    if os.environ.get("JOBLEDGER_UPDATE_GOLDEN"):
        page.write_bytes(configuration_page().encode("utf-8"))
    assert page.read_bytes().decode("utf-8") == configuration_page(), (
        "docs/configuration.md differs from the key table; run "
        "JOBLEDGER_UPDATE_GOLDEN=1 pytest tests/test_docs_site.py"
    )
