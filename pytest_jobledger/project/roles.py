"""Which file each path key names, and that no two share one.

One line of a pull request's configuration (``ledger`` = the overlay's path) would otherwise make
a routine ``jobledger extract`` replace the signed policy, and ``ledger`` = a module would
overwrite code.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path

from ..core.errors import ConfigError
from ..core.paths import is_git_name, real
from ..core.text import one_line

#: How a located error is made for a key (``Context.fail``).
Fail = Callable[[str, str], ConfigError]

#: ``scheme://`` at the start of a value: a URL (an ``audit_log`` database), not a path.
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")
#: What a Python source is called; the tool scans those and never writes one.
_SOURCE_SUFFIXES = (".py", ".pyi", ".pyw")
#: The configuration file, as a role that no written role may share.
CONFIG_ROLE = "the configuration file"


def is_url(value: str) -> bool:
    """Whether a configured value is a URL (``sqlite:///...``, ``postgresql://...``) rather than
    a path: the one place that says so; the path rules skip it."""
    return _URL.match(value) is not None


def path_text(key: str, value: str, fail: Fail) -> None:
    """A configured path any file system can take and that stays out of ``.git``: a NUL byte
    would crash every later call that names it; a file under ``.git`` (a hook, the config) is
    one git runs or obeys."""
    if "\0" in value:
        raise fail(key, "holds a NUL byte (\\x00), which no file name can hold; remove it")
    if is_url(value):
        return
    for part in re.split(r"[\\/]", value):
        if is_git_name(part):
            raise fail(
                key,
                f"{one_line(repr(value))} is inside the {one_line(repr(part))} folder, which "
                "belongs to git (its hooks and config run programs): the tool never writes or "
                "reads a configured file there; choose a path outside .git",
            )


def _compared(path: Path) -> str:
    """What two paths are compared by: symlinks followed, case folded (a file system that folds
    case takes ``Ledger.json`` for ``ledger.json``)."""
    return os.path.normcase(str(real(path))).casefold()


def _within(inner: str, outer: str) -> bool:
    return inner.startswith(outer.rstrip(os.sep) + os.sep)


def distinct_roles(
    root: Path,
    source: Path | None,
    values: Mapping[str, str],
    *,
    written: tuple[str, ...],
    examples: Mapping[str, str],
    configured: set[str],
    fail: Fail,
) -> None:
    """No two roles (``values``: each path key's value as it takes effect) share a file or live
    one inside the other (the cache folder), and no written role is the configuration file or a
    Python source."""
    values = {key: value for key, value in values.items() if not is_url(value)}
    for key in written:
        value = values.get(key)
        # The overlay is left out: one named policy.py is read as YAML (and refused as such),
        # and the stub writes it only after reading it back as a valid overlay.
        if key in ("cache_dir", "overlay") or value is None:
            continue
        if value.casefold().endswith(_SOURCE_SUFFIXES):
            raise fail(
                key,
                f"{one_line(repr(value))} is a Python source: the tool writes this file and scans "
                "sources, so it would overwrite code; choose a path such as "
                f"{examples.get(key, 'generated/out.json')!r}",
            )
    places = {key: _compared(root / value) for key, value in values.items()}
    if source is not None:
        places[CONFIG_ROLE] = _compared(source)
    names = list(places)
    for number, later in enumerate(names):
        for earlier in names[:number]:
            # Blame the key the configuration set (a default clashes only with a set one).
            blamed, other = (earlier, later) if later not in configured else (later, earlier)
            if blamed == CONFIG_ROLE or (blamed not in configured and other in configured):
                blamed, other = other, blamed
            a, b = places[blamed], places[other]
            if a == b:
                relation = "the same file as"
            elif _within(a, b) or _within(b, a):
                relation = "inside (or around)"
            else:
                continue
            shown_source = (
                os.path.relpath(source, root).replace(os.sep, "/") if source is not None else other
            )
            shown = values.get(other, shown_source)
            raise fail(
                blamed,
                f"{one_line(repr(values[blamed]))} is {relation} {other} "
                f"({one_line(repr(shown))}); two roles may not share a file (one would overwrite "
                "or append to the other): give each its own path",
            )
