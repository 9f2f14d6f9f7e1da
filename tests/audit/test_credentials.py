"""The operator chooses where credentials go: a trail URL written in the repository names at most
a user and a database. A fake server on 127.0.0.1 stands where a pull request would point the
operator's ``PGPASSWORD``; real psycopg runs every command that opens the trail, and the server
must receive nothing, while the same address from ``JOBLEDGER_AUDIT_URL`` (the control) reaches
it."""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from repo_files import copy_tracked

from pytest_jobledger import audit
from pytest_jobledger.cli import main

REPO = Path(__file__).resolve().parents[2]
PASSWORD = "operator-pg-password"


class FakeServer:
    """A TCP listener that records every connection and every byte, and answers nothing."""

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.sock.settimeout(0.2)
        self.port: int = self.sock.getsockname()[1]
        self.connections = 0
        self.received = b""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except (TimeoutError, OSError):
                continue
            self.connections += 1
            conn.settimeout(1)
            with contextlib.suppress(OSError):
                self.received += conn.recv(65536)
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self.sock.close()


@pytest.fixture
def server() -> Iterator[FakeServer]:
    made = FakeServer()
    yield made
    made.close()


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    root = tmp_path / "shop"
    copy_tracked(REPO / "examples" / "celery", root)
    return root


def _hostile_urls(port: int, tmp: Path) -> list[str]:
    """Every way a pull request could name a host, a port or a parameter libpq acts on."""
    keylog = tmp / "keylog.txt"
    return [
        f"postgresql://ops@127.0.0.1:{port}/trail",
        f"postgres://ops@localhost:{port}/trail",
        f"POSTGRESQL://ops@127.0.0.1:{port}/trail",
        f"PostgreS://127.0.0.1:{port}/trail",
        f"postgresql://ops@[::ffff:127.0.0.1]:{port}/trail",
        f"postgresql:///trail?host=127.0.0.1&port={port}",
        f"postgresql:///trail?ho%73t=127.0.0.1&p%6Frt={port}",
        f"postgresql://ops@/trail?hostaddr=127.0.0.1&port={port}",
        f"postgresql://ops@/trail?host=/tmp&port={port}",
        f"postgresql://ops@127.0.0.1:{port}/trail?sslkeylogfile={keylog}",
        f"postgresql://ops@/trail?sslkeylogfile={keylog}",
        f"postgresql://ops@/trail?passfile={tmp / 'pgpass'}",
        f"postgresql://ops@/trail?sslkey={tmp / 'key'}&sslcert={tmp / 'cert'}",
        "postgresql://ops@/trail?oauth_issuer=https://evil.example&oauth_client_id=x",
        "postgresql://ops@/trail?gssdelegation=1",
        "postgresql://ops@/trail?service=evil",
        f"postgresql://ops@/trail?pass%77ord={PASSWORD}",
        "postgresql://ops@/trail#host=127.0.0.1",
        "postgresql://ops@/trail%3Fhost%3D127.0.0.1",
        "postgresql://ops%3Dx@/trail",
    ]


def test_a_repository_url_never_reaches_the_host_it_names(
    shop: Path,
    server: FakeServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    monkeypatch.setenv("PGPASSWORD", PASSWORD)
    monkeypatch.delenv(audit.ENV_URL, raising=False)
    pyproject = shop / "pyproject.toml"
    original = pyproject.read_text("utf-8")
    commands = [
        ["verdict", "acme_shop.celery_app.ping", "--root", str(shop), "--action", "retry"],
        ["audit", "--root", str(shop), "--verify"],
        ["audit", "init", "--root", str(shop)],
    ]
    for url in _hostile_urls(server.port, tmp_path):
        pyproject.write_text(
            original.replace("[tool.jobledger]\n", f"[tool.jobledger]\naudit_log = '{url}'\n"),
            encoding="utf-8",
        )
        line = original.splitlines().index("[tool.jobledger]") + 2
        for command in commands:
            assert main(command) == 2, (url, command)
            out, err = capsys.readouterr()
            assert f"{pyproject}:{line}: [tool.jobledger] audit_log: " in err, (url, err)
            assert PASSWORD not in out + err
            assert "Traceback" not in err
    assert server.connections == 0
    assert server.received == b""
    assert not list(tmp_path.glob("keylog*"))


def test_the_operators_url_is_the_one_that_connects(
    shop: Path,
    server: FakeServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The control: the same address from the operator's environment is dialled (so the test
    above proves a refusal, not a server nobody could reach)."""
    monkeypatch.setenv("PGPASSWORD", PASSWORD)
    url = f"postgresql://ops@127.0.0.1:{server.port}/trail?connect_timeout=2&sslmode=disable"
    monkeypatch.setenv(audit.ENV_URL, url)
    assert main(["audit", "--root", str(shop), "--verify"]) == 2
    assert "cannot read the audit store" in capsys.readouterr().err
    assert server.connections >= 1
    assert b"ops" in server.received  # libpq's startup message names the user


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://ops@/trail",
        "postgresql:///trail",
        "postgres://ops@",
        "POSTGRESQL://ops@/trail",
        "postgresql://ops_2.x@/trail-db",
    ],
)
def test_a_user_and_a_database_are_what_the_repository_may_name(url: str) -> None:
    target = audit.target_of(url, origin="[tool.jobledger] audit_log")
    assert target.kind == "postgresql"


def test_the_operator_may_name_everything(tmp_path: Path) -> None:
    url = f"postgresql://ops@db.internal:5432/trail?sslmode=verify-full&sslkey={tmp_path}/k"
    assert audit.target_of(url, origin=audit.ENV_URL).location == url


@pytest.mark.parametrize(
    "url",
    [
        f"postgresql://ops@db/trail?pass%77ord={PASSWORD}",
        f"postgresql://ops@db/trail?PASSWORD={PASSWORD}",
        f"postgresql://ops@db/trail?sslpassword={PASSWORD}",
        f"postgresql://ops:{PASSWORD}@db/trail",
    ],
)
def test_a_password_is_redacted_however_its_key_is_spelled(url: str) -> None:
    assert PASSWORD not in audit.redact(url)
