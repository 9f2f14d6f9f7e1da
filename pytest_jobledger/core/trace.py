"""A note of each reading a session makes, in the file ``$JOBLEDGER_TRACE`` names (when set).

The suite counts readings with it under pytest-xdist (each process appends its own lines: the
process id and the event). It never changes what a command does, and a note that cannot be
written is dropped: it is a test's instrument, not a log.
"""

from __future__ import annotations

import os
from pathlib import Path

from . import environment
from .atomic import open_append

ENV = environment.TRACE


def trace(event: str) -> None:
    """Append ``<pid> <event>`` to ``$JOBLEDGER_TRACE`` (nothing when it is unset)."""
    target = environment.read(ENV)
    if not target:
        return
    path = Path(target)
    try:
        fd = open_append(path, root=path.parent)  # the one writer: no symlink, no FIFO
    except OSError:
        return
    try:
        os.write(fd, f"{os.getpid()} {event}\n".encode())
    except OSError:
        pass
    finally:
        os.close(fd)
