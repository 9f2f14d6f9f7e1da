"""``text``: "did you mean" finds the typo, and its work per word stays bounded."""

from __future__ import annotations

import difflib

import pytest

from pytest_jobledger.core import text
from pytest_jobledger.core.text import Suggester, did_you_mean

JOBS = [f"acme.service{n % 40}.tasks.job_{n:04d}_{'x' * (n % 7)}" for n in range(1000)]


def test_a_typo_among_a_few_names_is_found() -> None:
    assert did_you_mean("exclued", ["exclude", "paths", "ledger"]) == "exclude"
    assert did_you_mean("zzz", ["exclude", "paths"]) is None


@pytest.mark.parametrize("n", [3, 250, 777, 999])
def test_a_typo_among_many_ids_is_found(n: int) -> None:
    job = JOBS[n]
    typo = job[:-6] + job[-5:]  # one character dropped
    assert Suggester(JOBS).closest(typo, cutoff=0.75) == job


def test_small_sets_agree_with_difflib() -> None:
    options = ["idempotent", "poison_policy", "paging_owner", "runtime_class", "purpose_accepted"]
    for word in ["idempotant", "poison", "owner", "runtime", "purpose_acepted", "zz", "paging"]:
        close = difflib.get_close_matches(word, sorted(options), n=1, cutoff=0.6)
        assert did_you_mean(word, options) == (close[0] if close else None), word


def test_each_word_is_compared_with_a_bounded_number_of_options(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ratios = 0
    real = difflib.SequenceMatcher.ratio

    def counted(self: difflib.SequenceMatcher[str]) -> float:
        nonlocal ratios
        ratios += 1
        return real(self)

    monkeypatch.setattr(difflib.SequenceMatcher, "ratio", counted)
    suggester = Suggester(JOBS)
    for word in JOBS[:50]:
        suggester.closest(word + "z")
    assert ratios <= 50 * text.CANDIDATES


def test_a_huge_word_costs_no_more_than_its_first_characters() -> None:
    suggester = Suggester(JOBS)
    huge = JOBS[1] + "y" * 1_000_000
    assert suggester.closest(huge) == suggester.closest(huge[: text.COMPARED_CHARS])
