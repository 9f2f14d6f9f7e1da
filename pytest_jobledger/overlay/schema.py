"""The overlay schema: generated from the cell vocabulary and the configuration, for editors.

:func:`build_schema` writes one property per cell of the :class:`~.cells.Vocabulary` (its kind
gives its shape; allowed values are an ``enum``), the configured required cells as ``required``
and the blocked values as answers that are not a signature. ``jobledger schema`` writes it for a
project's configuration; the packaged ``schemas/overlay.schema.json`` is what it gives for the
default one (a test keeps them equal). The gate judges each entry's cells itself (one item per
cell), so for the file's shape it uses the packaged schema with every entry left open.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from .cells import CELLS, CellKind, CellSpec, Vocabulary

if TYPE_CHECKING:
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
    import jsonschema  # the validator, only where an overlay's shape is checked

    document = schema()
    document["$defs"]["entry"] = {"type": ["object", "null"]}
    cls = jsonschema.validators.validator_for(document)
    cls.check_schema(document)
    return cls(document)


_TITLE = "pytest-jobledger policy overlay"
_DESCRIPTION = (
    "Human-signed policy for background jobs, keyed by the job ids of the ledger. Only signed "
    "policy belongs here; queue, retries and time limits are read from the code into the ledger."
)
_KIND_NOTES = {
    CellKind.YES_NO: (
        'Exactly "yes" or "no", quoted: unquoted, YAML 1.1 readers such as PyYAML read yes/no '
        "as booleans."
    ),
    CellKind.DATE: "Written YYYY-MM-DD (quoted or not); a day in the future is refused.",
    CellKind.WHOLE_NUMBER: "An unquoted whole number, 0 or more.",
    CellKind.TEXT: "",
}
_DATE_PATTERN = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"


def build_schema(vocabulary: Vocabulary, blocked_values: tuple[str, ...]) -> dict[str, Any]:
    """The overlay schema for one configuration, as data."""
    properties = {name: _cell_schema(spec) for name, spec in vocabulary.cells.items()}
    entry: dict[str, Any] = {
        "description": "The signed cells of one job. Every required cell must hold a real answer.",
        "type": ["object", "null"],
        "additionalProperties": False,
        "properties": properties,
    }
    if vocabulary.required:
        entry["required"] = list(vocabulary.required)
    signed: dict[str, Any] = {"type": "string", "pattern": "\\S"}
    words = sorted({value.strip() for value in blocked_values if value.strip()}, key=str.casefold)
    if words:
        alternatives = "|".join(_any_case(word) for word in words)
        group = alternatives if len(words) == 1 else f"(?:{alternatives})"
        signed["not"] = {"pattern": f"^\\s*{group}\\s*$"}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": _TITLE,
        "description": _DESCRIPTION,
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "jobs": {
                "description": (
                    "One entry per job id of the ledger (module path plus function name, e.g. "
                    "acme.billing.tasks.capture_invoice)."
                ),
                "type": ["object", "null"],
                "propertyNames": {"minLength": 1},
                "additionalProperties": {"$ref": "#/$defs/entry"},
            }
        },
        "$defs": {"entry": entry, "signed": signed},
    }


def render_schema(vocabulary: Vocabulary, blocked_values: tuple[str, ...]) -> str:
    """The schema file's exact text: sorted keys, two-space indent, trailing newline."""
    document = build_schema(vocabulary, blocked_values)
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def _cell_schema(spec: CellSpec) -> dict[str, Any]:
    note = _KIND_NOTES[spec.kind]
    description = f"{spec.description} {note}".strip()
    if spec.kind is CellKind.YES_NO:
        return {"description": description, "enum": ["yes", "no"]}
    if spec.kind is CellKind.DATE:
        return {"description": description, "type": "string", "pattern": _DATE_PATTERN}
    if spec.kind is CellKind.WHOLE_NUMBER:
        return {"description": description, "type": "integer", "minimum": 0}
    if spec.allowed:
        builtin = CELLS.get(spec.name)
        whose = (
            "its" if builtin is not None and builtin.allowed == spec.allowed else "the configured"
        )
        return {
            "description": f"{description} One of {whose} values.",
            "enum": list(spec.allowed),
        }
    return {"description": description, "$ref": "#/$defs/signed"}


def _any_case(word: str) -> str:
    """``unknown`` as ``[Uu][Nn]...``: JSON Schema patterns (ECMA 262) have no ``(?i)``."""
    parts = []
    for char in word:
        if char.lower() != char.upper():
            parts.append(f"[{char.upper()}{char.lower()}]")
        elif char.isspace():
            parts.append("\\s")
        elif char.isalnum() or char == "_":
            parts.append(char)
        else:
            parts.append("\\" + char)
    return "".join(parts)
