"""``jobledger check --format github``: the workflow commands the pytest plugin would emit."""

from __future__ import annotations

from collections.abc import Sequence

from ..findings import Finding
from ..project import Config
from .commands import annotation_lines
from .context import GitHubContext, changed_files


def report(findings: Sequence[Finding], config: Config) -> str:
    context = GitHubContext.from_environ()
    changed = changed_files(context, config.root) if findings else frozenset()
    lines = annotation_lines(
        findings,
        root=config.root,
        workspace=context.workspace,
        changed=changed,
        see="`jobledger check` without --format github",
    )
    return "".join(line + "\n" for line in lines)
