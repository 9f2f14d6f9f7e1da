"""The composite action, end to end, in a real local Actions runner (act), offline.

``uses: ./`` runs our action.yml from the checked-out repository, which builds its private venv
and installs the tool from the action's folder (see :mod:`._act` for how it stays offline). The
run is a pull request: a base commit with the example as it is, and a head commit that breaks the
overlay and raises ``capture_invoice``'s retries without touching its signed entry.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from repo_files import copy_tracked
from reporters.runbook._inert import readable

from pytest_jobledger.cli import main

from . import _act
from ._act import commands_acted_on, step_events

REPO = Path(__file__).parents[2]

pytestmark = [_act.needs_act, pytest.mark.act]

OVERLAY = "services/shop/overlays/job_policy.yaml"
SHOP = "services/shop"
BILLING_TASKS = "src/acme_shop/billing/tasks.py"

WORKFLOW = """\
on: pull_request
jobs:
  gate:
    runs-on: ubuntu-latest
    env: {env}
    steps:
      - uses: actions/checkout@v4
      - id: ledger
        uses: ./
        with:
          working-directory: services/shop
          python: {python}
          pytest-args: -n 2 -k "not no_such_item and not other" -p "no:$(touch {pwned})"
      - name: show outputs
        if: always()
        env:
          FAILING: ${{{{ steps.ledger.outputs.failing-cells }}}}
          UNSIGNED: ${{{{ steps.ledger.outputs.unsigned-jobs }}}}
          ORPHANS: ${{{{ steps.ledger.outputs.orphans }}}}
          SARIF: ${{{{ steps.ledger.outputs.sarif }}}}
        run: |
          echo "outputs: failing=$FAILING unsigned=$UNSIGNED orphans=$ORPHANS"
          python3 -c 'import json, os, sys; json.load(open(os.environ["SARIF"])); print("sarif ok")'
"""


TASKS = f"{SHOP}/{BILLING_TASKS}"


def make_repo(path: Path, wheels: Path) -> tuple[Path, str]:
    """The repository at the pull request's head, and the sha of its base commit."""
    _act.copy_action(path)
    shop = path / "services" / "shop"
    copy_tracked(REPO / "examples" / "celery", shop)
    base = _act.commit(path, "base")
    tasks = path / TASKS
    tasks.write_text(tasks.read_text("utf-8").replace("max_retries=5", "max_retries=20", 1))
    assert main(["extract", "--root", str(shop)]) == 0
    overlay = path / OVERLAY
    text = overlay.read_text(encoding="utf-8").replace('idempotent: "yes"', "idempotent: yes", 1)
    text += '\n  acme.gone.job:\n    idempotent: "no"\n'
    text += '  "evil\\n::error file=forged.py,line=1::forged":\n    idempotent: "no"\n'
    overlay.write_text(text, encoding="utf-8")
    workflows = path / ".github" / "workflows"
    workflows.mkdir(parents=True)
    (workflows / "gate.yml").write_text(
        WORKFLOW.format(
            env=json.dumps(_act.pip_env(wheels)),
            python=json.dumps(sys.executable),
            pwned=path.parent / "pwned",
        )
    )
    _act.commit(path, "head")
    return path, base


#: As on a self-hosted runner, which keeps the action's venv in its tool cache between jobs (act
#: names one under its own cache folder, the same for every run from the same ``base``).
SELF_HOSTED = ("--env", "RUNNER_ENVIRONMENT=self-hosted")


@pytest.fixture(scope="module")
def pull_request(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, list[str]]:
    """The repository, act's base folder, and act's arguments for the pull request event."""
    base = tmp_path_factory.mktemp("act")
    (base / "repo").mkdir()
    repo, sha = make_repo(base / "repo", _act.wheelhouse(base))
    event = base / "event.json"
    event.write_text(json.dumps({"pull_request": {"base": {"sha": sha, "ref": "main"}}}))
    return repo, base, ["-e", str(event), *SELF_HOSTED]


@pytest.fixture(scope="module")
def run(pull_request: tuple[Path, Path, list[str]]) -> list[dict[str, Any]]:
    repo, base, extra = pull_request
    events = _act.run(repo, base, extra, event="pull_request")
    assert not (base / "pwned").exists()
    return events


@pytest.fixture(scope="module")
def rerun(
    pull_request: tuple[Path, Path, list[str]], run: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The same workflow again, after ``run``, with the same runner tool cache."""
    repo, base, extra = pull_request
    return _act.run(repo, base, extra, event="pull_request")


def test_the_gate_fails_the_job(run: list[dict[str, Any]]) -> None:
    results = [e["jobResult"] for e in run if "jobResult" in e]
    assert results == ["failure"]


def test_each_finding_is_annotated_once_at_its_line(run: list[dict[str, Any]]) -> None:
    errors = commands_acted_on(run, "error")
    assert sorted((c.properties["file"], int(c.properties["line"])) for c in errors) == [
        (OVERLAY, 4),
        (OVERLAY, 60),
        (OVERLAY, 62),
    ]
    titles = {c.properties["title"] for c in errors}
    assert "jobledger orphan: acme.gone.job::orphan" in titles
    assert "jobledger orphan: evil\n::error file=forged.py,line=1::forged::orphan" in titles
    assert all(c.properties["endLine"] == c.properties["line"] for c in errors)


def test_the_echoed_hostile_key_is_never_a_command(run: list[dict[str, Any]]) -> None:
    """pytest's output escapes the key's newline, so no line starts with the forged command; the
    run is also wrapped in stop-commands, so even such a line would be held inert."""
    events = step_events(run, "gate")
    starts = [e for e in events if str(e.get("raw", "")).startswith("::error file=forged.py")]
    assert all(e.get("command") == "ignored" for e in starts)
    files = {c.properties.get("file") for c in commands_acted_on(run, "error")}
    assert "forged.py" not in files


def test_the_summary_lists_every_finding(run: list[dict[str, Any]]) -> None:
    summaries = [e["content"] for e in step_events(run, "gate") if e.get("command") == "summary"]
    assert summaries, "the gate step wrote no job summary"
    summary = readable(summaries[-1])
    assert "**3 failing** · 0 unsigned jobs · 2 orphans" in summary
    assert f"`{OVERLAY}:60`" in summary
    assert "### Orphan overlay entries (2)" in summary


def test_the_outputs_reach_the_workflow(run: list[dict[str, Any]]) -> None:
    printed = [e["msg"] for e in run if e.get("raw_output") and "outputs:" in e.get("msg", "")]
    assert printed == ["outputs: failing=3 unsigned=0 orphans=2\n"]
    assert any(e.get("raw_output") and e.get("msg") == "sarif ok\n" for e in run)


def test_the_summary_starts_with_what_operators_will_see_change(run: list[dict[str, Any]]) -> None:
    summaries = [e["content"] for e in step_events(run, "gate") if e.get("command") == "summary"]
    changes, _, findings = readable(summaries[-1]).partition("**3 failing**")
    assert findings, "the diff table comes first, then the findings"
    assert "### What operators will see change (against " in changes
    [row] = [line for line in changes.splitlines() if "capture" in line and line.startswith("|")]
    assert row.startswith("| `acme_shop.billing.tasks.capture_invoice` |")
    assert "max_retries 5 -> 20" in row


def test_a_changed_job_whose_entry_was_not_touched_is_a_warning(
    run: list[dict[str, Any]],
) -> None:
    [warning] = [
        c
        for c in commands_acted_on(run, "warning")
        if c.properties["title"].startswith("jobledger review-after-change")
    ]
    assert "acme_shop.billing.tasks.capture_invoice" in warning.properties["title"]
    assert warning.properties["file"] == OVERLAY
    assert "max_retries 5 -> 20" in warning.message


def test_the_summary_shows_the_runbook_rows_of_the_changed_jobs(run: list[dict[str, Any]]) -> None:
    summaries = [e["content"] for e in step_events(run, "gate") if e.get("command") == "summary"]
    summary = readable(summaries[-1])
    assert "### Runbook: the jobs this pull request changed" in summary
    assert "> **Preview:** 3 checks of the gate fail" in summary
    runbook = summary.partition("### Runbook: the jobs this pull request changed")[2]
    rows = [line for line in runbook.splitlines() if line.startswith("| `acme_shop.")]
    assert [row.split(" | ")[0] for row in rows] == [
        "| `acme_shop.billing.tasks.ReconcileSettlements`",
        "| `acme_shop.billing.tasks.capture_invoice`",
        "| `acme_shop.billing.tasks.refund_payment`",
        "| `acme_shop.billing.tasks.void_authorization`",
    ]
    capture = next(row for row in rows if "capture_invoice" in row)
    assert capture.startswith(
        "| `acme_shop.billing.tasks.capture_invoice` | billing-oncall | no | park payload; page "
        "billing-oncall after 3 parks | 20 | no limit (default), soft 120 s | `billing` |"
    )
    assert "notifications" not in "\n".join(rows)


def test_the_install_is_pinned_and_its_log_is_one_group(run: list[dict[str, Any]]) -> None:
    """The install step's output is folded, and pip installed the pinned versions."""
    events = step_events(run, "install")
    assert events, "no event of the install step"
    commands = [event.get("command") for event in events]
    assert "group" in commands
    assert "endgroup" in commands
    assert commands.index("group") < commands.index("endgroup")
    log = "\n".join(str(event.get("msg", "")) for event in events)
    pins = (REPO / "pytest_jobledger" / "github" / "constraints.txt").read_text("utf-8")
    for name in ("pytest-xdist", "libcst", "pytest"):
        (pin,) = [line for line in pins.splitlines() if line.startswith(f"{name}==")]
        assert f"{name}-{pin.split('==')[1]}" in log, f"{pin} not installed:\n{log[-3000:]}"


def _install_log(events: list[dict[str, Any]]) -> str:
    return "".join(str(event.get("msg", "")) for event in step_events(events, "install"))


def _gate_result(events: list[dict[str, Any]]) -> tuple[object, ...]:
    """What the reviewer sees: the job's result, the annotations, the summary, the outputs."""
    summaries = [e["content"] for e in step_events(events, "gate") if e.get("command") == "summary"]
    return (
        _act.job_results(events),
        [(c.properties, c.message) for c in commands_acted_on(events, "error")],
        [(c.properties, c.message) for c in commands_acted_on(events, "warning")],
        summaries,
        [line for line in _act.printed(events) if line.startswith(("outputs:", "sarif"))],
    )


def test_a_second_run_reuses_the_venv_and_gates_the_same(
    run: list[dict[str, Any]], rerun: list[dict[str, Any]]
) -> None:
    first, second = _install_log(run), _install_log(rerun)
    assert "Reusing" not in first
    assert "Successfully installed" in first
    reused = "Reusing the venv made from this action by this interpreter: "
    assert reused in second, second
    assert "/act/tool_cache/pytest-jobledger/venv-" in second
    assert "Successfully installed" not in second
    assert _gate_result(rerun) == _gate_result(run)
