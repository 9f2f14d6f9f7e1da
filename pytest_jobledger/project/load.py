"""Read ``[tool.jobledger]``: find the file, parse it, and check each key the table names.

The reader consumes the table as it goes (each key taken out once it is checked); what is left
is reported once, as an unknown key with the closest known name.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError
from ..core.paths import read_regular
from ..core.readers import Unreadable, decode_utf8, parse_toml
from .checks import Context, expected
from .keys import BY_NAME, EXAMPLES, KEYS, KNOWN, PATH_ROLES, WRITTEN_ROLES
from .records import Cache, Cells, Config, Drafts, Extraction, Files, Review, Runbook, Verdict
from .roles import distinct_roles

#: A pyproject.toml is a few kilobytes; a larger one is not read.
MAX_CONFIG_BYTES = 1024 * 1024

_RECORDS = {
    "files": Files,
    "extraction": Extraction,
    "cells": Cells,
    "review": Review,
    "runbook": Runbook,
    "drafts": Drafts,
    "verdict": Verdict,
    "cache": Cache,
}


def find_pyproject(start: Path) -> Path | None:
    """The nearest ``pyproject.toml`` at or above ``start``."""
    for folder in (start, *start.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            return candidate
    return None


def load_config(
    root: Path | None = None,
    config_file: Path | None = None,
    cwd: Path | None = None,
    *,
    options: tuple[str, str] = ("--root", "--config"),
) -> Config:
    """Resolve the root and read the configuration the way ``jobledger --root/--config`` does.

    Without ``root`` the root is the folder of ``config_file``, else of the nearest
    ``pyproject.toml`` above ``cwd``, else ``cwd`` itself. ``options`` names the two options in
    messages (the pytest plugin's are ``--jobledger-root`` and ``--jobledger-config``).
    """
    root_option, config_option = options
    cwd = (cwd or Path.cwd()).resolve()
    explicit = config_file is not None
    if config_file is not None:
        config_file = (cwd / config_file).resolve()
        if not config_file.is_file():
            raise ConfigError(
                f"configuration file not found; check {config_option}", path=str(config_file)
            )
    if root is not None:
        root = (cwd / root).resolve()
        if not root.is_dir():
            raise ConfigError(f"{root_option} is not a folder", path=str(root))
        if config_file is None and (root / "pyproject.toml").is_file():
            config_file = root / "pyproject.toml"
    else:
        if config_file is None:
            config_file = find_pyproject(cwd)
        root = config_file.parent if config_file is not None else cwd
    if config_file is None:
        return config_from_table({}, root=root, configured=False)
    # A file given with --config is the operator's choice; a found one belongs to the tree.
    read = _read_table(config_file, None if explicit else root)
    return config_from_table(
        read.table or {},
        root=root,
        source=config_file,
        key_lines=read.lines,
        configured=read.table is not None,
        project=read.project,
    )


@dataclass(frozen=True)
class _Read:
    #: ``None`` when the file has no [tool.jobledger] table.
    table: Mapping[str, Any] | None
    lines: dict[str, int]
    #: ``[project] name``, the runbook's title.
    project: str | None


def _read_table(path: Path, root: Path | None) -> _Read:
    try:
        raw = read_regular(path, root=root, limit=MAX_CONFIG_BYTES)
        text = decode_utf8(raw)
        data = parse_toml(text)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise ConfigError(f"cannot read configuration: {reason}", path=str(path)) from exc
    except Unreadable as exc:
        problem = exc.problem
        if problem.reason == "encoding":
            message = "configuration is not UTF-8 text"
        elif problem.reason == "syntax":
            message = f"not valid TOML: {problem.detail}"
        elif problem.reason == "deep":
            message = (
                "the TOML is nested too deeply to read (arrays or tables inside one another); "
                "[tool.jobledger] needs a few levels at most"
            )
        else:
            message = f"configuration cannot be read: {problem.detail}"
        raise ConfigError(message, path=str(path), line=problem.line) from None
    tool = data.get("tool", {})
    table = tool.get("jobledger") if isinstance(tool, dict) else None
    if table is not None and not isinstance(table, dict):
        raise ConfigError("[tool.jobledger] must be a table", path=str(path))
    project = data.get("project")
    name = project.get("name") if isinstance(project, dict) else None
    title = name if isinstance(name, str) and name.strip() else None
    return _Read(table, key_lines(text), title)


_TABLE_HEADER = re.compile(r"\s*\[\s*tool\s*\.\s*jobledger\s*\]\s*(#.*)?$")
_ANY_HEADER = re.compile(r"\s*\[")
_KEY = re.compile(r"\s*([A-Za-z0-9_-]+)\s*=")


def key_lines(text: str) -> dict[str, int]:
    """The 1-based line of ``[tool.jobledger]`` (key ``""``) and of each key written under it.

    A reading for messages only (TOML itself is read by the TOML parser): a key written some
    other way (``tool.jobledger.paths = ...`` under ``[tool]``) simply has no line.
    """
    lines: dict[str, int] = {}
    inside = False
    for number, line in enumerate(text.splitlines(), start=1):
        if _TABLE_HEADER.match(line):
            inside = True
            lines.setdefault("", number)
        elif _ANY_HEADER.match(line):
            inside = inside and line.strip().startswith("[tool.jobledger.")
            if inside:
                lines.setdefault("decorators", number)
        elif inside and (match := _KEY.match(line)):
            lines.setdefault(match.group(1), number)
    return lines


def config_from_table(
    table: Mapping[str, Any],
    *,
    root: Path,
    source: Path | None = None,
    project: str | None = None,
    key_lines: Mapping[str, int] | None = None,
    configured: bool = True,
) -> Config:
    """Check a ``[tool.jobledger]`` table key by key, in the key table's order; every error
    names the offending key (and its line, when ``key_lines`` knows it)."""
    ctx = Context(root, source, dict(key_lines or {}))
    left = dict(table)
    for key in KEYS:
        if key.name in left:
            ctx.values[key.name] = key.validate(key.name, left.pop(key.name), ctx)
        elif key.default is not None:
            ctx.values[key.name] = key.validate(key.name, key.default, ctx)
        else:
            ctx.values[key.name] = None
    for name in left:
        raise ctx.fail(name, f"unknown key{expected(name, set(KNOWN))}")
    fields: dict[str, dict[str, object]] = {name: {} for name in _RECORDS}
    for key in KEYS:
        fields[key.record][key.field] = ctx.values[key.name]
    fields["runbook"]["title"] = project
    records: dict[str, Any] = {name: _RECORDS[name](**given) for name, given in fields.items()}
    config = Config(root=root, source=source, configured=configured, key_lines=ctx.lines, **records)
    distinct_roles(
        root,
        source,
        _role_values(ctx.values),
        written=WRITTEN_ROLES,
        examples=EXAMPLES,
        configured=set(table),
        fail=ctx.fail,
    )
    return config


def _role_values(values: Mapping[str, object]) -> dict[str, str]:
    """Each path key's value as it takes effect (the runbook ``jobledger render`` writes when
    none is configured), leaving out an unset one."""
    taking_effect: dict[str, str] = {}
    for name in PATH_ROLES:
        value = values[name]
        if value is None:
            value = BY_NAME[name].fallback
        if isinstance(value, str):
            taking_effect[name] = value
    return taking_effect
