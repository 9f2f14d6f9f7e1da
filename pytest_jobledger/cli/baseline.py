"""``jobledger baseline``: record today's failures, so the gate fails only on new ones.

It writes every failing ``(job, cell, kind)`` of the gate, run without the baseline, to the
configured baseline file (``overlays/jobledger-baseline.json``). Run again, it records the
failures as they are then: entries of fixed cells leave the file, and each failure it adds is
printed, so nothing joins the baseline unseen (the file's diff shows it in review too).
``--shrink`` only drops fixed entries and adds none: what the ``baseline-stale`` item asks for.
``--check`` writes nothing and exits 1 when the file would change.

It refuses (exit 1) while a status item fails or a cell cannot be judged: status items are never
baselined, and a cell the gate could not read is neither a known failure nor a fixed one.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from ..baseline import Baseline, Entry, current_entries
from ..core.atomic import atomic_write
from ..core.errors import ConfigError, JobledgerError
from ..core.paths import Shown
from ..core.text import one_line
from ..core.text import say as say_line
from ..findings import STATUS_JOB
from ..gate.today import resolve_today
from ..reporters.text import format_finding
from ..session import Session
from .common import config_from_args
from .options import add_format_argument

#: How many added or removed entries are listed before "and N more".
SHOWN = 20


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--shrink",
        action="store_true",
        help="only drop entries that no longer fail; add none (what baseline-stale asks for)",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 when the baseline file would change",
    )
    parser.add_argument(
        "--today",
        metavar="YYYY-MM-DD",
        help="the day reviews are dated against (default: $JOBLEDGER_TODAY, else today)",
    )
    add_format_argument(parser, ("text",))


def say(text: str) -> None:
    say_line(one_line(text))


def run(args: argparse.Namespace) -> int:
    config = config_from_args(args)
    shown = Shown.here(config.root)
    display = shown.path(config.display(config.baseline_path))
    # A corrupt or foreign baseline file is refused (exit 2) before anything else is read.
    session = Session.open(config, today=resolve_today(args.today))
    old = session.known
    result = session.unbaselined
    footing = [
        check
        for check in result.checks
        if (check.job == STATUS_JOB and not check.passed)
        or (check.job != STATUS_JOB and check.skipped is not None)
    ]
    if footing:
        say(
            f"jobledger: {display} was not written: status items are never baselined, and "
            "cells that cannot be judged are neither known nor fixed; fix these first"
        )
        for check in footing:
            if check.finding is not None:
                say(format_finding(check.finding, shown))
        return 1
    now = current_entries(result)
    before = old.entries if old is not None else ()
    if args.shrink:
        if old is None:
            raise ConfigError(
                f"there is no baseline to shrink at {display}; `jobledger baseline` writes one"
            )
        kept = set(now)
        wanted: Sequence[Entry] = [entry for entry in before if entry in kept]
    else:
        wanted = now
    new = Baseline.of(wanted)
    text = new.dumps()
    added = sorted(set(new.entries) - set(before))
    removed = sorted(set(before) - set(new.entries))
    left = len(set(now) - set(new.entries))
    if old is None and not new.entries:
        say(f"jobledger: nothing to baseline: no cell fails; {display} was not written")
        return 0
    if old is not None and old.text == text:
        say(f"jobledger: {display} is up to date ({_entries(len(new.entries))})")
        return _not_baselined(left)
    if not args.check:
        # Written before a line says so: "wrote" is only ever printed about a file on disk.
        try:
            atomic_write(config.baseline_path, text, root=config.root)
        except OSError as error:
            raise JobledgerError(
                f"cannot write the baseline ({error.strerror or error}); the previous file is "
                "unchanged",
                path=display,
            ) from None
    verb = "would change" if args.check else "wrote"
    say(
        f"jobledger: {verb} {display}: {_entries(len(new.entries))} "
        f"(added {len(added)}, removed {len(removed)})"
    )
    _list("+", added)
    _list("-", removed)
    if args.check:
        say("jobledger: run `jobledger baseline` to write it")
        return 1
    if not new.entries:
        say(f"jobledger: the baseline is empty: every known failure is fixed; {display} may go")
    return _not_baselined(left)


def _not_baselined(left: int) -> int:
    if left:
        say(
            f"jobledger: {left} failing {'cells are' if left != 1 else 'cell is'} not in the "
            "baseline (--shrink adds none); `jobledger check` lists them"
        )
    return 0


def _list(sign: str, entries: Sequence[Entry]) -> None:
    for entry in entries[:SHOWN]:
        say(f"  {sign} {entry.name} [{entry.kind.value}]")
    if len(entries) > SHOWN:
        say(f"  ... and {len(entries) - SHOWN} more (the file lists every one)")


def _entries(count: int) -> str:
    return f"{count} {'entries' if count != 1 else 'entry'}"
