"""The owners roster: a list or a mapping of names, or one located error (never a crash)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_jobledger.core.errors import OverlayError
from pytest_jobledger.overlay.roster import load_roster, parse_roster
from pytest_jobledger.project import Config
from pytest_jobledger.project.files import limit_of, read_file
from pytest_jobledger.project.records import Review


def test_a_list_and_a_mapping_of_contacts() -> None:
    assert parse_roster("- billing-oncall\n- reports\n", "o.yaml").owners == {
        "billing-oncall": None,
        "reports": None,
    }
    roster = parse_roster('billing-oncall: "#billing-pager"\nreports:\n', "o.yaml")
    assert roster.owners == {"billing-oncall": "#billing-pager", "reports": None}
    assert "reports" in roster
    assert parse_roster("", "o.yaml").owners == {}


@pytest.mark.parametrize(
    ("text", "line", "says"),
    [
        ("- a\n- [b\n", 2, "not valid YAML"),
        ("- a\n- 12\n", 2, "the number 12"),
        ("a: x\na: y\n", 2, "duplicate key"),
        ("a: [1]\n", 1, "the contact of 'a' is a list"),
        ("just text\n", 1, "a YAML list of rotation names"),
        ("- ''\n", 1, "each owner is a rotation's name"),
    ],
)
def test_a_bad_roster_is_one_located_error(text: str, line: int, says: str) -> None:
    with pytest.raises(OverlayError, match=says) as info:
        parse_roster(text, "overlays/owners.yaml")
    assert (info.value.path, info.value.line) == ("overlays/owners.yaml", line)


def test_missing_large_and_outside_rosters_are_refused(tmp_path: Path) -> None:
    def roster(name: str) -> None:
        load_roster(read_file("owners", Config(root=tmp_path, review=Review(owners=name))))

    with pytest.raises(OverlayError, match="does not exist"):
        roster("owners.yaml")
    big = tmp_path / "big.yaml"
    big.write_text("- a\n" * (limit_of("owners", Config(root=tmp_path)) // 4 + 1))
    with pytest.raises(OverlayError, match="too large"):
        roster("big.yaml")
    outside = tmp_path.parent / f"{tmp_path.name}-outside.yaml"
    outside.write_text("- a\n")
    (tmp_path / "link.yaml").symlink_to(outside)
    with pytest.raises(OverlayError, match="outside the project root"):
        roster("link.yaml")


def test_a_rotation_may_list_its_members() -> None:
    """Issue 22: the members are the allowed_signers principals whose approval counts."""
    text = 'billing-oncall:\n  contact: "#billing-pager"\n  members: [dana@example.com]\nreports:\n'
    roster = parse_roster(text, "o.yaml")
    assert roster.owners == {"billing-oncall": "#billing-pager", "reports": None}
    assert roster.members == {"billing-oncall": ("dana@example.com",)}


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("billing-oncall:\n  members: dana\n", "not a list of names"),
        ("billing-oncall:\n  members: [1]\n", "not a list of names"),
        ("billing-oncall:\n  member: [dana]\n", "has the key 'member'"),
    ],
)
def test_a_rotation_with_unusable_members_is_one_located_error(text: str, says: str) -> None:
    with pytest.raises(OverlayError, match=says) as caught:
        parse_roster(text, "o.yaml")
    assert caught.value.line == 1


def test_a_rotation_written_as_an_empty_mapping_lists_no_one() -> None:
    """``messaging-oncall: {}`` is a rotation with no contact and no members yet, as
    ``messaging-oncall:`` is: never refused over "members" nobody wrote."""
    roster = parse_roster('messaging-oncall: {}\nbilling-oncall:\n  contact: "#b"\n', "o.yaml")
    assert roster.owners == {"messaging-oncall": None, "billing-oncall": "#b"}
    assert "messaging-oncall" in roster
    assert roster.members.get("messaging-oncall", ()) == ()
