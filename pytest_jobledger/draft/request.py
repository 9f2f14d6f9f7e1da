"""What a draft command is sent: exactly one JSON object per job, and nothing else from the tree.

No policy cell, path, option or other job is in it: ``{"id", "function", "module", "queue",
"docstring"}``, as the ledger states them.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from ..ledger.model import Job

#: The keys of the request, in the order the README lists them.
REQUEST_KEYS: tuple[str, ...] = ("id", "function", "module", "queue", "docstring")


@dataclass(frozen=True)
class DraftRequest:
    id: str
    function: str
    module: str
    queue: str | None
    docstring: str | None

    @classmethod
    def from_job(cls, job: Job) -> DraftRequest:
        return cls(job.id, job.function, job.module, job.queue, job.docstring)

    def to_json(self) -> dict[str, str | None]:
        return {key: getattr(self, key) for key in REQUEST_KEYS}

    def payload(self) -> bytes:
        """The bytes written to the command's stdin: one JSON object, UTF-8, one line."""
        text = json.dumps(self.to_json(), sort_keys=True, ensure_ascii=False)
        return (text + "\n").encode("utf-8")

    def fields(self) -> list[tuple[str, str]]:
        """Each text field with its name, for the secret screen."""
        return [(key, value) for key, value in self.to_json().items() if value]


def docstring_digest(docstring: str | None) -> str:
    """SHA-256 of the docstring a draft was made from (a missing docstring digests as empty), so
    a draft whose docstring changed since shows as stale."""
    return hashlib.sha256((docstring or "").encode("utf-8")).hexdigest()
