"""The published overlay schema (``schemas/overlay.schema.json``): what editors validate against.

The gate judges each entry's cells itself (one item per cell), so for the file's shape it uses the
schema with every entry left open.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

import jsonschema

#: Where the overlay schema sits inside the package.
SCHEMA_RESOURCE = "schemas/overlay.schema.json"


def schema_resource() -> Any:
    """The packaged schema file (a ``Traversable``; a real path in an installed package)."""
    return resources.files("pytest_jobledger").joinpath(SCHEMA_RESOURCE)


@lru_cache(maxsize=1)
def schema_text() -> str:
    """The packaged schema's exact text."""
    return str(schema_resource().read_text("utf-8"))


def schema() -> dict[str, Any]:
    """The published overlay schema as data."""
    return json.loads(schema_text())  # type: ignore[no-any-return]


@lru_cache(maxsize=1)
def shape_validator() -> jsonschema.protocols.Validator:
    """The published schema with each entry's inside left open: the join judges it cell by cell."""
    document = schema()
    document["$defs"]["entry"] = {"type": ["object", "null"]}
    cls = jsonschema.validators.validator_for(document)
    cls.check_schema(document)
    return cls(document)
