"""The one Markdown escaper: whatever a hostile repository writes stays text, proved by parsing
the output with a real CommonMark parser (markdown-it-py, as MyST does)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markdown_it.token import Token

from pytest_jobledger.reporters.markdown import (
    code,
    escape_line,
    escape_markdown,
    fenced,
    paragraphs,
)

from .runbook._inert import parser, walk

#: What Markdown and HTML are made of, plus newlines, control and bidi characters.
_PIECES = [*"#*_`~[]()<>!|&\\-+=:/.1 \n\t\r", "\x1b", "\x00", "\x07", "\u202e", "\u2028", "é"]
HOSTILE = st.lists(
    st.sampled_from([*_PIECES, "script", "javascript:", "<img ", "a", "www.", "http"]), max_size=40
).map("".join)
PROPERTY = settings(
    max_examples=100, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

EXAMPLES = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "[x](javascript:alert(1))",
    "![x](javascript:alert(1))",
    "# heading",
    "- item\n1. item\n> quote\n---\n===\n    code\n```\n~~~",
    "a | b | c",
    "`tick` and ``double``",
    "&lt;script&gt; &#60;",
    "<https://example.com>",
    "line\\",
    "\x1b[31mred\u202eevil",
]


def tokens(text: str) -> list[Token]:
    return list(walk(parser().parse(text)))


def kinds(text: str) -> set[str]:
    return {token.type for token in tokens(text)}


MARKUP = {
    "html_inline",
    "html_block",
    "link_open",
    "image",
    "heading_open",
    "bullet_list_open",
    "ordered_list_open",
    "blockquote_open",
    "hr",
    "code_block",
    "fence",
    "table_open",
    "em_open",
    "strong_open",
    "s_open",
    "code_inline",
}


@pytest.mark.parametrize("text", EXAMPLES)
def test_paragraphs_of_hostile_text_are_only_text(text: str) -> None:
    assert kinds(paragraphs(text)) & MARKUP == set()


@PROPERTY
@given(HOSTILE)
def test_paragraphs_never_make_markup(text: str) -> None:
    assert kinds(paragraphs(text)) & MARKUP == set()


@PROPERTY
@given(HOSTILE)
def test_a_quote_stays_one_quote(text: str) -> None:
    found = [token.type for token in tokens(paragraphs(text, quote=True))]
    assert found.count("blockquote_open") == (1 if text.strip() else 0)
    assert set(found) & (MARKUP - {"blockquote_open"}) == set()


@PROPERTY
@given(HOSTILE, HOSTILE)
def test_table_cells_keep_the_row_whole(left: str, right: str) -> None:
    row = f"| {escape_markdown(left)} | {code(right)} | {escape_line(right)} |"
    page = "| a | b | c |\n| --- | --- | --- |\n" + row + "\n"
    found = tokens(page)
    assert [token.type for token in found].count("td_open") == 3
    allowed = {"table_open", "code_inline", "html_inline"}
    assert {token.type for token in found} & (MARKUP - allowed) == set()
    assert all(token.content == "<br>" for token in found if token.type == "html_inline")


@PROPERTY
@given(HOSTILE)
def test_a_code_span_holds_any_text(text: str) -> None:
    found = [token for token in tokens(code(text, in_table=False)) if token.type in MARKUP]
    assert [token.type for token in found] == ["code_inline"]


@PROPERTY
@given(HOSTILE)
def test_a_fenced_block_holds_any_text(text: str) -> None:
    found = [token for token in tokens(fenced(text) + "\n\nafter") if token.type in MARKUP]
    assert [token.type for token in found] == ["fence"]
    assert found[0].content.count("\n") == len(text.splitlines())


def test_control_characters_are_shown_not_sent() -> None:
    for text in (
        escape_markdown("a\x1bb"),
        escape_line("a\x1bb"),
        code("a\x1bb"),
        fenced("a\x1bb"),
    ):
        assert "\x1b" not in text
        assert "x1b" in text
    assert "\u202e" not in paragraphs("bidi \u202e override")


def test_line_starts_that_would_open_a_block_are_escaped() -> None:
    assert escape_line("- item") == "\\- item"
    assert escape_line("12. item") == "12\\. item"
    assert escape_line("=== x") == "\\=== x"
    assert escape_line("# h") == "\\# h"


def test_multi_line_text_keeps_its_lines_and_paragraphs() -> None:
    assert paragraphs("one\ntwo\n\nthree") == "one\\\ntwo\n\nthree"
    assert paragraphs("one\ntwo", quote=True) == "> one\\\n> two"
