"""``--quote-yes-no``: a byte diff proves only the plain yes/no scalars changed, and a YAML 1.1
reader then agrees with the gate's YAML 1.2 reading."""

from __future__ import annotations

import difflib

import pytest
import yaml as pyyaml
from ruamel.yaml import YAML

from pytest_jobledger.stub.quoting import quote_yes_no

from ._cases import CASES

PATH = "overlays/job_policy.yaml"


def changed_spans(before: bytes, after: bytes) -> list[tuple[bytes, bytes]]:
    """Each differing span as (old bytes, new bytes), from a byte-level diff."""
    matcher = difflib.SequenceMatcher(a=before, b=after, autojunk=False)
    return [
        (before[i1:i2], after[j1:j2])
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal"
    ]


def scalar_spans(before: bytes, after: bytes) -> list[tuple[bytes, bytes]]:
    """The same diff regrouped by word: each changed word with the bytes around the change."""
    matcher = difflib.SequenceMatcher(a=before, b=after, autojunk=False)
    spans = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        assert tag == "insert", (tag, before[i1:i2], after[j1:j2])  # only quotes are added
        assert after[j1:j2] == b'"'
        spans.append((i1, j1))
    words = []
    for (i_open, j_open), (i_close, j_close) in zip(spans[::2], spans[1::2], strict=True):
        words.append((before[i_open:i_close], after[j_open : j_close + 1]))
    return words


def test_only_the_plain_yes_no_scalars_change_byte_for_byte() -> None:
    text = (CASES / "quote_yes_no" / "overlay.yaml").read_bytes().decode("utf-8")
    after, report = quote_yes_no(text, PATH)
    words = scalar_spans(text.encode("utf-8"), after.encode("utf-8"))
    assert words == [(b"yes", b'"yes"'), (b"NO", b'"NO"')]
    assert [(item.id, item.cell, item.value, item.line) for item in report] == [
        ("acme.billing.a_job", "idempotent", "yes", 3),
        ("acme.billing.b_job", "idempotent", "NO", 8),
    ]
    assert len(changed_spans(text.encode(), after.encode())) == 4  # two quotes around each


def test_a_yaml_11_reader_then_reads_the_same_text_as_the_gate() -> None:
    text = (CASES / "quote_yes_no" / "overlay.yaml").read_bytes().decode("utf-8")
    before_11 = pyyaml.safe_load(text)["jobs"]
    assert before_11["acme.billing.a_job"]["idempotent"] is True  # the disagreement
    after, _ = quote_yes_no(text, PATH)
    yaml_11 = pyyaml.safe_load(after)["jobs"]
    yaml_12 = YAML(typ="safe").load(after)["jobs"]
    assert yaml_11 == yaml_12
    assert yaml_12 == YAML(typ="safe").load(text)["jobs"]  # the gate's reading did not change


@pytest.mark.parametrize(
    "text",
    [
        'jobs:\n  a:\n    idempotent: "yes"\n',
        "jobs:\n  a:\n    idempotent: !!str yes\n",
        "jobs:\n  a:\n    nested:\n      deeper: yes\n",
        "yes: no\njobs:\n  a:\n    idempotent: 'no'\n",
        "jobs:\n  - yes\n",
    ],
    ids=["quoted", "tagged", "nested", "outside-jobs", "not-a-mapping"],
)
def test_anything_else_is_left_alone(text: str) -> None:
    assert quote_yes_no(text, PATH) == (text, ())


def test_crlf_and_a_bom_keep_their_bytes() -> None:
    text = "\ufeffjobs:\r\n  a:\r\n    idempotent: yes\r\n"
    after, _ = quote_yes_no(text, PATH)
    assert after == '\ufeffjobs:\r\n  a:\r\n    idempotent: "yes"\r\n'
