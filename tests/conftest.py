from __future__ import annotations

import os
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, settings

from pytest_jobledger.findings import Finding, Kind

# -- Hypothesis profiles (DEVELOPERS.md, "Property tests and fuzzing") ---------------------------
# "ci", the default: the same examples on every run (derandomize), a bounded count, no deadline
# (a loaded CI machine must not turn a slow example into a failure), nothing read from or saved to
# a local example database. "explore" and "fuzz" (HYPOTHESIS_PROFILE=...) draw new random examples
# each run, many more of them; whatever they find becomes a fixed regression example.
_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large]
settings.register_profile(
    "ci",
    derandomize=True,
    max_examples=50,
    deadline=None,
    database=None,
    print_blob=True,
    suppress_health_check=_QUIET,
)
settings.register_profile(
    "explore", max_examples=1000, deadline=None, print_blob=True, suppress_health_check=_QUIET
)
settings.register_profile(
    "fuzz", max_examples=5000, deadline=None, print_blob=True, suppress_health_check=_QUIET
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
