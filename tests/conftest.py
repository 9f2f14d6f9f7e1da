from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

# The parsers with compiled parts, imported once before any test runs: pytester's in-process runs
# restore sys.modules afterwards, and a C extension imported inside one (ruamel.yaml's) keeps the
# classes of its first import, so the next run's fresh ruamel.yaml would reject its own nodes
# ("expected a mapping node, but found mapping"). The commands import them lazily, so no test may
# count on a command having imported them first.
import libcst  # noqa: F401
import pytest
import ruamel.yaml  # noqa: F401
import yaml  # noqa: F401
from helpers import example
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
def shop(tmp_path: Path) -> Path:
    """A fresh copy of the bundled Celery example (a test file may sign more in its own)."""
    return example("celery", tmp_path / "shop")


@pytest.fixture(autouse=True, scope="session")
def _content_cache_outside_the_repository(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[None]:
    """Tests extract the case folders and examples in place: their content cache goes to a
    folder of the session's (as an operator's JOBLEDGER_CACHE_DIR would), never into the tree.
    Tests of the cache itself set or clear the variable on their own."""
    before = os.environ.get("JOBLEDGER_CACHE_DIR")
    os.environ["JOBLEDGER_CACHE_DIR"] = str(tmp_path_factory.mktemp("jobledger-cache"))
    # The cache key too: the session's own, never the user's ~/.cache.
    os.environ.setdefault("JOBLEDGER_KEY_DIR", str(tmp_path_factory.mktemp("jobledger-key")))
    # And the trails' heads each append keeps: the session's, never the user's ~/.local/state.
    os.environ.setdefault("JOBLEDGER_STATE_DIR", str(tmp_path_factory.mktemp("jobledger-state")))
    yield
    if before is None:
        os.environ.pop("JOBLEDGER_CACHE_DIR", None)
    else:
        os.environ["JOBLEDGER_CACHE_DIR"] = before


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


#: The markers a fixture implies: a test that takes it is marked so (``-m "not slow"`` leaves
#: it out).
_MARKED_BY_FIXTURE = {"postgres": "postgres", "pytester": "nested"}
_SLOW = ("act", "postgres", "docs", "nested")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        for fixture, marker in _MARKED_BY_FIXTURE.items():
            if fixture in getattr(item, "fixturenames", ()):
                item.add_marker(marker)
        if any(item.get_closest_marker(name) for name in _SLOW):
            item.add_marker("slow")
