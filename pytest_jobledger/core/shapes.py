"""A quick strict check of a record against a JSON Schema of the small subset the trail's
packaged schemas use, so appending a verdict need not import a schema validator.

:func:`conforms` answers ``True`` only when the record surely matches (every keyword of the
subset checked as JSON Schema 2020-12 defines it), ``False`` when it surely does not, and
``None`` when the schema uses anything else (``$ref``, ``oneOf``, ``format`` assertions, ...) or
the record holds a value whose comparison it leaves to the validator. Only ``True`` is acted
on: the caller asks the full validator in every other case (and for the messages it shows).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

#: Keywords that say nothing about validity.
_ANNOTATIONS = frozenset({"$schema", "$id", "title", "description", "$comment", "examples"})
#: Keywords checked here; a schema with any other is left to the full validator.
_CHECKED = frozenset(
    {
        "type",
        "properties",
        "required",
        "additionalProperties",
        "maxProperties",
        "items",
        "minLength",
        "maxLength",
        "pattern",
        "const",
        "enum",
        "minimum",
    }
)


class _Unsure(Exception):
    """The schema or the value is beyond what this check decides."""


def conforms(schema: Mapping[str, Any], instance: object) -> bool | None:
    """Whether ``instance`` matches ``schema``, or ``None``: ask the full validator."""
    try:
        return _check(schema, instance)
    except _Unsure:
        return None


def _check(schema: object, value: object) -> bool:
    if schema is True:
        return True
    if schema is False:
        return False
    if not isinstance(schema, Mapping):
        raise _Unsure
    unknown = set(schema) - _CHECKED - _ANNOTATIONS
    if unknown:
        raise _Unsure
    if "type" in schema and not _typed(schema["type"], value):
        return False
    if isinstance(value, str):
        if "minLength" in schema and len(value) < _whole(schema["minLength"]):
            return False
        if "maxLength" in schema and len(value) > _whole(schema["maxLength"]):
            return False
        if "pattern" in schema and _pattern(schema["pattern"]).search(value) is None:
            return False
    if "const" in schema and not _same(schema["const"], value):
        return False
    if "enum" in schema:
        options = schema["enum"]
        if not isinstance(options, list) or not any(_same(option, value) for option in options):
            return False
    if "minimum" in schema and _number(value):
        limit = schema["minimum"]
        if not _number(limit):
            raise _Unsure
        if value < limit:
            return False
    if isinstance(value, Mapping):
        return _object(schema, value)
    if isinstance(value, list) and "items" in schema:
        return all(_check(schema["items"], item) for item in value)
    return True


def _object(schema: Mapping[str, Any], value: Mapping[Any, Any]) -> bool:
    properties = schema.get("properties", {})
    if not isinstance(properties, Mapping):
        raise _Unsure
    required = schema.get("required", [])
    if not isinstance(required, list) or any(name not in value for name in required):
        return False
    if "maxProperties" in schema and len(value) > _whole(schema["maxProperties"]):
        return False
    extra = schema.get("additionalProperties", True)
    for name, item in value.items():
        if not isinstance(name, str):
            raise _Unsure
        if name in properties:
            if not _check(properties[name], item):
                return False
        elif not _check(extra, item):
            return False
    return True


def _typed(expected: object, value: object) -> bool:
    names = expected if isinstance(expected, list) else [expected]
    return any(_is(name, value) for name in names)


def _is(name: object, value: object) -> bool:
    if name == "string":
        return isinstance(value, str)
    if name == "boolean":
        return isinstance(value, bool)
    if name == "null":
        return value is None
    if name == "object":
        return isinstance(value, Mapping)
    if name == "array":
        return isinstance(value, list)
    if name == "integer":
        if isinstance(value, float):
            raise _Unsure  # 1.0 is an integer to JSON Schema: the validator decides
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return _number(value)
    raise _Unsure


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _whole(limit: object) -> int:
    if not isinstance(limit, int) or isinstance(limit, bool):
        raise _Unsure
    return limit


def _same(expected: object, value: object) -> bool:
    """JSON equality of two texts or two whole numbers; anything else is the validator's."""
    for item in (expected, value):
        if not isinstance(item, str | int | type(None)) or isinstance(item, bool):
            raise _Unsure
    return type(expected) is type(value) and expected == value


@lru_cache(maxsize=256)
def _pattern(text: object) -> re.Pattern[str]:
    if not isinstance(text, str):
        raise _Unsure
    return re.compile(text)
