"""Every golden case: the stubbed overlay byte for byte, the report, and a no-op second run."""

from __future__ import annotations

import difflib

import pytest

from pytest_jobledger.core.errors import OverlayError

from ._cases import Case, all_cases


def only_added(before: str, after: str) -> bool:
    """Whether ``after`` is ``before`` with whole lines added and nothing removed or changed.

    A last line without a newline gets one when lines are added after it; its bytes stay.
    """
    last = before.rpartition("\n")[2]
    if last and not after.endswith(last):
        before += "\r\n" if "\r\n" in after else "\n"
    matcher = difflib.SequenceMatcher(
        a=before.splitlines(keepends=True), b=after.splitlines(keepends=True), autojunk=False
    )
    return all(tag in ("equal", "insert") for tag, *_ in matcher.get_opcodes())


@pytest.mark.parametrize("case", all_cases(), ids=lambda case: case.name)
def test_golden(case: Case) -> None:
    try:
        result = case.run(case.overlay)
    except OverlayError as error:
        refused = f"{error}\n"
    else:
        refused = None
    if refused is not None:
        assert case.expected("expected_error.txt", refused) == refused
        case.expected("expected.yaml", None)
        case.expected("expected_report.txt", None)
        return
    assert case.expected("expected_error.txt", None) is None
    report = "".join(f"{line}\n" for line in result.report_lines())
    expected = case.expected("expected.yaml", result.text)
    assert expected is not None
    assert result.text.encode("utf-8") == expected.encode("utf-8")
    assert report == case.expected("expected_report.txt", report)
    rewrites = {"renames", "rename", "quote_yes_no"}  # these change bytes of existing lines
    if case.overlay is not None and not rewrites & set(case.options):
        assert only_added(case.overlay, result.text)
    assert result.changed == (case.overlay != result.text)


@pytest.mark.parametrize(
    "case",
    [case for case in all_cases() if not (case.folder / "expected_error.txt").exists()],
    ids=lambda case: case.name,
)
def test_second_run_changes_nothing(case: Case) -> None:
    """A case the stub refuses has nothing to run twice (its refusal is the golden above)."""
    first = case.run(case.overlay)
    second = case.run(first.text, again=True)
    assert not second.changed
    assert second.text == first.text
    assert second.added == ()
    assert second.moved == ()


def test_every_case_has_expectations() -> None:
    for case in all_cases():
        names = {path.name for path in case.folder.iterdir()}
        assert "ledger.json" in names, case.name
        assert {"expected.yaml", "expected_report.txt"} <= names or "expected_error.txt" in names
