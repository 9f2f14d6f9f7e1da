"""Subcommands of ``jobledger``; each module has NAME, HELP, add_arguments(parser) and run(args)."""

from __future__ import annotations

from types import ModuleType

from . import check, extract, stub

COMMANDS: tuple[ModuleType, ...] = (extract, check, stub)
