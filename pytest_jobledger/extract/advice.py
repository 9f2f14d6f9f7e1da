"""What a located problem says: a first line a person reads in one go (what, and where, in one
sentence of at most :data:`FIRST_LINE` characters), then, after a newline, the fix fitted to the
place. A place under a tests folder is test code: its fix is to leave the folder out of the scan
or accept the place, never to declare a test function as a job decorator.

Presenters that show one line per problem keep the first line and join the fix after it.
"""

from __future__ import annotations

from pathlib import PurePosixPath

import libcst as cst

from ..core.text import clip
from ..ledger.model import Pattern, Unsupported
from .matching import Match
from .records import Context, ModuleSummary, Reference, dotted_name
from .values import source_text

FIRST_LINE = 160
#: How much of a name or an expression a first line quotes.
NAME = 40

_TEST_FOLDERS = frozenset({"tests", "test", "testing"})


def in_tests(path: str) -> bool:
    """Whether ``path`` (relative, ``/``-separated) is test code by its folder or file name."""
    pure = PurePosixPath(path)
    name = pure.name
    return (
        any(part in _TEST_FOLDERS for part in pure.parts[:-1])
        or name.startswith("test_")
        or name.endswith("_test.py")
        or name == "conftest.py"
    )


def compose(first: str, fix: str) -> str:
    """The message: ``first`` (clipped to one readable line), a newline, then ``fix``."""
    return f"{clip(' '.join(first.split()), FIRST_LINE)}\n{fix}"


def accept(pattern: Pattern) -> str:
    return f"accept it here with '# jobledger: ignore[{pattern.value}] -- why'"


def fitted(path: str, pattern: Pattern, fix: str) -> str:
    """``fix`` for a place in the code base; for test code, the fix test code has."""
    if in_tests(path):
        return (
            "This is test code: leave its folder out of the scan ([tool.jobledger] exclude, or "
            f"narrower paths), or {accept(pattern)}"
        )
    return f"{fix}; or {accept(pattern)}; or exclude the file if it registers no job"


def short(text: str) -> str:
    return clip(text, NAME)


def declare(qualname: str, framework: str) -> str:
    """How to declare a function as the project's own job decorator: the exact table."""
    with_framework = f' with framework = "{framework}"' if framework != "custom" else ""
    return (
        f"If {qualname} is a decorator that registers the functions it wraps, declare it: add "
        f'[tool.jobledger.decorators."{qualname}"]{with_framework} to the configuration, and '
        "each function it decorates is listed as a job. Otherwise register the job at module "
        "level"
    )


def not_the_decorated(
    summary: ModuleSummary, line: int, context: Context, match: Match, name: str
) -> Unsupported:
    """A registration in a declared decorator's body of something other than the function
    it decorates: a factory's job, which exists only when the factory runs."""
    qualname = f"{summary.source.module}.{context.in_function[0]}"
    where = short(".".join(context.in_function))
    path = summary.source.rel_path
    return Unsupported(
        path,
        line,
        Pattern.FACTORY_REGISTRATION,
        compose(
            f"{short(match.decorator)} registers {short(name)} inside {where}(), "
            f"the body of the declared decorator {short(qualname)}, but not the "
            "function it decorates.",
            fitted(
                path,
                Pattern.FACTORY_REGISTRATION,
                f"{name} is none of the parameters of {qualname}, so the job exists only when "
                "that function runs. Register the job at module level",
            ),
        ),
    )


def context_problem(
    summary: ModuleSummary, line: int, context: Context, match: Match, name: str
) -> Unsupported | None:
    path = summary.source.rel_path
    if context.in_function:
        where = short(".".join(context.in_function))
        qualname = f"{summary.source.module}.{context.in_function[0]}"
        return Unsupported(
            path,
            line,
            Pattern.FACTORY_REGISTRATION,
            compose(
                f"{short(match.decorator)} registers {short(name)} inside "
                f"{where}(), so the job exists only when that function runs.",
                fitted(
                    path,
                    Pattern.FACTORY_REGISTRATION,
                    declare(qualname, match.framework),
                ),
            ),
        )
    if context.in_loop:
        return Unsupported(
            path,
            line,
            Pattern.LOOP_REGISTRATION,
            compose(
                f"{short(match.decorator)} registers {short(name)} inside a "
                "loop, so each pass registers a job the parser cannot name.",
                fitted(
                    path,
                    Pattern.LOOP_REGISTRATION,
                    "Write one module-level registration per job",
                ),
            ),
        )
    return None


def held(
    summary: ModuleSummary, site: Reference, held: tuple[Match, cst.BaseExpression]
) -> Unsupported:
    found, element = held
    container = dotted_name(site.node) or source_text(site.node, 40)
    spelled = dotted_name(element) or source_text(element, 40)
    path = summary.source.rel_path
    return Unsupported(
        path,
        site.line,
        Pattern.DYNAMIC_REGISTRATION,
        compose(
            f"The decorator of {short(site.target or '')} takes the {found.framework} "
            f"job decorator {short(spelled)} out of {short(container)}, which "
            "the parser cannot follow.",
            fitted(path, Pattern.DYNAMIC_REGISTRATION, f"Decorate the def with {spelled} itself"),
        ),
    )
