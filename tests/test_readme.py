"""The contents list of the reference page (docs/reference.md, once the README): every link
lands on a section, in the order the sections come."""

from __future__ import annotations

import re
from pathlib import Path

#: The README is a short front page; the reference it used to be is this docs page.
README = Path(__file__).parents[1] / "docs" / "reference.md"


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    kept = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return kept.replace(" ", "-")


def test_the_contents_list_links_every_section_in_order() -> None:
    text = README.read_text(encoding="utf-8")
    contents = text[text.index("Contents:") : text.index("\n\n", text.index("Contents:"))]
    links = re.findall(r"\]\(#([^)]+)\)", contents)
    sections = [slug(line[3:]) for line in text.splitlines() if line.startswith("## ")]
    assert set(links) <= set(sections), set(links) - set(sections)
    assert links == [name for name in sections if name in links]
    assert set(sections) - set(links) == set(), "a section the contents list does not name"
