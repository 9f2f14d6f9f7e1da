"""The rules table: every case of tests/cases/verdict/rules.yaml gives exactly its answer and
names every blocker and review item, and every rule of the table has a case that fires it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from pytest_jobledger.verdict import RULES, Answer, decide

from ._world import request, world

CASES_FILE = Path(__file__).resolve().parents[1] / "cases" / "verdict" / "rules.yaml"
#: The reference page (the README is a short front page that links it).
README = Path(__file__).resolve().parents[2] / "docs" / "reference.md"
TABLE: dict[str, Any] = yaml.safe_load(CASES_FILE.read_text("utf-8"))
CASES: list[dict[str, Any]] = TABLE["cases"]


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_case(case: dict[str, Any]) -> None:
    verdict = decide(world(TABLE["base"], case), request(case))
    assert verdict.answer is Answer(case["answer"])
    assert [reason.name for reason in verdict.blockers] == case.get("blockers", [])
    assert [reason.name for reason in verdict.review] == case.get("review", [])


def test_the_case_names_are_unique() -> None:
    names = [case["name"] for case in CASES]
    assert len(names) == len(set(names))


def test_every_rule_has_a_case_that_fires_it() -> None:
    fired = {
        name.split(":")[0]
        for case in CASES
        for name in [*case.get("blockers", []), *case.get("review", [])]
    }
    assert {rule.name for rule in RULES} - fired == set()
    assert fired - {rule.name for rule in RULES} == set()


def test_every_answer_has_cases() -> None:
    assert {case["answer"] for case in CASES} == {answer.value for answer in Answer}


def test_each_rule_forces_the_answer_it_declares() -> None:
    """A blocking rule's hits are blockers and a review rule's are review items, in every case."""
    answers = {rule.name: rule.answer for rule in RULES}
    for case in CASES:
        verdict = decide(world(TABLE["base"], case), request(case))
        assert all(answers[reason.rule] is Answer.BLOCKED for reason in verdict.blockers)
        assert all(answers[reason.rule] is Answer.NEEDS_REVIEW for reason in verdict.review)


def test_the_rule_names_are_unique_and_stable() -> None:
    names = [rule.name for rule in RULES]
    assert len(names) == len(set(names))
    assert all(name == name.lower() and " " not in name for name in names)


def test_the_readme_table_names_every_rule_with_its_answer() -> None:
    text = README.read_text("utf-8")
    for rule in RULES:
        assert f"| `{rule.name}` | {rule.answer.value} |" in text, rule.name
