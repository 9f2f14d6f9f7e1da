"""The baseline file: its exact text, read back, and every way a file is refused (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_jobledger.baseline import Baseline, BaselineError, Entry, read_baseline
from pytest_jobledger.baseline.store import parse_baseline
from pytest_jobledger.cli import main
from pytest_jobledger.core.errors import ConfigError
from pytest_jobledger.findings import Kind
from pytest_jobledger.project import Config, config_from_table

DISPLAY = "overlays/jobledger-baseline.json"
ENTRIES = (
    Entry("b.tasks.two", "idempotent", Kind.NOT_YES_NO),
    Entry("a.tasks.one", "paging_owner", Kind.UNSIGNED),
    Entry("a.tasks.one", "idempotent", Kind.UNSIGNED),
)


def _file(*rows: str, tail: str = '"format": "jobledger-baseline",\n  "schema_version": 1') -> str:
    return '{\n  "entries": [\n' + ",\n".join(rows) + f"\n  ],\n  {tail}\n}}\n"


def test_the_text_is_sorted_one_entry_a_line_with_sorted_keys() -> None:
    text = Baseline.of(ENTRIES).dumps()
    assert text == (
        "{\n"
        '  "entries": [\n'
        '    {"cell": "idempotent", "id": "a.tasks.one", "kind": "unsigned"},\n'
        '    {"cell": "paging_owner", "id": "a.tasks.one", "kind": "unsigned"},\n'
        '    {"cell": "idempotent", "id": "b.tasks.two", "kind": "not-yes-no"}\n'
        "  ],\n"
        '  "format": "jobledger-baseline",\n'
        '  "schema_version": 1\n'
        "}\n"
    )
    data = json.loads(text)
    assert list(data) == sorted(data)  # plain JSON, sorted keys
    assert Baseline.of(reversed(ENTRIES)).dumps() == text  # whatever order the failures came in
    assert Baseline.of(()).dumps().startswith('{\n  "entries": [],\n')


def test_read_back_with_each_entry_at_its_line() -> None:
    text = Baseline.of(ENTRIES).dumps()
    read = parse_baseline(text, DISPLAY)
    assert read.entries == tuple(sorted(ENTRIES))
    assert read.lines == (3, 4, 5)
    assert read.text == text
    # A hand-edited file, unsorted and spread over lines, reads the same, each entry located.
    spread = _file(
        '    {\n      "kind": "not-yes-no",\n      "id": "b.tasks.two",\n'
        '      "cell": "idempotent"\n    }',
        '    {"id": "a.tasks.one", "cell": "idempotent", "kind": "unsigned"}',
    )
    read = parse_baseline(spread, DISPLAY)
    assert [entry.job for entry in read.entries] == ["a.tasks.one", "b.tasks.two"]
    assert read.lines == (8, 5)  # where each id is written


def test_hostile_ids_round_trip() -> None:
    weird = Entry('x\n::error title=forged::pwned"\\', "idempotent", Kind.UNSIGNED)
    text = Baseline.of([weird]).dumps()
    assert "\n::error" not in text  # JSON escapes the newline: no line starts a command
    assert parse_baseline(text, DISPLAY).entries == (weird,)


REFUSED = {
    "not JSON": ('{\n  "entries": [\n    {"id": "a"\n', ":4: the baseline is not JSON"),
    "another tool's file": (
        '{"entries": []}\n',
        ':1: this is not a jobledger baseline (it has no "format"',
    ),
    "a list": ("[]\n", "this is not a jobledger baseline"),
    "newer": (
        _file(tail='"format": "jobledger-baseline",\n  "schema_version": 2'),
        "written by a newer jobledger (schema_version 2; this one reads 1)",
    ),
    "no version": (_file(tail='"format": "jobledger-baseline"'), '"schema_version" must be'),
    "unknown key": (
        _file(tail='"format": "jobledger-baseline",\n  "schema_version": 1,\n  "extra": 1'),
        "unknown key 'extra'",
    ),
    "entries not a list": (
        '{"entries": {}, "format": "jobledger-baseline", "schema_version": 1}',
        '"entries" must be a list',
    ),
    "entry lacks kind": (
        _file('    {"cell": "idempotent", "id": "a.b"}'),
        ':3: each entry is exactly {"id": ..., "cell": ..., "kind": ...}',
    ),
    "empty id": (
        _file('    {"cell": "idempotent", "id": "", "kind": "unsigned"}'),
        "are non-empty strings",
    ),
    "unknown kind": (
        _file('    {"cell": "idempotent", "id": "a.b", "kind": "unsinged"}'),
        ":3: 'unsinged' is not a finding kind; did you mean 'unsigned'?",
    ),
    "status item": (
        _file('    {"cell": "ledger-fresh", "id": "jobledger-status", "kind": "ledger-stale"}'),
        ":3: jobledger-status::ledger-fresh (ledger-stale) is a status item; status items are "
        "never baselined",
    ),
    "status kind on a job": (
        _file('    {"cell": "idempotent", "id": "a.b", "kind": "overlay-invalid"}'),
        "status items are never baselined",
    ),
    "stale kind": (
        _file('    {"cell": "idempotent", "id": "a.b", "kind": "baseline-stale"}'),
        "status items are never baselined",
    ),
    "listed twice": (
        _file(
            '    {"cell": "idempotent", "id": "a.b", "kind": "unsigned"}',
            '    {"cell": "idempotent", "id": "a.b", "kind": "not-yes-no"}',
        ),
        ":4: a.b::idempotent is listed twice (first at line 3)",
    ),
}


@pytest.mark.parametrize("case", list(REFUSED), ids=list(REFUSED))
def test_a_file_that_is_not_a_baseline_is_a_located_error(case: str) -> None:
    text, says = REFUSED[case]
    with pytest.raises(BaselineError) as caught:
        parse_baseline(text, DISPLAY)
    assert str(caught.value).startswith(f"{DISPLAY}:")
    assert says in str(caught.value)


def _config(root: Path, **table: object) -> Config:
    return config_from_table(table, root=root)


def test_no_file_is_no_baseline_and_unreadable_ones_are_refused(tmp_path: Path) -> None:
    assert read_baseline(_config(tmp_path)) is None
    path = tmp_path / "overlays" / "jobledger-baseline.json"
    path.parent.mkdir()
    path.write_bytes(b'{"entries": [], "format": "jobledger-\xff"}')
    with pytest.raises(
        BaselineError, match=r"jobledger-baseline.json:1: the baseline is not UTF-8"
    ):
        read_baseline(_config(tmp_path))
    path.unlink()
    path.mkdir()
    with pytest.raises(BaselineError, match="the baseline cannot be read"):
        read_baseline(_config(tmp_path))
    path.rmdir()
    config = _config(tmp_path)
    outside = tmp_path.parent / f"{tmp_path.name}-outside.json"
    outside.write_text(Baseline.of(ENTRIES).dumps(), encoding="utf-8")
    path.symlink_to(outside)  # after the configuration was read: the read itself refuses it
    with pytest.raises(BaselineError, match="the baseline cannot be read"):
        read_baseline(config)
    with pytest.raises(ConfigError, match=r"baseline: .* is not followed: it resolves to"):
        _config(tmp_path)


def test_the_path_is_configured_inside_the_root(tmp_path: Path) -> None:
    config = _config(tmp_path, baseline="ci/known.json")
    assert config.baseline_path == tmp_path / "ci" / "known.json"
    for bad in ("../known.json", "/tmp/known.json"):
        with pytest.raises(ConfigError, match=r"baseline: .* must be relative to the root"):
            _config(tmp_path, baseline=bad)
    with pytest.raises(ConfigError, match="baseline: must be a non-empty string"):
        _config(tmp_path, baseline="")


def test_the_gate_refuses_a_corrupt_baseline_with_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.jobledger]\nallow_empty = true\n")
    (tmp_path / "overlays").mkdir()
    (tmp_path / "overlays" / "jobledger-baseline.json").write_text("{not json\n")
    for command in ("check", "baseline", "render"):
        assert main([command, "--root", str(tmp_path)]) == 2
        err = capsys.readouterr().err
        assert err.startswith(
            "jobledger: overlays/jobledger-baseline.json:1: the baseline is not JSON"
        )
