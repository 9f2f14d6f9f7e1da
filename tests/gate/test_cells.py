"""What counts as blank: one definition (gate/cells.py), used for every cell and blocked word."""

from __future__ import annotations

import pytest

from pytest_jobledger.gate.cells import is_blank, normal_text

BLANK = [
    "",
    " \t\n",
    "\u200b",  # zero-width space
    "\0",
    "\ufeff",  # byte order mark
    "\u00a0\u2007\u202f\u3000",  # no-break, figure, narrow no-break and ideographic spaces
    "\u2028\u2029\x85",  # line and paragraph separators, NEL
    "\u00ad",  # soft hyphen
    "\u200c\u200d\u2060",  # zero-width non-joiner, joiner, word joiner
    "\u200e\u200f\u202a\u202e\u2066\u2069",  # bidirectional marks and overrides
    "\u3164\u115f\u1160\uffa0",  # Hangul fillers
    "\u2800",  # the empty Braille pattern
    "\u034f\ufe0f",  # combining grapheme joiner, variation selector
]


@pytest.mark.parametrize("text", BLANK, ids=[ascii(text) for text in BLANK])
def test_only_characters_that_show_nothing_are_blank(text: str) -> None:
    assert is_blank(text)


@pytest.mark.parametrize("text", ["x", "\u200bops", "\x1b[0m", "-", "\u00b7", "\U0001f600"])
def test_anything_visible_is_not_blank(text: str) -> None:
    assert not is_blank(text)


def test_a_blocked_word_is_recognised_through_hidden_characters() -> None:
    assert normal_text(" Un\u200bknown\u00a0") == "unknown"
    assert normal_text("to  be\u00a0decided") == "to be decided"
