"""Read the human-signed overlay: located values, or one located error that says what to fix.

The overlay is read with ruamel.yaml (YAML 1.2, round-trip mode for line numbers) and its shape is
checked with the published schema (:mod:`.schema`). What sits inside one job's entry is left to the
join, so each cell gets its own item and its own message; here only the shape of the file is
judged. PyYAML reads the same text once more, only to record how a YAML 1.1 reader would see each
cell (an unquoted ``yes`` is ``True`` there).

Refused on purpose, each with a located message: files over ``max_overlay_bytes`` (an overlay
is hand-written; a huge one is the wrong file or generated), anchors and aliases (each job's promise
is written out in full, and aliases let a small file expand without bound), keys that are not text,
duplicate keys, and more than one document.

Timestamps are text. YAML 1.2 has no timestamp type (ruamel.yaml adds one; it is switched off
here), so an unquoted ``2024-05-01`` is the text it looks like, and a cell is judged from that
text: a ``reviewed_on`` day is validated by the gate, and a text cell that PyYAML would read as a
date fails as not the same text to every reader. PyYAML, which does read timestamps, reports a
day that does not exist (``2024-02-30``) as a located error instead of a crash.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from ..core.errors import OverlayError
from ..core.readers import Problem, Unreadable, guarded, parse_yaml, yaml_problem
from ..core.text import has_surrogate
from ..project.files import ProjectFile, refusal
from ..project.records import OVERLAY_BYTES_CEILING
from .model import Cell, Entry, Overlay
from .schema import SCHEMA_RESOURCE, shape_validator
from .values import MISSING, describe_value, short, to_plain

#: Far beyond any real overlay (it needs three levels); deeper flow nesting is refused unparsed.
MAX_FLOW_DEPTH = 64
_FLOW_BRACKET = re.compile(r"[\[\]{}]")


def refused_overlay(read: ProjectFile) -> OverlayError:
    """Why the overlay file the one reader refused cannot be used, located, with what to do."""
    message = refusal(read, "the overlay")
    if read.too_large:
        message += (
            "; an overlay is hand-written policy, so this may be the wrong file (check `overlay` "
            "in [tool.jobledger]); a project with that many jobs can raise `max_overlay_bytes` "
            f"there, up to {OVERLAY_BYTES_CEILING:,}"
        )
    elif read.line is None:
        message += "; check `overlay` in [tool.jobledger]"
    return OverlayError(
        message, path=read.display, line=read.line or (1 if read.too_large else None)
    )


def parse_overlay(text: str, display: str, *, events: list[Any] | None = None) -> Overlay:
    """Parse overlay text (as the one reader decoded it) into located entries; ``events`` gets
    ruamel's parse events of the same pass (the stub's layout, without a second parse)."""
    _refuse_deep_flow_nesting(text, display)
    data = _load_yaml12(text, display, events)
    if data is None:
        return Overlay(path=display)
    _refuse_aliases_and_odd_keys(data, display)
    _check_shape(data, display)
    yaml11 = _load_yaml11(text, display)
    from ruamel.yaml.comments import CommentedMap  # loaded by the parse above

    jobs = data.get("jobs") if isinstance(data, CommentedMap) else None
    if not isinstance(jobs, CommentedMap):
        return Overlay(path=display)
    jobs11 = _get(yaml11, "jobs")
    entries = []
    for job_id, body in jobs.items():
        line = _lc_line(jobs.lc.key(job_id), 1)
        body11 = _get(jobs11, job_id)
        cells: list[Cell] = []
        if isinstance(body, CommentedMap):
            for key, value in body.items():
                key_line = _lc_line(body.lc.key(key), line)
                value_line = key_line if value is None else _lc_line(body.lc.value(key), key_line)
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


@functools.cache
def _yaml11_loader() -> type[Any]:
    """PyYAML's safe loader; a timestamp that is no real day or time is a located error (made on
    first use: a command that reads no overlay does not import PyYAML)."""
    import yaml as pyyaml

    class YAML11Loader(getattr(pyyaml, "CSafeLoader", pyyaml.SafeLoader)):  # type: ignore[misc]
        def construct_yaml_timestamp(self, node: Any) -> Any:
            try:
                return super().construct_yaml_timestamp(node)
            except ValueError as exc:
                why = f"{node.value!r} is not a real date or time ({exc})"
                raise pyyaml.constructor.ConstructorError(None, None, why, node.start_mark) from exc

    timestamp = YAML11Loader.construct_yaml_timestamp
    YAML11Loader.add_constructor("tag:yaml.org,2002:timestamp", timestamp)
    return YAML11Loader


def load_strict(text: str, events: list[Any] | None = None) -> Any:
    """``text`` read as YAML 1.2 round-trip data, strictly: a duplicate key or a ruamel warning
    is refused, dates stay text. Raises :class:`~pytest_jobledger.core.readers.Unreadable` (whatever
    failed, located); each caller says what its file is. The overlay, the owners roster and the
    stub read YAML the same way."""
    return parse_yaml(text, events)


def _load_yaml12(text: str, display: str, events: list[Any] | None = None) -> Any:
    try:
        return load_strict(text, events)
    except Unreadable as exc:
        problem = exc.problem
        if problem.reason == "deep":
            detail = (
                "the overlay is nested too deeply to be an overlay; it holds `jobs:`, job ids, "
                "and their cells, three levels in all"
            )
        elif problem.reason in ("syntax", "encoding"):
            detail = f"not valid YAML: {problem.detail}"
        else:
            detail = problem.detail
        raise OverlayError(detail, path=display, line=problem.line) from None


def _load_yaml11(text: str, display: str) -> Any:
    import yaml as pyyaml

    def load(source: str) -> Any:
        return pyyaml.load(source, Loader=_yaml11_loader())

    try:
        return guarded(load, text, _yaml11_problem)
    except Unreadable as exc:
        raise OverlayError(
            "YAML 1.1 readers (PyYAML) cannot read this file, though YAML 1.2 readers can; "
            f"the overlay must mean the same to both: {exc.problem.detail}",
            path=display,
            line=exc.problem.line,
        ) from None


def _yaml11_problem(error: BaseException, text: str) -> Problem | None:
    """PyYAML's own errors, said by their problem alone (the second opinion is one clause)."""
    import yaml as pyyaml

    problem = yaml_problem(error, text)
    if problem is None or not isinstance(error, pyyaml.YAMLError):
        return problem
    return Problem(str(getattr(error, "problem", None) or error), problem.line)


def _refuse_aliases_and_odd_keys(data: Any, display: str) -> None:
    """Walk every node once: no anchors or aliases, and every mapping key is text."""
    from ruamel.yaml.comments import CommentedMap, CommentedOrderedMap

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
        if isinstance(node, CommentedOrderedMap):
            raise OverlayError(
                "an ordered mapping (!!omap): the overlay is plain `key: value` lines; remove "
                "the tag and write the mapping's keys as lines",
                path=display,
                line=line,
            )
        tag = _local_tag(node)
        if tag is not None:
            raise OverlayError(
                f"a value tagged {tag}: the overlay holds plain answers, and a YAML reader that "
                f"does not know the tag {tag} cannot read the file at all; remove the tag",
                path=display,
                line=line,
            )
        if not _is_container(node):
            if isinstance(node, str) and has_surrogate(node):
                raise _surrogate_error(node, display, line)
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
                key_line = _lc_line(node.lc.key(key), line)
                if not isinstance(key, str):
                    raise OverlayError(
                        f"the key {short(key)} is {describe_value(key)}, not text; job ids and "
                        f'cell names must be text: quote it ("{short(key, quote=False)}")',
                        path=display,
                        line=key_line,
                    )
                if has_surrogate(key):
                    raise _surrogate_error(key, display, key_line)
                stack.append((value, key_line))
        else:
            lc = getattr(node, "lc", None)  # ``!!pairs`` is a plain list of tuples
            for index, value in enumerate(node):
                stack.append((value, _lc_line(lc.item(index) if lc else None, line)))


def _lc_line(position: Any, fallback: int) -> int:
    """The 1-based line ruamel recorded (``(line, column)``), or ``fallback`` where it recorded
    none (inside ``!!omap`` and tagged collections)."""
    return int(position[0]) + 1 if position else fallback


def _local_tag(node: Any) -> str | None:
    """The tag of a node written with a local tag (``!custom``), else ``None``; the standard
    ``!!`` tags are left to the join, which describes what they make."""
    tag = getattr(getattr(node, "tag", None), "value", None)
    if isinstance(tag, str) and tag.startswith("!") and not tag.startswith("!!"):
        return tag
    return None


def _surrogate_error(text: str, display: str, line: int) -> OverlayError:
    """A ``\\udfff`` escape is half of a UTF-16 pair, not a character: no tool can print it or
    save it as UTF-8, and YAML 1.1 readers refuse it, so the overlay would mean different things."""
    return OverlayError(
        f"{short(text)} holds a lone surrogate escape (such as \\udfff): half of a "
        "UTF-16 pair, not a character, which no tool can print or save as UTF-8; write the "
        "character itself, or remove the escape",
        path=display,
        line=line,
    )


def _is_container(node: Any) -> bool:
    return isinstance(node, (dict, list))


def _check_shape(data: Any, display: str) -> None:
    plain = to_plain(data)
    errors = sorted(shape_validator().iter_errors(plain), key=lambda e: list(map(str, e.path)))
    if not errors:
        return
    from jsonschema.exceptions import best_match

    error = best_match(errors)
    path = list(error.absolute_path)
    line = _line_of(data, path)
    where = _where(path)
    if error.validator == "type":
        found = describe_value(error.instance)
        message = f"{where} must be a mapping (key: value lines), not {found}"
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
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

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
