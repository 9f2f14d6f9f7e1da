"""The action's pinned install: every pin in range, every runtime dependency pinned, and
action.yml installing with it (in a folded log group)."""

from __future__ import annotations

import importlib.metadata
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import Version

from . import _wheelhouse

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

REPO = Path(__file__).parents[2]
CONSTRAINTS = REPO / "pytest_jobledger" / "github" / "constraints.txt"
#: Every Python the project supports (pyproject's classifiers), each a separate resolution.
PYTHONS = ("3.10", "3.11", "3.12", "3.13")


def pins() -> list[Requirement]:
    lines = CONSTRAINTS.read_text("utf-8").splitlines()
    return [Requirement(line) for line in lines if line.strip() and not line.startswith("#")]


def pinned_for(python: str, platform: str = "linux") -> dict[str, Version]:
    """The version of each pinned distribution pip uses on ``python`` (markers evaluated)."""
    environment = {"python_version": python, "sys_platform": platform, "extra": ""}
    found: dict[str, Version] = {}
    for pin in pins():
        if pin.marker is not None and not pin.marker.evaluate(environment):
            continue
        name = canonicalize_name(pin.name)
        assert name not in found, f"{pin.name} is pinned twice for Python {python}"
        (spec,) = pin.specifier
        found[name] = Version(spec.version)
    return found


def project() -> Any:
    return tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"]


def declared() -> list[Requirement]:
    """The tool's runtime dependencies and pytest-xdist as the test extra asks for it."""
    runtime = [Requirement(text) for text in project()["dependencies"]]
    extra = [Requirement(text) for text in project()["optional-dependencies"]["test"]]
    return [*runtime, *(req for req in extra if canonicalize_name(req.name) == "pytest-xdist")]


def test_every_line_is_one_exact_pin_sorted_by_name() -> None:
    names = []
    for pin in pins():
        assert len(pin.specifier) == 1, pin
        (spec,) = pin.specifier
        assert spec.operator == "==", f"{pin}: pin with ==, a range installs something else later"
        assert not pin.extras, pin
        names.append(canonicalize_name(pin.name))
        assert pin.name == canonicalize_name(pin.name), f"{pin.name}: write the normalized name"
    assert names == sorted(names)


@pytest.mark.parametrize("python", PYTHONS)
def test_every_runtime_dependency_is_pinned_within_its_declared_range(python: str) -> None:
    pinned = pinned_for(python)
    environment = {"python_version": python, "sys_platform": "linux", "extra": ""}
    for requirement in declared():
        if requirement.marker is not None and not requirement.marker.evaluate(environment):
            continue
        name = canonicalize_name(requirement.name)
        assert name in pinned, f"{requirement.name} is not pinned for Python {python}"
        assert requirement.specifier.contains(pinned[name], prereleases=True), (
            f"{name}=={pinned[name]} is outside pyproject.toml's {requirement.specifier}"
        )


def test_every_distribution_the_install_needs_here_is_pinned_and_agrees() -> None:
    """The closure in this environment (what the act tests' wheelhouse repacks): each one is
    pinned, and each pin meets every range the pinned distributions ask of it."""
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    pinned = pinned_for(python)
    needed = {
        canonicalize_name(dist.metadata["Name"]): dist
        for dist in _wheelhouse.closure(_wheelhouse.roots())
        if canonicalize_name(dist.metadata["Name"]) != "setuptools"  # the build backend only
    }
    assert set(needed) <= set(pinned), f"not pinned: {sorted(set(needed) - set(pinned))}"
    environment = {"python_version": python, "sys_platform": sys.platform, "extra": ""}
    for dist in needed.values():
        for text in dist.requires or ():
            requirement = Requirement(text)
            if requirement.marker is not None and not requirement.marker.evaluate(environment):
                continue
            name = canonicalize_name(requirement.name)
            if name in pinned:
                assert requirement.specifier.contains(pinned[name], prereleases=True), (
                    f"{dist.metadata['Name']} needs {requirement}, the pin is {pinned[name]}"
                )


def test_each_pin_supports_the_pythons_it_is_pinned_for() -> None:
    """A pin whose Requires-Python leaves out a supported Python breaks the action there: such a
    distribution gets a second line with a marker (rpds-py dropped 3.10)."""
    for pin in pins():
        try:
            dist = importlib.metadata.distribution(pin.name)
        except importlib.metadata.PackageNotFoundError:
            continue  # not installed here (another Python's or platform's line)
        (spec,) = pin.specifier
        if Version(dist.version) != Version(spec.version):
            continue
        requires = SpecifierSet(dist.metadata.get("Requires-Python") or "")
        for python in PYTHONS:
            marker_ok = pin.marker is None or Marker(str(pin.marker)).evaluate(
                {"python_version": python, "sys_platform": "linux", "extra": ""}
            )
            if marker_ok:
                assert requires.contains(python), f"{pin} does not install on Python {python}"


def install_script() -> str:
    action = yaml.safe_load((REPO / "action.yml").read_text("utf-8"))
    (step,) = [step for step in action["runs"]["steps"] if step.get("id") == "install"]
    return str(step["run"])


def test_action_yml_installs_with_the_constraints_in_a_log_group() -> None:
    script = install_script()
    assert '--constraint "$constraints"' in script
    assert 'constraints="$JOBLEDGER_ACTION_PATH/pytest_jobledger/github/constraints.txt"' in script
    assert "pytest-xdist" in script
    group = script.index("::group::")
    assert group < script.index('"${pip[@]}" install')  # pip, the bundled wheel's or the venv's
    assert "trap 'echo \"::endgroup::\"' EXIT" in script  # closed on failure too
    assert "--quiet" not in script  # the folded log is there to read when an install fails


def test_pip_cache_reuse_never_overrides_the_jobs_own_setting() -> None:
    script = install_script()
    assert '[ -z "${PIP_CACHE_DIR:-}" ]' in script
    assert '"${RUNNER_ENVIRONMENT:-}" = "self-hosted"' in script
    assert "--no-cache-dir" not in script
