"""One candidate file scanned: its jobs and unsupported places, its own problems, and what they
were made from (:class:`~.deps.Trail`), so that the result can be cached (:mod:`.cache`) or sent
back from a worker process (:mod:`.parallel`) as plain data.

A :class:`Scanner` holds what one process needs: the file list, a loader whose summaries are
parsed on demand, the resolver over them, and the judge of places. Parse problems of files other
than the scanned one are *cited* only when a place that yields something met them (its name or a
value led into a module that cannot be parsed): the ledger then says why, in both entries.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

import libcst as cst

from ..ledger.model import Job, Pattern, Unsupported
from ..project import Config
from .cache import ScanRecord
from .celery_config import CeleryConfig
from .celery_facts import CeleryFact
from .deps import Trail
from .discovery import SourceFile
from .enqueue import Enqueues
from .frameworks import FRAMEWORKS
from .imports import framework_imports
from .limits import MAX_FILE_BYTES_CEILING
from .loading import RETAINED_WORK, SourceLoader
from .prefilter import BindFact, Words
from .records import ModuleSummary, dotted_name
from .resolve import ProjectIndex
from .rows import RowBuilder
from .sites import Sites
from .worker_settings import WorkerSettings


class Scanner:
    """Scans candidate files of one tree under one configuration."""

    def __init__(
        self,
        config: Config,
        files: Sequence[SourceFile],
        words: Words | None,
        retained_work: int | None = None,
        *,
        aliases: frozenset[str] = frozenset(),
    ) -> None:
        self.config = config
        canonical: dict[str, str] = {}
        instances: set[str] = set()
        keys: set[str] = set(config.extraction.decorators)
        settings: set[str] = set()
        chained: set[str] = set()
        for framework in FRAMEWORKS.values():
            chained |= framework.returns_self
            canonical.update(framework.canonical)
            instances |= framework.instance_classes
            keys |= set(framework.decorators)
            settings |= {key for key, rules in framework.decorators.items() if not rules.fn_first}
        max_file_bytes = min(config.extraction.max_file_bytes, MAX_FILE_BYTES_CEILING)
        self.loader = SourceLoader(
            max_file_bytes,
            config.root,
            retained_work=RETAINED_WORK if retained_work is None else retained_work,
            words=words,
        )
        self.index = ProjectIndex(
            files=files,
            loader=self.loader,
            canonical=canonical,
            instance_classes=frozenset(instances),
            decorator_keys=frozenset(keys),
            positional_settings=frozenset(settings),
            returns_self=frozenset(chained),
        )
        rows = RowBuilder(self.index, config)
        self.sites = Sites(self.index, config, rows, words, aliases=aliases)
        self.enqueues = Enqueues(self.index, rows)
        self.settings = WorkerSettings(self.index, rows)
        self.celery_config = CeleryConfig(self.index)

    def scan(self, source: SourceFile) -> ScanRecord:
        """Every job and unsupported place in ``source``; a module too convoluted to follow is
        one unsupported entry, never a crash of the whole run."""
        trail = Trail()
        self.loader.trail = trail
        self.sites.matched.clear()
        try:
            summary = self.loader.summary(source, pin=True)
        finally:
            self.loader.trail = None
        found: list[Job | Unsupported | CeleryFact] = []
        cited: set[Unsupported] = set()
        if summary is not None:
            trail.skipped |= summary.blanked
            try:
                for places in self._places(summary):
                    site_trail = Trail()
                    self.loader.trail = site_trail
                    try:
                        yielded = list(places())
                    finally:
                        self.loader.trail = None
                    trail.merge(site_trail)
                    if yielded:
                        found.extend(yielded)
                        cited |= self._cited(site_trail, source)
            except RecursionError:
                found = [
                    Unsupported(
                        source.rel_path,
                        1,
                        Pattern.TOO_COMPLEX,
                        "names or expressions in this file are nested too deeply to follow, so "
                        "its jobs are not listed; simplify the registrations or exclude the file",
                    )
                ]
                cited = set()
        return ScanRecord(
            digest=self.loader.digests.get(source.rel_path, ""),
            found=tuple(found),
            problems=tuple(self.loader.problems_by_path.get(source.rel_path, ())),
            cited=tuple(sorted(cited, key=_order)),
            matched=tuple(sorted(self.sites.matched)),
            trail=trail,
        )

    def plain_functions(self, qualnames: frozenset[str]) -> Trail | None:
        """Whether each name is a function of the tree that is no job decorator (a job's own
        def, a helper), as the resolver finds it from any module that imports it: then a place
        that calls it or hands it on yields nothing (:class:`.inert.Deferred`). The trail of
        what was read to say so, or ``None``."""
        trail = Trail()
        self.loader.trail = trail
        try:
            for qualname in sorted(qualnames):
                ref = self.index.follow(qualname)
                if (
                    ref is None
                    or ref.refusal is not None
                    or ref.function is None
                    or self.sites.is_job_decorator(ref)
                ):
                    return None
        finally:
            self.loader.trail = None
        return None if trail.failed else trail

    def judge_by(self, words: Words | None, aliases: frozenset[str]) -> None:
        """Judge places (and parse bodies, :mod:`.reduce`) by ``words`` from now on."""
        self.sites.words = words
        self.sites.aliases = aliases
        self.loader.words = words

    def _places(
        self, summary: ModuleSummary
    ) -> Iterator[Callable[[], Iterable[Job | Unsupported | CeleryFact]]]:
        """Each place of the module, judged when called (so each has a trail of its own)."""
        for site in summary.decorated:
            yield lambda site=site: self.sites.decorator_site(summary, site)  # type: ignore[misc]
        for call in summary.calls:
            yield lambda call=call: self.sites.call_site(summary, call)  # type: ignore[misc]
            yield lambda call=call: self.enqueues.site(summary, call)  # type: ignore[misc]
            yield lambda call=call: self.celery_config.call(summary, call)  # type: ignore[misc]
        yield lambda: framework_imports(self.index, self.config, summary)
        yield lambda: self.settings.sites(summary)
        yield lambda: self.celery_config.assignments(summary)
        for reference in summary.references:
            yield lambda reference=reference: self.sites.reference(  # type: ignore[misc]
                summary, reference
            )

    def _cited(self, trail: Trail, source: SourceFile) -> set[Unsupported]:
        return {
            problem
            for path in trail.failed
            if path != source.rel_path
            for problem in self.loader.problems_by_path.get(path, ())
        }

    def summary_binds(self, source: SourceFile) -> tuple[BindFact, ...]:
        """:func:`.prefilter.bind_facts` from libcst's parse of a file CPython's parser did not
        read: the bindings the resolver itself will see (none when libcst cannot parse it)."""
        summary = self.loader.summary(source)
        return () if summary is None else summary_bind_facts(summary)


def _order(item: Unsupported) -> tuple[str, int, str, str]:
    return (item.path, item.line, item.pattern.value, item.message)


def summary_bind_facts(summary: ModuleSummary) -> tuple[BindFact, ...]:
    """The bindings of ``summary`` that may define an alias, as :func:`.prefilter.bind_facts`
    reads them from CPython's tree."""
    found: list[BindFact] = []
    for name, bindings in summary.bindings.items():
        for binding in bindings:
            if binding.kind == "import" and binding.target:
                found.append((name, (binding.target.rsplit(".", 1)[-1],)))
            elif binding.kind == "assign" and binding.value is not None:
                sources = _cst_sources(binding.value)
                if sources:
                    found.append((name, sources))
            elif binding.kind == "class" and name in summary.classes:
                bases = tuple(word for word in map(_cst_last, summary.classes[name].bases) if word)
                if bases:
                    found.append((name, bases))
    return tuple(sorted(set(found)))


def _cst_last(node: cst.BaseExpression) -> str | None:
    dotted = dotted_name(node)
    return dotted.rsplit(".", 1)[-1] if dotted else None


def _cst_sources(value: cst.BaseExpression) -> tuple[str, ...]:
    last = _cst_last(value)
    if last is not None:
        return (last,)
    if not isinstance(value, cst.Call):
        return ()
    callee = _cst_last(value.func)
    positional = [arg for arg in value.args if not arg.keyword and not arg.star]
    first = _cst_last(positional[0].value) if positional else None
    return tuple(word for word in (callee, first) if word is not None)
