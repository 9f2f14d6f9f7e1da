"""The docs builders' one way to the runbook: the same model and the same refusal as
``jobledger render --format json``.

Both builders call :func:`runbook_for` and nothing else of the pipeline, so when the commands get
their inputs from one session this is the only function to port.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import ConfigError
from ..core.text import inert, one_line
from ..findings import Check, GateResult
from ..project import RUNBOOK_GROUPS, Config, load_config
from ..reporters.runbook.build import blockers, build_runbook
from ..reporters.runbook.model import Runbook
from ..reporters.text import short_line
from ..session import Session


@dataclass(frozen=True)
class DocsRunbook:
    """What a docs build shows: the model, or (not a preview) the located lines that block it,
    each as ``jobledger check`` prints it. A preview has both: the page marks every blocker."""

    config: Config
    book: Runbook | None
    blocking: tuple[str, ...]
    #: Published while checks fail, because ``docs_unsigned = "warn"``: the page carries a
    #: banner naming each blocker (:func:`~..reporters.runbook.view.warned`).
    warned: bool = False

    @property
    def refused(self) -> bool:
        return self.book is None


def runbook_for(
    root: Path,
    *,
    preview: bool = False,
    config_file: Path | None = None,
    group_by: str | None = None,
) -> DocsRunbook:
    """The runbook of the project at ``root`` as ``jobledger render --format json [--preview]``
    builds it (with ``docs_unsigned = "warn"``, a refused page is published as a preview, marked
    ``warned``): the session's gate view (the one reading every command gets), :func:`blockers` as
    the refusal rule, :func:`build_runbook` as the
    model. Drafts are never read: a published site carries no unverified text, preview or not.
    ``group_by`` overrides ``runbook_group_by`` (validated like the configuration's value)."""
    config = load_config(root=root, config_file=config_file, options=("root", "config"))
    if group_by is not None:
        config = _grouped(config, group_by)
    result = Session.open(config).gate
    blocking = tuple(_line(check) for check in blockers(result))
    if blocking and not preview:
        if config.runbook.docs_unsigned == "warn":
            return DocsRunbook(config, _book(result, config, preview=True), blocking, warned=True)
        return DocsRunbook(config, None, blocking)
    return DocsRunbook(config, _book(result, config, preview=preview), blocking)


def _book(result: GateResult, config: Config, *, preview: bool) -> Runbook:
    return build_runbook(result, config, preview=preview, drafts=None)


def _line(check: Check) -> str:
    """A blocker as ``jobledger check`` prints its finding by default (inert, as :func:`~..text.say`
    prints it); a check the gate could not judge has none, so it is located and named with the
    reason instead."""
    if check.finding is not None:
        line = short_line(check.finding)
    else:
        line = one_line(f"{check.path}:{check.line}: {check.name} not judged: {check.skipped}")
    # A build log is read by CI runners too: a path named `::notice ...` must not be a command.
    return inert(line)


def _grouped(config: Config, group_by: str) -> Config:
    if group_by not in RUNBOOK_GROUPS:
        raise ConfigError(f"group-by is {group_by!r}; use one of {', '.join(RUNBOOK_GROUPS)}")
    return dataclasses.replace(
        config, runbook=dataclasses.replace(config.runbook, group_by=group_by)
    )
