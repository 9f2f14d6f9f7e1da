"""What every subcommand does first: turn ``--root``/``--config`` into a :class:`Config`, and find
the job an operator named."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.errors import JobledgerError
from ..core.text import did_you_mean
from ..project import Config, load_config

if TYPE_CHECKING:  # imported by find_job's callers; `audit` and `--help` need neither
    from ..gate.committed import Snapshot
    from ..verdict import JobFacts


def config_from_args(args: argparse.Namespace) -> Config:
    config = load_config(
        root=Path(args.root) if args.root else None,
        config_file=Path(args.config) if args.config else None,
    )
    if getattr(args, "no_cache", False):
        config = config.without_cache()
    return config


def add_cache_argument(
    parser: argparse.ArgumentParser,
    help: str = "extract without the content cache (neither read nor written)",
) -> None:
    """``--no-cache``, for the subcommands that extract (``extract``, ``check``, ``stub``)."""
    parser.add_argument("--no-cache", action="store_true", help=help)


def add_memo_argument(parser: argparse.ArgumentParser) -> None:
    """``--no-cache`` for the read-only commands (``list``, ``show``, ``verdict``)."""
    add_cache_argument(
        parser,
        help="answer without the memos of earlier runs or the content cache (neither read nor "
        "written)",
    )


def find_job(snapshot: Snapshot, job_id: str) -> JobFacts:
    """The facts of ``job_id``, or a usage error that says which id was meant (exit 2).

    An operator in an incident often types the function's name: a unique id ending in it is
    suggested, and an id only the code (not the committed ledger) knows is named as such.
    """
    from ..verdict import from_snapshot

    facts = from_snapshot(snapshot, job_id)
    if facts is not None:
        return facts
    ids = snapshot.ids
    ledger = snapshot.config.ledger_display
    ends = [known for known in ids if known.endswith(f".{job_id}")]
    if len(ends) == 1:
        hint = f"; did you mean {ends[0]}?"
    elif ends:
        hint = f"; did you mean one of {', '.join(ends[:5])}?"
    else:
        close = did_you_mean(job_id, ids)
        hint = f"; did you mean {close}?" if close else f" ({len(ids)} jobs; `jobledger list`)"
    if snapshot.stale and job_id in snapshot.fresh_ids:
        hint = (
            f": the code registers it, but the committed ledger is stale ({snapshot.stale}); "
            "run `jobledger extract` and commit the ledger"
        )
    raise JobledgerError(f"no job {job_id} in {ledger}{hint}")
