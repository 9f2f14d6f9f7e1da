"""What a ``[tool.jobledger]`` value may be: one validator per kind of value, each typed.

A validator takes the value as TOML gave it and the :class:`Context` of the reading, and returns
the checked value or raises the context's located
:class:`~pytest_jobledger.core.errors.ConfigError`.
The key table (``keys.py``) names which validator checks which key.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import urlsplit

from ..core.errors import ConfigError
from ..core.paths import outside_reason, too_long
from ..core.text import did_you_mean, one_line
from ..ledger.model import FRAMEWORKS, LEDGER_KEYS, RESOLVED_FIELDS
from ..overlay.cells import CELLS, DEFAULT_REQUIRED_CELLS, REVIEWED_ON, CellKind, CellSettings
from .records import (
    BULK_RETRY_CEILING,
    DEFAULT_AUDIT_LOG,
    OVERLAY_BYTES_CEILING,
    DecoratorSpec,
)
from .roles import path_text

JOB_ID_STYLES: tuple[str, ...] = ("import-path", "registered-name")
REVIEW_ON_CHANGE: tuple[str, ...] = ("warn", "fail", "off")
#: How the runbook's index is grouped.
RUNBOOK_GROUPS: tuple[str, ...] = ("queue", "module", "owner", "framework")
#: What a docs build (the MkDocs plugin, the Sphinx directive) does while a cell is unsigned.
DOCS_UNSIGNED: tuple[str, ...] = ("fail", "warn")
TIME_UNITS: tuple[str, ...] = ("s", "ms")
_CELL_KEYS = {"allowed", "description"}
_DECORATOR_KEYS = {"framework", "time_unit", *RESOLVED_FIELDS}


class Context:
    """One reading of a table: where it was read (for located messages), the root paths are
    checked against, and the values checked so far (a later key may depend on an earlier one)."""

    def __init__(self, root: Path, source: Path | None, lines: Mapping[str, int]) -> None:
        self.root = root
        self.where = str(source) if source is not None else None
        self.lines = lines
        self.values: dict[str, object] = {}

    def fail(self, key: str, message: str) -> ConfigError:
        top = key.split(".", 1)[0]
        line = self.lines.get(top, self.lines.get("")) if self.where is not None else None
        return ConfigError(
            f"[tool.jobledger] {one_line(key)}: {message}", path=self.where, line=line
        )

    def inside(self, key: str, value: str) -> str:
        """A configured path: relative, and inside the root once symlinks are followed."""
        path_text(key, value, self.fail)
        if Path(value).is_absolute() or ".." in Path(value).parts:
            raise self.fail(key, f"{value!r} must be relative to the root and stay inside it")
        long = too_long(self.root / value)
        if long is not None:
            raise self.fail(key, f"{one_line(repr(value[:60]))}... is not usable: {long}")
        reason = outside_reason(self.root / value, self.root)
        if reason is not None:
            raise self.fail(key, f"{value!r} is not followed: {reason}")
        return value


# -- the kinds of value ---------------------------------------------------------------------


def string(key: str, value: object, ctx: Context, choices: tuple[str, ...] = ()) -> str:
    if not isinstance(value, str) or not value:
        raise ctx.fail(key, "must be a non-empty string")
    if choices and value not in choices:
        raise ctx.fail(key, f"must be one of {', '.join(repr(c) for c in choices)}, not {value!r}")
    return value


def strings(key: str, value: object, ctx: Context) -> tuple[str, ...]:
    if not isinstance(value, (list, tuple)) or not all(isinstance(item, str) for item in value):
        raise ctx.fail(key, 'must be a list of strings, e.g. ["src"]')
    return tuple(value)


def boolean(key: str, value: object, ctx: Context) -> bool:
    if not isinstance(value, bool):
        raise ctx.fail(key, "must be true or false")
    return value


def whole_number(
    key: str, value: object, ctx: Context, *, least: int = 0, unit: str = "", ceiling: int = 0
) -> int:
    """The one whole-number check: at least ``least`` (0, or 1 for a size or a count of days),
    and never above a ``ceiling`` no repository can raise."""
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        if least > 0:
            raise ctx.fail(key, f"must be a positive integer ({unit})")
        raise ctx.fail(key, "must be a whole number (0 or more), e.g. 100")
    if ceiling and value > ceiling:
        raise ctx.fail(key, f"{value:,} is over the ceiling of {ceiling:,} {unit} {_WHY[key]}")
    return value


_WHY = {
    "bulk_retry_limit": (
        "that no configuration can raise (a larger retry is a backfill: plan it as one)"
    ),
    "max_overlay_bytes": (
        "that no configuration can raise (the overlay is read on every gate run)"
    ),
}


def path(key: str, value: object, ctx: Context) -> str:
    """A path inside the root."""
    return ctx.inside(key, string(key, value, ctx))


# -- one validator per key that needs more than its kind -------------------------------------


def scanned_paths(key: str, value: object, ctx: Context) -> tuple[str, ...]:
    """``paths``: each entry inside the root and naming something (a typo would scan nothing)."""
    return tuple(_existing(ctx, ctx.inside(key, entry)) for entry in strings(key, value, ctx))


def _existing(ctx: Context, entry: str) -> str:
    if (ctx.root / entry).exists():
        return entry
    try:
        names = sorted(item.name for item in ctx.root.iterdir() if item.is_dir())[:1000]
    except OSError:
        names = []
    close = did_you_mean(entry.rstrip("/"), names)
    hint = f"; did you mean {close!r}?" if close else ""
    raise ctx.fail(
        "paths",
        f"{entry!r} does not exist under the project root {ctx.root}{hint} (each entry is a "
        "folder or file relative to the root)",
    )


def exclude_patterns(key: str, value: object, ctx: Context) -> tuple[str, ...]:
    """``exclude``: each entry a pattern ``.gitignore`` syntax can hold (compiled here once, by
    the library discovery uses, so a bad one is a located error and not a traceback later)."""
    patterns = strings(key, value, ctx)
    if patterns:
        import pathspec  # only when there are patterns to compile: start-up stays light
    for pattern in patterns:
        if "\0" in pattern:
            raise ctx.fail(key, "holds a NUL byte (\\x00), which no file name can hold")
        try:
            pathspec.GitIgnoreSpec.from_lines([pattern])
        except (ValueError, re.error, RecursionError) as error:
            raise ctx.fail(
                key,
                f"{one_line(repr(pattern))} is not a .gitignore-style pattern "
                f'({one_line(str(error))}); write it as a .gitignore line, e.g. "migrations/" '
                'or "**/generated_*.py"',
            ) from None
    return patterns


def job_id(key: str, value: object, ctx: Context) -> str:
    return string(key, value, ctx, JOB_ID_STYLES)


def review_on_change(key: str, value: object, ctx: Context) -> str:
    return string(key, value, ctx, REVIEW_ON_CHANGE)


def docs_unsigned(key: str, value: object, ctx: Context) -> str:
    return string(key, value, ctx, DOCS_UNSIGNED)


def runbook_group_by(key: str, value: object, ctx: Context) -> str:
    return string(key, value, ctx, RUNBOOK_GROUPS)


def max_file_bytes(key: str, value: object, ctx: Context) -> int:
    return whole_number(key, value, ctx, least=1, unit="bytes")


def max_overlay_bytes(key: str, value: object, ctx: Context) -> int:
    return whole_number(key, value, ctx, least=1, unit="bytes", ceiling=OVERLAY_BYTES_CEILING)


def bulk_retry_limit(key: str, value: object, ctx: Context) -> int:
    return whole_number(key, value, ctx, unit="jobs", ceiling=BULK_RETRY_CEILING)


def max_review_age_days(key: str, value: object, ctx: Context) -> int:
    """With a review age, ``reviewed_on`` is one of the required cells."""
    days = whole_number(key, value, ctx, least=1, unit="days")
    required = ctx.values["required_cells"]
    assert isinstance(required, tuple)
    if REVIEWED_ON not in required:
        ctx.values["required_cells"] = (*required, REVIEWED_ON)
    return days


def required_cells(key: str, value: object, ctx: Context) -> tuple[str, ...]:
    """Each required cell once, a real cell name, never a ledger field; at least one."""
    cells = strings(key, value, ctx)
    if not cells:
        raise ctx.fail(
            key,
            "is empty, so no cell would be required and every job would pass unsigned; list the "
            f"cells to sign (default: {', '.join(DEFAULT_REQUIRED_CELLS)})",
        )
    seen: set[str] = set()
    for cell in cells:
        if not cell.strip():
            raise ctx.fail(key, "holds an empty name; every cell needs a name")
        if cell != cell.strip() or not cell.isprintable():
            raise ctx.fail(
                key,
                f"{cell!r} is not a usable cell name (no spaces at either end, no control "
                "characters)",
            )
        if cell in LEDGER_KEYS:
            raise ctx.fail(
                key,
                f"{cell!r} is a ledger field: the ledger reads it from the code, and the overlay "
                "never carries it; remove it from required_cells",
            )
        if cell in seen:
            raise ctx.fail(key, f"{cell!r} is listed twice; list each cell once")
        seen.add(cell)
    return cells


def cell_settings(key: str, value: object, ctx: Context) -> dict[str, CellSettings]:
    """``[tool.jobledger.cells.NAME]``: allowed values for a text cell, or a project's own cell."""
    if not isinstance(value, dict):
        raise ctx.fail(key, "must be a table of tables: [tool.jobledger.cells.runtime_class]")
    blocked = ctx.values["blocked_values"]
    assert isinstance(blocked, tuple)
    folded = {item.strip().casefold() for item in blocked}
    result: dict[str, CellSettings] = {}
    for name, spec in sorted(value.items()):
        where = f"cells.{name}"
        if not isinstance(spec, dict):
            raise ctx.fail(where, "must be a table, e.g. allowed = [...]")
        if name in LEDGER_KEYS:
            raise ctx.fail(
                where, f"{name!r} is a ledger field; the overlay holds only signed policy"
            )
        for option in spec:
            if option not in _CELL_KEYS:
                raise ctx.fail(f"{where}.{option}", f"unknown key{expected(option, _CELL_KEYS)}")
        description = spec.get("description")
        if description is not None and (not isinstance(description, str) or not description):
            raise ctx.fail(f"{where}.description", "must be a non-empty string")
        allowed = spec.get("allowed", [])
        if not isinstance(allowed, list) or not all(
            isinstance(item, str) and item.strip() for item in allowed
        ):
            raise ctx.fail(
                f"{where}.allowed", 'must be a list of non-empty strings, e.g. ["batch-long"]'
            )
        known = CELLS.get(name)
        if allowed and known is not None and known.kind is not CellKind.TEXT:
            raise ctx.fail(
                f"{where}.allowed", f"{name!r} takes {known.kind.value} answers, not a list"
            )
        if len(set(allowed)) != len(allowed):
            raise ctx.fail(f"{where}.allowed", "lists a value twice")
        for item in allowed:
            if item.strip().casefold() in folded:
                raise ctx.fail(
                    f"{where}.allowed", f"{item!r} is a blocked value, never a signature"
                )
        result[name] = CellSettings(allowed=tuple(allowed), description=description)
    return result


def decorators(key: str, value: object, ctx: Context) -> dict[str, DecoratorSpec]:
    if not isinstance(value, dict):
        raise ctx.fail(key, 'must be a table of tables: [tool.jobledger.decorators."pkg.job"]')
    return {name: _decorator(name, spec, ctx) for name, spec in sorted(value.items())}


def _decorator(qualname: str, spec: object, ctx: Context) -> DecoratorSpec:
    key = f'decorators."{qualname}"'
    if not re.fullmatch(r"[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)+", qualname):
        raise ctx.fail(key, "must be a dotted qualified name such as 'acme.jobs.job'")
    if not isinstance(spec, dict):
        raise ctx.fail(key, "must be a table")
    fields: dict[str, str | int] = {}
    framework: str | None = None
    time_unit: str | None = None
    for name, value in spec.items():
        if name not in _DECORATOR_KEYS:
            raise ctx.fail(f"{key}.{name}", f"unknown key{expected(name, _DECORATOR_KEYS)}")
        if name == "framework":
            if value not in FRAMEWORKS or value == "custom":
                choices = ", ".join(repr(f) for f in FRAMEWORKS if f != "custom")
                raise ctx.fail(f"{key}.framework", f"must be one of {choices}, not {value!r}")
            framework = value
        elif name == "time_unit":
            if value not in TIME_UNITS:
                raise ctx.fail(f"{key}.time_unit", f"must be 's' or 'ms', not {value!r}")
            time_unit = value
        elif isinstance(value, bool) or not isinstance(value, (str, int)):
            raise ctx.fail(
                f"{key}.{name}",
                "must be a keyword name (string) or a positional index (integer)",
            )
        elif isinstance(value, int) and value < 0:
            raise ctx.fail(f"{key}.{name}", "a positional index must be 0 or more")
        elif isinstance(value, str) and not value.isidentifier():
            raise ctx.fail(f"{key}.{name}", f"{value!r} is not a keyword argument name")
        else:
            fields[name] = value
    return DecoratorSpec(qualname=qualname, framework=framework, fields=fields, time_unit=time_unit)


def draft_command(key: str, value: object, ctx: Context) -> str:
    """Text a shell would split into a program and its arguments (it is split the same way when
    run, never by a shell)."""
    if not isinstance(value, str):
        raise ctx.fail(key, 'must be a string, e.g. "my-model-cli --max-words 60"')
    try:
        words = shlex.split(value)
    except ValueError as error:
        raise ctx.fail(key, f"cannot be split like a shell would: {error}") from None
    if not words:
        raise ctx.fail(key, "must name a program")
    return value


def schema_url(key: str, value: object, ctx: Context) -> str:
    """An https URL the overlay's ``$schema`` line may name on every clone."""
    example = "e.g. https://example.com/job_policy.schema.json"
    if not isinstance(value, str) or not value:
        raise ctx.fail(key, f"must be a non-empty string, {example}")
    try:
        parts = urlsplit(value)
        hostname = parts.hostname
    except ValueError as error:
        raise ctx.fail(key, f"is not a URL ({error}), {example}") from None
    if parts.scheme != "https" or not hostname or any(c.isspace() for c in value):
        raise ctx.fail(key, f"must be an https URL without spaces, {example}")
    if not value.isprintable():
        raise ctx.fail(key, "must not hold control characters")
    return value


def cache_dir(key: str, value: object, ctx: Context) -> str:
    """A folder of its own inside the root (it gets a ``.gitignore`` of ``*``)."""
    folder = path(key, value, ctx)
    if Path(folder) == Path("."):
        raise ctx.fail(key, 'must be a folder of its own, not the root, e.g. ".jobledger_cache"')
    return folder


def expected(word: str, options: set[str]) -> str:
    """ "; did you mean ...?" when a known word is close, else the list of known words."""
    close = did_you_mean(word, options)
    listed = ", ".join(sorted(options))
    return f"; did you mean {close!r}?" if close else f"; expected one of: {listed}"


#: How the trail's parser names a value read from the configuration.
_AUDIT_ORIGIN = "[tool.jobledger] audit_log"


def audit_log(key: str, value: object, ctx: Context) -> str:
    """A path inside the root, ``sqlite:///relative/path`` inside the root, or a PostgreSQL URL
    naming at most a user and a database (pyproject.toml is committed and a pull request can
    change it: a host, a port, a password or any connection parameter comes from the operator's
    ``JOBLEDGER_AUDIT_URL``, which wins). Checked by the trail's own parser
    (:func:`~pytest_jobledger.audit.where.target_of`, the repository's side), once; the value
    itself is never repeated in a message about a password."""
    text = string(key, value, ctx)
    path_text(key, text, ctx.fail)
    if text == DEFAULT_AUDIT_LOG:  # a file inside the root, as the parser says (a test pins it):
        return ctx.inside(key, text)  # the trail's package is imported for a written value only
    from ..audit.where import WhereError, target_of  # the trail's parser: read only when set

    try:
        target = target_of(text, root=ctx.root, origin=_AUDIT_ORIGIN)
    except WhereError as error:
        raise ctx.fail(key, error.reason) from None
    if target.kind == "file":
        return ctx.inside(key, text)
    if target.kind == "sqlite":
        ctx.inside(key, target.location)
    return text
    parts = urlsplit(text)
    query = [item.partition("=")[0] for item in parts.query.split("&")]
    if parts.password is not None or "password" in query:
        raise ctx.fail(
            key,
            "holds a password, and pyproject.toml is committed: remove it here and set "
            "JOBLEDGER_AUDIT_URL (which wins over audit_log) in the operators' environment",
        )
    return text
