"""The overlay as written: entries keyed by job id, each cell with its lines and both readings."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .values import MISSING, same_value


@dataclass(frozen=True)
class Cell:
    """One ``key: value`` line of a job's entry, with how both YAML versions read the value.

    ``value`` is the YAML 1.2 reading as plain Python (str, int, float, bool, None, date, list,
    dict); ``yaml11`` is PyYAML's reading of the same text (:data:`MISSING` when it has none).
    """

    key: str
    value: Any
    key_line: int
    value_line: int
    yaml11: Any = MISSING

    @property
    def same_in_yaml11(self) -> bool:
        return self.yaml11 is MISSING or same_value(self.value, self.yaml11)


@dataclass(frozen=True)
class Entry:
    """A job id in the overlay and the cells written under it, in file order."""

    job: str
    line: int
    cells: tuple[Cell, ...] = ()

    def get(self, key: str) -> Cell | None:
        for cell in self.cells:
            if cell.key == key:
                return cell
        return None


@dataclass(frozen=True)
class Overlay:
    """The overlay as written; ``exists`` is False when the file is not there yet (no entries)."""

    path: str
    entries: tuple[Entry, ...] = ()
    exists: bool = True
    #: SHA-256 of the file's bytes as read (``None``: not read from a file, or no file).
    sha256: str | None = None

    def by_id(self) -> dict[str, Entry]:
        return {entry.job: entry for entry in self.entries}
