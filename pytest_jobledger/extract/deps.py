"""What one file's rows depend on, recorded while they are built, so that a cached result is used
again only while every input it was made from is unchanged.

A file's rows depend on more than its own text: names are followed into other modules, constants
are read where they are imported from, and whether a module is in the tree at all decides what a
name means (``from shop.util import x`` is external until ``shop/util.py`` exists). So resolution
(:mod:`.resolve`) reports every module name it asks for, found or not, and every file whose
summary it reads; a cached entry keeps them with the content digest each file had
(:mod:`.cache` checks them all before it trusts the entry).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field


def digest(data: bytes) -> str:
    """The content digest the cache keys files by (BLAKE2b, 128 bits)."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


@dataclass
class Trail:
    """The inputs one file's scan read: module names asked for (with the file each maps to, or
    ``None``), and the files whose summaries were read (with the digest of what was parsed, or
    ``""`` when the file could not be read)."""

    modules: dict[str, str | None] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)
    #: Files that could not be parsed, met by this scan (their problems may be cited).
    failed: set[str] = field(default_factory=set)
    #: Callee words whose places were not judged because they were not relevant
    #: (:meth:`.prefilter.Words.relevant`): an alias of that name would change the rows.
    skipped: set[str] = field(default_factory=set)

    def merge(self, other: Trail) -> None:
        self.modules.update(other.modules)
        self.files.update(other.files)
        self.failed |= other.failed
        self.skipped |= other.skipped
