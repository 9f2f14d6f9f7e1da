"""The drafts file: deterministic, read back exactly, refused with a reason when it is not ours."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_jobledger.draft.store import (
    Draft,
    DraftsError,
    dumps_drafts,
    parse_drafts,
    read_drafts,
    write_drafts,
)
from pytest_jobledger.project import Config
from pytest_jobledger.project.files import read_file
from pytest_jobledger.project.records import Drafts

TEXTS = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=80)


def _config(path: Path) -> Config:
    return Config(root=path.parent, drafts=Drafts(path=path.name))


def _read(path: Path) -> dict[str, Draft]:
    return read_drafts(read_file("drafts", _config(path)))


@settings(
    max_examples=60, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(st.dictionaries(TEXTS.filter(bool), TEXTS, max_size=4), TEXTS)
def test_any_text_reads_back_exactly(texts: dict[str, str], program: str) -> None:
    drafts = {job: Draft(job, text, program, "0" * 64) for job, text in texts.items()}
    assert parse_drafts(dumps_drafts(drafts), display="drafts.yaml") == drafts


def test_written_atomically_and_read_back(tmp_path: Path) -> None:
    drafts = {"a.b": Draft("a.b", "Text.", "model", "0" * 64)}
    path = tmp_path / "overlays" / "purpose_drafts.yaml"
    write_drafts(Config(root=tmp_path), drafts)
    assert _read(path) == drafts
    assert path.read_text("utf-8") == dumps_drafts(drafts)


def test_the_file_reads_like_a_person_would_want(tmp_path: Path) -> None:
    drafts = {"acme.jobs.b": Draft("acme.jobs.b", "Line one.\nLine two.", "my-model", "ab" * 32)}
    assert dumps_drafts(drafts).splitlines()[3:] == [
        "drafts:",
        '  "acme.jobs.b":',
        "    status: unverified-draft",
        '    program: "my-model"',
        f'    docstring_sha256: "{"ab" * 32}"',
        "    text: |-",
        "      Line one.",
        "      Line two.",
    ]


def test_a_missing_file_is_no_drafts(tmp_path: Path) -> None:
    assert _read(tmp_path / "purpose_drafts.yaml") == {}


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("drafts: [unclosed\n", "not valid YAML"),
        ("jobs: {}\n", "one key, `drafts:`"),
        (
            "drafts:\n  a.b:\n    text: hi\n",
            "must hold exactly status, program, docstring_sha256, text",
        ),
        (
            "drafts:\n  a.b:\n    status: accepted\n    program: x\n"
            "    docstring_sha256: x\n    text: hi\n",
            "status unverified-draft",
        ),
    ],
)
def test_a_file_that_is_not_ours_is_refused(tmp_path: Path, text: str, says: str) -> None:
    path = tmp_path / "purpose_drafts.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DraftsError) as info:
        _read(path)
    assert says in str(info.value)
    assert str(info.value).startswith("purpose_drafts.yaml")
