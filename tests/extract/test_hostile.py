"""Hostile sources: no crash, no silent drop, bounded cost, a located problem for each.

Each input here was reproduced against the extractor before it was guarded: a segfault, a
traceback, minutes of parsing or a problem at line 1 whatever its line. How long they now take
is in ``benchmarks/hostile_extract.py``, never in a test. Each input registers a job (or spells a
registration): a file whose text cannot register one is never parsed (the pre-filter,
:mod:`pytest_jobledger.extract.prefilter`), so no guard is ever asked about it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_jobledger.extract import extract, extract_ledger
from pytest_jobledger.extract.loading import MAX_FILE_BYTES_CEILING
from pytest_jobledger.ledger.model import Ledger, Pattern
from pytest_jobledger.project import load_config

HEADER = "from celery import shared_task\n\n"
GOOD = (
    HEADER + '@shared_task(queue="billing")\ndef capture_invoice(invoice_id):\n    """Charge."""\n'
)


def _project(root: Path, files: dict[str, str | bytes], config: str = "") -> Path:
    (root / "pyproject.toml").write_text(f"[tool.jobledger]\n{config}", encoding="utf-8")
    (root / "good.py").write_text(GOOD, encoding="utf-8")
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


def _ledger(root: Path) -> Ledger:
    return extract_ledger(load_config(root=root))


def _problems(ledger: Ledger, path: str) -> list[tuple[int, Pattern]]:
    return [(item.line, item.pattern) for item in ledger.unsupported if item.path == path]


def _registered(value: str) -> str:
    return f"{HEADER}@shared_task(queue={value})\ndef f():\n    pass\n"


#: Inputs that killed the whole run with a segfault inside libcst's native parser.
SEGFAULTS = {
    "parens.py": _registered("(" * 2000 + "1" + ")" * 2000),
    "calls.py": _registered("f(" * 2000 + ")" * 2000),
    "dicts.py": _registered("{1: " * 2000 + "1" + "}" * 2000),
    "fstrings.py": _registered('f"{' * 2000 + "1" + '}"' * 2000),
    "lambdas.py": _registered("lambda: " * 4000 + "1"),
    "elifs.py": _registered("1") + "if a:\n    pass\n" + "elif a:\n    pass\n" * 12_000,
}


def test_inputs_that_crashed_the_parser_are_too_complex(tmp_path: Path) -> None:
    """In a child process: if a guard ever slips, the test fails instead of the test run."""
    root = _project(tmp_path, SEGFAULTS)
    out = tmp_path / "ledger.json"
    run = subprocess.run(
        [sys.executable, "-m", "pytest_jobledger", "extract", "--root", str(root), "-o", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 1, run.stderr[-2000:]
    assert "Traceback" not in run.stderr
    ledger = json.loads(out.read_text("utf-8"))
    assert [job["id"] for job in ledger["jobs"]] == ["good.capture_invoice"]
    found = {(item["path"], item["pattern"]) for item in ledger["unsupported"]}
    assert found == {(name, "too-complex") for name in SEGFAULTS}
    lines = {item["path"]: item["line"] for item in ledger["unsupported"]}
    assert lines["parens.py"] == 3  # the line of the nesting, not line 1


def test_twenty_thousand_terms_are_refused_before_parsing(tmp_path: Path) -> None:
    """A 40 KB decorator argument that took libcst over 300 s."""
    root = _project(tmp_path, {"deep.py": _registered("+".join(["1"] * 20_000))})
    ledger = _ledger(root)
    assert _problems(ledger, "deep.py") == [(3, Pattern.TOO_COMPLEX)]
    assert [job.id for job in ledger.jobs] == ["good.capture_invoice"]


def test_a_module_too_costly_to_parse_is_file_too_large_and_says_what_to_do(
    tmp_path: Path,
) -> None:
    """Within max_file_bytes (4 MiB) yet far more than one file's parse may cost."""
    body = "".join(f"value_{n} = {n}\n" for n in range(200_000))
    root = _project(tmp_path, {"generated.py": _registered("1") + body})
    assert (root / "generated.py").stat().st_size < 4 * 1024 * 1024
    ledger = _ledger(root)
    [problem] = [item for item in ledger.unsupported if item.path == "generated.py"]
    assert (problem.line, problem.pattern) == (1, Pattern.FILE_TOO_LARGE)
    assert "split the module" in problem.message
    assert "exclude" in problem.message


def test_max_file_bytes_cannot_be_raised_past_the_ceiling(tmp_path: Path) -> None:
    root = _project(
        tmp_path,
        {"huge.py": HEADER + "#" * MAX_FILE_BYTES_CEILING},
        config="max_file_bytes = 1_000_000_000\n",
    )
    extraction = extract(load_config(root=root))
    [problem] = [item for item in extraction.ledger.unsupported if item.path == "huge.py"]
    assert problem.pattern is Pattern.FILE_TOO_LARGE
    assert f"{MAX_FILE_BYTES_CEILING:,}" in problem.message
    assert "split the module" in problem.message
    [warning] = extraction.warnings
    assert warning.startswith("pyproject.toml: [tool.jobledger] max_file_bytes = 1,000,000,000")
    assert "ceiling" in warning


def test_lone_surrogates_keep_the_ledger_writable_and_honest(tmp_path: Path) -> None:
    source = (
        HEADER + "@shared_task(queue='q\\udfff', name='\\ud800x')\n"
        "def f():\n"
        '    """Lone \\udfff in a docstring."""\n'
    )
    root = _project(tmp_path, {"odd.py": source})
    ledger = _ledger(root)
    ledger.dumps().encode("utf-8")  # every later stage writes this text as UTF-8
    job = ledger.by_id()["odd.f"]
    assert job.docstring == "Lone \\udfff in a docstring."  # spelled as in the source
    assert job.queue is None
    assert "lone surrogate" in job.unresolved["queue"]
    assert job.name is None


@pytest.mark.parametrize(
    ("source", "line"),
    [
        (b"from celery import shared_task\nshared_task(f)\n\n\n\nx = 1\x00\n", 6),
        (b"from celery import shared_task\nshared_task(f)\n\n\nx = $\n", 5),
        (b"from celery import shared_task\nshared_task(f)\n\n\nx = 'unterminated\n", 5),
        (b'from celery import shared_task\nshared_task(f)\n\n\nx = """unterminated\n\n', 5),
        (b"from celery import shared_task\nshared_task(f)\nif x:\n        a = 1\n    b = 2\n", 5),
        (b"from celery import shared_task\nshared_task(f)\n\n\nx = (1]\n", 5),
    ],
    ids=["nul", "dollar", "string", "triple-quoted", "dedent", "mismatched bracket"],
)
def test_tokenizer_errors_are_located_at_their_line(
    tmp_path: Path, source: bytes, line: int
) -> None:
    root = _project(tmp_path, {"bad.py": source})
    assert _problems(_ledger(root), "bad.py") == [(line, Pattern.SYNTAX_ERROR)]


def test_an_undecodable_byte_is_located_at_its_line(tmp_path: Path) -> None:
    root = _project(tmp_path, {"legacy.py": b"from celery import shared_task\n\nx = 'caf\xe9'\n"})
    ledger = _ledger(root)
    [problem] = [item for item in ledger.unsupported if item.path == "legacy.py"]
    assert (problem.line, problem.pattern) == (3, Pattern.DECODE_ERROR)
    assert "byte 0xe9" in problem.message


def test_messages_name_no_internal_types(tmp_path: Path) -> None:
    root = _project(tmp_path, {"raw.py": _registered('b"billing"')})
    reason = _ledger(root).by_id()["raw.f"].unresolved["queue"]
    assert "byte string" in reason
    assert "bytes" not in reason.replace("byte string", "")


def test_a_long_elif_chain_within_the_limit_is_extracted(tmp_path: Path) -> None:
    """A dispatch chain of 700 elifs is real code: the depth limit counts elifs at a quarter of a
    level (libcst crashes near 10,000 of them), and the walk takes no frame per branch."""
    chain = "if a:\n    pass\n" + "elif a:\n    pass\n" * 700
    root = _project(tmp_path, {"dispatch.py": _registered('"dispatch"') + chain})
    ledger = _ledger(root)
    assert ledger.unsupported == ()
    assert ledger.by_id()["dispatch.f"].queue == "dispatch"
