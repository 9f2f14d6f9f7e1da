"""What every subcommand does first: turn ``--root``/``--config`` into a :class:`Config`."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..config import Config, load_config


def config_from_args(args: argparse.Namespace) -> Config:
    return load_config(
        root=Path(args.root) if args.root else None,
        config_file=Path(args.config) if args.config else None,
    )
