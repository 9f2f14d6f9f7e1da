from __future__ import annotations

import os
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, settings

from pytest_jobledger.findings import Finding, Kind

# Property tests: deterministic and bounded unless another profile is asked for with
# HYPOTHESIS_PROFILE (DEVELOPERS.md, "Property and fuzz tests"). A test's own @settings win.
settings.register_profile(
    "ci",
    derandomize=True,
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
settings.register_profile(
    "explore",
    max_examples=2_000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


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
