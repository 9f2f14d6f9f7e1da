"""The driver: from the configured paths to a ledger. Which files to read, which to parse, and
every job or unsupported place each parsed module yields.

Stages behind it: :mod:`.loading` (bytes to summaries), :mod:`.resolve` (names across modules),
:mod:`.sites` (places that register jobs), :mod:`.rows` (a registration's arguments to a row).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from ..config import Config
from ..ledger.model import Job, Ledger, Pattern, Unsupported
from .discovery import SourceFile, iter_source_files
from .frameworks import FRAMEWORKS
from .loading import MAX_FILE_BYTES_CEILING, RETAINED_WORK, SourceLoader
from .records import ModuleSummary
from .resolve import ProjectIndex
from .rows import RowBuilder
from .sites import Sites

#: Every registration names its decorator, and every import of a decorator (aliased or not) spells
#: the decorator's own name: ``*task`` (Celery, Huey, ``register_task``), ``actor`` (Dramatiq),
#: ``job`` (RQ) or a configured decorator's last name. Files without one are never parsed, unless
#: they use a decorator alias defined in a parsed module (see :meth:`Extractor.run`).
_TRIGGER = (rb"task\b", rb"\bactor\b", rb"\bjob\b")


@dataclass(frozen=True)
class Extraction:
    """A ledger, and what the configuration said that extraction had to overrule or found
    suspicious (one line each, located at the configuration file). Warnings are not part of the
    ledger file: they are about the configuration, not the code."""

    ledger: Ledger
    warnings: tuple[str, ...] = ()


def extract(config: Config) -> Extraction:
    """Every job registration under the configured paths; nothing is imported or executed."""
    extractor = Extractor(config)
    jobs: list[Job] = []
    unsupported: list[Unsupported] = list(extractor.walk_problems)
    for job_or_problem in extractor.run():
        if isinstance(job_or_problem, Job):
            jobs.append(job_or_problem)
        else:
            unsupported.append(job_or_problem)
    ledger = Ledger.build(jobs, [*unsupported, *extractor.loader.problems])
    return Extraction(ledger, extractor.warnings())


def extract_ledger(config: Config) -> Ledger:
    """The ledger of :func:`extract`."""
    return extract(config).ledger


def trigger_pattern(config: Config) -> re.Pattern[bytes]:
    return _word_pattern(name.rsplit(".", 1)[-1] for name in config.decorators)


def _word_pattern(words: Iterable[str], base: Sequence[bytes] = _TRIGGER) -> re.Pattern[bytes]:
    spelled = [rb"\b" + re.escape(word.encode()) + rb"\b" for word in sorted(set(words))]
    return re.compile(b"|".join([*base, *spelled]))


class Extractor:
    def __init__(self, config: Config) -> None:
        self.config = config
        self.walk_problems: list[Unsupported] = []
        self.files = list(
            iter_source_files(config.root, config.paths, config.all_excludes, self._unlisted)
        )
        canonical: dict[str, str] = {}
        instances: set[str] = set()
        keys: set[str] = set(config.decorators)
        for framework in FRAMEWORKS.values():
            canonical.update(framework.canonical)
            instances |= framework.instance_classes
            keys |= set(framework.decorators)
        max_file_bytes = min(config.max_file_bytes, MAX_FILE_BYTES_CEILING)
        self.loader = SourceLoader(max_file_bytes, config.root, RETAINED_WORK)
        self.index = ProjectIndex(
            files=self.files,
            loader=self.loader,
            canonical=canonical,
            instance_classes=frozenset(instances),
            decorator_keys=frozenset(keys),
        )
        self.sites = Sites(self.index, config, RowBuilder(self.index, config))
        self.trigger = trigger_pattern(config)

    def _unlisted(self, rel_path: str, reason: str) -> None:
        self.walk_problems.append(
            Unsupported(
                rel_path,
                1,
                Pattern.UNREADABLE,
                f"{reason}; jobs under it are missing. Fix its permissions, or exclude it in "
                "[tool.jobledger] if it holds no jobs",
            )
        )

    def warnings(self) -> tuple[str, ...]:
        """What the configuration asked for that extraction overruled or could not find."""
        where = self.config.display(self.config.source) if self.config.source else "configuration"
        found: list[str] = []
        if self.config.max_file_bytes > MAX_FILE_BYTES_CEILING:
            found.append(
                f"{where}: [tool.jobledger] max_file_bytes = {self.config.max_file_bytes:,} is "
                f"over the ceiling of {MAX_FILE_BYTES_CEILING:,} bytes, which configuration "
                "cannot raise; larger files are reported, not parsed"
            )
        for qualname in sorted(self.config.decorators):
            if qualname in self.sites.matched or self.index.defines(qualname):
                continue
            near = self.index.near(qualname)
            hint = f" (did you mean {near!r}?)" if near else ""
            found.append(
                f'{where}: [tool.jobledger.decorators."{qualname}"] names nothing in the scanned '
                f"tree and no registration uses it{hint}; check the name and paths"
            )
        return tuple(found)

    def run(self) -> Iterator[Job | Unsupported]:
        skipped: list[SourceFile] = []
        aliases: set[str] = set()
        for source in self.files:
            data = self.loader.read(source)
            if data is None:
                continue
            if not self.trigger.search(data):
                skipped.append(source)
                continue
            summary = self.loader.summary(source, data, pin=True)
            if summary is not None:
                aliases |= self._decorator_aliases(summary)
                yield from self.scan(summary)
        # A module-level alias (``billing_task = app.task(queue="billing")``) can be imported by a
        # file that never spells a trigger word; look for the alias names in the skipped files.
        if not aliases or not skipped:
            return
        alias_pattern = _word_pattern(aliases, base=())
        for source in skipped:
            data = self.loader.read(source)
            if data is None or not alias_pattern.search(data):
                continue
            summary = self.loader.summary(source, data, pin=True)
            if summary is not None:
                yield from self.scan(summary)

    def _decorator_aliases(self, summary: ModuleSummary) -> set[str]:
        """Module-level names in ``summary`` bound (by assignment) to a job decorator, or that
        may be one though the resolver refuses them (their users must be found to be reported)."""
        found: set[str] = set()
        for name, bindings in summary.bindings.items():
            if any(binding.kind == "assign" for binding in bindings):
                ref = self.index.resolve_name(summary, name)
                if ref is None:
                    continue
                if self.sites.match(ref) is not None or self.sites.refused_job(ref, name):
                    found.add(name)
        return found

    def scan(self, summary: ModuleSummary) -> list[Job | Unsupported]:
        """Every job and unsupported place in one module; a module too convoluted to follow is
        one unsupported entry, never a crash of the whole run."""
        found: list[Job | Unsupported] = []
        try:
            for site in summary.decorated:
                found.extend(self.sites.decorator_site(summary, site))
            for call in summary.calls:
                found.extend(self.sites.call_site(summary, call))
        except RecursionError:
            return [
                Unsupported(
                    summary.source.rel_path,
                    1,
                    Pattern.TOO_COMPLEX,
                    "names or expressions in this file are nested too deeply to follow, so its "
                    "jobs are not listed; simplify the registrations or exclude the file",
                )
            ]
        return found
