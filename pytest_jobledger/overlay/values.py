"""Values a person wrote in YAML: as plain Python, compared across YAML versions, and described.

Messages name a value the way a reviewer thinks of it ("the YAML boolean true", "the text 'x'"),
so a finding explains what a reader saw, not which Python type it became.
"""

from __future__ import annotations

import datetime
import sys
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from typing import Any

from ..core.text import clip


def _tagged_scalar() -> type[Any]:
    """ruamel's ``TaggedScalar``, or a class nothing is an instance of while ruamel.yaml is not
    imported (then no value can be one): ``list`` or ``verdict`` without an overlay pays nothing."""
    comments = sys.modules.get("ruamel.yaml.comments")
    return comments.TaggedScalar if comments is not None else _Missing


class _Missing:
    """How a YAML 1.1 reader sees a cell it could not find (a key it reads differently)."""

    def __repr__(self) -> str:
        return "<missing>"


MISSING: Any = _Missing()

STR_TAG = "tag:yaml.org,2002:str"


def to_plain(value: Any) -> Any:
    """ruamel's round-trip values as plain Python values (str, int, float, bool, None, ...)."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        return str(value)
    if isinstance(value, _tagged_scalar()) and str(value.tag.value) == STR_TAG:
        return str(value.value)  # ``!!str 5``: the text "5", as every reader reads it
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    if isinstance(value, datetime.datetime):
        return datetime.datetime.fromisoformat(value.isoformat())
    if isinstance(value, Mapping):
        return {to_plain(key): to_plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_plain(item) for item in value]
    return value


def family(value: Any) -> str:
    """The kind of YAML value: null, bool, int, float, str, datetime, date, map, list, binary,
    set or tagged (a scalar with a tag ruamel keeps as written)."""
    if value is None:
        return "null"
    for name, types in (
        ("bool", bool),
        ("int", int),
        ("float", float),
        ("str", str),
        ("datetime", datetime.datetime),
        ("date", datetime.date),
        ("map", Mapping),
        ("list", (list, tuple)),
        ("binary", (bytes, bytearray)),
        ("set", AbstractSet),
        ("tagged", _tagged_scalar()),
    ):
        if isinstance(value, types):
            return name
    return type(value).__name__


def same_value(a: Any, b: Any) -> bool:
    """Equal and of the same kind: ``True`` and ``"yes"`` differ, and so do ``1`` and ``True``."""
    kind = family(a)
    if kind != family(b):
        return False
    if kind == "map":
        return a.keys() == b.keys() and all(same_value(a[key], b[key]) for key in a)
    if kind == "list":
        return len(a) == len(b) and all(map(same_value, a, b))
    if kind == "float" and a != a and b != b:  # both NaN
        return True
    return bool(a == b)


def describe_value(value: Any) -> str:
    """How a message names a value a user wrote: 'the text 'x'', 'the YAML boolean true', ..."""
    kind = family(value)
    return {
        "null": "empty (null)",
        "bool": f"the YAML boolean {str(value).lower()}",
        "int": f"the number {value}",
        "float": f"the number {value}",
        "str": f"the text {short(value)}",
        "datetime": "a timestamp",
        "date": "a date",
        "map": "a mapping",
        "list": "a list",
        "binary": "binary data (a !!binary value)",
        "set": "a set (a !!set value)",
        "tagged": f"a value tagged {_tag_of(value)}",
    }.get(kind, "a value of an unusual YAML type")


def _tag_of(value: Any) -> str:
    tag = str(getattr(getattr(value, "tag", None), "value", None) or "?")
    return tag.replace("tag:yaml.org,2002:", "!!")


def short(value: Any, *, quote: bool = True) -> str:
    """``value`` as text of at most 60 characters, quoted with ``repr`` unless told otherwise."""
    text = clip(value if isinstance(value, str) else str(value), 60, ellipsis="...")
    return repr(text) if quote else text
