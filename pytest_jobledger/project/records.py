"""The configuration as records: one frozen :class:`Config` made of one sub-record per concept.

Records only: no reading, no validation (``keys`` says what each key may hold, ``load`` reads
the table). A field's default is the key table's default, so a ``Config(root=...)`` built by a
test or a tool is the configuration of a project that configures nothing.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..overlay.cells import DEFAULT_REQUIRED_CELLS, CellSettings, Vocabulary, vocabulary

#: Folders left out by name: names no importable package can have (a leading dot, a dash) or
#: that only installers and tools write. A virtualenv, a tagged cache and a build output are
#: recognised by what they hold instead (``extract/discovery.py``), so a real package named
#: ``build`` or ``venv`` is scanned.
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
#: Files larger than this are reported, not parsed; a generated module should not stall CI.
DEFAULT_MAX_FILE_BYTES = 4 * 1024 * 1024
#: About 4,000 fully signed jobs; ruamel's round-trip reader takes a few seconds for this much.
#: A project may raise it with ``max_overlay_bytes`` in [tool.jobledger], up to the ceiling.
MAX_OVERLAY_BYTES = 1024 * 1024
#: What no configuration can raise the limit beyond: the overlay comes from the repository, which
#: may be a hostile pull request, and reading this much already takes seconds and ~250 MB.
OVERLAY_BYTES_CEILING = 4 * 1024 * 1024
DEFAULT_LEDGER = "generated/job_ledger.json"
DEFAULT_OVERLAY = "overlays/job_policy.yaml"
DEFAULT_SCHEMA = "overlays/job_policy.schema.json"
DEFAULT_BASELINE = "overlays/jobledger-baseline.json"
#: Where ``jobledger verdict`` appends its trail.
DEFAULT_AUDIT_LOG = ".jobledger/audit.ndjson"
#: The most jobs one bulk retry may touch when a job's overlay entry signs no limit of its own.
DEFAULT_BULK_RETRY_LIMIT = 100
#: The most jobs one bulk retry may ever touch, whatever a repository configures or signs: past
#: this a "retry" is a backfill or a migration, which needs its own plan, not an incident verdict
#: (the trail adds batches up against the limit, so 10,000 also bounds what one ticket may retry).
BULK_RETRY_CEILING = 10_000
#: Where ``jobledger render`` writes the runbook when ``runbook`` is not configured.
DEFAULT_RUNBOOK = "docs/jobs.md"
#: Where ``jobledger draft`` keeps its unverified drafts (never read by the gate).
DEFAULT_DRAFTS = "overlays/purpose_drafts.yaml"
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
class Files:
    """The policy files the gate reads and the stub, ``schema`` and ``baseline`` write."""

    ledger: str = DEFAULT_LEDGER
    overlay: str = DEFAULT_OVERLAY
    #: The largest overlay the gate reads and the stub writes (never above the ceiling).
    max_overlay_bytes: int = MAX_OVERLAY_BYTES
    schema: str = DEFAULT_SCHEMA
    #: Where the stub's ``$schema`` line points when set (an https URL); else at ``schema``.
    schema_url: str | None = None
    #: Where ``jobledger baseline`` writes the known failures the gate reports as notices.
    baseline: str = DEFAULT_BASELINE


@dataclass(frozen=True)
class Extraction:
    """What is scanned, and how a registration is read."""

    paths: tuple[str, ...] = (".",)
    exclude: tuple[str, ...] = ()
    #: Leave out what the tree's ``.gitignore`` files ignore, as well as ``exclude``.
    respect_gitignore: bool = False
    job_id: str = "import-path"
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    decorators: Mapping[str, DecoratorSpec] = field(default_factory=dict)
    #: A scan that finds no job registration passes only when the project says so.
    allow_empty: bool = False

    @property
    def all_excludes(self) -> tuple[str, ...]:
        return DEFAULT_EXCLUDE + self.exclude


@dataclass(frozen=True)
class Cells:
    """Which cells every job signs, which answers are never a signature, the project's cells."""

    required: tuple[str, ...] = DEFAULT_REQUIRED_CELLS
    blocked: tuple[str, ...] = DEFAULT_BLOCKED_VALUES
    settings: Mapping[str, CellSettings] = field(default_factory=dict)
    #: Queues the broker declares outside the code: a ``dead_letter_queue`` cell may name one.
    broker_queues: tuple[str, ...] = ()

    @property
    def vocabulary(self) -> Vocabulary:
        """Every cell an entry may hold here: the vocabulary, required and project cells."""
        return vocabulary(self.required, self.settings)


@dataclass(frozen=True)
class Review:
    """Signatures that stay true: review after change, review age, the owners roster."""

    on_change: str = "warn"
    #: With it, ``reviewed_on`` is one of the required cells.
    max_age_days: int | None = None
    owners: str | None = None
    #: The last change to a job's ``idempotent`` and ``purpose_accepted`` lines must come from
    #: one author (git blame of the overlay).
    same_signer: bool = False


@dataclass(frozen=True)
class Runbook:
    """The runbook page: where ``render`` writes it and how its index is grouped."""

    #: ``None`` when not configured (then there is no runbook-fresh status item, and
    #: ``jobledger render`` writes :data:`DEFAULT_RUNBOOK`).
    path: str | None = None
    group_by: str = "queue"
    #: A docs build while a cell is unsigned: ``"fail"`` (refuse) or ``"warn"`` (publish the
    #: page with a banner naming the unsigned cells, each marked).
    docs_unsigned: str = "fail"
    #: ``[project] name`` of the configuration file, for the runbook's title.
    title: str | None = None


@dataclass(frozen=True)
class Drafts:
    """The draft lane: its file and the person's command (split like a shell would, never by
    one)."""

    path: str = DEFAULT_DRAFTS
    command: str | None = None


@dataclass(frozen=True)
class Verdict:
    """The verdicts' trail, the bulk limit, and the approvers' keys."""

    audit_log: str = DEFAULT_AUDIT_LOG
    bulk_retry_limit: int = DEFAULT_BULK_RETRY_LIMIT
    #: ``list`` and ``show`` append an observation event to the trail (off by default: reading
    #: the ledger needs no trail, and a read-only checkout can still list its jobs).
    audit_observations: bool = False
    #: The approvers' keys (git's allowed_signers format, ``@revoked`` lines), for ``--approval``.
    allowed_signers: str | None = None


@dataclass(frozen=True)
class Cache:
    """Extraction's content cache."""

    dir: str = DEFAULT_CACHE_DIR
    #: Not a configuration key: ``--no-cache`` (and the pytest option) turn the cache off.
    enabled: bool = True


@dataclass(frozen=True)
class Config:
    """``[tool.jobledger]`` read and checked: the root, where it was read, and one record per
    concept."""

    root: Path
    source: Path | None = None
    files: Files = Files()
    extraction: Extraction = Extraction()
    cells: Cells = Cells()
    review: Review = Review()
    runbook: Runbook = Runbook()
    drafts: Drafts = Drafts()
    verdict: Verdict = Verdict()
    cache: Cache = Cache()
    #: Whether the project has a [tool.jobledger] table (without one, the gate says how to add
    #: it when it finds nothing).
    configured: bool = True
    #: The line of each top-level key in ``source`` (``""``: the table's header), for messages.
    key_lines: Mapping[str, int] = field(default_factory=dict)

    def without_cache(self) -> Config:
        """This configuration with the content cache off (``--no-cache``)."""
        return replace(self, cache=replace(self.cache, enabled=False))

    def display(self, path: os.PathLike[str] | str) -> str:
        """``path`` relative to the root with ``/`` separators, as every message names files."""
        return os.path.relpath(path, self.root).replace(os.sep, "/")

    @property
    def ledger_path(self) -> Path:
        return self.root / self.files.ledger

    @property
    def overlay_path(self) -> Path:
        return self.root / self.files.overlay

    @property
    def schema_path(self) -> Path:
        return self.root / self.files.schema

    @property
    def baseline_path(self) -> Path:
        return self.root / self.files.baseline

    @property
    def ledger_display(self) -> str:
        return self.display(self.ledger_path)

    @property
    def overlay_display(self) -> str:
        """The overlay's path as findings name it: relative to the root, ``/`` separators."""
        return self.display(self.overlay_path)

    @property
    def owners_path(self) -> Path | None:
        owners = self.review.owners
        return self.root / owners if owners is not None else None

    @property
    def allowed_signers_path(self) -> Path | None:
        signers = self.verdict.allowed_signers
        return self.root / signers if signers is not None else None

    @property
    def runbook_path(self) -> Path:
        return self.root / (self.runbook.path or DEFAULT_RUNBOOK)

    @property
    def drafts_path(self) -> Path:
        return self.root / self.drafts.path
