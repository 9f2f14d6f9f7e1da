"""``jobledger schema``: write the overlay schema for this configuration, for editors.

The schema carries the configured required cells, the cells the project adds and their allowed
values (as enums), so an editor flags what the gate would fail. ``--check`` changes nothing and
exits 1 when the written file is out of date (for pre-commit and CI).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..core.atomic import atomic_write
from ..core.errors import JobledgerError
from ..core.paths import Shown
from ..core.text import one_line, say
from ..overlay.schema import render_schema
from ..project.files import read_file
from .common import config_from_args
from .options import add_format_argument, note


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "-o",
        "--output",
        metavar="PATH",
        help="where to write it; '-' prints it (default: `schema` in [tool.jobledger], "
        "overlays/job_policy.schema.json)",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="change nothing; exit 1 if the file differs from what would be written",
    )
    add_format_argument(parser, ("text",), note="; the schema itself is JSON")


def run(args: argparse.Namespace) -> int:
    config = config_from_args(args)
    text = render_schema(config.cells.vocabulary, config.cells.blocked)
    if args.output == "-":
        say(text, end="")
        return 0
    # -o is the operator's own choice; the configured path belongs to the tree and stays in it.
    path = Path(args.output) if args.output else config.schema_path
    shown = one_line(
        str(path) if args.output else Shown.here(config.root).path(config.display(path))
    )
    if args.check:
        read = read_file("schema", config, path=Path(args.output) if args.output else None)
        current = (read.text or "") if read.exists else None
        if current == text:
            note(args, f"jobledger: {shown} is up to date")
            return 0
        state = "does not exist" if current is None else "is out of date"
        say(f"jobledger: {shown} {state}; run `jobledger schema`", file=sys.stderr)
        return 1
    try:
        atomic_write(path, text, root=config.root, named_by_operator=bool(args.output))
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise JobledgerError(f"cannot write the schema ({reason})", path=shown) from exc
    cells = len(config.cells.vocabulary.cells)
    note(args, f"jobledger: wrote {shown}: {cells} cells")
    return 0
