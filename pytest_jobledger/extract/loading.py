"""Reading and parsing scanned files: bytes in, a module summary or a located problem.

A file that is too large, unreadable, undecodable, too deeply nested, or not valid Python is never
a crash and never a silent gap: it becomes an :class:`~pytest_jobledger.ledger.model.Unsupported`
entry naming the file and line, so the gate fails until the file parses or is excluded on purpose.

Nothing reaches libcst before :func:`~.limits.measure` has vouched for it: libcst's native parser
can segfault on deep nesting and is superlinear in it, so a file over the nesting or work limit is
refused here. Summaries are kept in a cache bounded by the parser work they stand for (about one
token each), so the memory of a run stays bounded however large the tree; a module pushed out is
parsed again if it is needed again.
"""

from __future__ import annotations

import ast
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass, field

import libcst as cst

from ..ledger.model import Pattern
from .deps import Trail, digest
from .discovery import SourceFile
from .limits import MAX_DEPTH, MAX_FILE_BYTES_CEILING, MAX_WORK, Cost, measure
from .prefilter import Words, app_words, decode_source, iter_words, names_as_written
from .reading import SPLIT as _SPLIT
from .reading import FileReader
from .records import ModuleSummary
from .reduce import reduce_source
from .tokens import line_of
from .walker import summarize, summarize_strict, twin_tree

__all__ = ["MAX_FILE_BYTES_CEILING", "RETAINED_WORK", "SourceLoader"]

#: Parser work the kept summaries may stand for, together (see :data:`.limits.MAX_WORK`). A
#: summary keeps about 0.1 KB per unit, so this is some 100 MB, however large the tree.
RETAINED_WORK = 10 * MAX_WORK


@dataclass
class SourceLoader(FileReader):
    """Reads and parses files on demand, keeping recent summaries and every problem met.

    While a :class:`~.deps.Trail` is set, every summary asked for (and every module name the
    resolver looks up, :meth:`note_module`) is recorded in it: what one file's rows depend on.
    """

    retained_work: int = RETAINED_WORK
    trail: Trail | None = None
    #: The words places are judged by (:class:`.sites.Sites`): with them, bodies that spell
    #: none are not handed to libcst (:mod:`.reduce`); ``None`` parses every file whole.
    words: Words | None = None
    #: CPython's parse of some files made already (by the pre-filter), with the digest of what
    #: was parsed: taken (once) instead of parsing the file with ``ast`` again.
    parsed: dict[str, tuple[str, ast.Module]] = field(default_factory=dict)
    _summaries: OrderedDict[str, tuple[ModuleSummary, int]] = field(default_factory=OrderedDict)
    _failed: set[str] = field(default_factory=set)
    _retained: int = 0
    _pinned: str | None = None
    #: The most parser work the cache has stood for at once, after letting summaries go.
    peak_retained: int = 0

    def known(self) -> set[str]:
        """The files this loader has parsed or refused (and kept as such)."""
        return set(self._failed) | set(self._summaries)

    def note_module(self, module: str, source: SourceFile | None) -> None:
        """The resolver asked whether ``module`` is in the tree (``source``: where it is)."""
        if self.trail is not None:
            self.trail.modules[module] = None if source is None else source.rel_path

    def summary(
        self, source: SourceFile, data: bytes | None = None, *, pin: bool = False
    ) -> ModuleSummary | None:
        """The file's summary (``None`` when it cannot be read or parsed), parsed on first use
        and again only if the cache let it go. ``pin`` keeps it cached until another file is
        pinned: the module being scanned must stay the one object its places refer to."""
        key = source.rel_path
        if pin:
            self._pinned = key
        found = self._summary(source, data)
        if self.trail is not None:
            self.trail.files[key] = self.digests.get(key, "")
            if found is None:
                self.trail.failed.add(key)
        return found

    def _summary(self, source: SourceFile, data: bytes | None) -> ModuleSummary | None:
        key = source.rel_path
        if key in self._failed:
            return None
        kept = self._summaries.get(key)
        if kept is not None:
            self._summaries.move_to_end(key)
            return kept[0]
        if data is None:
            data = self.read(source)
        elif key not in self.digests:
            self.digests[key] = digest(data)
        parsed = None if data is None else self._parse(source, data)
        if parsed is None:
            self._failed.add(key)
            return None
        self._keep(key, *parsed)
        return parsed[0]

    def _keep(self, key: str, summary: ModuleSummary, work: int) -> None:
        """Cache ``summary``; let the oldest others go while the cache is over its bound."""
        self._summaries[key] = (summary, work)
        self._retained += work
        excess = self._retained - self.retained_work
        victims: list[str] = []
        for old, (_, old_work) in self._summaries.items():
            if excess <= 0:
                break
            if old not in (key, self._pinned):
                victims.append(old)
                excess -= old_work
        for old in victims:
            self._retained -= self._summaries.pop(old)[1]
        self.peak_retained = max(self.peak_retained, self._retained)

    def _parse(self, source: SourceFile, data: bytes) -> tuple[ModuleSummary, int] | None:
        text = self._decode(source, data)
        if text is None:
            return None
        cost = measure(text)
        if cost.too_deep_line is not None:
            self._problem(
                source,
                cost.too_deep_line,
                Pattern.TOO_COMPLEX,
                f"nested more than {MAX_DEPTH} levels deep here (brackets, chained operators, "
                "elif chains and indentation together), too deep to parse safely; it was not "
                "parsed, so jobs it registers are missing. Simplify this expression, or add the "
                "file to exclude if it registers no jobs",
            )
            return None
        if cost.too_much_work_line is not None:
            # deep nesting makes each token cost more: a small file can run out of work there
            deep = cost.depth > MAX_DEPTH // 2
            self._problem(
                source,
                cost.too_much_work_line if deep else 1,
                Pattern.TOO_COMPLEX if deep else Pattern.FILE_TOO_LARGE,
                f"too {'deeply nested' if deep else 'large'} to parse within the tool's limits "
                f"(its parser work, about one unit per token and more for deeply nested ones, "
                f"passes {MAX_WORK:,} units at line {cost.too_much_work_line}); it was not "
                f"parsed, so jobs it registers are missing: {_SPLIT}",
            )
            return None
        made = self.parsed.pop(source.rel_path, None)
        if made is not None and made[0] == self.digests.get(source.rel_path):
            twin: ast.Module | None = made[1]
        else:
            twin = twin_tree(data)
        reduced = self._reduced(text, twin)
        if reduced is not None and twin is not None:
            found = self._summary_of_reduced(source, text, twin, *reduced)
            if found is not None:
                return found, cost.work
            twin = twin_tree(data)  # the reduction changed it
        tree = self._libcst(source, text, cost)
        if tree is None:
            return None
        try:
            if not names_as_written(text):
                tree = tree.visit(_NormalNames())
            return summarize(source, tree, twin), cost.work
        except RecursionError:
            self._problem(
                source,
                1,
                Pattern.TOO_COMPLEX,
                "too deeply nested to analyse; jobs in it are not listed",
            )
            return None

    def _summary_of_reduced(
        self, source: SourceFile, text: str, twin: ast.Module, reduced: str, blanked: frozenset[str]
    ) -> ModuleSummary | None:
        """The summary from libcst's parse of the reduced text, or ``None`` when it cannot be
        made so (then the whole file is parsed, and any failure reported, as without it)."""
        try:
            tree = cst.parse_module(reduced)
            summary = summarize_strict(source, tree, twin)
        except BaseException as exc:  # libcst's native parser panics as a BaseException
            if isinstance(exc, (KeyboardInterrupt, SystemExit, GeneratorExit)):
                raise
            return None
        if summary is not None:
            summary.blanked = blanked
        return summary

    def _reduced(self, text: str, twin: ast.Module | None) -> tuple[str, frozenset[str]] | None:
        words = self.words
        if words is None or twin is None:
            return None
        kept = [start for _, start, _ in iter_words(text, words)]
        # an app factory's body is read for what it returns (:meth:`.resolve.ProjectIndex.made_by`)
        kept += [found.start() for found in app_words().finditer(text)]
        return reduce_source(text, twin, sorted(kept))

    def _decode(self, source: SourceFile, data: bytes) -> str | None:
        """The text, decoded the way Python reads source (a BOM, a coding cookie, else UTF-8)."""
        try:
            return decode_source(data)
        except UnicodeDecodeError as exc:
            line = line_of(data[: exc.start].decode("latin-1"), exc.start)
            reason = (
                f"byte 0x{exc.object[exc.start]:02x} at offset {exc.start} is not {exc.encoding}"
            )
        except (SyntaxError, LookupError) as exc:
            line = getattr(exc, "lineno", None) or 1
            reason = str(getattr(exc, "msg", None) or exc)
        self._problem(
            source,
            line,
            Pattern.DECODE_ERROR,
            f"cannot decode the file ({reason}); save it as UTF-8 or fix its coding cookie",
        )
        return None

    def _libcst(self, source: SourceFile, text: str, cost: Cost) -> cst.Module | None:
        try:
            return cst.parse_module(text)
        except cst.ParserSyntaxError as exc:
            self._problem(
                source,
                _error_line(exc, text, cost),
                Pattern.SYNTAX_ERROR,
                f"cannot parse: {exc.message}; jobs in this file are not in the ledger until "
                "it parses",
            )
        except RecursionError:
            self._problem(
                source,
                1,
                Pattern.TOO_COMPLEX,
                "too deeply nested to parse; jobs in it are not listed",
            )
        except MemoryError:
            self._problem(
                source, 1, Pattern.FILE_TOO_LARGE, f"ran out of memory parsing it: {_SPLIT}"
            )
        except BaseException as exc:  # libcst's native parser panics as a BaseException
            if isinstance(exc, (KeyboardInterrupt, SystemExit, GeneratorExit)):
                raise
            self._problem(
                source,
                1,
                Pattern.SYNTAX_ERROR,
                "cannot parse: the parser failed on this file (please report it to "
                "pytest-jobledger with the file); jobs in this file are not in the ledger",
            )
        return None


def _error_line(exc: cst.ParserSyntaxError, text: str, cost: Cost) -> int:
    """Where a parse error is. libcst places its tokenizer's errors at 1:1, so those are located
    by the first character that starts no token (a NUL, an unterminated string), else by
    CPython's own parser, which only parses and never runs anything."""
    if not exc.message.startswith("tokenizer error"):
        return exc.raw_line
    if cost.stray_line is not None:
        return cost.stray_line
    try:
        compile(text, "<scanned file>", "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
    except SyntaxError as error:
        return error.lineno or exc.raw_line
    except (ValueError, MemoryError, RecursionError):
        pass
    return exc.raw_line


class _NormalNames(cst.CSTTransformer):
    """Identifiers as Python's tokenizer reads them (NFKC): a fullwidth ``task`` is ``task``,
    and CPython runs it so, so a fullwidth spelling cannot hide a registration."""

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.Name:
        value = updated_node.value
        if value.isascii():
            return updated_node
        return updated_node.with_changes(value=unicodedata.normalize("NFKC", value))
