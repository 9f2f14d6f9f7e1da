"""At most ten error annotations per step, pull-request files first, then one notice."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pytest_jobledger.findings import Finding, Kind
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
