"""Where the trail is: the one parser of an ``audit_log`` value and of ``JOBLEDGER_AUDIT_URL``.

Two sides write a store's address. The repository writes ``[tool.jobledger] audit_log``, and a
pull request can change it; the operator writes ``JOBLEDGER_AUDIT_URL`` in their own
environment, and it wins. A database URL written in the repository names at most a scheme, a
user and a database (``postgresql://ops@/trail``): a host, a port or any other connection
parameter there would let a pull request choose where the operator's credentials go
(``PGPASSWORD`` sent to its host, ``sslkeylogfile`` appending TLS secrets to a file, ``passfile``,
``sslkey``, ``host=/socket-dir``, ``oauth_*``, ``gssdelegation``). Those come only from the
operator: ``JOBLEDGER_AUDIT_URL``, or libpq's own ``PG*`` variables for a URL without a host.
Key names are percent-decoded before any check (``pass%77ord=`` is ``password=``).

``config.py`` checks ``audit_log`` through :func:`target_of`, and so does opening the store:
one rule, one reading of the scheme (case-insensitive, as URLs are).
"""

from __future__ import annotations

import os
import re
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

from ..core import environment
from ..core.text import clip, one_line
from .chain import AuditError

#: The environment variable that names the store; it wins over ``[tool.jobledger] audit_log``,
#: so a password, a host and every connection parameter live in the operator's environment.
ENV_URL = environment.AUDIT_URL
POSTGRES_SCHEMES = ("postgresql", "postgres")
#: A user or a database name the repository may write: a plain name, nothing libpq could expand.
_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.$-]{0,62}")
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*")
_FROM_OPERATOR = (
    f"a host, a port and every other connection parameter come from the operator: set "
    f"{ENV_URL} in the operators' environment (it wins over audit_log)"
)


@dataclass(frozen=True)
class Target:
    """A parsed ``audit_log`` value: its kind (``file``, ``sqlite``, ``postgresql``), where it
    is (a path, or the URL), how messages name it (never with a password), and its origin."""

    kind: str
    location: str
    display: str
    origin: str


class WhereError(AuditError):
    """A store's address that is refused; ``reason`` is the sentence without its origin, for
    ``config.py`` to locate at the key's line."""

    def __init__(self, origin: str, reason: str) -> None:
        self.reason = reason
        super().__init__(f"{origin}: {reason}")


def query_keys(query: str) -> list[str]:
    """The query's key names, percent-decoded (``pass%77ord`` is ``password``)."""
    return [urllib.parse.unquote_plus(item.partition("=")[0]) for item in query.split("&") if item]


def redact(url: str) -> str:
    """``url`` with any password (in the authority or the query, however its key is spelled)
    replaced by ``***``."""
    try:
        parts = urllib.parse.urlsplit(url)
        password = parts.password
    except ValueError:
        return url.split("://", 1)[0] + "://(unreadable URL)"
    netloc = parts.netloc
    if password is not None:
        userinfo, _, hostport = netloc.rpartition("@")
        user = userinfo.split(":", 1)[0]
        netloc = f"{user}:***@{hostport}"
    query = urllib.parse.parse_qsl(parts.query, keep_blank_values=True)
    if any(is_secret_key(key) for key, _ in query):
        query = [(key, "***" if is_secret_key(key) else value) for key, value in query]
    return urllib.parse.urlunsplit(
        (parts.scheme, netloc, parts.path, urllib.parse.urlencode(query, safe="*/"), "")
    )


def is_secret_key(key: str) -> bool:
    """Whether a (decoded) query key holds a secret libpq would send or use."""
    return key.strip().lower() in ("password", "sslpassword", "oauth_client_secret")


def target_of(
    value: str, *, root: Path | None = None, origin: str, operator: bool | None = None
) -> Target:
    """What ``value`` names, or a :class:`WhereError` saying how to write it.

    A value from the operator (``operator``; by default when ``origin`` is :data:`ENV_URL`; the
    command line's ``--to`` too) may name a SQLite file anywhere and a database anywhere, with
    any parameter (the operator's machine is trusted); one from the repository stays inside the
    root and names no host (a pull request writes that file).
    """
    del root  # a relative path is resolved by the store, against the root it opens
    if operator is None:
        operator = origin == ENV_URL
    if "\x00" in value:
        raise WhereError(origin, "the value holds a NUL byte")
    if "://" not in value:
        path = Path(value)
        if path.is_absolute() or ".." in path.parts:
            raise WhereError(origin, f"{value!r} must be relative to the root and stay inside it")
        return Target("file", value, os.path.normpath(value).replace(os.sep, "/"), origin)
    written, _, rest = value.partition("://")
    scheme = written.lower()
    if scheme == "sqlite":
        return _sqlite(value, rest, origin, operator)
    if scheme in POSTGRES_SCHEMES and _SCHEME.fullmatch(written):
        try:
            parts = urllib.parse.urlsplit(value)
            parts.port  # noqa: B018 - a port that is not a number raises here
        except ValueError:
            raise WhereError(origin, "is not a postgresql:// URL jobledger can read") from None
        if not operator:
            _repository_postgres(parts, origin)
        return Target("postgresql", value, redact(value), origin)
    shown = one_line(clip(written, 40))
    raise WhereError(
        origin,
        f"{shown!r} is not a store jobledger knows: give a path, sqlite:///relative/path.db or "
        "postgresql://user@/db",
    )


def _sqlite(value: str, rest: str, origin: str, operator: bool) -> Target:
    if not rest.startswith("/") or rest == "/":
        raise WhereError(
            origin, "write a SQLite store as sqlite:///relative/path.db (three slashes)"
        )
    path_text = rest[1:]
    path = Path(path_text)
    if path.is_absolute() and not operator:
        raise WhereError(
            origin,
            f"a SQLite store here is sqlite:///relative/path.db inside the root (an absolute "
            f"path belongs in {ENV_URL})",
        )
    if not path.is_absolute() and ".." in path.parts:
        raise WhereError(origin, f"{path_text!r} must stay inside the root")
    return Target("sqlite", path_text, value, origin)


def _repository_postgres(parts: urllib.parse.SplitResult, origin: str) -> None:
    """The repository's PostgreSQL URL: a user and a database, nothing else."""
    keys = query_keys(parts.query)
    if parts.password is not None or any(is_secret_key(key) for key in keys):
        raise WhereError(
            origin,
            "holds a password, and pyproject.toml is committed: remove it here and set "
            f"{ENV_URL} (which wins over audit_log) in the operators' environment",
        )
    userinfo, at, hostport = parts.netloc.rpartition("@")
    if not at:
        userinfo, hostport = "", parts.netloc
    if hostport:
        raise WhereError(
            origin,
            f"names a host or a port; in the repository write only a user and a database "
            f"(postgresql://user@/db): {_FROM_OPERATOR}",
        )
    if keys or parts.query or parts.fragment:
        shown = ", ".join(sorted({one_line(clip(key, 40)) for key in keys})) or "?"
        raise WhereError(
            origin,
            f"sets connection parameters ({shown}); in the repository write only a user and a "
            f"database (postgresql://user@/db): {_FROM_OPERATOR}",
        )
    user = urllib.parse.unquote(userinfo)
    database = urllib.parse.unquote(parts.path.removeprefix("/"))
    for what, name in (("user", user), ("database", database)):
        if name and not _NAME.fullmatch(name):
            raise WhereError(
                origin,
                f"the {what} name must be a plain name (letters, digits, _ . $ -); "
                f"{_FROM_OPERATOR}",
            )
