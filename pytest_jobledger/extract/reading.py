"""Reading scanned files: bytes in, or a located problem (unreadable, too large), and the
content digest of what was read. It needs no parser, so a run the cache answers never imports
libcst; :class:`~.loading.SourceLoader` parses on top of it."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from ..core.paths import FileTooLarge, UnsafeFile, read_regular_stat, real
from ..ledger.model import Pattern, Unsupported
from .deps import digest
from .discovery import SourceFile
from .limits import MAX_FILE_BYTES_CEILING

SPLIT = "split the module, or add it to exclude in [tool.jobledger] if it registers no jobs"


@dataclass
class FileReader:
    """Reads files inside the root within ``max_file_bytes``, keeping every problem met."""

    max_file_bytes: int
    root: Path | None = None
    problems: list[Unsupported] = field(default_factory=list)
    #: The problems met, by the file they are about.
    problems_by_path: dict[str, list[Unsupported]] = field(default_factory=dict)
    #: The content digest of every file read (``""``: it could not be read).
    digests: dict[str, str] = field(default_factory=dict)
    #: Each folder's path with every symlink followed (a tree's folders are shared by its files:
    #: resolved once, not once per file and path part).
    _real_folders: dict[str, str] = field(default_factory=dict, repr=False)
    _real_root: str | None = field(default=None, repr=False)

    def read(self, source: SourceFile) -> bytes | None:
        """The file's bytes: a regular file inside the root, within ``max_file_bytes``."""
        return self.read_stat(source)[0]

    def read_stat(self, source: SourceFile) -> tuple[bytes | None, os.stat_result | None]:
        """:meth:`read`, with the file's status before it was read (``None`` when unreadable)."""
        try:
            if self.root is not None:
                self._inside_root(source.abs_path, self.root)
            data, info = read_regular_stat(source.abs_path, limit=self.max_file_bytes)
        except FileTooLarge as exc:
            self._problem(source, 1, Pattern.FILE_TOO_LARGE, self._too_large(exc.size))
            self.digests[source.rel_path] = ""
            return None, None
        except OSError as exc:
            self._problem(
                source,
                1,
                Pattern.UNREADABLE,
                f"cannot read the file ({exc.strerror or exc}); fix or exclude it",
            )
            self.digests[source.rel_path] = ""
            return None, None
        self.digests[source.rel_path] = digest(data)
        return data, info

    def _inside_root(self, path: Path, root: Path) -> None:
        """:func:`..paths.outside_reason`'s check, with the root and each folder resolved once:
        a file that is not itself a symlink resolves to its folder's real path and its name."""
        if self._real_root is None:
            self._real_root = str(real(root))
        folder, name = os.path.split(path)
        if os.path.islink(path) or name in ("", ".", ".."):
            target = str(real(path))
        else:
            resolved = self._real_folders.get(folder)
            if resolved is None:
                resolved = self._real_folders[folder] = str(real(folder))
            target = os.path.join(resolved, name)
        base = self._real_root
        if target == base or target.startswith(base.rstrip(os.sep) + os.sep):
            return
        raise UnsafeFile(
            f"it resolves to {target}, outside the project root {base}; it was not read"
        )

    def _too_large(self, size: int) -> str:
        missing = f"{size:,} bytes is over max_file_bytes ({self.max_file_bytes:,}); it was not "
        missing += "parsed, so jobs it registers are missing. "
        if self.max_file_bytes < MAX_FILE_BYTES_CEILING <= size:
            return missing + f"It is over the {MAX_FILE_BYTES_CEILING:,}-byte ceiling too: " + SPLIT
        if self.max_file_bytes < MAX_FILE_BYTES_CEILING:
            return missing + (
                f"Raise [tool.jobledger] max_file_bytes (up to {MAX_FILE_BYTES_CEILING:,}), or "
                "add the file to exclude if it registers no jobs"
            )
        return missing + f"That is the ceiling, which configuration cannot raise: {SPLIT}"

    def _problem(self, source: SourceFile, line: int, pattern: Pattern, message: str) -> None:
        problem = Unsupported(source.rel_path, max(line, 1), pattern, message)
        self.problems.append(problem)
        self.problems_by_path.setdefault(source.rel_path, []).append(problem)
