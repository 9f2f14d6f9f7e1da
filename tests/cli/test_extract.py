"""``jobledger extract`` as a user runs it: files written, exit codes, problems on stderr."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from pytest_jobledger.cli import main

GOOD = '''\
from celery import shared_task


@shared_task(queue="billing", max_retries=5)
def capture_invoice(invoice_id):
    """Charge it."""
'''


def _project(tmp_path: Path, files: dict[str, str | bytes]) -> Path:
    (tmp_path / "pyproject.toml").write_text("[tool.jobledger]\n")
    for name, content in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return tmp_path


def test_writes_the_configured_ledger_and_exits_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _project(tmp_path, {"billing/tasks.py": GOOD})
    assert main(["extract", "--root", str(root)]) == 0
    ledger = json.loads((root / "generated/job_ledger.json").read_text())
    assert [job["id"] for job in ledger["jobs"]] == ["billing.tasks.capture_invoice"]
    assert "1 job, 0 problems" in capsys.readouterr().err


def test_dash_prints_instead_of_writing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _project(tmp_path, {"tasks.py": GOOD})
    assert main(["extract", "--root", str(root), "-o", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["jobs"][0]["queue"] == "billing"
    assert not (root / "generated").exists()


def test_works_from_cwd_without_flags(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _project(tmp_path, {"pkg/__init__.py": "", "pkg/tasks.py": GOOD})
    monkeypatch.chdir(root / "pkg")
    assert main(["extract"]) == 0
    assert (root / "generated/job_ledger.json").is_file()


def test_bad_files_are_reported_and_the_rest_still_extracted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _project(
        tmp_path,
        {
            "good.py": GOOD,
            "broken.py": "from celery import shared_task\n\n@shared_task(\ndef f(:\n",
            "binary.py": b"from celery import shared_task\nx = '\xff\xfe'\n",
            "cookie.py": b"# -*- coding: latin-1 -*-\n" + GOOD.encode().replace(b"Charge", b"\xe9"),
            "bom.py": b"\xef\xbb\xbf" + GOOD.replace("capture_invoice", "refund").encode(),
        },
    )
    (root / "loop_a.py").symlink_to(root / "loop_b.py")
    (root / "loop_b.py").symlink_to(root / "loop_a.py")
    assert main(["extract", "--root", str(root)]) == 1
    ledger = json.loads((root / "generated/job_ledger.json").read_text())
    assert {job["id"] for job in ledger["jobs"]} == {
        "good.capture_invoice",
        "cookie.capture_invoice",
        "bom.refund",
    }
    assert {(u["path"], u["pattern"]) for u in ledger["unsupported"]} == {
        ("broken.py", "syntax-error"),
        ("binary.py", "decode-error"),
        ("loop_a.py", "unreadable"),
        ("loop_b.py", "unreadable"),
    }
    err = capsys.readouterr().err
    assert "broken.py:3: cannot parse" in err or "broken.py:4: cannot parse" in err
    assert "Traceback" not in err


def test_huge_module_is_reported_not_parsed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _project(tmp_path, {"good.py": GOOD, "generated_pb2.py": GOOD + "x = 1\n" * 200_000})
    (root / "pyproject.toml").write_text("[tool.jobledger]\nmax_file_bytes = 100000\n")
    assert main(["extract", "--root", str(root)]) == 1
    err = capsys.readouterr().err
    assert "generated_pb2.py:1:" in err
    assert "max_file_bytes" in err


@pytest.mark.parametrize("terms", [900, 5000])
def test_hostile_nesting_is_reported_not_a_crash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], terms: int
) -> None:
    queue = " + ".join(['"a"'] * terms)
    source = f"from celery import shared_task\nQ = {queue}\n@shared_task(queue=Q)\ndef f(): ...\n"
    root = _project(tmp_path, {"deep.py": source, "good.py": GOOD})
    code = main(["extract", "--root", str(root)])
    ledger = json.loads((root / "generated/job_ledger.json").read_text())
    assert "good.capture_invoice" in {job["id"] for job in ledger["jobs"]}
    if code == 0:  # followed: the value is null with a reason
        deep = next(job for job in ledger["jobs"] if job["id"] == "deep.f")
        assert "nested too deeply" in deep["unresolved"]["queue"]
    else:  # not followable at all: reported with its path
        assert ledger["unsupported"][0]["path"] == "deep.py"
    assert "Traceback" not in capsys.readouterr().err


def test_config_error_exits_2_with_located_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.jobledger]\nledgr = "x.json"\n')
    assert main(["extract", "--root", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "pyproject.toml:2: [tool.jobledger] ledgr: unknown key; did you mean 'ledger'?" in err


def test_duplicate_ids_are_both_kept_and_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _project(
        tmp_path,
        {
            "a.py": GOOD.replace('queue="billing"', 'name="charge"'),
            "b.py": GOOD.replace('queue="billing"', 'name="charge"'),
        },
    )
    (root / "pyproject.toml").write_text('[tool.jobledger]\njob_id = "registered-name"\n')
    assert main(["extract", "--root", str(root)]) == 1
    ledger = json.loads((root / "generated/job_ledger.json").read_text())
    assert [(j["id"], j["path"]) for j in ledger["jobs"]] == [
        ("charge", "a.py"),
        ("charge", "b.py"),
    ]
    assert "duplicate job id 'charge'" in capsys.readouterr().err


def test_rewrite_keeps_file_mode_and_leaves_no_temporary_files(tmp_path: Path) -> None:
    root = _project(tmp_path, {"tasks.py": GOOD})
    ledger = root / "generated/job_ledger.json"
    ledger.parent.mkdir()
    ledger.write_text("{}")
    os.chmod(ledger, 0o640)
    assert main(["extract", "--root", str(root)]) == 0
    assert stat.S_IMODE(ledger.stat().st_mode) == 0o640
    assert sorted(p.name for p in ledger.parent.iterdir()) == ["job_ledger.json"]


def test_crash_mid_write_leaves_previous_ledger_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _project(tmp_path, {"tasks.py": GOOD})
    ledger = root / "generated/job_ledger.json"
    ledger.parent.mkdir()
    ledger.write_text("previous\n")

    def crash(*args: object, **kwargs: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", crash)
    assert main(["extract", "--root", str(root)]) == 2
    assert "cannot write the ledger (disk full); the previous file is unchanged" in (
        capsys.readouterr().err
    )
    assert ledger.read_text() == "previous\n"
    assert sorted(p.name for p in ledger.parent.iterdir()) == ["job_ledger.json"]


MAIL_JOB = "@job(queue='mail')\ndef send():\n    pass\n"


def test_a_decorator_table_that_names_nothing_is_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _project(
        tmp_path,
        {
            "acme/__init__.py": "",
            "acme/jobs.py": "def job(queue='default'):\n    return lambda fn: fn\n",
            "acme/tasks.py": "from acme.jobs import job\n\n\n" + MAIL_JOB,
        },
    )
    (root / "pyproject.toml").write_text(
        '[tool.jobledger.decorators."acme.jobs.jbo"]\nqueue = "queue"\n'
        '[tool.jobledger.decorators."vendor.queue.job"]\nqueue = "queue"\n'
        '[tool.jobledger.decorators."acme.jobs.job"]\nqueue = "queue"\n'
    )
    assert main(["extract", "--root", str(root)]) == 0
    err = capsys.readouterr().err.splitlines()
    warnings = [line for line in err if line.startswith("warning:")]
    assert warnings == [
        'warning: pyproject.toml: [tool.jobledger.decorators."acme.jobs.jbo"] names nothing in '
        "the scanned tree and no registration uses it (did you mean 'acme.jobs.job'?); check "
        "the name and paths",
        'warning: pyproject.toml: [tool.jobledger.decorators."vendor.queue.job"] names nothing '
        "in the scanned tree and no registration uses it; check the name and paths",
    ]
    assert err[-1].endswith("1 job, 0 problems")


def test_an_external_decorator_in_use_is_not_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _project(
        tmp_path,
        {"tasks.py": "from vendor.queue import job\n\n\n" + MAIL_JOB},
    )
    (root / "pyproject.toml").write_text(
        '[tool.jobledger.decorators."vendor.queue.job"]\nqueue = "queue"\n'
    )
    assert main(["extract", "--root", str(root)]) == 0
    assert "warning" not in capsys.readouterr().err


def test_lone_surrogates_are_written_and_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = GOOD.replace('"""Charge it."""', '"""Charge \\udfff it."""').replace(
        'queue="billing"', 'queue="billing\\udfff"'
    )
    root = _project(tmp_path, {"tasks.py": source})
    assert main(["extract", "--root", str(root)]) == 0
    ledger = json.loads((root / "generated/job_ledger.json").read_bytes().decode("utf-8"))
    assert ledger["jobs"][0]["docstring"] == "Charge \\udfff it."
    assert main(["extract", "--root", str(root), "-o", "-"]) == 0
    assert "Traceback" not in capsys.readouterr().err


# -- an empty scan is not a pass --------------------------------------------------


@pytest.mark.parametrize(
    ("table", "says"),
    [
        ('[tool.jobledger]\nexclude = ["**"]\n', "pyproject.toml:2: No job registration found"),
        ('[tool.jobledger]\npaths = ["docs"]\n', "under paths ['docs'] (exclude: [])"),
        ("[project]\nname = 'x'\n", "has no [tool.jobledger] table"),
    ],
)
def test_an_empty_scan_fails_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], table: str, says: str
) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "conf.py").write_text("project = 'x'\n")
    (tmp_path / "pyproject.toml").write_text(table)
    assert main(["extract", "--root", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert says in err
    assert "Nothing was written." in err
    assert not (tmp_path / "generated").exists()


def test_an_empty_scan_passes_when_allowed(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.jobledger]\nallow_empty = true\n")
    assert main(["extract", "--root", str(tmp_path)]) == 0
    assert json.loads((tmp_path / "generated" / "job_ledger.json").read_text())["jobs"] == []


def test_a_paths_typo_is_a_configuration_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "pyproject.toml").write_text('[tool.jobledger]\npaths = ["scr"]\n')
    assert main(["extract", "--root", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "pyproject.toml:2: [tool.jobledger] paths: 'scr' does not exist" in err
    assert "did you mean 'src'?" in err


def test_a_read_only_ledger_is_respected(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _project(tmp_path, {"billing/tasks.py": GOOD})
    assert main(["extract", "--root", str(root)]) == 0
    ledger = root / "generated" / "job_ledger.json"
    before = ledger.read_text()
    (root / "billing" / "more.py").write_text(GOOD.replace("capture_invoice", "refund"))
    ledger.chmod(0o444)
    assert main(["extract", "--root", str(root)]) == 2
    assert "it is read-only (mode 0444)" in capsys.readouterr().err
    assert ledger.read_text() == before


def test_json_reports_what_was_written_and_every_problem_root_relative(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--format json`` is for CI: the same problems as the text, one document on stdout, paths
    relative to the root whatever the current folder (here a subfolder)."""
    dynamic = "from celery import shared_task\n\nshared_task(queue='q')(globals()['f'])\n"
    root = _project(tmp_path, {"billing/tasks.py": GOOD, "billing/dynamic.py": dynamic})
    monkeypatch.chdir(root / "billing")
    assert main(["extract", "--root", str(root)]) == 1
    text = capsys.readouterr().err.splitlines()
    assert main(["extract", "--root", str(root), "--format", "json"]) == 1
    out, err = capsys.readouterr()
    document = json.loads(out)
    assert (document["ledger"], document["jobs"]) == ("generated/job_ledger.json", 1)
    problems = document["problems"]
    assert [(row["path"], row["line"]) for row in problems] == [("billing/dynamic.py", 3)]
    assert text[0] == f"dynamic.py:3: {problems[0]['message']}"
    assert err == ""


def test_json_and_printing_the_ledger_are_one_stdout_too_many(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _project(tmp_path, {"billing/tasks.py": GOOD})
    assert main(["extract", "--root", str(root), "--json", "-o", "-"]) == 2
    assert "give one, or -o PATH with --format json" in capsys.readouterr().err
    assert not (root / "generated").exists()
