"""The content cache: a warm run gives the very ledger a run without the cache gives, and no
entry it cannot trust (corrupt, truncated, foreign, stale, written concurrently) is ever used.

Every test compares with ``--no-cache`` (``Config.without_cache()``), the reference.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_jobledger.core.errors import JobledgerError
from pytest_jobledger.extract import cache, cachekey, engine
from pytest_jobledger.project import Config, load_config

WORKER = 'from celery import Celery\n\napp = Celery("shop")\nQUEUE = "orders"\n'
TASKS = '''from shop.worker import QUEUE, app


@app.task(queue=QUEUE, max_retries={n})
def job_{n}(order_id):
    """Step {n}."""
'''


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A small tree whose cache is where users get it: ``<root>/.jobledger_cache``."""
    monkeypatch.delenv(cache.ENV, raising=False)
    (tmp_path / "pyproject.toml").write_text("[tool.jobledger]\n")
    (tmp_path / "shop").mkdir()
    (tmp_path / "shop" / "__init__.py").write_text("")
    (tmp_path / "shop" / "worker.py").write_text(WORKER)
    for n in range(3):
        (tmp_path / "shop" / f"tasks_{n}.py").write_text(TASKS.format(n=n))
    (tmp_path / "shop" / "views.py").write_text("def view():\n    return 1\n")
    return tmp_path


def _run(config: Config) -> tuple[str, engine.Extractor]:
    extractor = engine.Extractor(config, workers=1)
    return extractor.run().ledger.dumps(), extractor


def _reference(config: Config) -> str:
    return engine.extract(config.without_cache(), workers=1).ledger.dumps()


def _snapshots(root: Path) -> list[Path]:
    return sorted((root / ".jobledger_cache").glob("extract-*.json"))


def test_cold_and_warm_give_the_no_cache_ledger(root: Path) -> None:
    config = load_config(root=root)
    cold, _ = _run(config)
    warm, extractor = _run(config)
    assert cold == warm == _reference(config)
    assert extractor.counts.parsed == 0  # every row came from the cache
    folder = root / ".jobledger_cache"
    assert (folder / ".gitignore").read_text().splitlines()[-1] == "*"
    assert (folder / "CACHEDIR.TAG").read_text().startswith(cache.TAG)
    assert len(_snapshots(root)) == 1


def test_no_cache_neither_reads_nor_writes(root: Path) -> None:
    config = load_config(root=root).without_cache()
    _run(config)
    assert not (root / ".jobledger_cache").exists()


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda raw: b"not json at all", id="corrupt"),
        pytest.param(lambda raw: raw[: len(raw) // 2], id="truncated"),
        pytest.param(lambda raw: raw.replace(b'"orders"', b'"hijack"'), id="edited-body"),
        pytest.param(lambda raw: b"", id="empty"),
    ],
)
def test_a_damaged_snapshot_is_ignored_and_rewritten(root: Path, damage: object) -> None:
    config = load_config(root=root)
    reference, _ = _run(config)
    (snapshot,) = _snapshots(root)
    snapshot.write_bytes(damage(snapshot.read_bytes()))  # type: ignore[operator]
    again, extractor = _run(config)
    assert again == reference
    assert extractor.counts.parsed > 0  # nothing of it was trusted
    assert _run(config)[1].counts.parsed == 0  # and it was rewritten whole


def test_an_entry_of_the_wrong_shape_is_dropped_alone(root: Path) -> None:
    """A snapshot whose digest is right but whose entry is not what the cache writes (a forged
    file): the entry is not used, the rest is."""
    config = load_config(root=root)
    reference, _ = _run(config)
    (snapshot,) = _snapshots(root)
    head, body = snapshot.read_text().split("\n", 1)
    data = json.loads(body)
    scan = data["scans"]["shop/tasks_0.py"]
    scan["found"][0]["job"]["line"] = "four"
    body = json.dumps(data, sort_keys=True, separators=(",", ":"))
    mac = cachekey.sign(cachekey.load_key(root), body.encode())
    head = json.dumps({"format": cache.FORMAT, "mac": mac})
    snapshot.write_text(f"{head}\n{body}\n")
    again, extractor = _run(config)
    assert again == reference
    assert extractor.counts.parsed == 1


def test_an_edited_file_is_extracted_again(root: Path) -> None:
    config = load_config(root=root)
    _run(config)
    path = root / "shop" / "tasks_1.py"
    before = path.stat()
    path.write_text(TASKS.format(n=1).replace("max_retries=1", "max_retries=7"))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # same size and mtime
    again, _ = _run(config)
    assert again == _reference(config)
    assert '"max_retries": 7' in again


def test_an_edit_in_a_module_a_row_reads_invalidates_it(root: Path) -> None:
    """tasks_*.py read QUEUE from worker.py: a new value there changes every row."""
    config = load_config(root=root)
    _run(config)
    (root / "shop" / "worker.py").write_text(WORKER.replace('"orders"', '"payments"'))
    again, _ = _run(config)
    assert again == _reference(config)
    assert '"orders"' not in again
    assert again.count('"payments"') == 3


def test_a_new_module_a_row_looked_for_invalidates_it(root: Path) -> None:
    """``from shop.util import X`` is outside the tree until shop/util.py exists."""
    (root / "shop" / "tasks_9.py").write_text(
        "from shop.worker import app\nfrom shop.util import Q\n\n\n"
        "@app.task(queue=Q)\ndef later():\n    pass\n"
    )
    config = load_config(root=root)
    first, _ = _run(config)
    (root / "shop" / "util.py").write_text('Q = "late"\n')
    again, _ = _run(config)
    assert again == _reference(config) != first
    assert '"late"' in again


def test_a_configuration_change_uses_its_own_entries(root: Path) -> None:
    config = load_config(root=root)
    _run(config)
    (root / "pyproject.toml").write_text('[tool.jobledger]\nexclude = ["shop/tasks_2.py"]\n')
    changed = load_config(root=root)
    again, _ = _run(changed)
    assert again == _reference(changed)
    assert "job_2" not in again
    assert len(_snapshots(root)) == 2


def test_another_tool_version_does_not_trust_the_entries(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = load_config(root=root)
    reference, _ = _run(config)
    monkeypatch.setattr(cache, "tool_fingerprint", lambda: "another version")
    again, extractor = _run(config)
    assert again == reference
    assert extractor.counts.parsed > 0


def test_concurrent_writers_leave_a_valid_cache(root: Path) -> None:
    """Four processes extract at once into the same cache; each prints the reference ledger,
    and what they leave is a snapshot a fifth run trusts."""
    reference = _reference(load_config(root=root))
    env = {**os.environ}
    env.pop(cache.ENV, None)
    command = [sys.executable, "-m", "pytest_jobledger", "extract", "--root", str(root), "-o", "-"]
    runs = [
        subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for _ in range(4)
    ]
    outputs = [run.communicate(timeout=120)[0].decode() for run in runs]
    assert outputs == [reference] * 4
    again, extractor = _run(load_config(root=root))
    assert again == reference
    assert extractor.counts.parsed == 0


def test_the_operator_may_put_the_cache_outside_the_root(
    root: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    elsewhere = tmp_path_factory.mktemp("operator-cache")
    monkeypatch.setenv(cache.ENV, str(elsewhere))
    config = load_config(root=root)
    assert _run(config)[0] == _reference(config)
    assert not (root / ".jobledger_cache").exists()
    assert list(elsewhere.glob("extract-*.json"))


def test_a_snapshot_signed_by_another_key_is_not_trusted(root: Path) -> None:
    """A checkout can carry a cache whose rows hide a job and whose content digests match (any
    one can compute them): without this machine's key it is ignored, whatever it holds."""
    config = load_config(root=root)
    reference, _ = _run(config)
    (snapshot,) = _snapshots(root)
    body = snapshot.read_text().split("\n", 1)[1]
    data = json.loads(body)
    for scan in data["scans"].values():
        scan["found"] = []  # every job hidden
    body = json.dumps(data, sort_keys=True, separators=(",", ":"))
    for forged in (
        {"format": cache.FORMAT, "mac": cachekey.sign(b"k" * 32, body.encode())},
        {"format": cache.FORMAT, "mac": cache.digest(body.encode())},
        {"format": 1, "digest": cache.digest(body.encode())},
    ):
        snapshot.write_text(f"{json.dumps(forged)}\n{body}\n")
        again, extractor = _run(config)
        assert again == reference
        assert extractor.counts.parsed > 0


def test_a_key_folder_inside_the_root_turns_the_cache_off(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(cachekey.ENV, str(root / "keys"))
    config = load_config(root=root)
    extraction = engine.extract(config, workers=1)
    assert extraction.ledger.dumps() == _reference(config)
    assert any("inside the project root" in warning for warning in extraction.warnings)
    assert not (root / "keys").exists()
    assert _snapshots(root) == []


def test_the_key_is_private_and_a_shared_one_is_refused(
    root: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path_factory.mktemp("keys")
    monkeypatch.setenv(cachekey.ENV, str(folder))
    config = load_config(root=root)
    _run(config)
    key = folder / cachekey.NAME
    assert key.stat().st_mode & 0o777 == 0o600
    assert len(key.read_bytes()) == 32
    if os.name != "posix":
        return
    key.chmod(0o644)
    extraction = engine.extract(config, workers=1)
    assert extraction.ledger.dumps() == _reference(config)
    assert any("not private" in warning for warning in extraction.warnings)
    key.unlink()
    key.symlink_to(root / "pyproject.toml")  # a key the checkout carries, through a link
    extraction = engine.extract(config, workers=1)
    assert extraction.ledger.dumps() == _reference(config)
    assert any("cannot be read" in warning for warning in extraction.warnings)


def test_a_folder_that_is_not_a_cache_is_left_alone(root: Path) -> None:
    (root / "notes").mkdir()
    (root / "notes" / "todo.txt").write_text("keep me\n")
    (root / "pyproject.toml").write_text('[tool.jobledger]\ncache_dir = "notes"\n')
    config = load_config(root=root)
    extraction = engine.extract(config, workers=1)
    assert extraction.ledger.dumps() == _reference(config)
    assert sorted(os.listdir(root / "notes")) == ["todo.txt"]
    assert any("CACHEDIR.TAG" in warning for warning in extraction.warnings)


@pytest.mark.parametrize("value", ["../elsewhere", "/tmp/cache", "."])
def test_cache_dir_must_be_a_folder_inside_the_root(root: Path, value: str) -> None:
    (root / "pyproject.toml").write_text(f'[tool.jobledger]\ncache_dir = "{value}"\n')
    with pytest.raises(JobledgerError, match="cache_dir"):
        load_config(root=root)


def test_an_edit_in_a_wrapper_body_invalidates_the_rows_it_sets(root: Path) -> None:
    """A row registered through a declared wrapper reads the wrapper's own shared_task call: a
    new queue there changes the cached row."""
    (root / "pyproject.toml").write_text(
        '[tool.jobledger.decorators."shop.wrap.notify"]\nframework = "celery"\n'
    )
    wrapper = (
        "from celery import shared_task\n\n\ndef notify(**kwargs):\n    def deco(fn):\n"
        '        return shared_task(queue="mail", **kwargs)(fn)\n\n    return deco\n'
    )
    (root / "shop" / "wrap.py").write_text(wrapper)
    (root / "shop" / "notices.py").write_text(
        "from shop.wrap import notify\n\n\n@notify()\ndef remind():\n    pass\n"
    )
    config = load_config(root=root)
    first, _ = _run(config)
    assert '"queue": "mail"' in first
    (root / "shop" / "wrap.py").write_text(wrapper.replace('"mail"', '"sms"'))
    again, _ = _run(config)
    assert again == _reference(config) != first
    assert '"queue": "sms"' in again


def test_a_committed_cache_symlink_is_not_written_through(root: Path) -> None:
    """A pull request commits the cache folder as a symlink to another folder of the tree that
    already looks like our cache (a CACHEDIR.TAG): the run is right and nothing is written there;
    every cache write is bound to the project root, so a symlink on the way is refused."""
    other = root / "docs" / "generated"
    other.mkdir(parents=True)
    (other / "CACHEDIR.TAG").write_text(cache.TAG + "\n")
    (root / ".jobledger_cache").symlink_to(other, target_is_directory=True)
    config = load_config(root=root)
    assert _run(config)[0] == _reference(config)
    assert sorted(os.listdir(other)) == ["CACHEDIR.TAG"]


def test_a_proof_from_an_imported_def_is_redone_when_that_def_changes(root: Path) -> None:
    """A test module calling a job it imports is proved inert from the job's def; when the name
    it imports becomes an alias of the job decorator, the warm run parses the test again and
    lists what it now registers."""
    (root / "shop" / "helpers.py").write_text("def audit_task(fn):\n    return fn\n")
    (root / "shop" / "test_audit.py").write_text(
        "from shop.helpers import audit_task\n\n\ndef check():\n    pass\n\n\n"
        "checked = audit_task(check)\n"
    )
    config = load_config(root=root)
    cold, extractor = _run(config)
    assert (extractor.counts.parsed, extractor.counts.proved) == (3, 2)  # the helper, the test
    assert "shop.test_audit.check" not in cold
    (root / "shop" / "helpers.py").write_text(
        "from shop.worker import app\n\naudit_task = app.task\n"
    )
    warm, _ = _run(config)
    assert '"shop.test_audit.check"' in warm
    assert warm == _reference(config)
