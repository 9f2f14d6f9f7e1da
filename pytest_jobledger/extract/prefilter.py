"""Which files can register a job, decided from their text before libcst parses any of them.

A file is skipped only when it provably cannot register a job, or define an alias of a job
decorator, under the current configuration. The argument, which ``tests/extract/test_prefilter.py``
checks on every case folder, every bundled example and the extractor's fuzz trees (the ledger with
the filter must equal the ledger that parses and scans every file):

1. A place yields a job or an unsupported entry only if the name at its callee (``@a.b.w``,
   ``a.b.w(...)``, ``w("q")(fn)``) resolves (:mod:`.resolve`) to a framework decorator, a
   register method or a configured decorator, or to a refused name that may be one
   (:mod:`.sites`). Resolution ends with the *last* part ``w`` of the spelled name: either it is
   appended to an app object's key (``celery.Celery().task``), or it is looked up as a
   module-level binding of ``w`` in some module (``w`` itself, an import of it, a module
   attribute). Canonical spellings never change the last part of a decorator key
   (``test_prefilter`` checks each one). So ``w`` is one of the framework words (the last parts of
   every decorator key and register method: ``task``, ``shared_task``, ``actor``, ``job``,
   ``register_task``...), a configured decorator's last name, or an *alias*: a name some scanned
   module binds, at module level, to something that resolves to one of those. A refused name is
   reported only when it is spelled like a job (:func:`~.matching.spelled_like_a_job`) or one of
   its bindings is a job decorator (then it is an alias). Hence :meth:`Words.relevant`.
2. A binding can make ``v`` an alias only in the shapes :meth:`.resolve.ProjectIndex._binding`
   follows: ``import a.w as v``, ``from a import w as v``, ``v = a.w``, ``v = a.w(...)`` (a
   preset), ``v = partial(a.w, ...)`` and ``class v(a.w)`` (a subclass of a decorator class),
   and only when that ``w`` is a framework word, a configured last name or already an alias
   (:func:`alias_closure`, from :func:`bind_facts`). Star imports re-export names spelled the
   same. So the aliases are a least fixed point computed from the text of every file, starting
   from the framework words (:meth:`Words.with_aliases`).
3. So a file can register a job only if a relevant word occurs where a callee ends: followed by
   ``(`` (after spaces, line breaks, comments and closing brackets), or at the end of a decorator
   line (:func:`text_facts`). The scan reads the text as if it were all code: a word in a string
   or a comment can only make a file a candidate, never hide one, and no string or bracket is
   tracked that a hostile file could desynchronise. A decorator whose callee may end on a later
   line (``@(``, ``@ \\``, an ``@`` line ending in ``\\``) makes every line end a decorator end.
   A name used as a value is a place too (the walker reports a job decorator used so): a word
   followed by what may end a value (``,``, ``)``, ``]``, ``}``, ``:``, a quote, ``if``/``else``/
   ``or``/``and``/``for``, the end of the line) is a site, unless its physical line is a comment
   or an import with no ``;`` (neither can hold a value).

4. Places that are not decorators are found the same way, by :data:`SITE_WORDS`: RQ's and
   rq-scheduler's enqueueing methods where a callee ends, the top-level module of a job framework
   on an import line (arq's and SAQ's settings, a framework without a table), and Celery's
   configuration keys wherever they are spelled. None of them is spelled like a job, so a refused
   name spelled so is never reported for it.

Files that are not candidates are still read (their size, readability and the words they spell
are known), and modules are still parsed on demand when a candidate's names lead into them
(:mod:`.resolve`). A file the scan cannot decode is a candidate when its bytes spell a relevant
word, as before (its decode error is then reported).
"""

from __future__ import annotations

import ast
import io
import re
import sys
import tokenize
import unicodedata
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TypeAlias

from ..project import Config
from .discovery import SourceFile
from .frameworks.celery import CONFIG_WORDS
from .frameworks.enqueue import ENQUEUE_WORDS
from .frameworks.settings import ARQ_WORKER_WORDS, SETTINGS_MODULES
from .frameworks.unsupported import UNSUPPORTED_MODULES
from .ignores import comments
from .limits import measure

#: How every framework's job decorators are spelled (Celery's and Huey's ``*task``, Dramatiq's
#: ``actor``, RQ's ``job``): a refused name spelled so may be one (:mod:`.matching`).
JOB_SUFFIX = "task"
JOB_NAMES: tuple[str, ...] = ("actor", "job")

#: Places that are not decorators but are judged all the same (never spelled like a job, so a
#: refused name spelled so is not reported): RQ's and rq-scheduler's enqueueing methods
#: (:mod:`.enqueue`), and the top-level modules of job frameworks, whose import makes a module a
#: candidate (:mod:`.worker_settings` reads arq's and SAQ's settings there; :mod:`.imports`
#: reports a framework without a table).
IMPORT_SITE_WORDS: frozenset[str] = SETTINGS_MODULES | UNSUPPORTED_MODULES
#: Celery's configuration keys are places wherever they are spelled (``app.conf.task_routes =``,
#: ``update(beat_schedule=...)``, a config module's ``task_routes = ...``: :mod:`.celery_config`),
#: and arq's ``Worker(functions=...)``/``run_worker(...)``.
SITE_WORDS: frozenset[str] = ENQUEUE_WORDS | IMPORT_SITE_WORDS | CONFIG_WORDS | ARQ_WORKER_WORDS


#: A binding that may make ``name`` an alias: the words that would make it one.
BindFact: TypeAlias = tuple[str, tuple[str, ...]]

#: Up to this many aliases the scan looks for them with one regular expression; beyond it (a
#: generated or hostile tree), every identifier is looked up instead, which costs linear time too.
_ALIAS_PATTERN_LIMIT = 200
#: CPython 3.11+ guards its own parser and AST builder against deep nesting (a RecursionError or
#: MemoryError, never a crash); 3.10 does not, so there a file is measured first, as for libcst.
#: Larger files are measured first everywhere, so that ``ast`` never sees more than this unvetted.
_AST_UNVETTED_BYTES = 1024 * 1024 if sys.version_info >= (3, 11) else 0
#: A file larger than this is measured (:func:`.limits.measure`) before ``ast`` reads its
#: bindings, never handed to ``ast`` unmeasured (200 KB of dense calls cost ``ast`` 100 MB). A
#: large module that spells a framework word is usually one that registers nothing (a migration,
#: a test module): measuring and ``ast`` cost a tenth of the libcst parse it had before.
LARGE_FILE_BYTES = 64 * 1024

#: After a word: what may sit between a callee's last part and its ``(``.
_CALL = re.compile(r"(?:[ \t\f\r\n)]|\\\r?\n|#[^\r\n]*)*\(")
#: After a word: the end of a line, after spaces, closing brackets and line continuations.
_LINE_END = re.compile(r"(?:[ \t\f)]|\\\r?\n)*(?:[#;\r\n]|\Z)")
#: After a word: what may follow the source of an alias binding (``w as v``, ``w,``, ``w(``, or
#: the end of the statement); anything else (``w.x``, ``w = ...``, ``w + 1``) binds no alias.
_MAY_BIND = re.compile(r"(?:[ \t\f)]|\\\r?\n)*(?:as\b|[,(#;:\r\n]|\Z)")
_DECORATOR_LINE = re.compile(r"[ \t\f]*@")
#: After a word: what may follow a name used as a value (``map(app.task, fs)``, ``[app.task]``,
#: ``{"x": app.task}``, ``getattr(app, "task")``, ``a if c else app.task``): the walker reports
#: such a reference (:class:`.records.Reference`).
_VALUE_END = re.compile(
    r"(?:[ \t\f\r\n)\]}]|\\\r?\n)*(?:[,;:#\r\n\"'\]})]|\Z|(?:if|else|or|and|for)\b)"
)
#: A physical line that holds no value: a comment line, or an import without ``;`` on it.
_NO_VALUE_LINE = re.compile(r"[ \t\f]*(?:#|(?:from|import)\b[^;\r\n]*(?:[\r\n]|\Z))")
#: A decorator whose callee may end on a later physical line than its ``@``.
_SPLIT_DECORATOR = re.compile(
    r"(?:\A|(?<=[\r\n]))[ \t\f]*@(?:[ \t\f]*[(\\]|[^\r\n]*\\(?=\r?\n|\r|\Z))"
)
_IDENTIFIER = re.compile(r"(?<!\w)[^\W\d]\w*")
#: A run of the characters CPython's tokenizer reads into one identifier before it checks it
#: (ASCII letters, digits and ``_``, and every character past ASCII). One character class,
#: matched whole: linear in the text (a pattern that looked ahead for the character past
#: ASCII backtracked through every ASCII run, quadratic in a long one).
_RUN = re.compile(r"[A-Za-z0-9_\x80-\U0010ffff]+")
#: A physical line that is an import statement (``import x`` or ``from x import y``).
_IMPORT_LINE = re.compile(r"[ \t\f]*(?:from|import)\b")


@lru_cache(maxsize=1)
def app_words() -> re.Pattern[str]:
    """The last part of every app class a factory may return (``Celery``, ``Huey``, ``App``...),
    however it is imported, as whole identifiers: a function body that spells one is never
    blanked (:mod:`.reduce`), since the resolver reads what a module-level function returns
    (:meth:`.resolve.ProjectIndex.made_by`). It makes no file a candidate."""
    from .frameworks import FACTORY_APPS, FRAMEWORKS

    words = {key.rsplit(".", 1)[-1] for key in FACTORY_APPS}
    for framework in FRAMEWORKS.values():
        words |= {
            n.rsplit(".", 1)[-1] for n, key in framework.canonical.items() if key in FACTORY_APPS
        }
    return re.compile(r"(?<!\w)(?:" + "|".join(sorted(map(re.escape, words))) + r")(?!\w)")


def framework_words() -> frozenset[str]:
    """The last part of every framework decorator key and register method."""
    from .frameworks import FRAMEWORKS

    keys: set[str] = set()
    for framework in FRAMEWORKS.values():
        keys |= set(framework.decorators) | set(framework.register_methods)
    return frozenset(key.rsplit(".", 1)[-1] for key in keys)


@dataclass(frozen=True)
class Words:
    """What a callee's last part must be, under one configuration, for its place to matter."""

    #: Framework words and configured decorators' last names: what an alias can be made of.
    exact: frozenset[str]
    #: Configured decorators' last names (spelled like a job by configuration).
    configured: frozenset[str]
    aliases: frozenset[str] = frozenset()
    _patterns: dict[str, re.Pattern[str]] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )

    @classmethod
    def of(cls, config: Config, aliases: Iterable[str] = ()) -> Words:
        configured = frozenset(name.rsplit(".", 1)[-1] for name in config.extraction.decorators)
        return cls(framework_words() | configured, configured, frozenset(aliases))

    def with_aliases(self, aliases: Iterable[str]) -> Words:
        return Words(self.exact, self.configured, self.aliases | frozenset(aliases))

    def spelled_like(self, word: str) -> bool:
        """:func:`~.matching.spelled_like_a_job` for one word."""
        return word.endswith(JOB_SUFFIX) or word in JOB_NAMES or word in self.configured

    def relevant(self, word: str) -> bool:
        """Whether a place whose callee ends in ``word`` may yield anything (point 1)."""
        return self.spelled_like(word) or word in self.aliases or word in SITE_WORDS

    def source(self, word: str) -> bool:
        """Whether a binding whose source ends in ``word`` may be an alias (point 2)."""
        return word in self.exact or word in self.aliases

    def finder(self, words: Iterable[str] | None = None) -> re.Pattern[str] | None:
        """A pattern matching the relevant words (or only ``words``) as whole identifiers;
        ``None`` when there are too many aliases for one pattern (:func:`iter_words` falls back
        to every identifier)."""
        key = "" if words is None else "\0".join(sorted(words))
        found = self._patterns.get(key)
        if found is None:
            if words is None:
                if len(self.aliases) > _ALIAS_PATTERN_LIMIT:
                    return None
                spelled = [rf"\w*{JOB_SUFFIX}", *map(re.escape, JOB_NAMES)]
                literal = sorted(
                    self.configured | self.aliases | SITE_WORDS, key=lambda w: (-len(w), w)
                )
                alternatives = [*spelled, *map(re.escape, literal)]
            else:
                alternatives = [re.escape(w) for w in sorted(words, key=lambda w: (-len(w), w))]
            found = re.compile(r"(?<!\w)(?:" + "|".join(alternatives) + r")(?!\w)")
            self._patterns[key] = found
        return found

    def byte_finder(self) -> re.Pattern[bytes]:
        """For a file that cannot be decoded: the relevant words in its raw bytes (ASCII word
        boundaries, which only ever find more)."""
        literal = sorted(self.configured | self.aliases | SITE_WORDS)
        alternatives = [
            JOB_SUFFIX.encode() + rb"\b",
            *(rb"\b" + re.escape(w.encode("utf-8", "surrogatepass")) + rb"\b" for w in JOB_NAMES),
            *(rb"\b" + re.escape(w.encode("utf-8", "surrogatepass")) + rb"\b" for w in literal),
        ]
        return re.compile(b"|".join(alternatives))


def iter_words(text: str, words: Words) -> Iterator[tuple[str, int, int]]:
    """Every occurrence of a relevant word, as a whole identifier: ``(word, start, end)``, in
    the order of the text.

    Each word is looked for as a literal of its own (a literal search runs at memory speed, one
    pattern of alternatives a hundred times slower), ``*task`` by its suffix, extended back to
    the identifier's start. Beyond :data:`_ALIAS_PATTERN_LIMIT` literals, every identifier is
    looked up instead, which costs linear time too."""
    literals = sorted(set(JOB_NAMES) | words.configured | words.aliases | SITE_WORDS)
    if len(literals) > _ALIAS_PATTERN_LIMIT:
        for found in _IDENTIFIER.finditer(text):
            if words.relevant(found.group()):
                yield found.group(), found.start(), found.end()
        return
    hits: dict[int, tuple[str, int, int]] = {}
    for found in _literal(JOB_SUFFIX).finditer(text):
        start = found.start()
        while start and _WORD_CHAR.match(text, start - 1):
            start -= 1
        hits[start] = (text[start : found.end()], start, found.end())
    for literal in literals:
        for found in _literal(literal).finditer(text):
            start = found.start()
            if start and _WORD_CHAR.match(text, start - 1):
                continue
            hits.setdefault(start, (literal, start, found.end()))
    for start in sorted(hits):
        yield hits[start]


_WORD_CHAR = re.compile(r"\w")


@lru_cache(maxsize=1024)
def _literal(word: str) -> re.Pattern[str]:
    """``word`` not followed by a word character (whether one precedes it is checked apart)."""
    return re.compile(re.escape(word) + r"(?!\w)")


@dataclass(frozen=True)
class TextFacts:
    """What the scan of one file found, under one set of :class:`Words`.

    ``words``: every relevant word it spells; ``sites``: those at a place that may register a
    job (point 3); ``may_bind``: whether a framework word or alias sits where it could be the
    source of an alias binding (then :func:`bind_facts` is asked); ``binary``: the file could not
    be decoded, so only its bytes were searched.
    """

    words: tuple[str, ...] = ()
    sites: tuple[str, ...] = ()
    may_bind: bool = False
    binary: bool = False
    #: The ``# jobledger: ignore`` comments, as ``(line, comment)`` (:mod:`.ignores`).
    ignores: tuple[tuple[int, str], ...] = ()

    def candidate(self, words: Words) -> bool:
        """Whether the file must be parsed and its places judged."""
        if self.binary:
            return any(words.relevant(word) for word in self.words)
        return any(words.relevant(word) for word in self.sites)


def names_as_written(text: str) -> bool:
    """Whether every identifier in ``text`` is already what Python reads it as (NFKC), so the
    text's own spellings are the names: true of ASCII, and of text whose every run of would-be
    identifier characters that goes past ASCII (in code, strings or comments alike: a superset
    of its identifiers, each of which is one whole run) is NFKC already. Then nothing needs
    normalising, and a body's words can be read from the text as it is."""
    if text.isascii():
        return True
    return all(unicodedata.is_normalized("NFKC", run) for run in wide_words(text))


def wide_words(text: str) -> set[str]:
    """Every run of would-be identifier characters that goes past ASCII (see
    :func:`names_as_written`): with :data:`_IDENTIFIER`'s words, every identifier of ``text``."""
    return {run for run in _RUN.findall(text) if not run.isascii()}


def text_facts(text: str, words: Words) -> TextFacts:
    """Scan ``text`` (decoded source) for the places where a relevant word matters. Text that
    is not ASCII is scanned as NFKC, as Python reads identifiers (a fullwidth ``task``)."""
    ignores = comments(text)
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text)
    found: set[str] = set()
    sites: set[str] = set()
    may_bind = False
    split_decorators: bool | None = None
    for word, begin, end in iter_words(text, words):
        found.add(word)
        if words.source(word) and not may_bind and _MAY_BIND.match(text, end):
            may_bind = True
        if word in sites:
            continue
        if _CALL.match(text, end):
            sites.add(word)
            continue
        start = max(text.rfind("\n", 0, begin), text.rfind("\r", 0, begin))
        if word in CONFIG_WORDS or (
            word in IMPORT_SITE_WORDS and _IMPORT_LINE.match(text, start + 1)
        ):
            sites.add(word)  # the import of a job framework is a place (see SITE_WORDS)
            continue
        if _LINE_END.match(text, end):
            if _DECORATOR_LINE.match(text, start + 1):
                sites.add(word)
                continue
            if split_decorators is None:
                split_decorators = _SPLIT_DECORATOR.search(text) is not None
            if split_decorators:
                sites.add(word)
                continue
        if _VALUE_END.match(text, end) and not _NO_VALUE_LINE.match(text, start + 1):
            sites.add(word)
    return TextFacts(tuple(sorted(found)), tuple(sorted(sites)), may_bind, ignores=ignores)


def byte_facts(data: bytes, words: Words) -> TextFacts:
    """For a file that cannot be decoded: the relevant words its bytes spell."""
    found = {m.group().decode("utf-8", "replace") for m in words.byte_finder().finditer(data)}
    return TextFacts(tuple(sorted(found)), (), bool(found), binary=True)


def decode_source(data: bytes) -> str:
    """The text of a source file, decoded the way Python reads source (a BOM, a coding cookie,
    else UTF-8). Raises ``UnicodeDecodeError``, ``SyntaxError`` or ``LookupError``."""
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    return data.decode(encoding)


# -- bindings that may define an alias (point 2) ---------------------------------------------


def ast_module(data: bytes, text: str, *, vet_over: int | None = None) -> ast.Module | None:
    """CPython's parse of a file (it parses and never runs anything), or ``None`` when it cannot
    parse it or the file is over the limits libcst is held to (:func:`.limits.measure`), which
    is checked first for a file over ``vet_over`` bytes (never more than
    :data:`_AST_UNVETTED_BYTES`)."""
    limit = _AST_UNVETTED_BYTES if vet_over is None else min(vet_over, _AST_UNVETTED_BYTES)
    if len(data) > limit:
        cost = measure(text)
        if cost.too_deep_line is not None or cost.too_much_work_line is not None:
            return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(data)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def bind_facts(tree: ast.Module) -> tuple[BindFact, ...]:
    """Every module-level binding of a name to something that could be a decorator, with the
    words that would make it an alias (the walker's module level: not inside a def or class)."""
    found: list[BindFact] = []
    _statements(tree.body, found)
    return tuple(sorted(set(found)))


def _statements(body: Sequence[ast.stmt], found: list[BindFact]) -> None:
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                if alias.asname is not None:
                    found.append((alias.asname, (alias.name.rsplit(".", 1)[-1],)))
        elif isinstance(node, ast.Assign):
            sources = _ast_sources(node.value)
            if sources:
                found.extend(
                    (target.id, sources) for target in node.targets if isinstance(target, ast.Name)
                )
        elif isinstance(node, ast.AnnAssign):
            sources = _ast_sources(node.value) if node.value is not None else ()
            if sources and isinstance(node.target, ast.Name):
                found.append((node.target.id, sources))
        elif isinstance(node, ast.ClassDef):
            # ``class MyJob(rq.decorators.job)``: a subclass of a decorator class is one
            bases = tuple(word for word in map(_ast_last, node.bases) if word is not None)
            if bases:
                found.append((node.name, bases))
        elif not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for name in ("body", "orelse", "finalbody"):
                _statements(getattr(node, name, None) or (), found)
            for handler in getattr(node, "handlers", None) or ():
                _statements(handler.body, found)
            for case in getattr(node, "cases", None) or ():
                _statements(case.body, found)


def _ast_last(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _ast_sources(value: ast.expr) -> tuple[str, ...]:
    """``a.w`` -> (w,); ``a.w(...)`` -> (w,); ``f(a.w, ...)`` -> (f, w)."""
    last = _ast_last(value)
    if last is not None:
        return (last,)
    if not isinstance(value, ast.Call):
        return ()
    callee = _ast_last(value.func)
    first = _ast_last(value.args[0]) if value.args else None
    return tuple(word for word in (callee, first) if word is not None)


def alias_closure(binds: Iterable[BindFact], words: Words) -> set[str]:
    """Every name the bindings make an alias under ``words``: the least fixed point of point 2,
    reached in one pass over a graph from each source word to the names bound from it, so the
    cost is linear in the number of bindings (a chain ``a1 = a0``, ``a2 = a1``, ... included)."""
    by_source: dict[str, list[str]] = {}
    for name, sources in binds:
        for source in sources:
            by_source.setdefault(source, []).append(name)
    found: set[str] = set()
    todo = [source for source in by_source if words.source(source)]
    while todo:
        for name in by_source.get(todo.pop(), ()):
            if name not in found:
                found.add(name)
                todo.append(name)
    return found


def spelled_index(
    files: Iterable[SourceFile], text_of: Callable[[SourceFile], str | bytes | None]
) -> dict[str, set[str]]:
    """Which files spell each identifier (an alias chain across files grows by one file per
    round: each round then costs its new words, not another pass over the tree). Built once,
    in time linear in the tree, and only when a second round is needed."""
    spelled: dict[str, set[str]] = {}
    for source in files:
        text = text_of(source)
        if text is None:
            continue
        if isinstance(text, bytes):
            text = text.decode("utf-8", "replace")
        for word in set(_IDENTIFIER.findall(text)):
            spelled.setdefault(word, set()).add(source.rel_path)
    return spelled
