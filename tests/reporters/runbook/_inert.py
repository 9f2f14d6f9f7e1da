"""What a real CommonMark parser (markdown-it-py, which MyST builds on) makes of a page.

The runbook may contain exactly four kinds of markup of its own: each job's empty anchor
``<a id="job-...">``, the ``<br>`` of a multi-line table cell, code as HTML (``<code>`` inline, a
one-line ``<pre><code>`` block) around entity text, and links to a job's anchor or a framework's
documentation. Anything else (an HTML node, a link, an image, a heading, a table row
with the wrong number of cells) can only have come from the repository's text.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from markdown_it import MarkdownIt
from markdown_it.token import Token

from pytest_jobledger.reporters.runbook.defaults import DEFAULTS

ANCHOR = re.compile(r'<a id="job-[a-z0-9-]+"></a>')
#: How the parser splits an anchor: its open tag and its close tag, each an inline HTML node.
ANCHOR_PARTS = re.compile(r'<a id="job-[a-z0-9-]+">|</a>')
DOC_URLS = {row.url for row in DEFAULTS}
#: The page's own code markup: the tags only, or a whole one-line block of entity text.
CODE = re.compile(r"</?code>|<pre><code>[^<>]*</code></pre>")


def parser() -> MarkdownIt:
    """CommonMark with GitHub's tables and strikethrough, raw HTML on (as GitHub and MyST)."""
    return MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])


def walk(tokens: list[Token]) -> Iterator[Token]:
    for token in tokens:
        yield token
        if token.children:
            yield from walk(token.children)


@dataclass
class Parsed:
    html: list[str] = field(default_factory=list)
    links: list[str] = field(default_factory=list)
    images: list[str] = field(default_factory=list)
    headings: list[str] = field(default_factory=list)
    bad_rows: list[str] = field(default_factory=list)
    anchors: set[str] = field(default_factory=set)


def inspect(text: str) -> Parsed:
    """Every HTML node, link, image and heading of ``text``, and the table rows whose cell count
    differs from their table's header."""
    tokens = parser().parse(text)
    found = Parsed()
    width = 0
    cells = 0
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            found.headings.append(tokens[index + 1].content)
        elif token.type == "thead_open":
            width = 0
        elif token.type == "th_open":
            width += 1
        elif token.type == "tr_open":
            cells = 0
        elif token.type == "td_open":
            cells += 1
        elif token.type == "tr_close" and cells and cells != width:
            found.bad_rows.append(str(token.map))
    for token in walk(tokens):
        if token.type in ("html_inline", "html_block"):
            found.html.append(token.content.strip())
        elif token.type == "link_open":
            found.links.append(str(token.attrs.get("href", "")))
        elif token.type == "image":
            found.images.append(str(token.attrs.get("src", "")))
    found.anchors = {match.group()[7:-6] for match in ANCHOR.finditer(text)}
    return found


def foreign_markup(text: str) -> list[str]:
    """Markup the page did not put there itself: empty when every hostile byte stayed text."""
    found = inspect(text)
    problems = [
        f"html {html!r}"
        for html in found.html
        if html != "<br>" and not ANCHOR_PARTS.fullmatch(html) and not CODE.fullmatch(html)
    ]
    if found.html.count("</a>") != len(ANCHOR.findall(text)):
        problems.append("an </a> that closes no anchor of the page")
    for href in found.links:
        if not (href.startswith("#") and href[1:] in found.anchors) and href not in DOC_URLS:
            problems.append(f"link {href!r}")
    problems += [f"image {src!r}" for src in found.images]
    problems += [f"table row {row} has the wrong number of cells" for row in found.bad_rows]
    return problems


def readable(text: str) -> str:
    """``text`` as a reader of the Markdown source would write it: ``<code>x</code>`` as a code
    span, entities as their characters. For asserting what a page says, not how it is escaped;
    a decoded pipe may split a table row again, so table structure is checked on the raw text."""
    spans = re.sub(r"<code>([^<>]*)</code>", lambda match: f"`{match.group(1)}`", text)
    return html.unescape(spans)
