"""Literal folding: what the ledger may state, and the reason it gives when it may not."""

from __future__ import annotations

import libcst as cst
import pytest

from pytest_jobledger.extract.values import Known, Unknown, evaluate

NAMES = {"QUEUE": Known("billing"), "FIVE": Known(5)}


def _lookup(name: str) -> Known | Unknown:
    return NAMES.get(name, Unknown(f"{name} is not defined at module level in m"))


def _eval(source: str) -> Known | Unknown:
    return evaluate(cst.parse_expression(source), _lookup)


@pytest.mark.parametrize(
    ("source", "value"),
    [
        ("300", 300),
        ("1.5", 1.5),
        ("-3", -3),
        ("60 * 5", 300),
        ("2 ** 10", 1024),
        ("7 // 2", 3),
        ("'bill' 'ing'", "billing"),
        ("'bill' + 'ing'", "billing"),
        ('f"{QUEUE}-high"', "billing-high"),
        ("QUEUE", "billing"),
        ("FIVE * 60", 300),
        ("(1, 'a', None, True)", [1, "a", None, True]),
        ("{'max_retries': 5, 'countdown': FIVE}", {"max_retries": 5, "countdown": 5}),
        ("'ab' * 3", "ababab"),
    ],
)
def test_literal_folds(source: str, value: object) -> None:
    assert _eval(source) == Known(value)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("source", "reason"),
    [
        ("settings.BILLING_QUEUE", "settings.BILLING_QUEUE is not a literal"),
        ("os.environ['Q']", "is not a literal"),
        ("get_queue()", "get_queue() is a call, not a literal"),
        ("UNKNOWN", "UNKNOWN is not defined at module level"),
        ("b'bytes'", "is a byte string, not text"),
        ("1 / 0", "cannot be computed"),
        ("'x' * 10 ** 12", "not a small literal expression"),
        ("10 ** 10 ** 10", "not a small literal expression"),
        ("2 ** 64 * 2 ** 64 * 2 ** 64 * 2 ** 64 * 2 ** 64", "too large"),
        ("f'{QUEUE!r}'", "is not a literal"),
        ("[*QUEUES]", "is not a literal"),
        ("lambda: 1", "is not a literal"),
        (" + ".join(["'a'"] * 300), "nested too deeply"),
    ],
)
def test_unprovable_values_say_why(source: str, reason: str) -> None:
    outcome = _eval(source)
    assert isinstance(outcome, Unknown)
    assert reason in outcome.reason
