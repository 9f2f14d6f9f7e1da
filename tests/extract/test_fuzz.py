"""Fuzzing the extractor with generated sources: registrations of every framework, mixed with
ordinary code, hostile nesting, odd encodings and bytes that are not Python.

For every generated tree the extractor must not crash, must give the same ledger twice, must
write a ledger every later stage can encode, and must not drop a registration a simple reference
can see: each registration the generator wrote is a job at its line, an unsupported entry at its
line, or covered by a problem for its whole file (it could not be read or parsed).

CI runs the derandomized ``ci`` profile (``tests/conftest.py``); the exploratory run is in
DEVELOPERS.md ("Property and fuzz tests: extraction"). Every failure found becomes an
``@example`` here or a case folder under ``tests/cases/extract/``.
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass
from pathlib import Path

from hypothesis import example, given
from hypothesis import strategies as st

from pytest_jobledger.extract import extract, extract_ledger
from pytest_jobledger.extract.limits import MAX_DEPTH, measure
from pytest_jobledger.ledger.model import Ledger, Pattern
from pytest_jobledger.project import load_config

#: Problems about a whole file: every registration in it is covered by one of them.
FILE_PROBLEMS = {
    Pattern.SYNTAX_ERROR,
    Pattern.DECODE_ERROR,
    Pattern.UNREADABLE,
    Pattern.FILE_TOO_LARGE,
    Pattern.TOO_COMPLEX,
}

WORKER = '''"""The apps the generated modules register on."""

import dramatiq
from celery import Celery
from huey import RedisHuey

app = Celery("fz")
huey = RedisHuey("fz")
billing_task = app.task(queue="billing")
'''

IMPORTS = """# a module of the fuzz test (line 1 may become a coding cookie)
from celery import shared_task
from huey.contrib.djhuey import db_task
from rq.decorators import job

import dramatiq
from fz.worker import app, billing_task, huey

QUEUE = "orders"


def login_required(view):
    return view

"""

#: A registration: decorator lines above ``def {name}()``; ``None`` marks call-style forms.
DECORATORS = (
    "@app.task",
    "@app.task(queue={value})",
    "@shared_task(queue={value}, max_retries=3)",
    "@dramatiq.actor(queue_name={value})",
    '@job("low", timeout={value})',
    "@huey.task(retries={value})",
    "@db_task()",
    "@billing_task",
)
CALL_FORMS = (
    "{name} = app.task({name}, queue={value})",
    "{name} = shared_task({name})",
    "app.task(queue={value})({name})",
)


# -- hostile pieces ----------------------------------------------------------------------------

_WRAPPERS = (
    "({})",
    "f({})",
    "[{}]",
    "{{1: {}}}",
    "-{}",
    "not {}",
    "(lambda: {})",
    "{} + 1",
    'f"{{ {} }}"',  # spaced: ``{{`` would be an escaped brace, not a field
    "a.b({})",
    "({} if a else 2)",
)


@st.composite
def values(draw: st.DrawFn) -> str:
    """A decorator argument: a literal, a name, or something nested up to past the limit."""
    leaf = draw(
        st.sampled_from(['"q"', "QUEUE", "60", "'q\\udfff'", 'b"raw"', '"caf\u00e9"', "1.5"])
    )
    depth = draw(st.sampled_from([0, 0, 0, 1, 3, 20, MAX_DEPTH // 2, MAX_DEPTH + 20]))
    wrappers = draw(st.lists(st.sampled_from(_WRAPPERS), min_size=depth, max_size=depth))
    value = leaf
    for wrapper in wrappers:
        value = wrapper.format(value)
    return value


docstrings = st.lists(
    st.sampled_from(["a", " ", "é", "\\udfff", "\\x00", "\\n", "'", "€", "\t"]), max_size=12
).map("".join)


@dataclass(frozen=True)
class Registration:
    function: str
    line: int


@dataclass(frozen=True)
class Module:
    text: str
    registrations: tuple[Registration, ...]


@st.composite
def modules(draw: st.DrawFn, index: int) -> Module:
    lines = IMPORTS.splitlines()
    registrations: list[Registration] = []
    for n in range(draw(st.integers(min_value=1, max_value=6))):
        kind = draw(st.sampled_from(["decorated", "call", "noise", "noise", "elif", "rebind"]))
        name = f"job_{index}_{n}"
        if kind == "decorated":
            decorator = draw(st.sampled_from(DECORATORS)).format(value=draw(values()))
            stacked = draw(st.booleans())
            lines += ["", ""]
            if stacked:
                lines.append("@login_required")
            registrations.append(Registration(name, len(lines) + 1))
            lines += [decorator, f"def {name}(order_id):", f'    """{draw(docstrings)}"""']
        elif kind == "call":
            lines += ["", "", f"def {name}(order_id):", f'    """{draw(docstrings)}"""', "", ""]
            form = draw(st.sampled_from(CALL_FORMS))
            registrations.append(Registration(name, len(lines) + 1))
            lines.append(form.format(name=name, value=draw(values())))
        elif kind == "noise":
            lines += ["", f"value_{n} = {draw(values())}", f"# {draw(docstrings)}"]
        elif kind == "elif":
            length = draw(st.sampled_from([1, 10, 300]))
            lines += ["if QUEUE:", "    pass"] + ["elif QUEUE:", "    pass"] * length
        else:  # a second binding of the app: its later registrations are ambiguous, not lost
            lines += ["", "app = app"]
    return Module("\n".join(lines) + "\n", tuple(registrations))


@st.composite
def encodings(draw: st.DrawFn, text: str) -> bytes:
    """The module's bytes as an editor might save them, or with bytes that are not Python."""
    style = draw(st.sampled_from(["utf-8", "bom", "crlf", "cr", "latin-1", "tabs", "nul", "bad"]))
    lines = text.split("\n")
    if style == "bom":
        return b"\xef\xbb\xbf" + text.encode("utf-8")
    if style == "crlf":
        return "\r\n".join(lines).encode("utf-8")
    if style == "cr":
        return "\r".join(lines).encode("utf-8")
    if style == "latin-1":
        try:
            return "\n".join(["# -*- coding: latin-1 -*-", *lines[1:]]).encode("latin-1")
        except UnicodeEncodeError:
            return text.encode("utf-8")
    if style == "tabs":
        return "\n".join(line.replace("    ", "\t") for line in lines).encode("utf-8")
    if style in ("nul", "bad"):
        at = draw(st.integers(min_value=0, max_value=len(lines) - 1))
        lines[at] += "\x00" if style == "nul" else "\udcff"
        return "\n".join(lines).encode("utf-8", "surrogateescape")
    return text.encode("utf-8")


@st.composite
def trees(draw: st.DrawFn) -> dict[str, tuple[bytes, tuple[Registration, ...]]]:
    files: dict[str, tuple[bytes, tuple[Registration, ...]]] = {}
    for index in range(draw(st.integers(min_value=1, max_value=3))):
        module = draw(modules(index))
        files[f"fz/tasks_{index}.py"] = (draw(encodings(module.text)), module.registrations)
    return files


# -- the properties ----------------------------------------------------------------------------


def _extract(
    files: dict[str, tuple[bytes, tuple[Registration, ...]]],
) -> tuple[Ledger, Ledger, Ledger]:
    """The ledger twice (the second from the content cache), and the ledger without the
    pre-filter (every file parsed, every place judged)."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "pyproject.toml").write_text("[tool.jobledger]\n")
        (root / "fz").mkdir()
        (root / "fz" / "__init__.py").write_text("")
        (root / "fz" / "worker.py").write_text(WORKER)
        for name, (data, _) in files.items():
            (root / name).write_bytes(data)
        config = load_config(root=root)
        reference = extract(config.without_cache(), prefilter=False)
        return extract_ledger(config), extract_ledger(config), reference.ledger


def _dropped(ledger: Ledger, path: str, registration: Registration) -> bool:
    if any(
        job.path == path and job.function == registration.function and job.line == registration.line
        for job in ledger.jobs
    ):
        return False
    return not any(
        item.path == path and (item.line == registration.line or item.pattern in FILE_PROBLEMS)
        for item in ledger.unsupported
    )


@given(trees())
@example(
    {
        "fz/tasks_0.py": (
            (
                IMPORTS + "\n\n@app.task(queue='q\\udfff')\ndef job_0_0(order_id):\n    'x'\n"
            ).encode(),
            (Registration("job_0_0", IMPORTS.count("\n") + 3),),
        )
    }
)
def test_the_extractor_never_crashes_drops_or_wavers(
    files: dict[str, tuple[bytes, tuple[Registration, ...]]],
) -> None:
    first, second, unfiltered = _extract(files)
    assert first.dumps() == second.dumps() == unfiltered.dumps()
    text = first.dumps()
    assert Ledger.from_json(json.loads(text.encode("utf-8"))) == first
    dropped = [
        f"{path}:{registration.line} {registration.function}"
        for path, (_, registrations) in files.items()
        for registration in registrations
        if _dropped(first, path, registration)
    ]
    assert not dropped, f"registrations with no row and no problem: {dropped}\n{text}"
    for item in first.unsupported:
        data = files.get(item.path, (b"", ()))[0]
        assert 1 <= item.line <= max(data.count(b"\n"), data.count(b"\r")) + 1, item


# -- the scanner alone ---------------------------------------------------------------------------


@given(st.text(max_size=400))
def test_the_scanner_reads_any_text(text: str) -> None:
    cost = measure(text)
    for line in (cost.too_deep_line, cost.too_much_work_line, cost.stray_line):
        assert line is None or 1 <= line <= len(text.splitlines()) + 1


@st.composite
def nested(draw: st.DrawFn) -> tuple[str, int]:
    """An expression with a known number of nesting levels, each of a kind libcst recurses on."""
    depth = draw(st.integers(min_value=0, max_value=MAX_DEPTH + 50))
    kinds = ("({})", "f({})", "[{}]", "{{1: {}}}", "-{}", "not {}", "(lambda: {})", 'f"{{ {} }}"')
    value = "x"
    for kind in draw(st.lists(st.sampled_from(kinds), min_size=depth, max_size=depth)):
        value = kind.format(value)
    return f"value = {value}\n", depth


@given(nested())
@example(("value = -not x\n", 2))  # found by the fuzzer: a prefix operator nests what precedes it
@example(('value = f"{ {1: x} }"\n', 2))  # a spaced field, not the escaped brace ``{{``
def test_the_scanner_sees_at_least_the_real_nesting(source: tuple[str, int]) -> None:
    text, depth = source
    cost = measure(text)
    refused = cost.too_deep_line is not None or cost.too_much_work_line is not None
    assert refused or cost.depth >= depth
    if depth > MAX_DEPTH:
        assert refused
