"""The driver: from the configured paths to a ledger.

1. Every file under the configured paths is read (or, when the content cache has seen it look
   exactly so, not read again: :mod:`.cache`) and scanned as text (:mod:`.prefilter`): which
   framework words and aliases it spells, where, and what its bindings may alias. The aliases
   are a fixed point over the whole tree.
2. The candidate files (those that may register a job) are parsed with libcst and their places
   judged (:mod:`.filescan`), in worker processes when there are many (:mod:`.parallel`), unless
   the cache holds their rows and nothing they were made from changed.
3. The rows, the unsupported places and the problems are the ledger. A file's read problem
   (unreadable, too large) is always reported; its parse problem (not UTF-8, a syntax error, too
   complex) when it is a candidate, or when a reported row or entry was made through it.

libcst is imported only when something must be parsed, so a run the cache answers (and every
command that only reads the ledger) does without it.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Protocol

from ..ledger.model import Job, Ledger, Pattern, Unsupported
from ..project import Config
from .cache import FileRecord, ScanRecord, Snapshot, Store, open_store, settled, stat_of
from .deps import digest
from .discovery import Excludes, SourceFile, iter_source_files
from .ignores import apply as apply_ignores
from .inert import Setting, prove_inert, proved_deferred, unrefused
from .limits import MAX_FILE_BYTES_CEILING
from .overruled import overruled
from .prefilter import (
    _IDENTIFIER,
    LARGE_FILE_BYTES,
    TextFacts,
    Words,
    alias_closure,
    ast_module,
    bind_facts,
    byte_facts,
    decode_source,
    spelled_index,
    text_facts,
)
from .reading import FileReader

if TYPE_CHECKING:
    from .filescan import Scanner


class Progress(Protocol):
    """Told how far a run is (a presenter decides whether and how to show it)."""

    def update(self, *, files: int, read: int, parsed: int, jobs: int) -> None: ...

    def done(self) -> None: ...


@dataclass(frozen=True)
class Extraction:
    """A ledger, and what the configuration said that extraction had to overrule or found
    suspicious (one line each, located at the configuration file). Warnings are not part of the
    ledger file: they are about the configuration, not the code."""

    ledger: Ledger
    warnings: tuple[str, ...] = ()


def extract(
    config: Config,
    *,
    prefilter: bool = True,
    workers: int | None = None,
    progress: Progress | None = None,
) -> Extraction:
    """Every job registration under the configured paths; nothing is imported or executed.

    ``prefilter=False`` parses and judges every file (the reference the pre-filter is tested
    against; it never uses the cache). ``workers``: how many processes parse (``None`` decides
    from the work, ``1`` never starts one).
    """
    return Extractor(config, prefilter=prefilter, workers=workers, progress=progress).run()


def extract_ledger(config: Config) -> Ledger:
    """The ledger of :func:`extract`."""
    return extract(config).ledger


@dataclass
class _Counts:
    read: int = 0
    parsed: int = 0
    jobs: int = 0
    #: Candidates proved to yield nothing without a parse (:mod:`.inert`).
    proved: int = 0


@dataclass
class Extractor:
    config: Config
    prefilter: bool = True
    workers: int | None = None
    progress: Progress | None = None
    walk_problems: list[Unsupported] = field(default_factory=list)
    _scanner: Scanner | None = field(default=None, repr=False)
    _aliases: frozenset[str] = frozenset()
    #: Each file's bindings once read (they do not depend on the words): a later round of the
    #: fixed point parses no file twice.
    _binds: dict[str, tuple[tuple[str, tuple[str, ...]], ...] | None] = field(
        default_factory=dict, repr=False
    )
    _named: dict[str, tuple[bool, str | None]] = field(default_factory=dict, repr=False)
    #: CPython's parse of files read for their bindings that may well be candidates, by path
    #: (with the digest of what was parsed): the loader's line numbers come from it, so such a
    #: file is parsed by ``ast`` once (within :data:`_TREE_BYTES` of source).
    _trees: dict[str, tuple[str, ast.Module]] = field(default_factory=dict, repr=False)
    _tree_bytes: int = 0

    def __post_init__(self) -> None:
        config, scan = self.config, self.config.extraction
        excludes = Excludes(
            scan.all_excludes, config.root, respect_gitignore=scan.respect_gitignore
        )
        self.files = list(iter_source_files(config.root, scan.paths, excludes, self._unlisted))
        self.by_module: dict[str, str] = {}
        for source in self.files:
            self.by_module.setdefault(source.module, source.rel_path)
        self.store: Store | None = None
        if config.cache.enabled and self.prefilter:
            self.store = open_store(config)
        self.counts = _Counts()
        self.reader = FileReader(min(scan.max_file_bytes, MAX_FILE_BYTES_CEILING), config.root)

    # -- the run -----------------------------------------------------------------------------

    def run(self) -> Extraction:
        previous = self.store.load() if self.store is not None else Snapshot()
        records, words, facts_aliases = self._facts(previous)
        changed = records != previous.files or facts_aliases != previous.aliases
        reported = {path for path, record in records.items() if record.facts.candidate(words)}
        candidates = [
            source
            for source in self.files
            if records[source.rel_path].problem is None
            and (not self.prefilter or source.rel_path in reported)
        ]
        scans: dict[str, ScanRecord] = {}
        todo: list[SourceFile] = []
        for source in candidates:
            kept = previous.scans.get(source.rel_path) if self.store is not None else None
            if kept is not None and self._still_valid(kept, source, records, words):
                scans[source.rel_path] = kept
            else:
                todo.append(source)
        self._aliases = words.aliases
        setting = Setting.of(self.config, self.by_module, words, self._reader(), self._trees)
        if self.prefilter:  # a candidate proved to yield nothing is not parsed
            proved, deferred = prove_inert(todo, records, setting)
            if deferred:
                proved.update(proved_deferred(deferred, self._scanning(words).plain_functions))
            self.counts.proved += len(proved)
            scans.update(proved)
            todo = [source for source in todo if source.rel_path not in proved]
        scans.update(self._scan(todo, words if self.prefilter else None))
        if not self.prefilter:  # the same proof, for what it spares: libcst's limits
            plain = self._scanning(None).plain_functions
            scans.update(unrefused(todo, records, scans, setting, plain))
        self._trees.clear()
        ledger, matched = self._assemble(records, candidates, scans, reported)
        # nothing changed: what the tree said of unmatched decorators still holds
        named = previous.named if self.store is not None and not (changed or todo) else {}
        warnings = self._warnings(matched, named)
        if self.store is not None and (changed or todo or named != self._named):
            kept_scans = {source.rel_path: scans[source.rel_path] for source in candidates}
            self.store.save(Snapshot(records, kept_scans, facts_aliases, self._named))
        if self.progress is not None:
            self.progress.done()
        return Extraction(ledger, warnings)

    def _facts(self, previous: Snapshot) -> tuple[dict[str, FileRecord], Words, frozenset[str]]:
        """Phase 1: every file's record, and the aliases (a least fixed point, point 2 of
        :mod:`.prefilter`). Facts are computed with the aliases the cache's facts were (so cached
        ones stay valid), and again for the files that spell an alias beyond those."""
        facts_words = Words.of(self.config, previous.aliases)
        records: dict[str, FileRecord] = {}
        texts: dict[str, str | bytes] = {}
        for source in self.files:
            records[source.rel_path] = self._record(source, previous, facts_words, texts)
            self._tick()
        base = Words.of(self.config)
        spelled: dict[str, set[str]] | None = None
        while True:
            aliases = alias_closure(_all_binds(records), base)
            beyond = frozenset(aliases) - facts_words.aliases
            if not beyond:
                return records, Words.of(self.config, aliases), facts_words.aliases
            facts_words = facts_words.with_aliases(beyond)
            if spelled is None:
                grew = self._extend(records, texts, facts_words, beyond)
                if grew:
                    spelled = spelled_index(
                        self.files,
                        lambda f: None if records[f.rel_path].problem else self._text(f, texts),
                    )
            else:
                paths = set().union(*(spelled.get(word, ()) for word in beyond))
                grew = self._extend(records, texts, facts_words, beyond, paths)
            if not grew:
                return records, Words.of(self.config, aliases), facts_words.aliases

    def _record(
        self,
        source: SourceFile,
        previous: Snapshot,
        words: Words,
        texts: dict[str, str | bytes],
    ) -> FileRecord:
        old = previous.files.get(source.rel_path)
        if old is not None and old.stat is not None:
            try:
                if stat_of(os.stat(source.abs_path)) == old.stat:
                    return old
            except OSError:
                pass
        seen = _now_ns()
        data, info = self._reader().read_stat(source)
        self.counts.read += 1
        if data is None or info is None:
            problems = self._reader().problems_by_path.pop(source.rel_path, [])
            return FileRecord(None, "", TextFacts(), problem=problems[-1] if problems else None)
        stat = stat_of(info) if settled(info, seen) else None
        content = digest(data)
        if old is not None and old.digest == content:
            return FileRecord(stat, content, old.facts, old.binds)
        text = _decoded(data)
        texts[source.rel_path] = text
        facts, binds = self._text_facts(source, data, text, words)
        return FileRecord(stat, content, facts, binds)

    def _text_facts(
        self, source: SourceFile, data: bytes, text: str | bytes, words: Words
    ) -> tuple[TextFacts, tuple[tuple[str, tuple[str, ...]], ...] | None]:
        if isinstance(text, bytes):
            return byte_facts(text, words), None
        facts = text_facts(text, words)
        if not facts.may_bind:
            return facts, None
        if source.rel_path not in self._binds:
            self._binds[source.rel_path] = self._read_binds(source, data, text, bool(facts.sites))
        return facts, self._binds[source.rel_path]

    def _read_binds(
        self, source: SourceFile, data: bytes, text: str, keep: bool
    ) -> tuple[tuple[str, tuple[str, ...]], ...] | None:
        tree = ast_module(data, text, vet_over=LARGE_FILE_BYTES)
        if tree is not None:
            binds = bind_facts(tree)
            if keep and self._tree_bytes + len(data) <= _TREE_BYTES:
                self._trees[source.rel_path] = (digest(data), tree)
                self._tree_bytes += len(data)
            return binds
        # CPython's parser cannot read it (newer syntax, or over its limits): what libcst sees
        return self._scanning(None).summary_binds(source)

    def _extend(
        self,
        records: dict[str, FileRecord],
        texts: dict[str, str | bytes],
        words: Words,
        beyond: frozenset[str],
        only: set[str] | None = None,
    ) -> bool:
        """Recompute the facts of every file that spells one of ``beyond`` (new aliases), or of
        the files ``only`` names (those known to spell one). Whether a file gained bindings: only
        then can the aliases grow (a file's bindings, once read, are all of them)."""
        finder = words.finder(beyond) if len(beyond) <= _FINDER_WORDS else None
        byte_finder = words.byte_finder()
        grew = False
        for source in self.files:
            if only is not None and source.rel_path not in only:
                continue
            record = records[source.rel_path]
            if record.problem is not None:
                continue
            text = self._text(source, texts)
            if text is None:
                continue
            if isinstance(text, bytes):
                hit = byte_finder.search(text) is not None
            elif only is not None:
                hit = True
            elif finder is not None:
                # a literal search runs at memory speed; the pattern only where one is spelled
                hit = any(word in text for word in beyond) and finder.search(text) is not None
            else:
                hit = any(word in beyond for word in _IDENTIFIER.findall(text))
            if not hit:
                continue
            if isinstance(text, bytes):
                raw: bytes | None = text
            elif source.rel_path in self._binds:
                raw = b""  # its bindings were read already: the bytes are not needed again
            else:
                raw = self._reader().read(source) or text.encode("utf-8", "surrogatepass")
            facts, binds = self._text_facts(source, raw or b"", text, words)
            grew = grew or (binds is not None and binds != record.binds)
            records[source.rel_path] = replace(record, facts=facts, binds=binds)
        return grew

    def _text(self, source: SourceFile, texts: dict[str, str | bytes]) -> str | bytes | None:
        text = texts.get(source.rel_path)
        if text is None:
            data = self._reader().read(source)
            if data is None:
                return None
            text = texts[source.rel_path] = _decoded(data)
        return text

    def _still_valid(
        self,
        kept: ScanRecord,
        source: SourceFile,
        records: Mapping[str, FileRecord],
        words: Words,
    ) -> bool:
        """Whether a cached scan was made from exactly what the tree holds now."""
        if kept.digest != records[source.rel_path].digest:
            return False
        for module, path in kept.trail.modules.items():
            if self.by_module.get(module) != path:
                return False
        for path, content in kept.trail.files.items():
            record = records.get(path)
            if record is None or record.digest != content:
                return False
        return not any(words.relevant(word) for word in kept.trail.skipped)

    def _scan(self, todo: Sequence[SourceFile], words: Words | None) -> dict[str, ScanRecord]:
        from .parallel import plan_workers, scan_in_processes

        if not todo:
            return {}
        results: dict[str, ScanRecord] = {}
        known = self._scanner.loader.known() if self._scanner is not None else set()
        if known:
            # measured or parsed here already (its bindings were read): scanned here, once
            scanner = self._scanning(words)
            for source in todo:
                if source.rel_path in known:
                    results[source.rel_path] = record = scanner.scan(source)
                    self._scanned(record)
            todo = [source for source in todo if source.rel_path not in known]
            if not todo:
                return results
        workers = plan_workers(self.workers, [records_size(source) for source in todo])
        if workers > 1:
            for record_path, record in scan_in_processes(
                self.config, self.files, words, todo, workers, self._aliases
            ):
                results[record_path] = record
                self._scanned(record)
            return results
        scanner = self._scanning(words)
        for source in todo:
            record = scanner.scan(source)
            results[source.rel_path] = record
            self._scanned(record)
        return results

    def _scanned(self, record: ScanRecord) -> None:
        self.counts.parsed += 1
        self.counts.jobs += sum(isinstance(item, Job) for item in record.found)
        self._tick()

    def _assemble(
        self,
        records: Mapping[str, FileRecord],
        candidates: Sequence[SourceFile],
        scans: Mapping[str, ScanRecord],
        reported: set[str],
    ) -> tuple[Ledger, set[str]]:
        from .celery_facts import CeleryFact, apply_celery_config
        from .enqueued import merge_enqueued  # plain rows: no libcst needed

        jobs: list[Job] = []
        facts: list[CeleryFact] = []
        unsupported: list[Unsupported] = list(self.walk_problems)
        unsupported += [r.problem for r in records.values() if r.problem is not None]
        matched: set[str] = set()
        for source in candidates:
            scan = scans[source.rel_path]
            for item in scan.found:
                if isinstance(item, Job):
                    jobs.append(item)
                elif isinstance(item, CeleryFact):
                    facts.append(item)
                else:
                    unsupported.append(item)
            if source.rel_path in reported:
                unsupported += scan.problems
            unsupported += scan.cited
            matched |= set(scan.matched)
        jobs, conflicts = merge_enqueued(jobs)
        jobs, unregistered = apply_celery_config(jobs, facts)
        unsupported += conflicts + unregistered
        ignores = {path: r.facts.ignores for path, r in records.items() if r.facts.ignores}
        if ignores:
            unsupported = apply_ignores(unsupported, ignores)
        return Ledger.build(jobs, unsupported), matched

    # -- helpers -----------------------------------------------------------------------------

    def _scanning(self, words: Words | None) -> Scanner:
        """The in-process scanner (libcst is imported here, the first time one is needed)."""
        if self._scanner is None:
            from .filescan import Scanner

            self._scanner = Scanner(self.config, self.files, words, aliases=self._aliases)
        else:
            self._scanner.judge_by(words, self._aliases)
        self._scanner.loader.parsed = self._trees
        return self._scanner

    def _reader(self) -> FileReader:
        return self.reader

    def _tick(self) -> None:
        if self.progress is not None:
            self.progress.update(
                files=len(self.files),
                read=self.counts.read,
                parsed=self.counts.parsed,
                jobs=self.counts.jobs,
            )

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

    def _warnings(
        self, matched: set[str], named: Mapping[str, tuple[bool, str | None]]
    ) -> tuple[str, ...]:
        refused = self.store.refused if self.store is not None else None
        return overruled(self.config, refused, matched, named, self._named, self._defines)

    def _defines(self, qualname: str) -> tuple[bool, str | None]:
        """Whether the scanned tree defines ``qualname``, else the nearest name it does."""
        index = self._scanning(None).index  # parses: libcst is imported here
        defined = index.defines(qualname)
        return defined, None if defined else index.near(qualname)


#: Source whose CPython trees phase 1 keeps for the loader, at most (a tree costs some tens of
#: times its source in memory).
_TREE_BYTES = 4 * 1024 * 1024

#: Up to this many new aliases a file is searched with one pattern of alternatives (whose cost
#: grows with their number); beyond it, each identifier of the file is looked up instead.
_FINDER_WORDS = 32


def _all_binds(records: Mapping[str, FileRecord]) -> Iterator[tuple[str, tuple[str, ...]]]:
    for record in records.values():
        if record.binds:
            yield from record.binds


def records_size(source: SourceFile) -> int:
    try:
        return os.stat(source.abs_path).st_size
    except OSError:
        return 0


def _decoded(data: bytes) -> str | bytes:
    """The text, or the bytes themselves when they cannot be decoded."""
    try:
        return decode_source(data)
    except (UnicodeDecodeError, SyntaxError, LookupError):
        return data


def _now_ns() -> int:
    from .cache import now_ns

    return now_ns()
