"""The scan that vouches for a file before libcst sees it: it sees every way code nests, is not
fooled by brackets in strings and comments, and names the line where a limit was crossed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from pytest_jobledger.extract.limits import MAX_DEPTH, measure
from pytest_jobledger.extract.tokens import line_of

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

#: Shapes libcst nests one level (or more) per repetition. Each crashed it, or cost it minutes
#: and gigabytes, at a few thousand repetitions.
NESTING: dict[str, Callable[[int], str]] = {
    "parentheses": lambda n: "x = " + "(" * n + "1" + ")" * n + "\n",
    "lists": lambda n: "x = " + "[" * n + "1" + "]" * n + "\n",
    "dicts": lambda n: "x = " + "{1: " * n + "1" + "}" * n + "\n",
    "calls": lambda n: "x = " + "f(" * n + ")" * n + "\n",
    "f-string fields": lambda n: "x = " + 'f"{' * n + "1" + '}"' * n + "\n",
    "format specs": lambda n: "x = f'{a:" + "{b:" * n + "}" * n + "}'\n",
    "lambdas": lambda n: "x = " + "lambda: " * n + "1\n",
    "unary minus": lambda n: "x = " + "-" * n + "1\n",
    "not": lambda n: "x = " + "not " * n + "1\n",
    "ternaries": lambda n: "x = " + "a if b else " * n + "c\n",
    "additions": lambda n: "x = " + " + ".join(["a"] * n) + "\n",
    "powers": lambda n: "x = " + " ** ".join(["2"] * n) + "\n",
    "attributes": lambda n: "x = a" + ".b" * n + "\n",
    "subscripts": lambda n: "x = a" + "[0]" * n + "\n",
    "call chains": lambda n: "x = f" + "()" * n + "\n",
    "dotted imports": lambda n: "import a" + ".b" * n + "\n",
    "comprehensions": lambda n: "x = [a " + "for a in b " * n + "]\n",
    "elif chains": lambda n: "if a:\n    pass\n" + "elif a:\n    pass\n" * (4 * n),
    "indentation": lambda n: "".join(" " * i + "if a:\n" for i in range(n)) + " " * n + "pass\n",
}


@pytest.mark.parametrize("shape", sorted(NESTING))
def test_every_way_code_nests_is_seen(shape: str) -> None:
    """Past the depth limit, or past the work limit on the way there (a token deep in brackets
    costs the square of its depth), and in either case seen as deep."""
    cost = measure(NESTING[shape](MAX_DEPTH + 10))
    refused = cost.too_deep_line is not None or cost.too_much_work_line is not None
    assert refused, f"{shape}: depth {cost.depth}, work {cost.work}"
    assert cost.depth > MAX_DEPTH // 2


@pytest.mark.parametrize("shape", sorted(NESTING))
def test_modest_nesting_passes(shape: str) -> None:
    cost = measure(NESTING[shape](20))
    assert cost.too_deep_line is None
    assert cost.too_much_work_line is None


@pytest.mark.parametrize(
    "text",
    [
        'x = "' + "(" * 5000 + '"\n',
        "x = '''\n" + "[" * 5000 + "\n'''\n",
        "# " + "{" * 5000 + "\n",
        'x = f"{{' + "(" * 5000 + '"\n',
        'x = rb"\\"' + "(" * 5000 + '"\n',
        'x = "\\N{LEFT PARENTHESIS}' + "(" * 5000 + '"\n',
    ],
    ids=["string", "triple-quoted", "comment", "escaped brace", "escaped quote", "named escape"],
)
def test_brackets_in_strings_and_comments_do_not_count(text: str) -> None:
    assert measure(text).depth <= 1


def test_a_polynomial_is_as_deep_as_its_terms_not_its_operators() -> None:
    """``a*b*c + d*e*f + …`` nests one level per ``+``; the ``*`` inside each term start afresh
    (a sympy solver's hand-written polynomials are 60 terms of 5 factors)."""
    text = "x = " + " + ".join(["3*a**2*b*c*d"] * 60) + "\n"
    assert 55 <= measure(text).depth <= 70


def test_a_prefix_operator_nests_whatever_precedes_it() -> None:
    """``2 ** -2 ** -x`` is a power of a negation of a power…: each ``-`` applies to what
    follows, so it must not end the chain the way a binary ``-`` would (found by the fuzzer)."""
    text = "x = " + " ** -".join(["2"] * 120) + "\n"
    assert measure(text).depth >= 200


def test_the_line_where_the_limit_is_crossed_is_named() -> None:
    text = "import os\n\n\nx = " + "(" * (MAX_DEPTH + 5) + "1" + ")" * (MAX_DEPTH + 5) + "\n"
    assert measure(text).too_deep_line == 4


def test_work_grows_with_the_file_and_stops_at_the_limit() -> None:
    text = "value = f(1)\n" * 20_000
    assert measure(text, max_work=10**9).work > 100_000
    cost = measure(text, max_work=10_000)
    assert cost.too_much_work_line is not None
    assert cost.work <= 10_000 + 10


def test_deeply_nested_tokens_cost_more_than_flat_ones() -> None:
    flat = measure("x = f(1)\n" * 50).work
    nested = measure(("x = " + "f(" * 40 + ")" * 40 + "\n") * 5).work
    assert nested > 5 * flat


def test_blank_lines_and_comments_cost_work_too() -> None:
    """libcst keeps every blank and comment line as a node: a file of a million of them is not
    free, so it cannot slip past the work limit."""
    assert measure("\n" * 200_000).too_much_work_line is not None
    assert measure("#\n" * 200_000).too_much_work_line is not None


def test_the_first_character_that_starts_no_token_is_located() -> None:
    assert measure("x = 1\n\n\n\nx = 1\x00\n").stray_line == 5
    assert measure("x = 1\ny = $\n").stray_line == 2
    assert measure("x = 1\n\ny = 'unterminated\nz = 2\n").stray_line == 3
    assert measure("x = 1\n").stray_line is None


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_lines_are_counted_for_every_line_ending(newline: str) -> None:
    text = newline.join(["a", "b", "c", "d"])
    assert line_of(text, text.index("d")) == 4


def test_ordinary_code_is_far_within_the_limits() -> None:
    sources = sorted(EXAMPLES.rglob("*.py"))
    assert sources
    for path in sources:
        cost = measure(path.read_text("utf-8"))
        assert cost.depth < 30, path
        assert cost.too_much_work_line is None, path
