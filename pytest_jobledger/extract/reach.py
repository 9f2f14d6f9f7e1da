"""Where a job decorator can come from: the dotted paths an import must name to reach one.

A name is a job decorator by binding (:mod:`.binding`): every binding chain that ends at a
framework's decorator, a registering method or a declared decorator passes through an import of
the framework's module (or of a package above it, or of a name below it), or through the module
that defines the declared decorator. :mod:`.inert` asks these paths of each import a candidate
makes, and places relative imports (:func:`resolve_relative`) as the resolver does.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..project import Config
from .discovery import SourceFile


@dataclass(frozen=True)
class Paths:
    """Dotted paths a job decorator is reached by, and every prefix of them."""

    paths: frozenset[str]
    prefixes: frozenset[str]

    def reached_by(self, name: str) -> bool:
        """Whether importing ``name`` can lead to one: it is one, a prefix of one (a package
        above it), or lies below one."""
        return name in self.prefixes or any(p in self.paths for p in _prefixes(name))


@lru_cache(maxsize=8)
def _framework_paths(decorators: tuple[str, ...]) -> Paths:
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
    return Paths(dotted, frozenset(p for path in dotted for p in _prefixes(path)))


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


def framework_paths(config: Config) -> Paths:
    """The paths of every framework's decorators and of ``config``'s declared ones."""
    return _framework_paths(tuple(sorted(config.extraction.decorators)))


def _prefixes(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:cut]) for cut in range(1, len(parts) + 1)]
