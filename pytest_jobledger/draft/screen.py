"""Secrets stay home: a request whose text looks like it holds a secret is never sent.

Two layers. detect-secrets (the ``drafts`` extra), a maintained detector with a plugin per kind
of credential (cloud keys, tokens, private keys, high-entropy strings, keyword assignments), runs
with its default plugins and filters. On top, what it does not look for: e-mail addresses, JSON
(or dict) payload samples, long bare base64/hex tokens, and ``password``/``token``/``key``
assignments in prose. Without detect-secrets nothing is screened, so nothing is sent
(:class:`DetectorMissing`): unscreened text never leaves the machine.

A reason names the kind and the field, never the matched text.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from typing import Any

from ..core.errors import JobledgerError
from ..core.outside import write_scratch
from .request import DraftRequest

INSTALL_HINT = "pip install 'pytest-jobledger[drafts]'"

_EMAIL = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}")
#: ``{"customer_id": ...`` or ``{'card': ...``: a payload (or dict) sample with a quoted key.
_PAYLOAD = re.compile(r"""[{,\[]\s*(?:"[^"\n]{1,80}"|'[^'\n]{1,80}')\s*:""")
_HEX_TOKEN = re.compile(r"(?<![0-9A-Za-z])[0-9a-fA-F]{32,}(?![0-9A-Za-z])")
_BASE64_TOKEN = re.compile(r"(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{32,}={0,2}")
_ASSIGNMENT = re.compile(
    r"(?i)\b(password|passwd|pwd|passphrase|secret|token|api[_-]?key|access[_-]?key|"
    r"secret[_-]?key|private[_-]?key|auth[_-]?key|key)\b\s*[:=]\s*['\"]?[^\s'\",;]{4,}"
)


class DetectorMissing(JobledgerError):
    """detect-secrets is not installed: nothing can be screened, so nothing may be sent."""

    def __init__(self) -> None:
        super().__init__(
            "detect-secrets is not installed, so docstrings cannot be screened for secrets and "
            f"nothing was sent; install it with {INSTALL_HINT}"
        )


class Screen:
    """The secret screen for one run (detect-secrets' settings are set up once, in ``with``)."""

    def __init__(self) -> None:
        try:
            from detect_secrets.core.secrets_collection import SecretsCollection
            from detect_secrets.settings import default_settings
        except ImportError:
            raise DetectorMissing() from None
        self._collection = SecretsCollection
        self._settings = default_settings
        self._stack = contextlib.ExitStack()

    def __enter__(self) -> Screen:
        self._stack.enter_context(self._settings())
        self._folder = self._stack.enter_context(tempfile.TemporaryDirectory(prefix="jobledger-"))
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._stack.close()

    def reason(self, request: DraftRequest) -> str | None:
        """Why ``request`` must not be sent, or ``None`` when nothing in it looks secret."""
        for name, text in request.fields():
            found = next(self.findings(text), None)
            if found is not None:
                return f"its {name} looks like it holds {found}"
        return None

    def findings(self, text: str) -> Iterator[str]:
        """What ``text`` looks like it holds, each kind once, the maintained detector first."""
        kinds = self._detect_secrets(text)
        if kinds:
            yield f"a secret (detect-secrets: {', '.join(kinds)})"
        if _EMAIL.search(text):
            yield "an e-mail address"
        if _PAYLOAD.search(text):
            yield "a payload sample (a quoted key in braces)"
        if _HEX_TOKEN.search(text) or any(
            _looks_random(match.group()) for match in _BASE64_TOKEN.finditer(text)
        ):
            yield "a long token (base64 or hex)"
        match = _ASSIGNMENT.search(text)
        if match:
            yield f"a value assigned to {match.group(1).lower()!r}"

    def _detect_secrets(self, text: str) -> list[str]:
        # detect-secrets' line-based scan (with its filters) reads files; the file is private to
        # this process (mode 0600 in a private folder) and removed when the run ends.
        path = str(write_scratch(Path(self._folder), "text.txt", text))
        collection: Any = self._collection()
        try:
            collection.scan_file(path)
            return sorted({secret.type for name in collection.files for secret in collection[name]})
        finally:
            os.unlink(path)


def _looks_random(word: str) -> bool:
    """A 32+ character run of base64 letters that mixes cases and digits (not an identifier)."""
    return (
        any(ch.isdigit() for ch in word)
        and any(ch.islower() for ch in word)
        and any(ch.isupper() for ch in word)
    )
