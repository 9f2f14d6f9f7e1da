"""Issue 19's linear bounds, asserted by behaviour at sizes where the quadratic code took more
than 20 s (figures: ``benchmarks/linear_bounds.py`` and ``benchmarks/README.md``), and the
indexed exclude matcher checked against pathspec itself (same answer for every pattern and path).
"""

from __future__ import annotations

from pathlib import Path

import pathspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_jobledger.extract import extract_ledger
from pytest_jobledger.extract.discovery import _Layer
from pytest_jobledger.ledger.model import Pattern
from pytest_jobledger.project import load_config


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_a_long_alias_chain_in_one_module_is_followed_to_its_job(tmp_path: Path) -> None:
    """2,300 aliases (30 KB; the quadratic fixed point took well over 20 s at 1,000)."""
    chain = "\n".join(f"a{i} = a{i - 1}" for i in range(1, 2300))
    _write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/tasks.py": "from celery import Celery\napp = Celery('x')\n"
            f'a0 = app.task(queue="billing")\n{chain}\n\n@a2299\ndef wire():\n    pass\n',
        },
    )
    ledger = extract_ledger(load_config(root=tmp_path))
    assert [(job.id, job.queue) for job in ledger.jobs] == [("pkg.tasks.wire", "billing")]
    assert ledger.unsupported == ()


def test_an_alias_chain_across_many_modules_is_a_located_refusal(tmp_path: Path) -> None:
    """300 modules, each re-importing the previous one's alias: one round per module, each
    costing only its new names (the old rounds re-read the whole tree each time)."""
    files = {
        "pkg/__init__.py": "",
        "pkg/m0.py": "from celery import Celery\napp = Celery('x')\nt0 = app.task()\n",
        "pkg/tasks.py": "from .m299 import t299 as wire\n\n\n@wire\ndef wire_funds():\n    pass\n",
    }
    files |= {f"pkg/m{k}.py": f"from .m{k - 1} import t{k - 1} as t{k}\n" for k in range(1, 300)}
    _write(tmp_path, files)
    ledger = extract_ledger(load_config(root=tmp_path))
    assert ledger.jobs == ()
    assert [(u.path, u.line, u.pattern) for u in ledger.unsupported] == [
        ("pkg/tasks.py", 4, Pattern.TOO_COMPLEX)
    ]


def test_forty_thousand_exclude_patterns_leave_out_exactly_what_they_name(tmp_path: Path) -> None:
    patterns = [f"pkg/gen_{i:05d}.py" for i in range(40_000)] + ["*.tmp[0-9]", "!keep_*"]
    files = {"pkg/__init__.py": ""}
    files |= {f"pkg/gen_{i:05d}.py": "" for i in range(0, 40_000, 400)}
    files |= {f"pkg/mod_{i:03d}.py": "" for i in range(100)}
    _write(tmp_path, files)
    quoted = ", ".join(f'"{p}"' for p in patterns)
    (tmp_path / "pyproject.toml").write_text(f"[tool.jobledger]\nexclude = [{quoted}]\n")
    from pytest_jobledger.extract.discovery import Excludes, iter_source_files

    config = load_config(root=tmp_path)
    found = [
        s.rel_path
        for s in iter_source_files(tmp_path, ["."], Excludes(config.extraction.all_excludes))
    ]
    assert found == ["pkg/__init__.py", *(f"pkg/mod_{i:03d}.py" for i in range(100))]


def test_nested_one_mebibyte_gitignore_files_leave_out_what_they_list(tmp_path: Path) -> None:
    lines = "\n".join(f"ignored_{i:06d}.py" for i in range(58_500))
    assert len(lines) > 1024 * 1024
    files = {"pyproject.toml": "[tool.jobledger]\nrespect_gitignore = true\n"}
    for depth in range(4):
        folder = "/".join(["pkg"] + [f"d{k}" for k in range(depth)])
        files[f"{folder}/.gitignore"] = lines[: 1024 * 1024 - 1]
        files[f"{folder}/__init__.py"] = ""
        files[f"{folder}/ignored_{depth:06d}.py"] = ""
        files[f"{folder}/tasks.py"] = (
            "from celery import shared_task\n\n\n@shared_task\ndef f():\n    pass\n"
        )
    _write(tmp_path, files)
    ledger = extract_ledger(load_config(root=tmp_path))
    assert sorted(job.path for job in ledger.jobs) == sorted(
        f"{'/'.join(['pkg'] + [f'd{k}' for k in range(depth)])}/tasks.py" for depth in range(4)
    )


_PART = st.sampled_from(["a", "b", "ab", "x.py", "build", ".venv", "gen_1", "a b", "!a", "#a"])
_GLOB = st.sampled_from(["*", "**", "?", "[ab]", "[!a]", "*.py", "a*", "[a-c]b", "\\!a", "\\*"])
_PATTERN = st.builds(
    lambda neg, lead, parts, trail: (
        ("!" if neg else "") + ("/" if lead else "") + "/".join(parts) + trail
    ),
    st.booleans(),
    st.booleans(),
    st.lists(st.one_of(_PART, _GLOB), min_size=1, max_size=4),
    st.sampled_from(["", "/", "/**", " ", "\\ "]),
)
_PATH = st.lists(
    st.sampled_from(["a", "b", "ab", "x.py", "build", "gen_1", "a b", "!a"]), min_size=1, max_size=4
).map("/".join)


@given(st.lists(_PATTERN, max_size=8), _PATH, st.booleans())
def test_the_indexed_matcher_agrees_with_pathspec(
    patterns: list[str], path: str, is_dir: bool
) -> None:
    """Folder patterns are decided on folders; for a file the matcher may skip them only when
    no pattern negates (as before), so the comparison is on folders, or on files with all."""
    try:
        spec = pathspec.GitIgnoreSpec.from_lines(patterns)
    except ValueError:
        with pytest.raises(ValueError, match="pattern"):  # refused as configuration too
            _Layer.of(patterns)
        return
    layer = _Layer.of(patterns)
    candidate = path + "/" if is_dir else path
    if is_dir or layer.negations:
        assert layer.check(candidate, is_dir) == spec.check_file(candidate).include
    else:
        kept = [p for p in patterns if not p.rstrip().endswith(("/", "/**"))]
        expected = pathspec.GitIgnoreSpec.from_lines(kept).check_file(candidate).include
        assert layer.check(candidate, is_dir) == expected


def test_a_long_run_of_letters_beside_text_past_ascii_is_read_in_linear_time(
    tmp_path: Path,
) -> None:
    """A module with one character past ASCII and a 300 KB run of letters (a blob in a string):
    whether its names are as written is read in one pass (the pattern that looked ahead for the
    character past ASCII from each letter of the run took minutes at 20,000)."""
    blob = "a" * 300_000
    _write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/tasks.py": "from celery import Celery\napp = Celery('x')\n"
            f'NOTE = "é"\nBLOB = "{blob}"\n\n\n@app.task(queue="billing")\ndef wire():\n'
            "    pass\n",
        },
    )
    (tmp_path / "pyproject.toml").write_text("[tool.jobledger]\nmax_file_bytes = 1000000\n")
    ledger = extract_ledger(load_config(root=tmp_path))
    assert [(job.id, job.queue) for job in ledger.jobs] == [("pkg.tasks.wire", "billing")]
