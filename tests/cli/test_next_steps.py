"""``check``'s ``next:`` lines, followed to the letter, make the gate pass: for a moved job,
``stub --renames`` comes before ``extract`` (it finds the old id in the committed ledger, which
``extract`` replaces), so the signed entry moves instead of a fresh ``unknown`` one being added."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from repo_files import REPO, copy_tracked

OLD = "acme.billing.tasks.send_receipt"
NEW = "acme.billing.mail.send_receipt"
COMMAND = re.compile(r"`(jobledger [^`]*)`")


def _jobledger(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest_jobledger", *args, "--root", str(root)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _moved(tmp_path: Path) -> Path:
    """The homegrown example with send_receipt moved to its own module (a new id)."""
    root = copy_tracked(REPO / "examples" / "homegrown", tmp_path / "acme")
    tasks = root / "src" / "acme" / "billing" / "tasks.py"
    text = tasks.read_text("utf-8")
    cut = text.index('@job(queue="mail"')
    (root / "src" / "acme" / "billing" / "mail.py").write_text(
        '"""Mail jobs."""\n\nfrom acme.jobs import job\n\n\n' + text[cut:], "utf-8"
    )
    tasks.write_text(text[:cut].rstrip() + "\n", "utf-8")
    return root


def test_following_the_next_lines_of_a_moved_job_makes_the_gate_pass(tmp_path: Path) -> None:
    root = _moved(tmp_path)
    check = _jobledger(root, "check")
    assert check.returncode == 1
    steps = [line for line in check.stdout.splitlines() if line.startswith("next: ")]
    commands = [COMMAND.search(step) for step in steps]
    followed = [found.group(1) for found in commands if found is not None]
    assert followed == ["jobledger stub --renames", "jobledger extract", "jobledger stub"]
    for command in followed:
        done = _jobledger(root, *command.split()[1:])
        assert done.returncode == 0, (command, done.stdout, done.stderr)
    overlay = (root / "overlays" / "job_policy.yaml").read_text("utf-8")
    assert f"{NEW}:" in overlay
    assert OLD not in overlay
    assert "unknown" not in overlay  # the signed entry moved; no fresh placeholder
    final = _jobledger(root, "check")
    assert final.returncode == 0, final.stdout
    assert final.stdout.splitlines()[-1] == "jobledger: 2 jobs, 10 cells signed"


def test_a_stub_after_extract_says_why_it_cannot_pair_the_orphan(tmp_path: Path) -> None:
    """The order the old advice gave: the hint must not claim the old job matches nothing."""
    root = _moved(tmp_path)
    assert _jobledger(root, "extract").returncode == 0
    stub = _jobledger(root, "stub")
    assert stub.returncode == 0
    assert "matches no job by name or docstring" not in stub.stdout
    assert (
        f"hint: orphan {OLD}: the committed ledger does not name it, so nothing shows what it "
        "became (`jobledger stub --renames` reads the old ids there: run it before `jobledger "
        "extract`)"
    ) in stub.stdout
