"""One writer: every file the tool writes goes through ``atomic.py``, and it refuses a
target outside the root, under ``.git``, behind a symlink at any level, or not a regular file.

The first half reads the package's source: a write anywhere else (``open(..., "w")``,
``write_text``, ``os.replace``, ``mkdir``, ``shutil.copy`` ...) fails the test, so a new report
cannot forget the rules. The second half plays a hostile pull request against each route: a
committed symlink where a report goes, a symlinked folder on the way, a ledger configured into
``.git/hooks``, a FIFO where the runner's files go; each is refused and nothing outside changes.
"""

from __future__ import annotations

import ast
import json
import os
import stat
import threading
from pathlib import Path

import pytest
from repo_files import copy_tracked

from pytest_jobledger.cli import main
from pytest_jobledger.core import atomic
from pytest_jobledger.core import outside as outside_writer
from pytest_jobledger.core.paths import UnsafeFile

PACKAGE = Path(__file__).resolve().parents[1] / "pytest_jobledger"
#: The one writer: inside the project (atomic.py) and outside any project (outside.py).
WRITERS = {PACKAGE / "core" / "atomic.py", PACKAGE / "core" / "outside.py"}
EXAMPLE = Path(__file__).parent.parent / "examples" / "celery"

#: Calls that write, whatever they are called on.
WRITING_METHODS = {"write_text", "write_bytes", "mkdir", "makedirs", "rename", "symlink_to"}
#: ``os.<name>`` calls that write.
WRITING_OS = {"replace", "rename", "renames", "makedirs", "mkdir", "mkfifo", "symlink", "link"}
#: ``shutil.<name>`` calls that write.
WRITING_SHUTIL = {"copy", "copy2", "copyfile", "copyfileobj", "copytree", "move", "copymode"}
WRITE_FLAGS = {"O_WRONLY", "O_RDWR", "O_CREAT", "O_APPEND", "O_TRUNC"}


def _mode(call: ast.Call, position: int) -> str | None:
    """The literal mode of an ``open`` call (``None``: read, the default)."""
    for keyword in call.keywords:
        if keyword.arg == "mode":
            value = keyword.value
            return value.value if isinstance(value, ast.Constant) else "?"
    if len(call.args) > position:
        value = call.args[position]
        return value.value if isinstance(value, ast.Constant) else "?"
    return None


def _owner(func: ast.expr) -> str | None:
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return func.value.id
    return None


def writes_in(source: str) -> list[str]:
    """Every call in ``source`` that writes a file or makes a folder (``line: what``)."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        owner = _owner(func)
        what: str | None = None
        if name == "open" and owner not in ("os", "Session"):
            # (``Session.open(config, ...)`` reads the project: it opens no file for writing.)
            # open(path, mode) or path.open(mode) / io.open(path, mode)
            position = 1 if isinstance(func, ast.Name) or owner in {"io", "builtins"} else 0
            mode = _mode(node, position)
            if mode is not None and (mode == "?" or set(mode) & set("wax+")):
                what = f"open(..., {mode!r})"
        elif name == "fdopen" and owner == "os":
            mode = _mode(node, 1)
            if mode is not None and (mode == "?" or set(mode) & set("wax+")):
                what = f"os.fdopen(..., {mode!r})"
        elif name == "open" and owner == "os":
            flags = {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)}
            if flags & WRITE_FLAGS:
                what = f"os.open with {', '.join(sorted(flags & WRITE_FLAGS))}"
        elif owner == "os" and name in WRITING_OS:
            what = f"os.{name}"
        elif owner == "shutil" and name in WRITING_SHUTIL:
            what = f"shutil.{name}"
        elif owner == "tempfile" and name in {"mkstemp", "NamedTemporaryFile", "mkdtemp"}:
            what = f"tempfile.{name}"
        elif isinstance(func, ast.Attribute) and name in WRITING_METHODS:
            what = f".{name}()"
        if what is not None:
            found.append(f"{node.lineno}: {what}")
    return found


MODULES = sorted(path for path in PACKAGE.rglob("*.py") if path not in WRITERS)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_writes_a_file_but_the_one_writer(path: Path) -> None:
    found = writes_in(path.read_text(encoding="utf-8"))
    assert not found, (
        f"{path.relative_to(PACKAGE)} writes outside the one writer (core/atomic.py, "
        f"core/outside.py): {found}; "
        "use atomic_write, open_append, make_folder, append_runner_file or write_scratch"
    )


@pytest.mark.parametrize(
    "line",
    [
        'open(p, "w")',
        "open(p, mode='a')",
        'p.open("x", encoding="utf-8")',
        "p.write_text('x')",
        "p.write_bytes(b'x')",
        "os.replace(a, b)",
        "os.rename(a, b)",
        "p.mkdir()",
        "os.makedirs(p)",
        "shutil.copy(a, b)",
        "os.open(p, os.O_WRONLY | os.O_CREAT)",
        "os.fdopen(fd, 'w')",
        "tempfile.mkstemp()",
    ],
)
def test_the_checker_sees_each_kind_of_write(line: str) -> None:
    assert writes_in(line), line


@pytest.mark.parametrize(
    "line", ['open(p, "rb")', "open(p)", "p.open()", "os.open(p, os.O_RDONLY)", "s.replace(a, b)"]
)
def test_the_checker_lets_reads_be(line: str) -> None:
    assert not writes_in(line)


# -- the writer's rules, one hole at a time ------------------------------------------------------

SECRET = "#!/bin/sh\necho the maintainer's own hook\n"


@pytest.fixture
def world(tmp_path: Path) -> tuple[Path, Path]:
    """A project and, beside it, a victim file that must stay as it is."""
    project, outside = tmp_path / "project", tmp_path / "outside"
    project.mkdir()
    outside.mkdir()
    (outside / "victim.sh").write_text(SECRET)
    (outside / "victim.sh").chmod(0o755)
    return project, outside


@pytest.mark.parametrize(
    "relative",
    [
        ".git/hooks/pre-commit",
        ".GIT/x",
        ".Git/config",
        ".git./x",
        ".git /x",
        "sub/.git/hooks/post-checkout",
        ".g\u200cit/hooks/pre-commit",
    ],
)
def test_nothing_is_written_under_a_git_folder(world: tuple[Path, Path], relative: str) -> None:
    project, _ = world
    with pytest.raises(UnsafeFile, match="folder"):
        atomic.atomic_write(project / relative, "x", root=project)
    assert list(project.iterdir()) == []  # not even the folders on the way


@pytest.mark.parametrize("name", [".git", ".GIT", ".git.", ".git  ", ".Git. .", ".g\ufeffit"])
def test_every_spelling_of_git_folds_to_it(name: str) -> None:
    assert atomic.is_git_name(name)


@pytest.mark.parametrize("name", [".github", "git", ".gitignore", "x.git", ".gitkeep"])
def test_names_near_git_are_not_it(name: str) -> None:
    assert not atomic.is_git_name(name)


def test_a_symlinked_parent_folder_is_refused(world: tuple[Path, Path]) -> None:
    project, outside = world
    (project / "reports").symlink_to(outside, target_is_directory=True)
    with pytest.raises(UnsafeFile, match=r"reports is a symlink .*outside the project root"):
        atomic.atomic_write(project / "reports" / "victim.sh", "pwned", root=project)
    assert (outside / "victim.sh").read_text() == SECRET


def test_a_symlink_deep_in_the_path_is_refused_even_inside_the_root(
    world: tuple[Path, Path],
) -> None:
    project, _ = world
    (project / "a" / "real").mkdir(parents=True)
    (project / "a" / "b").symlink_to(project / "a" / "real", target_is_directory=True)
    with pytest.raises(UnsafeFile, match="is a symlink"):
        atomic.atomic_write(project / "a" / "b" / "c" / "out.json", "{}", root=project)
    assert list((project / "a" / "real").iterdir()) == []


def test_a_folder_on_the_way_that_leaves_the_root_makes_nothing_outside(
    world: tuple[Path, Path],
) -> None:
    project, outside = world
    (project / "out").symlink_to(outside / "made", target_is_directory=True)  # dangling
    with pytest.raises(UnsafeFile, match="symlink"):
        atomic.make_folder(project / "out" / "by" / "us", root=project)
    assert not (outside / "made").exists()


def test_a_fifo_target_is_refused_without_opening_it(world: tuple[Path, Path]) -> None:
    project, _ = world
    os.mkfifo(project / "ledger.json")
    with pytest.raises(UnsafeFile, match="not a regular file"):
        atomic.atomic_write(project / "ledger.json", "{}", root=project)
    assert stat.S_ISFIFO((project / "ledger.json").lstat().st_mode)


def test_the_audit_append_refuses_a_fifo_and_a_symlink(world: tuple[Path, Path]) -> None:
    project, outside = world
    os.mkfifo(project / "audit.ndjson")
    with pytest.raises(UnsafeFile):
        atomic.open_append(project / "audit.ndjson", root=project)
    (project / "trail.ndjson").symlink_to(outside / "victim.sh")
    with pytest.raises(UnsafeFile, match="symlink"):
        atomic.open_append(project / "trail.ndjson", root=project)
    assert (outside / "victim.sh").read_text() == SECRET


def test_a_lock_is_never_taken_through_a_symlinked_folder(world: tuple[Path, Path]) -> None:
    project, outside = world
    (project / "overlays").symlink_to(outside, target_is_directory=True)
    with (
        pytest.raises(UnsafeFile, match="symlink"),
        atomic.locked(project / "overlays" / "job_policy.yaml", root=project),
    ):
        pass  # pragma: no cover - never reached


def test_an_operator_path_outside_the_root_is_written_but_never_through_a_link(
    world: tuple[Path, Path],
) -> None:
    project, outside = world
    atomic.atomic_write(outside / "new" / "report.json", "{}", root=project, named_by_operator=True)
    assert (outside / "new" / "report.json").read_text() == "{}"
    (outside / "link.json").symlink_to(outside / "victim.sh")
    with pytest.raises(UnsafeFile, match="symlink"):
        atomic.atomic_write(outside / "link.json", "pwned", root=project, named_by_operator=True)
    assert (outside / "victim.sh").read_text() == SECRET
    assert "outside the project root" in (atomic.refusal(outside / "x.json", root=project) or "")


# -- the runner's own files (GITHUB_STEP_SUMMARY and kin) ---------------------------------------


def test_a_runner_file_that_is_a_fifo_is_refused_without_waiting(tmp_path: Path) -> None:
    fifo = tmp_path / "summary"
    os.mkfifo(fifo)
    with pytest.raises(UnsafeFile, match="not a regular file"):
        outside_writer.append_runner_file(fifo, "x\n")


def test_a_runner_fifo_with_a_reader_is_refused_too(tmp_path: Path) -> None:
    """With a reader on the other end, a FIFO would open at once: the lstat refuses it first."""
    fifo = tmp_path / "summary"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        with pytest.raises(UnsafeFile, match="not a regular file"):
            outside_writer.append_runner_file(fifo, "x\n")
        assert os.read(reader, 10) == b""  # nothing was written into it
    finally:
        os.close(reader)


def test_a_runner_file_that_is_a_symlink_is_refused(world: tuple[Path, Path]) -> None:
    project, outside = world
    (project / "summary.md").symlink_to(outside / "victim.sh")
    with pytest.raises(UnsafeFile, match="symlink"):
        outside_writer.append_runner_file(project / "summary.md", "pwned\n")
    assert (outside / "victim.sh").read_text() == SECRET


def test_a_runner_file_is_appended_to(tmp_path: Path) -> None:
    target = tmp_path / "output.txt"
    outside_writer.append_runner_file(target, "a=1\n")
    outside_writer.append_runner_file(target, "b=2\n")
    assert target.read_text() == "a=1\nb=2\n"


# -- through the real routes ---------------------------------------------------------------------


def _example(root: Path) -> Path:
    copy_tracked(EXAMPLE, root)
    return root


def test_extract_never_replaces_a_git_hook_through_a_symlinked_ledger(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A committed ``generated/job_ledger.json -> ../.git/hooks/pre-commit`` stays inside the
    root, so the root rule alone let `jobledger extract` replace the maintainer's hook."""
    root = _example(tmp_path / "project")
    hooks = root / ".git" / "hooks"
    hooks.mkdir(parents=True)
    (hooks / "pre-commit").write_text(SECRET)
    ledger = root / "generated" / "job_ledger.json"
    ledger.unlink()
    ledger.symlink_to(Path("..") / ".git" / "hooks" / "pre-commit")
    assert main(["extract", "--root", str(root)]) == 2
    assert (hooks / "pre-commit").read_text() == SECRET
    assert "Traceback" not in capsys.readouterr().err


def test_render_refuses_a_symlinked_docs_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _example(tmp_path / "project")
    (root / "elsewhere").mkdir()
    (root / "docs").symlink_to(root / "elsewhere", target_is_directory=True)
    config = (root / "pyproject.toml").read_text()
    (root / "pyproject.toml").write_text(config)
    code = main(["render", "--root", str(root), "-o", str(root / "docs" / "jobs.md")])
    assert code in (1, 2)  # 1: the example's unsigned cells refuse first
    assert list((root / "elsewhere").iterdir()) == []


@pytest.fixture
def plugin_project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = _example(pytester.path / "shop")
    monkeypatch.chdir(root)
    for name in ("GITHUB_EVENT_PATH", "PYTEST_ADDOPTS", "GITHUB_STEP_SUMMARY", "GITHUB_OUTPUT"):
        monkeypatch.delenv(name, raising=False)
    return root


def test_a_committed_sarif_symlink_is_not_followed(
    pytester: pytest.Pytester, plugin_project: Path, tmp_path: Path
) -> None:
    victim = tmp_path / "victim.sh"
    victim.write_text(SECRET)
    victim.chmod(0o755)
    (plugin_project / "jobledger.sarif").symlink_to(victim)
    result = pytester.runpytest_subprocess(
        "--jobledger", "-m", "jobledger", "--jobledger-sarif", "jobledger.sarif", timeout=600
    )
    assert victim.read_text() == SECRET
    assert stat.S_IMODE(victim.stat().st_mode) == 0o755
    assert "symlink" in result.stderr.str()
    assert "Traceback" not in result.stderr.str()


def test_the_runner_files_as_fifos_never_hang_the_gate(
    pytester: pytest.Pytester, plugin_project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 27 item 8: the summary and the outputs as FIFOs (nobody reading) blocked forever."""
    summary, output = pytester.path / "summary.fifo", pytester.path / "output.fifo"
    os.mkfifo(summary)
    os.mkfifo(output)
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    monkeypatch.setenv("GITHUB_OUTPUT", str(output))
    opened = threading.Event()

    def reader_never_reads() -> None:  # a reader on the summary, so a plain open would succeed
        fd = os.open(summary, os.O_RDONLY | os.O_NONBLOCK)
        opened.set()
        done.wait()
        os.close(fd)

    done = threading.Event()
    thread = threading.Thread(target=reader_never_reads)
    thread.start()
    opened.wait()
    try:
        result = pytester.runpytest_subprocess("--jobledger", "-m", "jobledger", timeout=600)
    finally:
        done.set()
        thread.join()
    err = result.stderr.str()
    assert "could not write the job summary" in err
    assert "could not write the step outputs" in err
    assert "not a regular file" in err
    assert "Traceback" not in err
    assert stat.S_ISFIFO(summary.lstat().st_mode)
    assert stat.S_ISFIFO(output.lstat().st_mode)


def test_the_sarif_report_still_lands_inside_the_root(
    pytester: pytest.Pytester, plugin_project: Path
) -> None:
    pytester.runpytest_subprocess(
        "--jobledger", "-m", "jobledger", "--jobledger-sarif", "out/ledger.sarif", timeout=600
    )
    assert json.loads((plugin_project / "out" / "ledger.sarif").read_text())["version"] == "2.1.0"


def test_check_writes_its_report_through_the_one_writer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _example(tmp_path / "project")
    code = main(["check", "--root", str(root), "--format", "sarif", "-o", str(root / "out.sarif")])
    assert code in (0, 1)
    assert json.loads((root / "out.sarif").read_text())["version"] == "2.1.0"
    out, err = capsys.readouterr()
    assert out == ""
    assert "jobledger: wrote" in err


def test_check_refuses_a_symlinked_report_target(
    world: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    project, outside = world
    root = _example(project / "shop")
    (root / "jobledger.sarif").symlink_to(outside / "victim.sh")
    target = str(root / "jobledger.sarif")
    assert main(["check", "--root", str(root), "--format", "sarif", "-o", target]) == 2
    assert (outside / "victim.sh").read_text() == SECRET
    assert "is a symlink" in capsys.readouterr().err
