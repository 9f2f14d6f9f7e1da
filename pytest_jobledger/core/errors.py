"""One base exception for every mistake a user can make, each carrying where it is."""

from __future__ import annotations


class JobledgerError(Exception):
    """A user-facing error: a message with ``path:line`` in front and a hint of what to do.

    Presenters print ``str(error)``; nobody should ever see a traceback for one of these.
    """

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None) -> None:
        self.message = message
        self.path = path
        self.line = line
        super().__init__(self.__str__())

    @property
    def location(self) -> str | None:
        if self.path is None:
            return None
        return f"{self.path}:{self.line}" if self.line is not None else self.path

    def __str__(self) -> str:
        where = self.location
        return f"{where}: {self.message}" if where else self.message


class ConfigError(JobledgerError):
    """``[tool.jobledger]`` (or the file given with ``--config``) is wrong; exit code 2."""


class OverlayError(JobledgerError):
    """The overlay file cannot be read as an overlay at all."""
