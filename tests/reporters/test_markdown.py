"""The one Markdown escaper: whatever a hostile repository writes stays text, proved by parsing
the output with a real CommonMark parser (markdown-it-py, as MyST does), and no template or
include syntax of the docs tools survives in the raw text (real builds: tests/docs/)."""

from __future__ import annotations

import html
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markdown_it.token import Token

from pytest_jobledger.core.text import one_line
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
#: What the template engines and include preprocessors of docs builds read in a page's raw text.
TEMPLATES = [
    "{{ config.extra }}",
    "{%- include 'x' %}",
    "{# swallowed #}",
    "{{x}}",
    "{role}`x`",
    "{eval-rst}",
    '--8<-- ".env"',
    ';--8<-- ".env"',
    "  -8<- secret",
    "--8<--",
    "{!.env!}",
    "{{ macros.x() }}",
    "```{include} ../.env\n```",
    ":::{note}",
    "@{{ x }}@",
]
SYNTAX = ("{", "}", "%", "`", "--8<", "-8<", "!", ":", "<script", "#")
#: Raw text of an inert piece: letters, digits, spaces, non-ASCII and entities, nothing else.
INERT = re.compile(r"(?:[^\x00-\x7f]|[A-Za-z0-9 ]|&#[0-9]+;)*")


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
    allowed = {"table_open", "html_inline"}
    assert {token.type for token in found} & (MARKUP - allowed) == set()
    html_made = [token.content for token in found if token.type == "html_inline"]
    assert set(html_made) <= {"<br>", "<code>", "</code>"}


@PROPERTY
@given(HOSTILE)
def test_a_code_span_holds_any_text(text: str) -> None:
    found = [token for token in tokens(code(text, in_table=False)) if token.type in MARKUP]
    assert [token.content for token in found] == ["<code>", "</code>"]
    inner = code(text).removeprefix("<code>").removesuffix("</code>")
    assert INERT.fullmatch(inner)
    assert html.unescape(inner) == " ".join(_shown(text))


@PROPERTY
@given(HOSTILE)
def test_a_fenced_block_holds_any_text(text: str) -> None:
    found = [token for token in tokens(fenced(text) + "\n\nafter") if token.type in MARKUP]
    assert [token.type for token in found] == ["html_block"]
    inner = fenced(text).removeprefix("<pre><code>").removesuffix("</code></pre>")
    assert INERT.fullmatch(inner.replace("&#10;", ""))
    assert html.unescape(inner).split("\n") == (_shown(text) or [""])


def _shown(text: str) -> list[str]:
    """The lines a reader sees: control characters as escapes, tabs as four spaces."""
    return [one_line(line.replace("\t", "    ")) for line in text.splitlines()]


@pytest.mark.parametrize("text", TEMPLATES)
def test_template_and_include_syntax_never_reaches_the_raw_page(text: str) -> None:
    for made in (
        escape_markdown(text),
        escape_line(text),
        code(text),
        fenced(text),
        paragraphs(text),
    ):
        raw = made.replace("<br>", "").replace("<code>", "").replace("</code>", "")
        raw = raw.replace("<pre>", "").replace("</pre>", "")
        for syntax in SYNTAX:
            assert syntax not in raw.replace("&#", ""), (text, made)


@PROPERTY
@given(HOSTILE)
def test_every_piece_is_letters_digits_and_entities(text: str) -> None:
    assert all(INERT.fullmatch(line) for line in escape_markdown(text).split("<br>"))
    assert INERT.fullmatch(escape_line(text))
    for line in paragraphs(text).splitlines():
        assert INERT.fullmatch(line.removesuffix("\\"))


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
    assert escape_line("- item") == "&#45; item"
    assert escape_line("12. item") == "12&#46; item"
    assert escape_line("=== x") == "&#61;&#61;&#61; x"
    assert escape_line("# h") == "&#35; h"


def test_multi_line_text_keeps_its_lines_and_paragraphs() -> None:
    assert paragraphs("one\ntwo\n\nthree") == "one\\\ntwo\n\nthree"
    assert paragraphs("one\ntwo", quote=True) == "> one\\\n> two"
