"""The text of what the stub adds: job keys and placeholder cells, quoted so every reader agrees.

ruamel.yaml decides how a scalar is written (it knows when a plain scalar would be misread or when
quotes need escapes); this module adds the YAML 1.1 check ruamel's 1.2 emitter does not make: a key
such as ``on`` or ``1:20`` is plain and a string to YAML 1.2 but a boolean or a number to PyYAML, so
it is quoted too.
"""

from __future__ import annotations

import functools
import io
import re
from collections.abc import Sequence

import yaml as pyyaml
from ruamel.yaml import YAML
from ruamel.yaml.nodes import ScalarNode
from ruamel.yaml.resolver import VersionedResolver
from ruamel.yaml.scalarstring import DoubleQuotedScalarString, SingleQuotedScalarString

from ..ledger.model import Job

_STR = "tag:yaml.org,2002:str"
_RESOLVERS = (VersionedResolver(version=(1, 1)), VersionedResolver(version=(1, 2)))
_PYYAML_RESOLVER = pyyaml.resolver.Resolver()
#: Characters that may not appear in a comment: each would end it and start a new line.
_LINE_BREAKS = re.compile(r"[\r\n\x85\u2028\u2029]|[^\S ]|[\x00-\x1f\x7f]")

#: The placeholder every new cell holds; blocked by default, so the gate fails until a person signs.
PLACEHOLDER = "unknown"

#: YAML readers refuse a ``key:`` longer than 1,024 characters; a longer key is written as an
#: explicit key (``? key`` then ``:`` on the next line). A margin keeps clear of the exact limit.
IMPLICIT_KEY_LIMIT = 1000


def _dump(value: str) -> str:
    yaml = YAML(typ="rt")
    yaml.width = 1_000_000  # never fold a long value onto a second line
    buffer = io.StringIO()
    yaml.dump([value], buffer)
    text = buffer.getvalue()
    # ruamel writes a one-item list as "- <scalar>\n"; the scalar is what is wanted.
    return text.removeprefix("- ").removesuffix("\n")


def _resolve(resolver: VersionedResolver, value: str) -> str:
    return str(resolver.resolve(ScalarNode, value, (True, False)))


def reads_as_string(value: str) -> bool:
    """Whether a plain ``value`` is a string to YAML 1.2 and 1.1 readers (ruamel and PyYAML)."""
    tags = [_resolve(resolver, value) for resolver in _RESOLVERS]
    node = pyyaml.ScalarNode
    tags.append(str(_PYYAML_RESOLVER.resolve(node, value, (True, False))))  # type: ignore[no-untyped-call]
    return all(tag == _STR for tag in tags)


@functools.lru_cache(maxsize=4096)  # cell names and the placeholder repeat in every entry
def scalar(value: str, quote: str = '"') -> str:
    """``value`` as a one-line YAML scalar: plain when every reader agrees, else quoted.

    ``quote`` is the file's own quote character, used when quotes are needed and it can express
    the value on one line.
    """
    plain = _dump(value)
    if plain == value and reads_as_string(value):
        return plain
    if quote == "'" and not _LINE_BREAKS.search(value):
        quoted = _dump(SingleQuotedScalarString(value))
        if quoted.startswith("'") and "\n" not in quoted:
            return quoted
    return _dump(DoubleQuotedScalarString(value))


def comment_text(text: str) -> str:
    """``text`` made safe for a one-line comment (a path with a newline cannot add a line)."""
    return _LINE_BREAKS.sub("?", text)


def placeholder_for(blocked_values: Sequence[str]) -> str:
    """``unknown`` when the configuration blocks it, else the first blocked value that is text.

    The stub must never sign a cell: if a project replaced the blocked list (``["tbd"]``), an
    ``unknown`` would count as a signature, so the project's own blocked word is used instead.
    """
    normal = [value.strip().lower() for value in blocked_values]
    if PLACEHOLDER in normal:
        return PLACEHOLDER
    words = [value for value in blocked_values if value.strip()]
    return words[0].strip() if words else ""


def entry_lines(
    job: Job,
    cells: Sequence[str],
    *,
    placeholder: str,
    column: int,
    cell_indent: int,
    quote: str,
) -> list[str]:
    """A new entry, one line per item without line endings: the key with where the job is
    defined as a comment, then each required cell with the placeholder."""
    pad = " " * column
    key = scalar(job.id, quote)
    if len(key) > IMPLICIT_KEY_LIMIT:
        lines = [f"{pad}? {key}", f"{pad}:  # {comment_text(job.location)}"]
    else:
        lines = [f"{pad}{key}:  # {comment_text(job.location)}"]
    value = f" {scalar(placeholder, quote)}" if placeholder else ""
    for cell in cells:
        lines.append(f"{pad}{' ' * cell_indent}{scalar(cell, quote)}:{value}")
    return lines
