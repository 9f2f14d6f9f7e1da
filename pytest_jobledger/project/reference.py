"""The documentation site's configuration page (``docs/configuration.md``), rendered from the key
table (:mod:`.keys`), so the page and the tool cannot disagree about a key, its default or what
it does. ``tests/test_docs_site.py`` compares the committed page with :func:`configuration_page`;
``JOBLEDGER_UPDATE_GOLDEN=1 pytest tests/test_docs_site.py`` writes it again.
"""

from __future__ import annotations

import json

from .keys import KEYS, Key, readme_block

INTRO = """\
# Configuration

<!-- Generated from pytest_jobledger/project/keys.py; do not edit by hand. To regenerate:
     JOBLEDGER_UPDATE_GOLDEN=1 pytest tests/test_docs_site.py -->

Everything lives in the `[tool.jobledger]` table of the project's `pyproject.toml` (or the file
`--config` names). An unknown key is an error that names it and suggests the key it resembles;
`jobledger schema` writes the overlay schema your configuration implies.

## Every key, with an example

"""

TABLES = """\
The tool never guesses that an unknown decorator registers jobs: a wrapper of your own (an `actor`
that calls `dramatiq.actor`, a decorator factory around `shared_task`) is declared in
`[tool.jobledger.decorators]`. Its own body is its implementation and is not reported.

## Defaults and roles

| key | default | role | what it is |
| --- | --- | --- | --- |
"""


def _default(key: Key) -> str:
    if key.default is None:
        return f"`{key.fallback}` when unset" if key.fallback else "unset"
    value = list(key.default) if isinstance(key.default, tuple) else key.default
    if isinstance(value, dict):
        return "none"
    return f"`{json.dumps(value)}`"


def _what(key: Key) -> str:
    words = " ".join(key.note.split("\n")) if key.note else ""
    if key.type == "object":
        words = f"a table per name: `[tool.jobledger.{key.name}.<name>]`, as in the example above"
    if key.env and key.env not in words:
        words = f"{words} (`{key.env}` wins over it)".strip()
    return words.replace("|", "\\|")


def configuration_page() -> str:
    """The page's exact text."""
    rows = [f"| `{key.name}` | {_default(key)} | {key.role.value} | {_what(key)} |" for key in KEYS]
    return INTRO + readme_block() + "\n" + TABLES + "\n".join(rows) + "\n"
