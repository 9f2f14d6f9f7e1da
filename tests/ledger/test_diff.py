"""The field-level ledger diff: what an operator sees change, and what is only a move."""

from __future__ import annotations

from typing import Any

from pytest_jobledger.ledger.diff import diff_ledgers, ledger_diff, summary
from pytest_jobledger.ledger.model import Job, Ledger


def job(job_id: str = "orders.tasks.reserve_stock", **fields: Any) -> Job:
    module, _, function = job_id.rpartition(".")
    base: dict[str, Any] = {
        "function": function,
        "module": module,
        "path": "orders/tasks.py",
        "line": 3,
        "framework": "celery",
        "decorator": "celery.shared_task",
        "unresolved": {"name": "not set at registration"},
    }
    base.update(fields)
    return Job(id=job_id, **base)


def test_each_field_says_before_and_after() -> None:
    before = job(max_retries=3, queue="billing", time_limit_s=120)
    after = job(
        max_retries=20,
        queue="default",
        options={"acks_late": True},
        unresolved={
            "name": "not set at registration",
            "time_limit_s": "settings.X is not a literal",
        },
    )
    diff = diff_ledgers(Ledger.build([before]), Ledger.build([after]))
    change = diff.change_of(before.id)
    assert change is not None
    assert change.describe() == (
        "queue billing -> default, max_retries 3 -> 20, "
        "time_limit_s 120 -> null (settings.X is not a literal), acks_late added (true)"
    )
    assert summary(diff) == f"{before.id}: {change.describe()}"


def test_moving_source_lines_alone_is_a_move_not_a_change() -> None:
    before = job(max_retries=3, unresolved={"queue": "QUEUE is bound more than once (lines 3, 9)"})
    after = job(
        max_retries=3, line=40, unresolved={"queue": "QUEUE is bound more than once (lines 5, 11)"}
    )
    diff = diff_ledgers(Ledger.build([before]), Ledger.build([after]))
    assert diff.changed == ()
    assert [(m.id, m.moved_from, m.moved_to) for m in diff.moved] == [
        (before.id, "orders/tasks.py:3", "orders/tasks.py:40")
    ]
    assert summary(diff) == f"moved {before.id}"


def test_a_change_that_also_moved_keeps_both() -> None:
    diff = diff_ledgers(
        Ledger.build([job(max_retries=3)]), Ledger.build([job(max_retries=4, line=9)])
    )
    (change,) = diff.changed
    assert (change.describe(), change.moved_to) == ("max_retries 3 -> 4", "orders/tasks.py:9")


def test_not_set_reads_as_not_set_and_docstrings_as_changed() -> None:
    unset = {"name": "not set at registration", "max_retries": "not set at registration"}
    before = job(docstring="Old words.", unresolved=unset)
    after = job(docstring="New words.", max_retries=5)
    (change,) = diff_ledgers(Ledger.build([before]), Ledger.build([after])).changed
    assert change.describe() == "max_retries not set -> 5, docstring changed"
    fields = {f.field: f.to_json() for f in change.fields}
    assert fields["docstring"] == {
        "field": "docstring",
        "change": "changed",
        "before": "Old words.",
        "after": "New words.",
    }


def test_added_and_removed_jobs_are_named_and_capped() -> None:
    old = Ledger.build([job(f"a.t.gone{i}") for i in range(7)])
    new = Ledger.build([job(f"a.t.new{i}") for i in range(2)])
    text = summary(diff_ledgers(old, new))
    assert text == (
        "added a.t.new0, a.t.new1; removed a.t.gone0, a.t.gone1, a.t.gone2, a.t.gone3, "
        "a.t.gone4 and 2 more"
    )


def test_many_changed_jobs_end_with_and_n_more() -> None:
    old = Ledger.build([job(f"a.t.j{i}", max_retries=1) for i in range(8)])
    new = Ledger.build([job(f"a.t.j{i}", max_retries=2) for i in range(8)])
    text = summary(diff_ledgers(old, new))
    assert text.startswith("a.t.j0: max_retries 1 -> 2; a.t.j1: ")
    assert text.endswith("and 3 more changed jobs")


def test_duplicate_ids_are_compared_as_a_whole() -> None:
    twice = [job(line=3), job(line=9)]
    assert diff_ledgers(Ledger.build(twice), Ledger.build(twice)).empty
    changed = [job(line=3), job(line=9, queue="other")]
    (change,) = diff_ledgers(Ledger.build(twice), Ledger.build(changed)).changed
    assert change.describe() == "registrations changed"


def test_stale_message_reads_a_hand_edited_committed_file() -> None:
    fresh = Ledger.build([job(max_retries=6)])
    committed = Ledger.build([job(max_retries=5)]).dumps()
    assert ledger_diff(committed, fresh) == "orders.tasks.reserve_stock: max_retries 5 -> 6"
