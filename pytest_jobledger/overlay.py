"""Read the human-signed overlay: located values, or one located error that says what to fix.

The overlay is read with ruamel.yaml (YAML 1.2, round-trip mode for line numbers) and its shape is
checked with the JSON Schema shipped in ``schemas/overlay.schema.json``. What sits inside one job's
entry is left to the join, so each cell gets its own item and its own message; here only the shape
of the file is judged. PyYAML reads the same text once more, only to record how a YAML 1.1 reader
would see each cell (an unquoted ``yes`` is ``True`` there).

Refused on purpose, each with a located message: files over :data:`MAX_OVERLAY_BYTES` (an overlay
is hand-written; a huge one is the wrong file or generated), anchors and aliases (each job's promise
is written out in full, and aliases let a small file expand without bound), keys that are not text,
duplicate keys, and more than one document.
"""

from __future__ import annotations

import datetime
import json
import re
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import yaml as pyyaml
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.constructor import DuplicateKeyError
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from .errors import OverlayError

#: About 4,000 fully signed jobs; ruamel's round-trip reader takes about two seconds for this much.
MAX_OVERLAY_BYTES = 1024 * 1024

SCHEMA_RESOURCE = "schemas/overlay.schema.json"

#: Far beyond any real overlay (it needs three levels); deeper flow nesting is refused unparsed.
MAX_FLOW_DEPTH = 64
_FLOW_BRACKET = re.compile(r"[\[\]{}]")


class _Missing:
    """How a YAML 1.1 reader sees a cell it could not find (a key it reads differently)."""

    def __repr__(self) -> str:
        return "<missing>"


MISSING: Any = _Missing()


@dataclass(frozen=True)
class Cell:
    """One ``key: value`` line of a job's entry, with how both YAML versions read the value.

    ``value`` is the YAML 1.2 reading as plain Python (str, int, float, bool, None, date, list,
    dict); ``yaml11`` is PyYAML's reading of the same text.
    """

    key: str
    value: Any
    key_line: int
    value_line: int
    yaml11: Any = MISSING

    @property
    def same_in_yaml11(self) -> bool:
        return self.yaml11 is MISSING or same_value(self.value, self.yaml11)


@dataclass(frozen=True)
class Entry:
    """A job id in the overlay and the cells written under it, in file order."""

    job: str
    line: int
    cells: tuple[Cell, ...] = ()

    def get(self, key: str) -> Cell | None:
        for cell in self.cells:
            if cell.key == key:
                return cell
        return None


@dataclass(frozen=True)
class Overlay:
    """The overlay as written; ``exists`` is False when the file is not there yet (no entries)."""

    path: str
    entries: tuple[Entry, ...] = ()
    exists: bool = True

    def by_id(self) -> dict[str, Entry]:
        return {entry.job: entry for entry in self.entries}


def schema() -> dict[str, Any]:
    """The published overlay schema (what editors use through ``yaml-language-server``)."""
    return json.loads(_schema_text())  # type: ignore[no-any-return]


@lru_cache(maxsize=1)
def _schema_text() -> str:
    return resources.files("pytest_jobledger").joinpath(SCHEMA_RESOURCE).read_text("utf-8")


@lru_cache(maxsize=1)
def _shape_validator() -> jsonschema.protocols.Validator:
    """The published schema with each entry's inside left open: the join judges it cell by cell."""
    document = schema()
    document["$defs"]["entry"] = {"type": ["object", "null"]}
    cls = jsonschema.validators.validator_for(document)
    cls.check_schema(document)
    return cls(document)


def load_overlay(path: Path, display: str, *, max_bytes: int = MAX_OVERLAY_BYTES) -> Overlay:
    """Read the overlay file; a missing file is an empty overlay, anything unusable an error."""
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return Overlay(path=display, exists=False)
    except OSError as exc:
        raise OverlayError(f"cannot read the overlay: {exc.strerror}", path=display) from exc
    if not path.is_file():
        raise OverlayError(
            "the overlay path is not a file; check `overlay` in [tool.jobledger]", path=display
        )
    if size > max_bytes:
        raise OverlayError(
            f"the overlay is {size:,} bytes, over the {max_bytes:,}-byte limit; an overlay is "
            "hand-written policy, so this is probably the wrong file (check `overlay` in "
            "[tool.jobledger])",
            path=display,
            line=1,
        )
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise OverlayError(f"cannot read the overlay: {exc.strerror}", path=display) from exc
    return parse_overlay(raw, display, max_bytes=max_bytes)


def parse_overlay(raw: bytes | str, display: str, *, max_bytes: int = MAX_OVERLAY_BYTES) -> Overlay:
    """Parse overlay text (bytes are UTF-8, a BOM is allowed) into located entries."""
    if isinstance(raw, bytes):
        if len(raw) > max_bytes:
            raise OverlayError(
                f"the overlay is over the {max_bytes:,}-byte limit", path=display, line=1
            )
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = raw[: exc.start].count(b"\n") + 1
            raise OverlayError(
                "the overlay is not UTF-8 text; save it as UTF-8", path=display, line=line
            ) from exc
    else:
        text = raw
    _refuse_deep_flow_nesting(text, display)
    data = _load_yaml12(text, display)
    if data is None:
        return Overlay(path=display)
    _refuse_aliases_and_odd_keys(data, display)
    _check_shape(data, display)
    yaml11 = _load_yaml11(text, display)
    jobs = data.get("jobs") if isinstance(data, CommentedMap) else None
    if not isinstance(jobs, CommentedMap):
        return Overlay(path=display)
    jobs11 = _get(yaml11, "jobs")
    entries = []
    for job_id, body in jobs.items():
        line = jobs.lc.key(job_id)[0] + 1
        body11 = _get(jobs11, job_id)
        cells: list[Cell] = []
        if isinstance(body, CommentedMap):
            for key, value in body.items():
                key_line = body.lc.key(key)[0] + 1
                value_line = key_line if value is None else body.lc.value(key)[0] + 1
                cells.append(
                    Cell(
                        key=str(key),
                        value=to_plain(value),
                        key_line=key_line,
                        value_line=value_line,
                        yaml11=_get(body11, key),
                    )
                )
        entries.append(Entry(job=str(job_id), line=line, cells=tuple(cells)))
    return Overlay(path=display, entries=tuple(entries))


def _refuse_deep_flow_nesting(text: str, display: str) -> None:
    """Refuse ``[[[[...`` before parsing: the YAML scanner slows down badly on deep flow nesting."""
    depth = 0
    for match in _FLOW_BRACKET.finditer(text):
        if match.group() in "[{":
            depth += 1
            if depth > MAX_FLOW_DEPTH:
                raise OverlayError(
                    f"brackets ([ or {{) nest more than {MAX_FLOW_DEPTH} deep; an overlay holds "
                    "`jobs:`, job ids and their cells, three levels in all",
                    path=display,
                    line=text.count("\n", 0, match.start()) + 1,
                )
        elif depth:
            depth -= 1


def _load_yaml12(text: str, display: str) -> Any:
    reader = YAML(typ="rt")
    reader.allow_duplicate_keys = False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            return reader.load(text)
    except DuplicateKeyError as exc:
        raise OverlayError(
            _duplicate_message(exc), path=display, line=_mark_line(exc, text)
        ) from exc
    except MarkedYAMLError as exc:
        raise OverlayError(_syntax_message(exc), path=display, line=_mark_line(exc, text)) from exc
    except RecursionError as exc:
        raise OverlayError(
            "the overlay is nested too deeply to be an overlay; it holds `jobs:`, job ids, "
            "and their cells, three levels in all",
            path=display,
            line=1,
        ) from exc
    except (YAMLError, Warning) as exc:
        raise OverlayError(f"not valid YAML: {exc}", path=display, line=1) from exc


def _load_yaml11(text: str, display: str) -> Any:
    loader = getattr(pyyaml, "CSafeLoader", pyyaml.SafeLoader)
    try:
        return pyyaml.load(text, Loader=loader)
    except pyyaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 1
        raise OverlayError(
            "YAML 1.1 readers (PyYAML) cannot read this file, though YAML 1.2 readers can; "
            f"the overlay must mean the same to both: {getattr(exc, 'problem', exc)}",
            path=display,
            line=line,
        ) from exc


def _mark_line(exc: MarkedYAMLError, text: str) -> int:
    mark = exc.problem_mark or exc.context_mark
    line = mark.line + 1 if mark is not None else 1
    # "found '<stream end>'" points past the last line; name the last line there is.
    return max(1, min(line, len(text.splitlines())))


def _duplicate_message(exc: DuplicateKeyError) -> str:
    match = re.search(r'found duplicate key "(.*?)" with value', str(exc.problem))
    key = match.group(1) if match else "?"
    first = exc.context_mark.line + 1 if exc.context_mark is not None else None
    where = f" in the mapping that starts at line {first}" if first else ""
    return (
        f"duplicate key {key!r}{where}: a key may appear once in a mapping, and YAML readers "
        "disagree about which copy wins; merge the two into one"
    )


def _syntax_message(exc: MarkedYAMLError) -> str:
    parts = [str(part) for part in (exc.context, exc.problem) if part]
    detail = "; ".join(parts) if parts else "syntax error"
    return f"not valid YAML: {detail}"


def _refuse_aliases_and_odd_keys(data: Any, display: str) -> None:
    """Walk every node once: no anchors or aliases, and every mapping key is text."""
    seen: set[int] = set()
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        node, line = stack.pop()
        anchor = getattr(node, "anchor", None)
        if getattr(anchor, "value", None) is not None or (id(node) in seen and _is_container(node)):
            raise OverlayError(
                "anchors and aliases (&name, *name, <<: *name) are not allowed in the overlay: "
                "write each job's promise out in full (aliases also let a small file expand "
                "without bound)",
                path=display,
                line=line,
            )
        if not _is_container(node):
            continue
        seen.add(id(node))
        if isinstance(node, CommentedMap):
            if getattr(node, "merge", None):
                raise OverlayError(
                    "merge keys (<<: *name) are not allowed in the overlay: write each job's "
                    "promise out in full",
                    path=display,
                    line=node.lc.line + 1,
                )
            for key, value in node.items():
                key_line = node.lc.key(key)[0] + 1
                if not isinstance(key, str):
                    raise OverlayError(
                        f"the key {_short(key)} is {_describe(key)}, not text; job ids and cell "
                        f'names must be text: quote it ("{_short(key, quote=False)}")',
                        path=display,
                        line=key_line,
                    )
                stack.append((value, key_line))
        else:
            for index, value in enumerate(node):
                stack.append((value, node.lc.item(index)[0] + 1))


def _is_container(node: Any) -> bool:
    return isinstance(node, (dict, list))


def _check_shape(data: Any, display: str) -> None:
    plain = to_plain(data)
    errors = sorted(_shape_validator().iter_errors(plain), key=lambda e: list(map(str, e.path)))
    if not errors:
        return
    error = jsonschema.exceptions.best_match(errors)
    path = list(error.absolute_path)
    line = _line_of(data, path)
    where = _where(path)
    if error.validator == "type":
        message = f"{where} must be a mapping (key: value lines), not {_describe(error.instance)}"
        if not path:
            message += "; the overlay starts with `jobs:` and one entry per job id under it"
    elif error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = set(error.schema.get("properties", {}))
        extra = sorted(key for key in error.instance if key not in allowed)
        key = extra[0] if extra else "?"
        line = _line_of(data, [*path, key])
        message = f"unknown key {key!r} at {where}; the overlay's only top-level key is `jobs:`"
    elif error.validator in ("propertyNames", "minLength"):
        line = _line_of(data, [*path, ""])
        message = f"an empty job id under {where}; write the job's id from the ledger"
    else:  # pragma: no cover - the shape schema has no other keyword
        message = f"{where}: {error.message[:200]}"
    raise OverlayError(
        f"{message} (schema: pytest_jobledger/{SCHEMA_RESOURCE})", path=display, line=line
    )


def _where(path: list[Any]) -> str:
    if not path:
        return "the top level"
    if len(path) == 1:
        return f"`{path[0]}`"
    return f"the entry for {path[1]}"


def _line_of(data: Any, path: list[Any]) -> int:
    """The 1-based line of the node at ``path`` (the line of its key), or 1 for the top."""
    line = 1
    node = data
    for part in path:
        if isinstance(node, CommentedMap) and part in node:
            line = node.lc.key(part)[0] + 1
            node = node[part]
        elif isinstance(node, CommentedSeq) and isinstance(part, int) and part < len(node):
            line = node.lc.item(part)[0] + 1
            node = node[part]
        else:
            break
    return line


def _get(container: Any, key: Any) -> Any:
    if isinstance(container, dict) and key in container:
        return container[key]
    return MISSING


def to_plain(value: Any) -> Any:
    """ruamel's round-trip values as plain Python values (str, int, float, bool, None, ...)."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        return str(value)
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


def _family(value: Any) -> str:
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
    ):
        if isinstance(value, types):
            return name
    return type(value).__name__


def same_value(a: Any, b: Any) -> bool:
    """Equal and of the same kind: ``True`` and ``"yes"`` differ, and so do ``1`` and ``True``."""
    family = _family(a)
    if family != _family(b):
        return False
    if family == "map":
        return a.keys() == b.keys() and all(same_value(a[key], b[key]) for key in a)
    if family == "list":
        return len(a) == len(b) and all(map(same_value, a, b))
    if family == "float" and a != a and b != b:  # both NaN
        return True
    return bool(a == b)


def _describe(value: Any) -> str:
    family = _family(value)
    return {
        "null": "empty (null)",
        "bool": f"the YAML boolean {str(value).lower()}",
        "int": f"the number {value}",
        "float": f"the number {value}",
        "str": f"the text {_short(value)}",
        "datetime": "a timestamp",
        "date": "a date",
        "map": "a mapping",
        "list": "a list",
    }.get(family, f"a {family}")


def _short(value: Any, *, quote: bool = True) -> str:
    text = value if isinstance(value, str) else str(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return repr(text) if quote else text


def describe_value(value: Any) -> str:
    """How a message names a value a user wrote: 'the text 'x'', 'the YAML boolean true', ..."""
    return _describe(value)
