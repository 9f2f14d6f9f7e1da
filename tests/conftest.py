from __future__ import annotations

from collections.abc import Callable

import pytest

from pytest_jobledger.findings import Finding, Kind


@pytest.fixture
def make_finding() -> Callable[..., Finding]:
    def make(
        job: str = "acme.billing.tasks.capture_invoice",
        cell: str = "idempotent",
        path: str = "overlays/job_policy.yaml",
        line: int = 3,
        kind: Kind = Kind.UNSIGNED,
        message: str = "cell is not signed; write a value",
    ) -> Finding:
        return Finding(kind=kind, job=job, cell=cell, path=path, line=line, message=message)

    return make
