"""The proof that a candidate yields nothing, from CPython's tree, so libcst need not parse it.

A file is a candidate by its text (it spells ``task`` where a callee ends: :mod:`.prefilter`),
and most such files register nothing: a service's ``self.run_task(t)``, ``progress.add_task(...)``,
``asyncio.create_task(...)``, a model's ``task`` field. A place yields a row or a problem only by
what its names are bound to (:mod:`.binding`), so a candidate is judged without libcst when no
place in it can. What can, and therefore keeps the file a candidate:

- a place whose last part is exactly a framework's registering word or a declared decorator's
  last name, in a decorator or called on something (``@x.task`` with ``x`` a parameter: a
  factory registration, reported by its attribute alone);
- a place whose first name may lead to a job decorator or a refusal: bound by an import of a job
  framework or of a declared decorator's module (:func:`.reach.framework_paths`) or of a scanned
  or relative module (which may lack the name, fail to parse or lead on to a framework), anywhere
  in the file; except a bare name called or handed on that one module-level ``from M import name``
  of a scanned module binds: the scanner asks the resolver what it is, and a plain function of the
  tree (a job's own def, a helper) yields nothing there (:class:`Deferred`: a test calling the
  jobs it imports is not parsed); bound more than once at module level (an ambiguous name), or
  declared ``global``; bound by an assignment, a class, a def (a factory may return an app) or
  another statement whose names are not all plainly bound (an unbound name, a builtin, an import
  of an outside module that is no framework's);
- a star import of a scanned module or a framework's; the file being a declared decorator's
  module;
- a place word of :data:`.prefilter.SITE_WORDS` (an enqueueing method, Celery's settings);
- a file CPython cannot parse, or that is over the limits libcst is held to
  (:func:`.limits.measure`): its problem is reported for a candidate.

Anything else resolves to nothing the matcher knows, so it yields nothing: the ledger with the
proof equals the ledger that parses and judges every file (``tests/extract/test_prefilter.py``).
A proof is kept in the content cache as an empty scan with its trail (the module names it looked
up, the identifiers it spells that are not relevant: an alias of one needs a new proof).
"""

from __future__ import annotations

import ast
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace

from ..ledger.model import Pattern
from ..project import Config
from .cache import FileRecord, ScanRecord
from .deps import Trail, digest
from .discovery import SourceFile
from .prefilter import (
    _IDENTIFIER,
    IMPORT_SITE_WORDS,
    SITE_WORDS,
    Words,
    ast_module,
    decode_source,
)
from .reach import Paths, framework_paths, resolve_relative
from .reading import FileReader


@dataclass(frozen=True)
class Setting:
    """What a proof is judged against: the scanned modules, the relevant words, the paths of
    job decorators (the frameworks' and the declared ones), the declared decorators' modules;
    and how a file is had (the reader, and CPython's trees phase 1 kept, by path, with the
    digest of what was parsed)."""

    config: Config
    by_module: Mapping[str, str]
    words: Words
    paths: Paths
    declared: frozenset[str]
    reader: FileReader
    trees: Mapping[str, tuple[str, ast.Module]]

    @classmethod
    def of(
        cls,
        config: Config,
        by_module: Mapping[str, str],
        words: Words,
        reader: FileReader,
        trees: Mapping[str, tuple[str, ast.Module]],
    ) -> Setting:
        declared = frozenset(name.rpartition(".")[0] for name in config.extraction.decorators)
        paths = framework_paths(config)
        return cls(config, by_module, words, paths, declared, reader, trees)


@dataclass(frozen=True)
class Deferred:
    """A proof that holds if each name of ``conditions`` (``module.name``, imported from a
    scanned module) is a plain function of the tree, as the resolver finds it: the scanner asks
    (:meth:`.filescan.Scanner.plain_functions`), and the file is then inert with ``record``'s
    trail and the trail of that question. A test module that calls or hands on the jobs it
    imports is proved so, without libcst parsing it."""

    conditions: frozenset[str]
    record: ScanRecord

    def proved(self, asked: Trail) -> ScanRecord:
        """The inert scan, valid while what the question read is unchanged too."""
        trail = Trail(
            modules={**self.record.trail.modules, **asked.modules},
            files=dict(asked.files),
            skipped=set(self.record.trail.skipped),
        )
        return replace(self.record, trail=trail)


def prove_inert(
    todo: Iterable[SourceFile], records: Mapping[str, FileRecord], setting: Setting
) -> tuple[dict[str, ScanRecord], dict[str, Deferred]]:
    """An empty scan of every file of ``todo`` proved inert, with the trail that keeps the
    proof valid in the cache: the module names it looked up, and every identifier it spells
    that is not relevant now; and the proofs that hold if the names they import are plain
    functions (:class:`Deferred`)."""
    proved: dict[str, ScanRecord] = {}
    deferred: dict[str, Deferred] = {}
    for source in todo:
        found = _proof(source, records, setting)
        if found is None:
            continue
        proof, content, text = found
        words = setting.words
        spelled = {word for word in set(_IDENTIFIER.findall(text)) if not words.relevant(word)}
        trail = Trail(modules=proof.looked_up, skipped=spelled)
        record = ScanRecord(content, (), (), (), (), trail, inert=True)
        if proof.conditions:
            deferred[source.rel_path] = Deferred(frozenset(proof.conditions), record)
        else:
            proved[source.rel_path] = record
    return proved, deferred


def proved_deferred(
    deferred: Mapping[str, Deferred],
    plain_functions: Callable[[frozenset[str]], Trail | None],
) -> dict[str, ScanRecord]:
    """The deferred proofs that hold, as inert scans: those whose every name the scanner finds
    to be a plain function of the tree."""
    found: dict[str, ScanRecord] = {}
    for rel_path, proof in deferred.items():
        asked = plain_functions(proof.conditions)
        if asked is not None:
            found[rel_path] = proof.proved(asked)
    return found


def unrefused(
    todo: Iterable[SourceFile],
    records: Mapping[str, FileRecord],
    scans: Mapping[str, ScanRecord],
    setting: Setting,
    plain_functions: Callable[[frozenset[str]], Trail | None],
) -> dict[str, ScanRecord]:
    """When every file is parsed (the reference the pre-filter is tested against): the scans
    of the files libcst's limits refused (too deep, too costly) that the proof shows inert,
    without that refusal. A file CPython parsed and proved to register nothing hides no job; the
    pre-filter never measures it for libcst, so neither is it reported here."""
    found: dict[str, ScanRecord] = {}
    for source in todo:
        scan = scans.get(source.rel_path)
        if scan is None or scan.found or not scan.problems:
            continue
        if any(problem.pattern not in _LIMITS for problem in scan.problems):
            continue
        if not records[source.rel_path].facts.candidate(setting.words):
            continue
        proof = _proof(source, records, setting)
        if proof is None:
            continue
        conditions = frozenset(proof[0].conditions)
        if not conditions or plain_functions(conditions) is not None:
            found[source.rel_path] = replace(scan, problems=())
    return found


#: The refusals of libcst's limits (:mod:`.limits`), which a proved file is not held to.
_LIMITS = frozenset({Pattern.TOO_COMPLEX, Pattern.FILE_TOO_LARGE})


def _proof(
    source: SourceFile, records: Mapping[str, FileRecord], setting: Setting
) -> tuple[_Proof, str, str] | None:
    """The proof for one file, its digest and its text (NFKC), or ``None``."""
    spelled = SITE_WORDS.intersection(records[source.rel_path].facts.sites)
    if spelled - IMPORT_SITE_WORDS:
        return None  # an enqueueing method, Celery's settings, arq's worker keywords
    if source.module in setting.declared:
        return None
    data = setting.reader.read(source)
    if data is None:
        return None
    try:
        text = decode_source(data)
    except (UnicodeDecodeError, SyntaxError, LookupError):
        return None
    content = digest(data)
    kept = setting.trees.get(source.rel_path)
    tree = kept[1] if kept is not None and kept[0] == content else ast_module(data, text)
    if tree is None:
        return None
    if spelled and _imports_one_of(tree, spelled):
        return None  # a framework's import line: its settings are read without a place
    proof = _Proof(tree, source, setting)
    if not proof.holds():
        return None
    return proof, content, text if text.isascii() else unicodedata.normalize("NFKC", text)


class _Proof:
    def __init__(self, tree: ast.Module, source: SourceFile, setting: Setting) -> None:
        self.tree = tree
        self.source = source
        self.setting = setting
        self.by_module = setting.by_module
        self.words = setting.words
        #: Every module-level binding of each name, by the statement that makes it.
        self.module_level: dict[str, list[ast.AST]] = {}
        self.declared_global: set[str] = set()
        #: Names some import anywhere in the file binds from a scanned or relative module, or
        #: from a job framework or a declared decorator's module: they may lead to one.
        self.scanned_imports: set[str] = set()
        self.scanned_star = False
        self.looked_up: dict[str, str | None] = {}
        #: How many imports anywhere in the file bind each name, and the absolute name each
        #: ``from M import name`` of a scanned module ``M`` binds.
        self.import_count: dict[str, int] = {}
        self.from_scanned: dict[str, str] = {}
        #: The names the scanner must find to be plain functions of the tree (:meth:`_deferred`).
        self.conditions: set[str] = set()
        self._statements(tree.body, module_level=True)
        self._safe: dict[str, bool] = {}

    # -- what the file binds ------------------------------------------------------------------

    def _statements(self, body: list[ast.stmt], *, module_level: bool) -> None:
        for node in body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                self._import(node, module_level)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if module_level:
                    self._bind(node.name, node)
                self._statements(node.body, module_level=False)
            elif isinstance(node, ast.Global):
                self.declared_global.update(node.names)
            else:
                if module_level:
                    for name in _stored(node):
                        self._bind(name, node)
                for field in ("body", "orelse", "finalbody"):
                    self._statements(getattr(node, field, None) or [], module_level=module_level)
                for handler in getattr(node, "handlers", None) or []:
                    if module_level and handler.name:
                        self._bind(handler.name, handler)
                    self._statements(handler.body, module_level=module_level)
                for case in getattr(node, "cases", None) or []:
                    if module_level:
                        for name in _stored_in(case.pattern):
                            self._bind(name, case)
                    self._statements(case.body, module_level=module_level)

    def _bind(self, name: str, node: ast.AST) -> None:
        self.module_level.setdefault(name, []).append(node)

    def _import(self, node: ast.Import | ast.ImportFrom, module_level: bool) -> None:
        if isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            scanned = self._scanned(module)
            for alias in node.names:
                if alias.name == "*":
                    reached = scanned or self._reaches(module)
                    self.scanned_star = self.scanned_star or reached
                    continue
                bound = alias.asname or alias.name
                self.import_count[bound] = self.import_count.get(bound, 0) + 1
                if scanned or self._reaches(f"{module}.{alias.name}"):
                    self.scanned_imports.add(bound)
                absolute = resolve_relative(module, self.source) if scanned else None
                if absolute is not None:
                    self.from_scanned[bound] = f"{absolute}.{alias.name}"
                if module_level:
                    self._bind(bound, node)
            return
        for alias in node.names:
            bound = alias.asname or alias.name.split(".")[0]
            self.import_count[bound] = self.import_count.get(bound, 0) + 1
            imported = alias.name if alias.asname else alias.name.split(".")[0]
            if self._scanned(alias.name) or self._reaches(imported):
                self.scanned_imports.add(bound)
            if module_level:
                self._bind(bound, node)

    def _reaches(self, name: str) -> bool:
        """Whether importing ``name`` (absolute) can lead to a job decorator."""
        setting = self.setting
        prefixes = name.split(".")
        modules = {".".join(prefixes[:cut]) for cut in range(1, len(prefixes) + 1)}
        return setting.paths.reached_by(name) or bool(modules & setting.declared)

    def _scanned(self, module: str) -> bool:
        """Whether an import of ``module`` leads into the scanned tree (or cannot be placed);
        every module name asked is noted with what it maps to, for the cache's trail."""
        absolute = resolve_relative(module, self.source)
        if absolute is None or module.startswith("."):
            return True
        parts = absolute.split(".")
        prefixes = [".".join(parts[:cut]) for cut in range(1, len(parts) + 1)]
        for prefix in prefixes:
            self.looked_up[prefix] = self.by_module.get(prefix)
        return any(prefix in self.by_module for prefix in prefixes)

    # -- the proof ----------------------------------------------------------------------------

    def holds(self) -> bool:
        if self.scanned_star:
            return False
        for last, head, role, bare in _places(self.tree):
            if last is None or not self.words.relevant(last):
                continue
            if last in SITE_WORDS:
                return False
            if role != "value" and last in self.words.exact:
                return False  # ``@x.task`` / ``x.task(fn)``: reported by its attribute alone
            if head is not None and not self.safe(head):
                if bare and role != "decorator" and self._deferred(head):
                    continue
                return False
        return True

    def _deferred(self, name: str) -> bool:
        """Whether ``name`` is bound only by one module-level ``from M import name`` of a scanned
        module: then it yields nothing when the resolver makes it a plain function of the tree
        (a job's own def, called or handed on in a test), which the scanner asks
        (:data:`Deferred`); the name it asks for joins :attr:`conditions`."""
        qualname = self.from_scanned.get(name)
        bindings = self.module_level.get(name, [])
        if (
            qualname is None
            or self.import_count.get(name) != 1
            or name in self.declared_global
            or len(bindings) != 1
            or not isinstance(bindings[0], ast.ImportFrom)
            or qualname in self.by_module  # a submodule, or a package's attribute
            or self._reaches(qualname)
        ):
            return False
        self.conditions.add(qualname)
        return True

    def safe(self, name: str, depth: int = 0) -> bool:
        """Whether ``name``, as the first name of a place, can lead to no refusal."""
        if name in self._safe:
            return self._safe[name]
        self._safe[name] = False  # a cycle of bindings is not safe
        found = self._judge(name, depth)
        self._safe[name] = found
        return found

    def _judge(self, name: str, depth: int) -> bool:
        if name in self.scanned_imports or name in self.declared_global or depth > 20:
            return False
        bindings = self.module_level.get(name, [])
        if not bindings:
            return True  # a builtin, a parameter, a local, or unbound: the resolver finds none
        if len(bindings) > 1:
            return False
        binding = bindings[0]
        if isinstance(binding, (ast.Import, ast.ImportFrom)):
            return True  # an outside module's name (scanned imports are refused above)
        if isinstance(binding, (ast.FunctionDef, ast.AsyncFunctionDef)):
            # a factory may return an app (the resolver reads what it returns): every name
            # its body reads must be plainly bound
            values: list[ast.expr] = [
                node for node in ast.walk(binding) if isinstance(node, ast.Name)
            ]
        elif isinstance(binding, ast.ClassDef):
            values = [*binding.bases, *(k.value for k in binding.keywords)]
        elif isinstance(binding, (ast.Assign, ast.AnnAssign)) and binding.value is not None:
            values = [binding.value]
        else:
            return False
        return all(
            self.safe(node.id, depth + 1)
            for value in values
            for node in ast.walk(value)
            if isinstance(node, ast.Name)
        )


def _imports_one_of(tree: ast.Module, tops: frozenset[str]) -> bool:
    """Whether the file imports one of the top-level modules ``tops`` anywhere. A framework's
    name spelled elsewhere (the language code ``"saq"`` in a list of choices) is no import:
    a place that reads it is judged as any other (:meth:`_Proof.holds`)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module is not None:
            names = [node.module]
        else:
            continue
        if any(name.split(".")[0] in tops for name in names):
            return True
    return False


#: The fields of a compound statement that hold statements (walked by ``_statements``).
_BODIES = ("body", "orelse", "finalbody", "handlers", "cases")


def _stored(node: ast.stmt) -> Iterator[str]:
    """The names a statement that is not a def, class or import binds in its own scope: its
    targets, walrus targets and ``match`` captures (comprehension variables too: only more)."""
    for name, value in ast.iter_fields(node):
        if name in _BODIES:
            continue
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, ast.AST):
                yield from _stored_in(item)


def _stored_in(item: ast.AST) -> Iterator[str]:
    for child in ast.walk(item):
        if isinstance(child, ast.Name) and isinstance(child.ctx, (ast.Store, ast.Del)):
            yield child.id
        elif isinstance(child, (ast.MatchAs, ast.MatchStar)) and child.name:
            yield child.name
        elif isinstance(child, ast.MatchMapping) and child.rest:
            yield child.rest


def _places(tree: ast.Module) -> Iterator[tuple[str | None, str | None, str, bool]]:
    """Every outermost name or attribute chain read in the file, as its last part, its first
    name, its role (``decorator``, ``call``: its callee, with a positional argument or called
    again, or ``value``) and whether it is a bare name; ``getattr(app, "task")`` is
    ``app.task``, as the walker reads it."""
    inner: set[int] = set()
    roles: dict[int, str] = {}
    # one breadth-first walk: a node's parent is met first, so its role is known by then
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for decorator in node.decorator_list:
                callee = decorator.func if isinstance(decorator, ast.Call) else decorator
                roles[id(callee)] = "decorator"
        elif isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name) and node.func.id == "getattr" and node.args[1:]:
                name = node.args[1]
                if isinstance(name, ast.Constant) and isinstance(name.value, str):
                    yield name.value, _last_and_head(node.args[0])[1], "value", False
            if isinstance(node.func, ast.Call) or node.args:
                roles.setdefault(id(node.func), "call")
            if isinstance(node.func, ast.Call):
                roles.setdefault(id(node.func.func), "call")
        elif isinstance(node, ast.Attribute):
            inner.add(id(node.value))
        chain = isinstance(node, (ast.Name, ast.Attribute)) and id(node) not in inner
        if chain and isinstance(node.ctx, ast.Load):  # type: ignore[attr-defined]
            last, head = _last_and_head(node)  # type: ignore[arg-type]
            yield last, head, roles.get(id(node), "value"), isinstance(node, ast.Name)


def _last_and_head(node: ast.expr) -> tuple[str | None, str | None]:
    """A chain's last part and its first name (through calls and subscripts)."""
    last = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", None)
    while True:
        if isinstance(node, ast.Attribute):
            node = node.value
        elif isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Subscript):
            node = node.value
        elif isinstance(node, ast.Name):
            return last, node.id
        else:
            return last, None
