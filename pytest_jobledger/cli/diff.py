"""``jobledger diff --base REF``: what operators will see change, ledger and overlay side by side.

The base's committed ledger and overlay are read with git (never a checkout); the head side is a
fresh extraction and the overlay as it is now. Without a usable base it says why once and exits 2.
"""

from __future__ import annotations

import argparse

from ..core.paths import Shown
from ..core.text import say
from ..reporters.changes import FORMATS, render_json, render_markdown, render_text
from ..session import Session
from .common import config_from_args
from .options import add_format_argument


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--base", metavar="REF", required=True, help="the git ref to compare with")
    add_format_argument(parser, FORMATS)


def run(args: argparse.Namespace) -> int:
    config = config_from_args(args)
    report = Session.open(config, base=args.base, baseline=False).changes()
    if args.format == "text":
        say(render_text(report, Shown.here(config.root)), end="")
    else:
        render = {"markdown": render_markdown, "json": render_json}[args.format]
        say(render(report), end="")
    return 0
