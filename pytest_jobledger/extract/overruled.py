"""What the configuration asked for that extraction overruled or could not find: a
``max_file_bytes`` over the ceiling, a cache that refused to open, a declared decorator that names
nothing in the scanned tree. Said as warnings beside the ledger, never as failures.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..project import Config
from .limits import MAX_FILE_BYTES_CEILING


def overruled(
    config: Config,
    refused: str | None,
    matched: set[str],
    named: Mapping[str, tuple[bool, str | None]],
    remembered: dict[str, tuple[bool, str | None]],
    defines: Callable[[str], tuple[bool, str | None]],
) -> tuple[str, ...]:
    """The warnings, in a stable order. ``named`` is what an earlier run found for each declared
    decorator; ``defines`` looks one up (it parses, so only when needed); every answer is kept in
    ``remembered`` for the cache."""
    where = config.display(config.source) if config.source else "configuration"
    found: list[str] = []
    largest = config.extraction.max_file_bytes
    if largest > MAX_FILE_BYTES_CEILING:
        found.append(
            f"{where}: [tool.jobledger] max_file_bytes = {largest:,} is "
            f"over the ceiling of {MAX_FILE_BYTES_CEILING:,} bytes, which configuration "
            "cannot raise; larger files are reported, not parsed"
        )
    if refused is not None:
        found.append(f"{where}: {refused}")
    for qualname in sorted(config.extraction.decorators):
        if qualname in matched:
            continue
        said = named.get(qualname)
        if said is None:
            said = defines(qualname)
        remembered[qualname] = said
        defined, near = said
        if not defined:
            hint = f" (did you mean {near!r}?)" if near else ""
            found.append(
                f'{where}: [tool.jobledger.decorators."{qualname}"] names nothing in the '
                f"scanned tree and no registration uses it{hint}; check the name and paths"
            )
    return tuple(found)
