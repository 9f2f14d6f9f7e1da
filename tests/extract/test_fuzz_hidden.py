"""Issue 21's property: every reference to a job decorator is a row or a located problem.

The strategy writes registrations hidden in the shapes a real tree or a hostile pull request uses
(alias chains of any length in one module or across modules, a package re-exporting its app, an
app imported inside the registering function, a subclass of a decorator class behind
``functools.partial``, Huey's ``context_task``, positional presets, and a job decorator used as a
value or in a decorator expression, in plain or fullwidth spelling), and the reference is plain:
each registration is a job at its line or an unsupported entry at its line, never silence, with
and without the pre-filter. CI runs the derandomized ``ci`` profile (``tests/conftest.py``).
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from pytest_jobledger.extract import extract
from pytest_jobledger.ledger.model import Ledger
from pytest_jobledger.project import load_config

APP = 'from celery import Celery\n\napp = Celery("fz")\n'


@dataclass(frozen=True)
class Hidden:
    """Files to write and the registrations in them: (path, function, line)."""

    files: dict[str, str]
    registrations: tuple[tuple[str, str, int], ...]


def _decorated(decorator: str, function: str, head: str = "") -> tuple[str, int]:
    text = f"{head}\n\n@{decorator}\ndef {function}():\n    pass\n"
    return text, text.count("\n", 0, text.index("@")) + 1


def chain(n: int, k: int) -> Hidden:
    lines = "".join(f"a{i} = a{i - 1}\n" for i in range(1, k))
    head = f'from fz.app import app\n\na0 = app.task(queue="q{n}")\n{lines}'
    text, line = _decorated(f"a{k - 1}", f"job_{n}", head)
    return Hidden({f"fz/chain_{n}.py": text}, ((f"fz/chain_{n}.py", f"job_{n}", line),))


def modules(n: int, k: int) -> Hidden:
    files = {f"fz/m{n}_0.py": "from fz.app import app\n\nt0 = app.task()\n"}
    for i in range(1, k):
        files[f"fz/m{n}_{i}.py"] = f"from fz.m{n}_{i - 1} import t{i - 1} as t{i}\n"
    text, line = _decorated("wire", f"job_{n}", f"from fz.m{n}_{k - 1} import t{k - 1} as wire")
    files[f"fz/use_{n}.py"] = text
    return Hidden(files, ((f"fz/use_{n}.py", f"job_{n}", line),))


def reexport(n: int, k: int) -> Hidden:
    package = f"fz/pkg_{n}"
    text, line = _decorated(f"app.task(max_retries={k})", f"job_{n}", f"from fz.pkg_{n} import app")
    files = {
        f"{package}/__init__.py": "from .app import app\n",
        f"{package}/app.py": APP,
        f"fz/reexport_{n}.py": text,
    }
    return Hidden(files, ((f"fz/reexport_{n}.py", f"job_{n}", line),))


def local_import(n: int, k: int) -> Hidden:
    body = "    from fz.app import app\n" + "".join(f"    b{i} = {k}\n" for i in range(k % 3))
    text = f"def setup_{n}():\n{body}\n    @app.task\n    def job_{n}():\n        pass\n"
    line = text.count("\n", 0, text.index("@")) + 1
    return Hidden({f"fz/local_{n}.py": text}, ((f"fz/local_{n}.py", f"job_{n}", line),))


def subclass(n: int, k: int) -> Hidden:
    classes = f"class J{n}_0(decorators.job):\n    pass\n\n\n"
    classes += "".join(f"class J{n}_{i}(J{n}_{i - 1}):\n    pass\n\n\n" for i in range(1, k))
    head = (
        f"from functools import partial\n\nfrom rq import decorators\n\n\n{classes}"
        f"job_{n}_alias = partial(J{n}_{k - 1}, connection=None)"
    )
    text, line = _decorated(f'job_{n}_alias("q{n}")', f"job_{n}", head)
    return Hidden({f"fz/sub_{n}.py": text}, ((f"fz/sub_{n}.py", f"job_{n}", line),))


def context(n: int, k: int) -> Hidden:
    head = (
        "from huey import RedisHuey\n\nhuey = RedisHuey()\nctx = object()\n"
        f"ctx_task = huey.context_task(ctx, retries={k})"
    )
    text, line = _decorated("ctx_task", f"job_{n}", head)
    return Hidden({f"fz/ctx_{n}.py": text}, ((f"fz/ctx_{n}.py", f"job_{n}", line),))


def preset(n: int, k: int) -> Hidden:
    head = f'from rq.decorators import job\n\nq{n} = job("q{k}", timeout={k})'
    text, line = _decorated(f"q{n}", f"job_{n}", head)
    return Hidden({f"fz/preset_{n}.py": text}, ((f"fz/preset_{n}.py", f"job_{n}", line),))


def expression(n: int, k: int) -> Hidden:
    """A job decorator used as a value or in a decorator expression the parser does not follow
    (subscripted, mapped, stored, fetched by getattr, returned, passed on), some spelled in
    fullwidth letters that CPython reads as ``task`` (NFKC)."""
    task = "\uff54\uff41\uff53\uff4b" if n % 2 else "task"
    head = f"from fz.app import app\n\n\ndef job_{n}():\n    pass\n\n\n"
    statement = [
        f"(job_{n}_t,) = map(app.{task}, [job_{n}])\n",
        f'REG_{n} = {{"job": app.{task}}}\n',
        f'reg_{n} = getattr(app, "task")\n',
        f"def hand_{n}():\n    return app.{task}\n",
        f"wrapped_{n} = apply_{n}(job_{n}, app.{task})\n",
        f"@[app.{task}][0]\ndef deco_job_{n}():\n    pass\n",
    ][(n + k) % 6]
    text = head + statement
    line = head.count("\n") + 1 + (1 if statement.startswith("def hand") else 0)
    function = f"deco_job_{n}" if statement.startswith("@") else f"job_{n}"
    return Hidden({f"fz/expr_{n}.py": text}, ((f"fz/expr_{n}.py", function, line),))


SHAPES: tuple[Callable[[int, int], Hidden], ...] = (
    chain,
    modules,
    reexport,
    local_import,
    subclass,
    context,
    preset,
    expression,
)


@st.composite
def trees(draw: st.DrawFn) -> Hidden:
    files: dict[str, str] = {"fz/__init__.py": "", "fz/app.py": APP}
    registrations: list[tuple[str, str, int]] = []
    for n in range(draw(st.integers(min_value=1, max_value=4))):
        shape = draw(st.sampled_from(SHAPES))
        length = draw(st.sampled_from([1, 2, 3, 9, 12, 30]))
        hidden = shape(n, length)
        files |= hidden.files
        registrations += hidden.registrations
    return Hidden(files, tuple(registrations))


def _ledgers(hidden: Hidden) -> tuple[Ledger, Ledger]:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "pyproject.toml").write_text("[tool.jobledger]\n")
        for rel, text in hidden.files.items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(text, encoding="utf-8")
        config = load_config(root=root).without_cache()
        return extract(config).ledger, extract(config, prefilter=False).ledger


@given(trees())
def test_every_hidden_registration_is_a_row_or_a_located_problem(hidden: Hidden) -> None:
    ledger, unfiltered = _ledgers(hidden)
    assert ledger.dumps() == unfiltered.dumps()
    rows = {(job.path, job.function, job.line) for job in ledger.jobs}
    located = {(item.path, item.line) for item in ledger.unsupported}
    silent = [
        f"{path}:{line} {function}"
        for path, function, line in hidden.registrations
        if (path, function, line) not in rows and (path, line) not in located
    ]
    assert not silent, f"registrations with no row and no located problem: {silent}"
