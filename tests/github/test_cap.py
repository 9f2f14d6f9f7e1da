"""At most ten error annotations per step, pull-request files first, then one notice."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pytest_jobledger.findings import Finding, Kind, Level
from pytest_jobledger.github.commands import ANNOTATION_LIMIT, annotation_lines

from ._commands import commands


def forty(make_finding: Callable[..., Finding]) -> list[Finding]:
    findings = []
    for number in range(20):
        job = f"acme.jobs.job_{number:02d}"
        findings.append(make_finding(job=job, path="overlays/job_policy.yaml", line=number + 1))
        findings.append(
            make_finding(job=job, kind=Kind.UNSIGNED, path=f"src/acme/m{number:02d}.py", line=5)
        )
    return findings


def test_forty_findings_give_ten_errors_and_one_notice_counting_the_rest(
    make_finding: Callable[..., Finding], tmp_path: Path
) -> None:
    findings = forty(make_finding)
    assert len(set(findings)) == 40
    emitted = commands("\n".join(annotation_lines(findings, root=tmp_path, workspace=tmp_path)))
    assert [c.name for c in emitted] == ["error"] * ANNOTATION_LIMIT + ["notice"]
    notice = emitted[-1]
    assert "30 more" in notice.message
    assert "all 40" in notice.message
    assert "job summary" in notice.message


def test_files_changed_in_the_pull_request_are_annotated_first(
    make_finding: Callable[..., Finding], tmp_path: Path
) -> None:
    findings = forty(make_finding)
    changed = frozenset({(tmp_path / "src/acme/m17.py").resolve(), (tmp_path / "src/acme/m03.py")})
    emitted = commands(
        "\n".join(annotation_lines(findings, root=tmp_path, workspace=tmp_path, changed=changed))
    )
    files = [c.properties["file"] for c in emitted if c.name == "error"]
    assert files[:2] == ["src/acme/m03.py", "src/acme/m17.py"]
    assert files[2:] == ["overlays/job_policy.yaml"] * 8


def test_no_notice_when_everything_fits(
    make_finding: Callable[..., Finding], tmp_path: Path
) -> None:
    findings = forty(make_finding)[:ANNOTATION_LIMIT]
    emitted = commands("\n".join(annotation_lines(findings, root=tmp_path, workspace=tmp_path)))
    assert [c.name for c in emitted] == ["error"] * ANNOTATION_LIMIT


def test_the_same_finding_twice_is_annotated_once(
    make_finding: Callable[..., Finding], tmp_path: Path
) -> None:
    finding = make_finding()
    assert len(annotation_lines([finding, finding], root=tmp_path)) == 1


CELLS = ("idempotent", "poison_policy", "paging_owner", "runtime_class", "purpose_accepted")


def no_entry(make_finding: Callable[..., Finding], number: int) -> list[Finding]:
    """A new job with no overlay entry: every required cell fails at its decorator line."""
    job = f"acme.jobs.new_{number:02d}"
    return [
        make_finding(
            job=job,
            cell=cell,
            path=f"src/acme/new{number:02d}.py",
            line=7,
            message=f"Job {job} has no entry, so its {cell!r} cell is unsigned.",
        )
        for cell in CELLS
    ]


def test_one_annotation_per_job_and_line(
    make_finding: Callable[..., Finding], tmp_path: Path
) -> None:
    emitted = commands(
        "\n".join(annotation_lines(no_entry(make_finding, 1), root=tmp_path, workspace=tmp_path))
    )
    [error] = emitted
    assert (error.name, error.properties["file"], error.properties["line"]) == (
        "error",
        "src/acme/new01.py",
        "7",
    )
    assert error.properties["title"] == (
        # Cells by name: the plugin receives the findings from reports in any order.
        "jobledger unsigned: acme.jobs.new_01 (5 cells: idempotent, paging_owner, "
        "poison_policy, purpose_accepted, runtime_class)"
    )
    lines = error.message.splitlines()
    assert lines[0] == "5 findings for acme.jobs.new_01 at this line:"
    assert lines[1] == (
        "- idempotent [unsigned]: Job acme.jobs.new_01 has no entry, so its 'idempotent' cell "
        "is unsigned."
    )
    assert len(lines) == 6


def test_the_cap_covers_ten_new_jobs_not_two(
    make_finding: Callable[..., Finding], tmp_path: Path
) -> None:
    # Before: 5 annotations per job, so 10 covered two jobs and a notice hid the other nine.
    findings = [f for number in range(11) for f in no_entry(make_finding, number)]
    emitted = commands("\n".join(annotation_lines(findings, root=tmp_path, workspace=tmp_path)))
    assert [c.name for c in emitted] == ["error"] * ANNOTATION_LIMIT + ["notice"]
    assert len({c.properties["file"] for c in emitted if c.name == "error"}) == 10
    assert "5 more jobledger findings" in emitted[-1].message
    assert "all 55" in emitted[-1].message


def test_cells_on_their_own_lines_and_levels_stay_apart(
    make_finding: Callable[..., Finding], tmp_path: Path
) -> None:
    job = "acme.jobs.signed"
    findings = [make_finding(job=job, cell=cell, line=3 + n) for n, cell in enumerate(CELLS)]
    known = Finding(**{**findings[0].__dict__, "cell": "paging_owner", "level": Level.NOTICE})
    emitted = commands(
        "\n".join(annotation_lines([*findings, known], root=tmp_path, workspace=tmp_path))
    )
    assert [c.name for c in emitted] == ["error"] * 5 + ["notice"]
    assert [c.properties["line"] for c in emitted] == ["3", "4", "5", "6", "7", "3"]
