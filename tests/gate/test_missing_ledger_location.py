"""With no committed ledger, the ledger-fresh item is located where the repository names the
ledger: the Action annotates a line of a file the pull request holds, never the
missing file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from repo_files import REPO, copy_tracked

from pytest_jobledger.cli import main


@pytest.mark.parametrize(
    ("table", "line"),
    [
        ('[tool.jobledger]\npaths = ["src"]\nledger = "out/ledger.json"\n', 5),
        ('[tool.jobledger]\npaths = ["src"]\n', 3),
    ],
    ids=["the-ledger-key", "the-table-header"],
)
def test_a_missing_ledger_is_located_at_the_configuration(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], table: str, line: int
) -> None:
    root = copy_tracked(REPO / "examples" / "homegrown", tmp_path / "project")
    (root / "generated" / "job_ledger.json").unlink()
    text = (root / "pyproject.toml").read_text("utf-8")
    rest = text[text.index("[tool.jobledger.decorators") :]
    (root / "pyproject.toml").write_text("# two\n# lines\n" + table + "\n" + rest, "utf-8")
    assert main(["check", "--root", str(root), "--format", "json"]) == 1
    findings = json.loads(capsys.readouterr().out)
    fresh = [f for f in findings if f["cell"] == "ledger-fresh"]
    assert [(f["path"], f["line"]) for f in fresh] == [("pyproject.toml", line)]
    assert (root / fresh[0]["path"]).is_file()
