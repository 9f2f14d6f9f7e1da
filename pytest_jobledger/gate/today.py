"""The gate's notion of today, pinned for tests and reruns: ``--jobledger-today``, ``jobledger
check --today`` or ``JOBLEDGER_TODAY``, else the machine's local date."""

from __future__ import annotations

import datetime
from collections.abc import Mapping

from ..core import environment
from ..core.errors import ConfigError

ENV = environment.TODAY


def resolve_today(
    option: str | None, environ: Mapping[str, str] | None = None, *, flag: str = "--today"
) -> datetime.date:
    """The pinned day (the option first, then ``JOBLEDGER_TODAY``), or the machine's date."""
    for name, value in ((flag, option), (ENV, environment.read(ENV, environ) or None)):
        if value is None:
            continue
        try:
            return datetime.date.fromisoformat(value.strip())
        except ValueError:
            raise ConfigError(f"{name} must be a day written YYYY-MM-DD, not {value!r}") from None
    return datetime.date.today()
