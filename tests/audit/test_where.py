"""Where the trail is: ``audit_log`` in pyproject.toml (committed, so no password and nothing
outside the root), ``JOBLEDGER_AUDIT_URL`` (the operator's environment, which wins), and a
verdict that fails closed when the store cannot be reached or refuses the write."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_jobledger import audit
from pytest_jobledger.cli import main
from pytest_jobledger.core.errors import ConfigError
from pytest_jobledger.project import load_config
from pytest_jobledger.project.records import DEFAULT_AUDIT_LOG

REPO = Path(__file__).resolve().parents[2]
PASSWORD = "s3cret-pw"


def _config(root: Path, value: str) -> Path:
    path = root / "pyproject.toml"
    path.write_text(f"[tool.jobledger]\naudit_log = '{value}'\n")
    return path


@pytest.mark.parametrize(
    "value",
    [
        "ops/trail.ndjson",
        "sqlite:///ops/trail.db",
        "SQLite:///ops/trail.db",
        "postgresql://alice@/ops",
        "postgres:///ops",
    ],
)
def test_accepted_values(tmp_path: Path, value: str) -> None:
    _config(tmp_path, value)
    assert load_config(cwd=tmp_path).verdict.audit_log == value


def test_the_default_is_a_file_inside_the_root_to_the_trails_parser(tmp_path: Path) -> None:
    """The configuration accepts the default without importing the trail (a read-only command
    does not pay for it): it is what the trail's own parser says of it."""
    target = audit.target_of(DEFAULT_AUDIT_LOG, root=tmp_path, origin="[tool.jobledger] audit_log")
    assert (target.kind, target.location) == ("file", DEFAULT_AUDIT_LOG)
    assert load_config(cwd=tmp_path).verdict.audit_log == DEFAULT_AUDIT_LOG


@pytest.mark.parametrize(
    ("value", "says"),
    [
        (f"postgresql://alice:{PASSWORD}@db/ops", "holds a password"),
        (f"postgresql://alice@db/ops?password={PASSWORD}", "holds a password"),
        ("sqlite:////var/lib/trail.db", "sqlite:///relative/path.db inside the root"),
        ("sqlite:///../trail.db", "must stay inside the root"),
        ("sqlite://trail.db", "sqlite:///relative/path.db"),
        ("postgresql://db:port/ops", "is not a postgresql:// URL"),
        ("mysql://db/ops", "'mysql' is not a store jobledger knows"),
        (f"postgresql://alice@db/ops?pass%77ord={PASSWORD}", "holds a password"),
        ("postgresql://alice@db.internal:5432/ops", "names a host or a port"),
        ("postgresql://alice@/ops?sslmode=verify-full", "sets connection parameters (sslmode)"),
        ("postgresql://alice@/ops?ssl%6Beylogfile=/tmp/k", "sets connection parameters"),
        ("SQLITE:////var/lib/trail.db", "sqlite:///relative/path.db inside the root"),
    ],
)
def test_refused_values_are_located_and_never_echo_a_password(
    tmp_path: Path, value: str, says: str
) -> None:
    path = _config(tmp_path, value)
    with pytest.raises(ConfigError) as caught:
        load_config(cwd=tmp_path)
    message = str(caught.value)
    assert message.startswith(f"{path}:2: [tool.jobledger] audit_log: ")
    assert says in message
    assert PASSWORD not in message
    if "password" in says:
        assert "JOBLEDGER_AUDIT_URL" in message


def test_the_environment_wins_over_the_configuration(tmp_path: Path) -> None:
    env = {audit.ENV_URL: "sqlite:///from-env.db"}
    store = audit.open_store(".jobledger/audit.ndjson", root=tmp_path, env=env)
    assert (store.target.kind, store.target.origin) == ("sqlite", audit.ENV_URL)
    store.append({"job": "x"})
    assert (tmp_path / "from-env.db").is_file()
    assert not (tmp_path / ".jobledger").exists()
    # From the environment, a SQLite file may sit outside the repository (the point of it).
    outside = tmp_path.parent / f"{tmp_path.name}-outside.db"
    far = audit.open_store("x", root=tmp_path, env={audit.ENV_URL: f"sqlite:///{outside}"})
    assert far.append({"job": "x"}).number == 1
    outside.unlink()


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("ftp://host/x", "'ftp' is not a store jobledger knows"),
        ("sqlite:///../x.db", "must stay inside the root"),
        ("/abs/trail.ndjson", "must be relative to the root"),
        ("postgresql://h:port/x", "is not a postgresql:// URL"),
    ],
)
def test_a_wrong_environment_value_is_named(tmp_path: Path, url: str, says: str) -> None:
    with pytest.raises(audit.AuditError, match=says):
        audit.open_store("x", root=tmp_path, env={audit.ENV_URL: url})


def test_redaction() -> None:
    url = f"postgresql://alice:{PASSWORD}@db:5432/ops?password={PASSWORD}&sslmode=require"
    shown = audit.redact(url)
    assert PASSWORD not in shown
    assert shown.startswith("postgresql://alice:***@db:5432/ops?")
    assert "sslmode=require" in shown
    assert audit.redact("postgresql://alice@db/ops") == "postgresql://alice@db/ops"


@pytest.mark.parametrize(
    ("url", "says"),
    [
        # a verdict reads the trail's earlier events first, so the read fails first
        (
            f"postgresql://ops:{PASSWORD}@127.0.0.1:1/trail?connect_timeout=2",
            "cannot read the audit store",
        ),
        ("sqlite:///.jobledger", "cannot read the audit store"),  # a folder, not a file
        ("sqlite:///not-a-db.db", "cannot read the audit store"),
        ("ftp://x/y", "is not a store jobledger knows"),
    ],
    ids=["unreachable", "a-folder", "not-a-database", "unknown-scheme"],
)
def test_a_store_that_fails_means_no_verdict(
    shop: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    url: str,
    says: str,
) -> None:
    (shop / ".jobledger").mkdir()
    (shop / "not-a-db.db").write_text("this is not a SQLite database, and it is long enough\n")
    monkeypatch.setenv(audit.ENV_URL, url)
    ask = ["verdict", "acme_shop.celery_app.ping", "--root", str(shop), "--action", "retry"]
    assert main(ask) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert says in err
    assert "No verdict was given" in err
    assert PASSWORD not in err
    assert "Traceback" not in err
    assert main(["audit", "--root", str(shop), "--verify"]) == 2
    assert PASSWORD not in capsys.readouterr().err
