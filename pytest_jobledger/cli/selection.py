"""``--select``, ``--ignore`` and ``--exit-zero`` of ``jobledger check``, spelled as ruff spells
them: which finding kinds are reported, and whether findings fail the run.

``--select unsigned,orphan`` reports only those kinds, ``--ignore lane-mixing`` drops one
(both may be repeated, and take the kind names ``jobledger check --format json`` prints; ``ALL``
is every kind). A finding left out is neither printed nor counted as failing. ``--exit-zero``
exits 0 whatever is found: the report stays the same.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from ..core.errors import ConfigError
from ..core.text import did_you_mean
from ..findings import Finding, Kind

#: Every kind, as ruff's ``ALL``.
ALL = "ALL"


def add_selection_arguments(parser: argparse.ArgumentParser) -> None:
    names = ", ".join(kind.value for kind in Kind)
    parser.add_argument(
        "--select",
        metavar="KINDS",
        action="append",
        default=None,
        help=f"report only these finding kinds, comma-separated (default: ALL; kinds: {names})",
    )
    parser.add_argument(
        "--ignore",
        metavar="KINDS",
        action="append",
        default=None,
        help="report none of these finding kinds, comma-separated",
    )
    parser.add_argument(
        "--exit-zero",
        action="store_true",
        help="exit 0 even when findings fail the gate (the report is unchanged)",
    )


def kinds(given: Sequence[str] | None, option: str) -> frozenset[Kind] | None:
    """The kinds a repeated, comma-separated option names (``None`` when it was not given)."""
    if given is None:
        return None
    chosen: set[Kind] = set()
    for word in (part.strip() for value in given for part in value.split(",")):
        if not word:
            continue
        if word.upper() == ALL:
            chosen.update(Kind)
            continue
        try:
            chosen.add(Kind(word))
        except ValueError:
            close = did_you_mean(word, [kind.value for kind in Kind])
            hint = f" (did you mean {close}?)" if close else ""
            raise ConfigError(
                f"{option}: {word!r} is not a finding kind{hint}; the kinds are "
                + ", ".join(kind.value for kind in Kind)
            ) from None
    return frozenset(chosen)


def selected(findings: Sequence[Finding], args: argparse.Namespace) -> list[Finding]:
    """The findings of the kinds ``--select`` names (all by default) minus ``--ignore``'s."""
    select = kinds(args.select, "--select")
    ignore = kinds(args.ignore, "--ignore") or frozenset()
    return [
        finding
        for finding in findings
        if (select is None or finding.kind in select) and finding.kind not in ignore
    ]
