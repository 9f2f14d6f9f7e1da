"""Never silent about a job framework: a module that imports one the parser has no table for
(:data:`.frameworks.unsupported.UNSUPPORTED_MODULES`) gets one located ``unsupported-framework``
entry per framework, at its first module-level import, so its jobs show up as work rather than
as a green gate with jobs unseen.

The import is judged by what it binds, never by a word in the text: a scanned module of the tree
with the framework's name is the project's own, and a framework with a configured decorator
(``[tool.jobledger.decorators]`` naming one of its functions) is read through that decorator.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..ledger.model import Pattern, Unsupported
from ..project import Config
from .advice import compose, fitted
from .frameworks.unsupported import UNSUPPORTED_MODULES
from .records import ModuleSummary
from .resolve import ProjectIndex


def framework_imports(
    index: ProjectIndex, config: Config, summary: ModuleSummary
) -> Iterator[Unsupported]:
    """One entry for each job framework without a table that ``summary`` imports."""
    first: dict[str, int] = {}
    for bindings in summary.bindings.values():
        for binding in bindings:
            if binding.kind != "import" or not binding.target:
                continue
            top = binding.target.split(".", 1)[0]
            if top in UNSUPPORTED_MODULES and binding.line < first.get(top, binding.line + 1):
                first[top] = binding.line
    for top, line in sorted(first.items()):
        if index.source(top) is not None:
            continue  # the project's own module of that name
        if any(name.split(".", 1)[0] == top for name in config.extraction.decorators):
            continue
        yield Unsupported(
            summary.source.rel_path,
            line,
            Pattern.UNSUPPORTED_FRAMEWORK,
            compose(
                f"imports {top}, a job framework the parser has no table for: its jobs are not "
                "in the ledger",
                fitted(
                    summary.source.rel_path,
                    Pattern.UNSUPPORTED_FRAMEWORK,
                    "Declare the decorator it registers jobs with in [tool.jobledger.decorators] "
                    "so each job is listed",
                ),
            ),
        )
