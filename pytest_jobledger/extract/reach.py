"""What a file's imports name, read from its text, and whether one is a job framework's.

A name is a job decorator by binding (:mod:`.binding`): every binding chain that ends at a
framework's decorator, a registering method or a declared decorator passes through an import of
the framework's module, or through the module that defines the declared decorator. The text
scan reads each file's imports once (:func:`import_names`, kept in the cache with the file's
other facts). A candidate that imports a framework or a declared decorator's module itself is
parsed as before; any other candidate is first offered to :mod:`.inert`, whose proof from
CPython's tree (which also follows what the imports bind) spares it the libcst parse.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..project import Config
from .discovery import SourceFile

#: Where a statement may start: the text's start, a line's, or after ``;`` or a compound
#: statement's ``:``, with spaces and line continuations between. ``import`` is a hard keyword:
#: in code it only ever starts an import statement or follows ``from X``; any other occurrence is
#: in a string or a comment.
_START = r"(?:\A|(?<=[\r\n;:]))(?:[ \t\f]|\\\r?\n)*"
_GAP = r"(?:[ \t\f]|\\\r?\n)"
_FROM = re.compile(_START + rf"from{_GAP}+(\.*){_GAP}*([^\W\d][\w.]*)?{_GAP}*import\b")
_IMPORT = re.compile(_START + r"import\b")
_ANY_IMPORT = re.compile(r"(?<![\w.])import(?!\w)")
_DOTTED = re.compile(r"[^\W\d]\w*(?:[ \t\f]*\.[ \t\f]*[^\W\d]\w*)*")
_SPACE = re.compile(r"(?:[ \t\f]|\\\r?\n)*")
_BRACKET_SPACE = re.compile(r"(?:\s|\\\r?\n|#[^\r\n]*)*")
_AS = re.compile(r"as\b")

#: How :func:`import_names` writes what it read: ``=a.b`` for ``import a.b`` (which binds ``a``),
#: ``a.b`` for a name ``from a import b`` binds, ``a.b/`` for a module that must exist (the ``a``
#: of ``from a import b``, the ``a.b`` of ``import a.b as c``), ``a.*`` for a star import;
#: relative names keep their leading dots.
PLAIN = "="
STAR = ".*"
MODULE = "/"


def import_names(text: str) -> tuple[str, ...] | None:
    """Every module or name the file's import statements name, read from the text (strings and
    comments included: they can only add names), or ``None`` when an import statement does not
    read as one (then the file is taken to reach)."""
    found: set[str] = set()
    handled: set[int] = set()
    for match in _FROM.finditer(text):
        module = match.group(1) + (match.group(2) or "").replace(" ", "")
        handled.add(match.end() - len("import"))
        names = _names(text, match.end(), from_import=True)
        if names is None:
            return None
        for name, _ in names:
            if name == "*":
                found.add(module + STAR)
            else:
                found.add(module + name if module.endswith(".") else f"{module}.{name}")
        found.add(module + MODULE)
    for match in _IMPORT.finditer(text):
        handled.add(match.end() - len("import"))
        names = _names(text, match.end(), from_import=False)
        if names is None:
            return None
        for name, bound in names:
            found.add(name + MODULE if bound else PLAIN + name)
    for match in _ANY_IMPORT.finditer(text):
        if match.start() not in handled and _in_code_position(text, match.start()):
            return None
    return tuple(sorted(found))


def _in_code_position(text: str, at: int) -> bool:
    """Whether an ``import`` no statement pattern read could be code: only when it is the first
    word of its line (a wrapped ``from`` over several lines). Elsewhere it is prose."""
    start = max(text.rfind("\n", 0, at), text.rfind("\r", 0, at)) + 1
    return not text[start:at].strip()


def _names(text: str, at: int, *, from_import: bool) -> list[tuple[str, bool]] | None:
    """The names after ``import`` at ``at``: ``(name, bound exactly)`` each, or ``None``."""
    at = _SPACE.match(text, at).end()  # type: ignore[union-attr]
    bracketed = from_import and text.startswith("(", at)
    space = _BRACKET_SPACE if bracketed else _SPACE
    if bracketed:
        at = space.match(text, at + 1).end()  # type: ignore[union-attr]
    if from_import and text.startswith("*", at):
        return [("*", True)]
    names: list[tuple[str, bool]] = []
    while True:
        dotted = _DOTTED.match(text, at)
        if dotted is None:
            return None
        name = re.sub(r"[ \t\f]", "", dotted.group())
        at = space.match(text, dotted.end()).end()  # type: ignore[union-attr]
        bound = from_import
        if _AS.match(text, at):
            at = space.match(text, at + 2).end()  # type: ignore[union-attr]
            alias = _DOTTED.match(text, at)
            if alias is None:
                return None
            at = space.match(text, alias.end()).end()  # type: ignore[union-attr]
            bound = True
        names.append((name, bound))
        if text.startswith(",", at):
            at = space.match(text, at + 1).end()  # type: ignore[union-attr]
            if bracketed and text.startswith(")", at):
                return names
            continue
        if bracketed:
            return names if text.startswith(")", at) else None
        return names if at == len(text) or text[at] in "\r\n;#" else None


# -- the closure over the tree -----------------------------------------------------------------


@dataclass(frozen=True)
class _Paths:
    """Dotted paths a job decorator is reached by, and every prefix of them."""

    paths: frozenset[str]
    prefixes: frozenset[str]

    def reached_by(self, name: str) -> bool:
        """Whether importing ``name`` can lead to one: it is one, a prefix of one (a package
        above it), or lies below one."""
        return name in self.prefixes or any(p in self.paths for p in _prefixes(name))


@lru_cache(maxsize=8)
def _framework_paths(decorators: tuple[str, ...]) -> _Paths:
    """Every dotted path a framework's or a declared decorator is reached by (``()`` dropped),
    the canonical spellings the resolver maps, and the modules the text scan treats as sites."""
    from .frameworks import FRAMEWORKS
    from .frameworks.settings import SETTINGS_MODULES
    from .frameworks.unsupported import UNSUPPORTED_MODULES

    paths: set[str] = set(decorators) | set(SETTINGS_MODULES) | set(UNSUPPORTED_MODULES)
    for framework in FRAMEWORKS.values():
        paths |= set(framework.decorators) | set(framework.register_methods)
        paths |= set(framework.canonical) | set(framework.canonical.values())
        paths |= set(framework.instance_classes)
    dotted = frozenset(path.replace("()", "") for path in paths)
    return _Paths(dotted, frozenset(p for path in dotted for p in _prefixes(path)))


def resolve_relative(name: str, source: SourceFile) -> str | None:
    """An import's name made absolute from ``source``'s package; ``None`` above the top."""
    dots = len(name) - len(name.lstrip("."))
    if not dots:
        return name
    package = source.package.split(".") if source.package else []
    if dots - 1 > len(package) or (dots - 1 == len(package) and not name.strip(".")):
        return None
    base = package[: len(package) - (dots - 1)]
    rest = name[dots:]
    return ".".join([*base, rest] if rest else base) or None


def framework_paths(config: Config) -> _Paths:
    """The paths of every framework's decorators and of ``config``'s declared ones."""
    return _framework_paths(tuple(sorted(config.extraction.decorators)))


def imports_a_framework(imports: tuple[str, ...] | None, config: Config) -> bool:
    """Whether a file's own imports (:func:`import_names`) name a job framework or a declared
    decorator's module (or cannot be read): such a file is parsed without trying :mod:`.inert`'s
    proof, which would fail on it."""
    if imports is None:
        return True
    paths = framework_paths(config)
    declared = {name.rpartition(".")[0] for name in config.extraction.decorators}
    for raw in imports:
        name = _bare(raw)
        if raw.startswith(PLAIN):
            name = name.split(".")[0]
        if paths.reached_by(name) or any(module in declared for module in _prefixes(name)):
            return True
    return False


def _bare(raw: str) -> str:
    """The dotted name of what :func:`import_names` wrote."""
    return raw.removeprefix(PLAIN).removesuffix(STAR).removesuffix(MODULE)


def _prefixes(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:cut]) for cut in range(1, len(parts) + 1)]
