"""Options every subcommand spells the same way: ``--format``/``--output-format``/``--json``,
``-q``/``-v`` and ``--color``. One table: a new command joins it or the test fails."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_jobledger.cli import COMMANDS, build_parser, main
from pytest_jobledger.cli.options import COLOR_CHOICES
from pytest_jobledger.reporters.terminal import CHOICES

REPO = Path(__file__).resolve().parents[2]
JOB = "acme_shop.billing.tasks.capture_invoice"

#: Each command's formats, its default first; and what it needs besides the options under test.
FORMATS: dict[str, tuple[str, ...]] = {
    "extract": ("text", "json"),
    "check": ("text", "json", "github", "sarif"),
    "stub": ("text",),
    "schema": ("text",),
    "diff": ("text", "markdown", "json"),
    "render": ("markdown", "json"),
    "draft": ("text",),
    "list": ("text", "json"),
    "show": ("text", "json"),
    "verdict": ("text", "json"),
    "reconcile": ("text", "json"),
    "audit": ("text", "json"),
    "baseline": ("text",),
    "gate": ("text",),
}
REQUIRED: dict[str, tuple[str, ...]] = {
    "show": (JOB,),
    "verdict": (JOB, "--action", "retry"),
    "reconcile": (JOB, "--ticket", "T", "--outcome", "confirmed", "--evidence", "E"),
    "diff": ("--base", "HEAD"),
}
NAMES = [command.name for command in COMMANDS]


def parse(name: str, *options: str) -> argparse.Namespace:
    return build_parser().parse_args([name, *REQUIRED.get(name, ()), *options])


def test_the_table_names_every_command() -> None:
    assert sorted(FORMATS) == sorted(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_every_spelling_of_the_format_is_the_same_option(name: str) -> None:
    formats = FORMATS[name]
    assert parse(name).format == formats[0]
    for fmt in formats:
        assert parse(name, "--format", fmt).format == fmt
        assert parse(name, "--output-format", fmt).format == fmt
        assert parse(name, f"--format={fmt}").format == fmt
    if "json" in formats:
        assert parse(name, "--json").format == "json"
        assert parse(name, "--format", formats[0], "--json").format == "json"  # the last wins
    else:
        with pytest.raises(SystemExit):
            parse(name, "--json")


@pytest.mark.parametrize("name", NAMES)
def test_an_unknown_format_is_a_usage_error_listing_the_choices(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        parse(name, "--format", "yaml")
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "--format/--output-format: invalid choice: 'yaml'" in err
    assert all(repr(fmt) in err for fmt in FORMATS[name])


@pytest.mark.parametrize("name", NAMES)
def test_quiet_verbose_and_color_are_on_every_command(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    plain = parse(name)
    assert (plain.quiet, plain.verbose, plain.color) == (False, False, "auto")
    assert parse(name, "-q").quiet
    assert parse(name, "--quiet").quiet
    assert parse(name, "-v").verbose
    assert parse(name, "--verbose").verbose
    for choice in COLOR_CHOICES:
        assert parse(name, "--color", choice).color == choice
    with pytest.raises(SystemExit) as exit_info:
        parse(name, "-q", "-v")
    assert exit_info.value.code == 2
    assert "-q/--quiet and -v/--verbose cannot be used together" in capsys.readouterr().err


@pytest.mark.parametrize("name", NAMES)
def test_the_shared_options_may_come_before_the_command(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``jobledger -q check`` is ``jobledger check -q`` (as ruff and mypy accept both)."""

    def before(*options: str) -> argparse.Namespace:
        return build_parser().parse_args([*options, name, *REQUIRED.get(name, ())])

    assert (before().quiet, before().verbose, before().color) == (False, False, "auto")
    assert before("-q").quiet
    assert before("--verbose").verbose
    assert before("--color", "never").color == "never"
    assert (
        build_parser().parse_args(["--color", "always", name, *REQUIRED.get(name, ()), "-q"]).color
        == "always"
    )
    with pytest.raises(SystemExit) as exit_info:
        build_parser().parse_args(["-q", name, *REQUIRED.get(name, ()), "-v"])
    assert exit_info.value.code == 2
    assert "cannot be used together" in capsys.readouterr().err


def test_color_choices_are_the_reporters() -> None:
    assert COLOR_CHOICES == CHOICES


@pytest.mark.parametrize("name", ["list", "show", "check", "audit"])
def test_json_spellings_print_the_same_document(
    name: str, shop: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outputs = []
    for spelling in (["--json"], ["--format", "json"], ["--output-format=json"]):
        main([name, *REQUIRED.get(name, ()), "--root", str(shop), *spelling])
        outputs.append(capsys.readouterr().out)
    json.loads(outputs[0])
    assert outputs[1:] == outputs[:1] * 2


def _jobledger(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key not in ("NO_COLOR", "CI")}
    return subprocess.run(
        [sys.executable, "-m", "pytest_jobledger", *args, "--root", str(root)],
        capture_output=True,
        text=True,
        check=False,
        env={**env, "FORCE_COLOR": "0"},
        timeout=300,
    )


def test_quiet_drops_the_notes_on_stderr_and_keeps_the_output(shop: Path) -> None:
    """A real ``jobledger`` per command: ``-q`` leaves stderr empty where it only held notes,
    and what a command prints on stdout is unchanged."""
    runs = {
        "extract": (),
        "schema": ("-o", str(shop / "schema.json")),
        "render": (),
        "list": (),
    }
    for name, extra in runs.items():
        loud = _jobledger(shop, name, *extra)
        quiet = _jobledger(shop, name, *extra, "-q")
        assert (loud.returncode, quiet.returncode) == (0, 0), (name, loud.stderr, quiet.stderr)
        assert quiet.stderr == "", name
        assert quiet.stdout == loud.stdout, name
        if name != "list":
            assert loud.stderr.startswith("jobledger: "), name
