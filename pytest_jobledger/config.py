"""``[tool.jobledger]``: where it lives, what it may say, and the error when it says something else.

One :class:`Config` drives the command line, the pytest plugin and the action alike.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from .audit.where import WhereError, target_of
from .errors import ConfigError
from .ledger.model import FRAMEWORKS, LEDGER_KEYS, RESOLVED_FIELDS
from .overlay.cells import (
    CELLS,
    DEFAULT_REQUIRED_CELLS,
    REVIEWED_ON,
    CellKind,
    CellSettings,
    Vocabulary,
    vocabulary,
)
from .overlay.reader import MAX_OVERLAY_BYTES, OVERLAY_BYTES_CEILING
from .paths import is_git_name, outside_reason, read_regular, real
from .readers import Unreadable, decode_utf8, parse_toml
from .text import did_you_mean, one_line

#: Folders left out by name: names no importable package can have (a leading dot, a dash) or
#: that only installers and tools write. A virtualenv, a tagged cache and a build output are
#: recognised by what they hold instead (``extract/discovery.py``, :func:`tool_folder`), so a
#: real package named ``build`` or ``venv`` is scanned.
DEFAULT_EXCLUDE: tuple[str, ...] = (
    "**/.git/**",
    "**/.hg/**",
    "**/.svn/**",
    "**/.venv/**",
    "**/.tox/**",
    "**/.nox/**",
    "**/__pycache__/**",
    "**/.mypy_cache/**",
    "**/.ruff_cache/**",
    "**/.pytest_cache/**",
    "**/node_modules/**",
    "**/site-packages/**",
    "**/dist-packages/**",
    "**/*.egg-info/**",
)

DEFAULT_BLOCKED_VALUES: tuple[str, ...] = ("", "unknown")

JOB_ID_STYLES: tuple[str, ...] = ("import-path", "registered-name")
TIME_UNITS: tuple[str, ...] = ("s", "ms")

#: Files larger than this are reported, not parsed; a generated module should not stall CI.
DEFAULT_MAX_FILE_BYTES = 4 * 1024 * 1024

#: A pyproject.toml is a few kilobytes; a larger one is not read.
MAX_CONFIG_BYTES = 1024 * 1024

#: Where ``jobledger verdict`` appends its trail, and the most jobs one bulk retry may touch when
#: a job's overlay entry signs no ``bulk_retry_limit`` of its own.
DEFAULT_AUDIT_LOG = ".jobledger/audit.ndjson"
DEFAULT_BULK_RETRY_LIMIT = 100
#: The most jobs one bulk retry may ever touch, whatever a repository configures or signs: past
#: this a "retry" is a backfill or a migration, which needs its own plan, not an incident verdict
#: (the trail adds batches up against the limit, so 10,000 also bounds what one ticket may retry).
BULK_RETRY_CEILING = 10_000
# -- the runbook and the draft lane (issue 9) ---------------------------------------------------
#: Where ``jobledger render`` writes the runbook when ``runbook`` is not configured.
DEFAULT_RUNBOOK = "docs/jobs.md"
#: How the runbook's index is grouped.
RUNBOOK_GROUPS: tuple[str, ...] = ("queue", "module", "owner", "framework")
#: Where ``jobledger draft`` keeps its unverified drafts (never read by the gate).
DEFAULT_DRAFTS = "overlays/purpose_drafts.yaml"
# -- speed (issue 8) ------------------------------------------------------------------------------
#: Where extraction keeps its content cache (``JOBLEDGER_CACHE_DIR`` names another folder).
DEFAULT_CACHE_DIR = ".jobledger_cache"


@dataclass(frozen=True)
class DecoratorSpec:
    """A homegrown (or wrapping) decorator the user declared to be a job decorator.

    ``fields`` maps a ledger field to the keyword name (``str``) or positional index (``int``) of
    the decorator argument that carries it. With a ``framework``, fields not mapped here are read
    by that framework's own rules.
    """

    qualname: str
    framework: str | None = None
    fields: Mapping[str, str | int] = field(default_factory=dict)
    time_unit: str | None = None


@dataclass(frozen=True)
class Config:
    root: Path
    source: Path | None = None
    paths: tuple[str, ...] = (".",)
    exclude: tuple[str, ...] = ()
    ledger: str = "generated/job_ledger.json"
    overlay: str = "overlays/job_policy.yaml"
    job_id: str = "import-path"
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    decorators: Mapping[str, DecoratorSpec] = field(default_factory=dict)
    required_cells: tuple[str, ...] = DEFAULT_REQUIRED_CELLS
    blocked_values: tuple[str, ...] = DEFAULT_BLOCKED_VALUES
    # -- signatures that stay true (review after change, review age, owners, allowed values) --
    review_on_change: str = "warn"
    max_review_age_days: int | None = None
    """With it, ``reviewed_on`` is one of the ``required_cells``."""
    owners: str | None = None
    cells: Mapping[str, CellSettings] = field(default_factory=dict)
    schema: str = "overlays/job_policy.schema.json"

    @property
    def vocabulary(self) -> Vocabulary:
        """Every cell an entry may hold here: the vocabulary, required and project cells."""
        return vocabulary(self.required_cells, self.cells)

    @property
    def owners_path(self) -> Path | None:
        return self.root / self.owners if self.owners is not None else None

    @property
    def schema_path(self) -> Path:
        return self.root / self.schema

    audit_log: str = DEFAULT_AUDIT_LOG
    bulk_retry_limit: int = DEFAULT_BULK_RETRY_LIMIT
    #: The approvers' keys (git's allowed_signers format, ``@revoked`` lines), for ``--approval``.
    allowed_signers: str | None = None

    @property
    def allowed_signers_path(self) -> Path | None:
        return self.root / self.allowed_signers if self.allowed_signers is not None else None

    #: ``[project] name`` of the configuration file, for the runbook's title.
    project: str | None = None
    #: The configured runbook; ``None`` when not configured (then there is no runbook-fresh
    #: status item, and ``jobledger render`` writes :data:`DEFAULT_RUNBOOK`).
    runbook: str | None = None
    runbook_group_by: str = "queue"
    drafts: str = DEFAULT_DRAFTS
    #: The draft command as configured (split like a shell would when it is run, never by one).
    draft_command: str | None = None
    # -- speed (issue 8) and excludes (issue 11) --
    cache_dir: str = DEFAULT_CACHE_DIR
    #: Leave out what the tree's ``.gitignore`` files ignore, as well as ``exclude``.
    respect_gitignore: bool = False
    #: Not a configuration key: ``--no-cache`` (and the pytest option) turn the cache off.
    use_cache: bool = True

    @property
    def runbook_path(self) -> Path:
        return self.root / (self.runbook or DEFAULT_RUNBOOK)

    @property
    def drafts_path(self) -> Path:
        return self.root / self.drafts

    # -- robustness (issue 13): an empty scan, and where each key was written -----------------
    allow_empty: bool = False
    """A scan that finds no job registration passes only when the project says so."""
    configured: bool = True
    """Whether the project has a [tool.jobledger] table (without one, the gate says how to add
    it when it finds nothing)."""
    key_lines: Mapping[str, int] = field(default_factory=dict)
    """The line of each top-level key in ``source`` (``""``: the table's header), for messages."""
    max_overlay_bytes: int = MAX_OVERLAY_BYTES
    """The largest overlay the gate reads and the stub writes (never above the ceiling)."""
    # -- the editor schema line (issue 11) ------------------------------------------------------
    schema_url: str | None = None
    """Where the stub's ``$schema`` line points when set (an https URL); else at ``schema``."""

    # -- the baseline (issue 11): a legacy repository's known failures --------------------------
    baseline: str = "overlays/jobledger-baseline.json"
    """Where ``jobledger baseline`` writes the known failures the gate reports as notices."""

    @property
    def baseline_path(self) -> Path:
        return self.root / self.baseline

    @property
    def ledger_path(self) -> Path:
        return self.root / self.ledger

    @property
    def overlay_path(self) -> Path:
        return self.root / self.overlay

    @property
    def overlay_display(self) -> str:
        """The overlay's path as findings name it: relative to the root, ``/`` separators."""
        return self.display(self.overlay_path)

    @property
    def ledger_display(self) -> str:
        return self.display(self.ledger_path)

    def display(self, path: os.PathLike[str] | str) -> str:
        """``path`` relative to the root with ``/`` separators, as every message names files."""
        return os.path.relpath(path, self.root).replace(os.sep, "/")

    @property
    def audit_log_path(self) -> Path:
        return self.root / self.audit_log

    @property
    def all_excludes(self) -> tuple[str, ...]:
        return DEFAULT_EXCLUDE + self.exclude


_TOP_KEYS = {
    "paths",
    "exclude",
    "ledger",
    "overlay",
    "job_id",
    "max_file_bytes",
    "decorators",
    "required_cells",
    "blocked_values",
    "review_on_change",
    "max_review_age_days",
    "owners",
    "cells",
    "schema",
    "audit_log",
    "bulk_retry_limit",
    "allowed_signers",
    "runbook",
    "runbook_group_by",
    "drafts",
    "draft_command",
    "allow_empty",
    "max_overlay_bytes",
    "baseline",
    "schema_url",
    "cache_dir",
    "respect_gitignore",
}
REVIEW_ON_CHANGE: tuple[str, ...] = ("warn", "fail", "off")
_CELL_KEYS = {"allowed", "description"}
_DECORATOR_KEYS = {"framework", "time_unit", *RESOLVED_FIELDS}


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
    table: Mapping[str, Any] | None = None
    lines: Mapping[str, int] = {}
    project: str | None = None
    if config_file is not None:
        # A file given with --config is the operator's choice; a found one belongs to the tree.
        table, lines, project = _read_table(config_file, None if explicit else root)
    return config_from_table(
        table or {},
        root=root,
        source=config_file,
        key_lines=lines,
        configured=table is not None,
        project=project,
    )


def _read_table(
    path: Path, root: Path | None
) -> tuple[Mapping[str, Any] | None, dict[str, int], str | None]:
    """The [tool.jobledger] table (``None`` when the file has none), its keys' lines, and
    ``[project] name`` (the runbook's title)."""
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
    return table, key_lines(text), name if isinstance(name, str) and name.strip() else None


_TABLE_HEADER = re.compile(r"\s*\[\s*tool\s*\.\s*jobledger\s*\]\s*(#.*)?$")
_ANY_HEADER = re.compile(r"\s*\[")
_KEY = re.compile(r"\s*([A-Za-z0-9_-]+)\s*=")


def key_lines(text: str) -> dict[str, int]:
    """The 1-based line of ``[tool.jobledger]`` (key ``""``) and of each key written under it.

    A reading for messages only (TOML itself is read by tomllib): a key written some other way
    (``tool.jobledger.paths = ...`` under ``[tool]``) simply has no line.
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
    """Validate a ``[tool.jobledger]`` table; every error names the offending key (and its line,
    when ``key_lines`` knows it)."""
    where = str(source) if source is not None else None
    lines = dict(key_lines or {})

    def fail(key: str, message: str) -> ConfigError:
        top = key.split(".", 1)[0]
        line = lines.get(top, lines.get("")) if where is not None else None
        return ConfigError(f"[tool.jobledger] {one_line(key)}: {message}", path=where, line=line)

    def inside(key: str, value: str) -> str:
        """A configured path: relative, and inside the root once symlinks are followed."""
        path_text(key, value, fail)
        if Path(value).is_absolute() or ".." in Path(value).parts:
            raise fail(key, f"{value!r} must be relative to the root and stay inside it")
        reason = outside_reason(root / value, root)
        if reason is not None:
            raise fail(key, f"{value!r} is not followed: {reason}")
        return value

    for key in table:
        if key not in _TOP_KEYS:
            raise fail(key, f"unknown key{_did_you_mean(key, _TOP_KEYS)}")

    def str_list(key: str, default: tuple[str, ...]) -> tuple[str, ...]:
        value = table.get(key, list(default))
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise fail(key, 'must be a list of strings, e.g. ["src"]')
        return tuple(value)

    def string(key: str, default: str, choices: tuple[str, ...] | None = None) -> str:
        value = table.get(key, default)
        if not isinstance(value, str) or not value:
            raise fail(key, "must be a non-empty string")
        if choices is not None and value not in choices:
            raise fail(key, f"must be one of {', '.join(repr(c) for c in choices)}, not {value!r}")
        return value

    paths = tuple(
        _existing(root, inside("paths", entry), fail) for entry in str_list("paths", (".",))
    )
    max_bytes = table.get("max_file_bytes", DEFAULT_MAX_FILE_BYTES)
    if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes <= 0:
        raise fail("max_file_bytes", "must be a positive integer (bytes)")
    decorators_table = table.get("decorators", {})
    if not isinstance(decorators_table, dict):
        raise fail("decorators", 'must be a table of tables: [tool.jobledger.decorators."pkg.job"]')
    decorators = {
        qualname: _decorator_spec(qualname, spec, fail)
        for qualname, spec in sorted(decorators_table.items())
    }
    required = _required_cells(str_list("required_cells", DEFAULT_REQUIRED_CELLS), fail)
    max_age = table.get("max_review_age_days")
    if max_age is not None:
        if isinstance(max_age, bool) or not isinstance(max_age, int) or max_age <= 0:
            raise fail("max_review_age_days", "must be a positive integer (days)")
        if REVIEWED_ON not in required:
            required = (*required, REVIEWED_ON)
    blocked = str_list("blocked_values", DEFAULT_BLOCKED_VALUES)
    owners = table.get("owners")
    if owners is not None:
        owners = inside("owners", string("owners", ""))
    signers = table.get("allowed_signers")
    if signers is not None:
        signers = inside("allowed_signers", string("allowed_signers", ""))
    config = Config(
        root=root,
        source=source,
        paths=paths,
        exclude=exclude_patterns(str_list("exclude", ()), fail),
        ledger=inside("ledger", string("ledger", Config.ledger)),
        overlay=inside("overlay", string("overlay", Config.overlay)),
        job_id=string("job_id", Config.job_id, JOB_ID_STYLES),
        max_file_bytes=max_bytes,
        decorators=decorators,
        required_cells=required,
        blocked_values=blocked,
        review_on_change=string("review_on_change", Config.review_on_change, REVIEW_ON_CHANGE),
        max_review_age_days=max_age,
        owners=owners,
        cells=_cell_settings(table.get("cells", {}), required, blocked, fail),
        schema=inside("schema", string("schema", Config.schema)),
        audit_log=_audit_log(string("audit_log", Config.audit_log), inside, fail),
        bulk_retry_limit=_bulk_retry_limit(table, fail),
        allowed_signers=signers,
        project=project,
        runbook=inside("runbook", string("runbook", "")) if "runbook" in table else None,
        runbook_group_by=string("runbook_group_by", Config.runbook_group_by, RUNBOOK_GROUPS),
        drafts=inside("drafts", string("drafts", DEFAULT_DRAFTS)),
        draft_command=_draft_command(table, fail),
        allow_empty=_boolean(table, "allow_empty", fail),
        max_overlay_bytes=_overlay_limit(table, fail),
        baseline=inside("baseline", string("baseline", Config.baseline)),
        schema_url=_schema_url(table, fail),
        configured=configured,
        key_lines=lines,
        cache_dir=_cache_dir(inside("cache_dir", string("cache_dir", DEFAULT_CACHE_DIR)), fail),
        respect_gitignore=_flag(table, "respect_gitignore", fail),
    )
    distinct_roles(config, set(table), fail)
    return config


def _audit_log(value: str, inside: Any, fail: Any) -> str:
    """``audit_log``: checked by the trail's own parser (:func:`.audit.where.target_of`, the
    repository's side: a path or ``sqlite:///relative/path`` inside the root, or a PostgreSQL
    URL naming at most a user and a database), then a path is checked inside the root. The value
    itself is never repeated in a message about a password."""
    try:
        target = target_of(value, origin="[tool.jobledger] audit_log")
    except WhereError as error:
        raise fail("audit_log", error.reason) from None
    if target.kind == "file":
        return str(inside("audit_log", value))
    if target.kind == "sqlite":
        inside("audit_log", target.location)
    return value


def _cache_dir(value: str, fail: Any) -> str:
    """``cache_dir``: a folder of its own inside the root (it gets a ``.gitignore`` of ``*``)."""
    if Path(value) == Path("."):
        raise fail(
            "cache_dir", 'must be a folder of its own, not the root, e.g. ".jobledger_cache"'
        )
    return value


def _flag(table: Mapping[str, Any], key: str, fail: Any) -> bool:
    value = table.get(key, False)
    if not isinstance(value, bool):
        raise fail(key, "must be true or false")
    return value


def _cell_settings(
    table: Any, required: tuple[str, ...], blocked: tuple[str, ...], fail: Any
) -> dict[str, CellSettings]:
    """``[tool.jobledger.cells.NAME]``: allowed values for a text cell, or a project's own cell."""
    if not isinstance(table, dict):
        raise fail("cells", "must be a table of tables: [tool.jobledger.cells.runtime_class]")
    folded = {value.strip().casefold() for value in blocked}
    result: dict[str, CellSettings] = {}
    for name, spec in sorted(table.items()):
        key = f"cells.{name}"
        if not isinstance(spec, dict):
            raise fail(key, "must be a table, e.g. allowed = [...]")
        if name in LEDGER_KEYS:
            raise fail(key, f"{name!r} is a ledger field; the overlay holds only signed policy")
        for option in spec:
            if option not in _CELL_KEYS:
                raise fail(f"{key}.{option}", f"unknown key{_did_you_mean(option, _CELL_KEYS)}")
        description = spec.get("description")
        if description is not None and (not isinstance(description, str) or not description):
            raise fail(f"{key}.description", "must be a non-empty string")
        allowed = spec.get("allowed", [])
        if not isinstance(allowed, list) or not all(
            isinstance(item, str) and item.strip() for item in allowed
        ):
            raise fail(f"{key}.allowed", 'must be a list of non-empty strings, e.g. ["batch-long"]')
        known = CELLS.get(name)
        if allowed and known is not None and known.kind is not CellKind.TEXT:
            raise fail(f"{key}.allowed", f"{name!r} takes {known.kind.value} answers, not a list")
        if len(set(allowed)) != len(allowed):
            raise fail(f"{key}.allowed", "lists a value twice")
        for item in allowed:
            if item.strip().casefold() in folded:
                raise fail(f"{key}.allowed", f"{item!r} is a blocked value, never a signature")
        result[name] = CellSettings(allowed=tuple(allowed), description=description)
    return result


def _whole_number(table: Mapping[str, Any], key: str, default: int, fail: Any) -> int:
    value = table.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise fail(key, "must be a whole number (0 or more), e.g. 100")
    return value


def _bulk_retry_limit(table: Mapping[str, Any], fail: Any) -> int:
    """``bulk_retry_limit``: a whole number, never above the ceiling no repository can raise."""
    value = _whole_number(table, "bulk_retry_limit", DEFAULT_BULK_RETRY_LIMIT, fail)
    if value > BULK_RETRY_CEILING:
        raise fail(
            "bulk_retry_limit",
            f"{value:,} is over the ceiling of {BULK_RETRY_CEILING:,} jobs that no configuration "
            "can raise (a larger retry is a backfill: plan it as one)",
        )
    return value


def _draft_command(table: Mapping[str, Any], fail: Any) -> str | None:
    """``draft_command``: text a shell would split into a program and its arguments (it is split
    the same way when run, never by a shell)."""
    if "draft_command" not in table:
        return None
    value = table["draft_command"]
    if not isinstance(value, str):
        raise fail("draft_command", 'must be a string, e.g. "my-model-cli --max-words 60"')
    try:
        words = shlex.split(value)
    except ValueError as error:
        raise fail("draft_command", f"cannot be split like a shell would: {error}") from None
    if not words:
        raise fail("draft_command", "must name a program")
    return value


# -- robustness (issue 13): an existing `paths` entry, sound `required_cells`, `allow_empty` ----


def _existing(root: Path, entry: str, fail: Any) -> str:
    """A ``paths`` entry that names something: a typo would make the gate scan nothing."""
    if (root / entry).exists():
        return entry
    try:
        names = sorted(item.name for item in root.iterdir() if item.is_dir())[:1000]
    except OSError:
        names = []
    close = did_you_mean(entry.rstrip("/"), names)
    hint = f"; did you mean {close!r}?" if close else ""
    raise fail(
        "paths",
        f"{entry!r} does not exist under the project root {root}{hint} (each entry is a folder "
        "or file relative to the root)",
    )


def _required_cells(cells: tuple[str, ...], fail: Any) -> tuple[str, ...]:
    """Each required cell once, a real cell name, never a ledger field; at least one."""
    if not cells:
        raise fail(
            "required_cells",
            "is empty, so no cell would be required and every job would pass unsigned; list the "
            f"cells to sign (default: {', '.join(DEFAULT_REQUIRED_CELLS)})",
        )
    seen: set[str] = set()
    for cell in cells:
        if not cell.strip():
            raise fail("required_cells", "holds an empty name; every cell needs a name")
        if cell != cell.strip() or not cell.isprintable():
            raise fail(
                "required_cells",
                f"{cell!r} is not a usable cell name (no spaces at either end, no control "
                "characters)",
            )
        if cell in LEDGER_KEYS:
            raise fail(
                "required_cells",
                f"{cell!r} is a ledger field: the ledger reads it from the code, and the overlay "
                "never carries it; remove it from required_cells",
            )
        if cell in seen:
            raise fail("required_cells", f"{cell!r} is listed twice; list each cell once")
        seen.add(cell)
    return cells


def _boolean(table: Mapping[str, Any], key: str, fail: Any) -> bool:
    value = table.get(key, False)
    if not isinstance(value, bool):
        raise fail(key, "must be true or false")
    return value


def _decorator_spec(qualname: str, spec: Any, fail: Any) -> DecoratorSpec:
    key = f'decorators."{qualname}"'
    if not re.fullmatch(r"[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)+", qualname):
        raise fail(key, "must be a dotted qualified name such as 'acme.jobs.job'")
    if not isinstance(spec, dict):
        raise fail(key, "must be a table")
    fields: dict[str, str | int] = {}
    framework: str | None = None
    time_unit: str | None = None
    for name, value in spec.items():
        if name not in _DECORATOR_KEYS:
            raise fail(f"{key}.{name}", f"unknown key{_did_you_mean(name, _DECORATOR_KEYS)}")
        if name == "framework":
            if value not in FRAMEWORKS or value == "custom":
                choices = ", ".join(repr(f) for f in FRAMEWORKS if f != "custom")
                raise fail(f"{key}.framework", f"must be one of {choices}, not {value!r}")
            framework = value
        elif name == "time_unit":
            if value not in TIME_UNITS:
                raise fail(f"{key}.time_unit", f"must be 's' or 'ms', not {value!r}")
            time_unit = value
        elif isinstance(value, bool) or not isinstance(value, (str, int)):
            raise fail(
                f"{key}.{name}",
                "must be a keyword name (string) or a positional index (integer)",
            )
        elif isinstance(value, int) and value < 0:
            raise fail(f"{key}.{name}", "a positional index must be 0 or more")
        elif isinstance(value, str) and not value.isidentifier():
            raise fail(f"{key}.{name}", f"{value!r} is not a keyword argument name")
        else:
            fields[name] = value
    return DecoratorSpec(qualname=qualname, framework=framework, fields=fields, time_unit=time_unit)


def _did_you_mean(word: str, options: set[str]) -> str:
    close = did_you_mean(word, options)
    expected = ", ".join(sorted(options))
    return f"; did you mean {close!r}?" if close else f"; expected one of: {expected}"


def _overlay_limit(table: Mapping[str, Any], fail: Any) -> int:
    """``max_overlay_bytes``: positive, and never above the ceiling the repository cannot raise."""
    value = table.get("max_overlay_bytes", MAX_OVERLAY_BYTES)
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise fail("max_overlay_bytes", "must be a positive integer (bytes)")
    if value > OVERLAY_BYTES_CEILING:
        raise fail(
            "max_overlay_bytes",
            f"{value:,} is over the ceiling of {OVERLAY_BYTES_CEILING:,} bytes that no "
            "configuration can raise (the overlay is read on every gate run)",
        )
    return value


def _schema_url(table: Mapping[str, Any], fail: Any) -> str | None:
    """``schema_url``: an https URL the overlay's ``$schema`` line may name on every clone."""
    value = table.get("schema_url")
    if value is None:
        return None
    example = "e.g. https://example.com/job_policy.schema.json"
    if not isinstance(value, str) or not value:
        raise fail("schema_url", f"must be a non-empty string, {example}")
    try:
        parts = urlsplit(value)
        hostname = parts.hostname
    except ValueError as error:
        raise fail("schema_url", f"is not a URL ({error}), {example}") from None
    if parts.scheme != "https" or not hostname or any(c.isspace() for c in value):
        raise fail("schema_url", f"must be an https URL without spaces, {example}")
    if not value.isprintable():
        raise fail("schema_url", "must not hold control characters")
    return value


# -- path roles (issues 19 and 27): which file each key names, and that no two share one --------

#: ``scheme://`` at the start of a value: a URL (an ``audit_log`` database), not a path.
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")
#: The keys that name a file or folder the tool writes (the overlay: by the stub).
WRITTEN_ROLES: tuple[str, ...] = (
    "ledger",
    "overlay",
    "schema",
    "runbook",
    "drafts",
    "baseline",
    "audit_log",
    "cache_dir",
)
#: What a Python source is called; the tool scans those and never writes one.
_SOURCE_SUFFIXES = (".py", ".pyi", ".pyw")
#: The configuration file, as a role that no written role may share.
_CONFIG_ROLE = "the configuration file"
#: A sensible value of each written role, for messages.
_EXAMPLES = {
    "ledger": "generated/job_ledger.json",
    "overlay": "overlays/job_policy.yaml",
    "schema": "overlays/job_policy.schema.json",
    "runbook": DEFAULT_RUNBOOK,
    "drafts": DEFAULT_DRAFTS,
    "baseline": "overlays/jobledger-baseline.json",
    "audit_log": DEFAULT_AUDIT_LOG,
}


def is_url(value: str) -> bool:
    """Whether a configured value is a URL (``sqlite:///...``, ``postgresql://...``) rather than
    a path: the one place that says so; the path rules below skip it."""
    return _URL.match(value) is not None


def path_text(key: str, value: str, fail: Any) -> None:
    """A configured path any file system can take and that stays out of ``.git``: a NUL byte
    would crash every later call that names it; a file under ``.git`` (a hook, the config) is
    one git runs or obeys."""
    if "\0" in value:
        raise fail(key, "holds a NUL byte (\\x00), which no file name can hold; remove it")
    if is_url(value):
        return
    for part in re.split(r"[\\/]", value):
        if is_git_name(part):
            raise fail(
                key,
                f"{one_line(repr(value))} is inside the {one_line(repr(part))} folder, which "
                "belongs to git (its hooks and config run programs): the tool never writes or "
                "reads a configured file there; choose a path outside .git",
            )


def exclude_patterns(patterns: tuple[str, ...], fail: Any) -> tuple[str, ...]:
    """``exclude``: each entry a pattern ``.gitignore`` syntax can hold (compiled here once, by
    the library discovery uses, so a bad one is a located error and not a traceback later)."""
    if patterns:
        import pathspec  # only when there are patterns to compile (issue 25: start-up)
    for pattern in patterns:
        if "\0" in pattern:
            raise fail("exclude", "holds a NUL byte (\\x00), which no file name can hold")
        try:
            pathspec.GitIgnoreSpec.from_lines([pattern])
        except (ValueError, re.error, RecursionError) as error:
            raise fail(
                "exclude",
                f"{one_line(repr(pattern))} is not a .gitignore-style pattern "
                f'({one_line(str(error))}); write it as a .gitignore line, e.g. "migrations/" '
                'or "**/generated_*.py"',
            ) from None
    return patterns


def _role_values(config: Config) -> dict[str, str]:
    """Each path role's value as it takes effect (the runbook ``jobledger render`` writes when
    none is configured), leaving out a URL and an unset ``owners``."""
    values = {
        "ledger": config.ledger,
        "overlay": config.overlay,
        "schema": config.schema,
        "runbook": config.runbook or DEFAULT_RUNBOOK,
        "drafts": config.drafts,
        "baseline": config.baseline,
        "audit_log": config.audit_log,
        "cache_dir": config.cache_dir,
    }
    if config.owners is not None:
        values["owners"] = config.owners
    if config.allowed_signers is not None:
        values["allowed_signers"] = config.allowed_signers
    return {key: value for key, value in values.items() if not is_url(value)}


def _compared(path: Path) -> str:
    """What two paths are compared by: symlinks followed, case folded (a file system that folds
    case takes ``Ledger.json`` for ``ledger.json``)."""
    return os.path.normcase(str(real(path))).casefold()


def _within(inner: str, outer: str) -> bool:
    return inner.startswith(outer.rstrip(os.sep) + os.sep)


def distinct_roles(config: Config, configured: set[str], fail: Any) -> None:
    """No two roles share a file or live one inside the other (the cache folder), and no written
    role is the configuration file or a Python source. One line of a pull request's configuration
    (``ledger`` = the overlay's path) would otherwise make a routine ``jobledger extract`` replace
    the signed policy, and ``ledger`` = a module would overwrite code."""
    values = _role_values(config)
    for key in WRITTEN_ROLES:
        value = values.get(key)
        # The overlay is left out: one named policy.py is read as YAML (and refused as such),
        # and the stub writes it only after reading it back as a valid overlay.
        if key in ("cache_dir", "overlay") or value is None:
            continue
        if value.casefold().endswith(_SOURCE_SUFFIXES):
            raise fail(
                key,
                f"{one_line(repr(value))} is a Python source: the tool writes this file and scans "
                "sources, so it would overwrite code; choose a path such as "
                f"{_EXAMPLES.get(key, 'generated/out.json')!r}",
            )
    places = {key: _compared(config.root / value) for key, value in values.items()}
    if config.source is not None:
        places[_CONFIG_ROLE] = _compared(config.source)
    names = list(places)
    for number, later in enumerate(names):
        for earlier in names[:number]:
            # Blame the key the configuration set (a default clashes only with a set one).
            blamed, other = (earlier, later) if later not in configured else (later, earlier)
            if blamed == _CONFIG_ROLE or (blamed not in configured and other in configured):
                blamed, other = other, blamed
            a, b = places[blamed], places[other]
            if a == b:
                relation = "the same file as"
            elif _within(a, b) or _within(b, a):
                relation = "inside (or around)"
            else:
                continue
            source = config.display(config.source) if config.source is not None else other
            shown = values.get(other, source)
            raise fail(
                blamed,
                f"{one_line(repr(values[blamed]))} is {relation} {other} "
                f"({one_line(repr(shown))}); two roles may not share a file (one would overwrite "
                "or append to the other): give each its own path",
            )
