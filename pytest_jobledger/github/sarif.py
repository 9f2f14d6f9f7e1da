"""SARIF 2.1.0 for code scanning: one rule per finding kind, one result per finding.

File locations are relative to the workspace when the project sits inside one (so code scanning,
which reads paths from the repository root, finds them), else to the project root; either base is
declared in ``originalUriBaseIds`` as ``%SRCROOT%``, without a ``uri``: the log names no path of the
machine that wrote it, so it is byte-identical from any clone.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from urllib.parse import quote

from .. import __version__
from ..core.text import escape_surrogates
from ..findings import Finding, Kind, Level
from ..project import Config
from .commands import display_path, order_findings
from .context import GitHubContext

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://pypi.org/project/pytest-jobledger/"


#: SARIF's name for each level (SARIF calls a notice a "note").
SARIF_LEVELS = {Level.ERROR: "error", Level.WARNING: "warning", Level.NOTICE: "note"}

#: What ``%SRCROOT%`` is, in words (it has no ``uri``: see the module's docstring).
BASE_TEXT = "The root of the checkout: the repository's, or the project's outside a repository."


def rule_id(kind: Kind) -> str:
    return f"jobledger/{kind.value}"


def sarif_log(
    findings: Iterable[Finding], *, root: Path, workspace: Path | None = None
) -> dict[str, object]:
    """The SARIF log as plain JSON data."""
    base = workspace if workspace is not None and _inside(root, workspace) else root
    kinds = list(Kind)
    rules = [
        {
            "id": rule_id(kind),
            "name": "".join(part.capitalize() for part in kind.value.split("-")),
            "shortDescription": {"text": kind.description},
            "help": {"text": kind.help},
            "defaultConfiguration": {"level": "error"},
        }
        for kind in kinds
    ]
    results = [_result(finding, kinds, root, base) for finding in order_findings(findings, root)]
    run: dict[str, object] = {
        "tool": {
            "driver": {
                "name": "pytest-jobledger",
                "version": __version__,
                "informationUri": INFORMATION_URI,
                "rules": rules,
            }
        },
        # No uri: the base is wherever the repository is checked out (SARIF lets a consumer
        # resolve it), so the log is the same bytes from any clone and names no machine path.
        "originalUriBaseIds": {"%SRCROOT%": {"description": {"text": BASE_TEXT}}},
        "results": results,
    }
    return {"$schema": SARIF_SCHEMA, "version": SARIF_VERSION, "runs": [run]}


def _inside(root: Path, workspace: Path) -> bool:
    try:
        root.resolve().relative_to(workspace.resolve())
    except ValueError:
        return False
    return True


def _result(finding: Finding, kinds: Sequence[Kind], root: Path, base: Path) -> dict[str, object]:
    result: dict[str, object] = {
        "ruleId": rule_id(finding.kind),
        "ruleIndex": kinds.index(finding.kind),
        "level": SARIF_LEVELS[finding.level],
        "message": {"text": finding.message},
        "partialFingerprints": {
            "jobledgerItem/v1": f"{finding.kind.value}:{finding.job}:{finding.cell}"
        },
    }
    path = display_path(finding, root, base)
    if path is not None:
        physical: dict[str, object] = {
            "artifactLocation": {"uri": quote(path, safe="/"), "uriBaseId": "%SRCROOT%"}
        }
        if finding.line > 0:
            physical["region"] = {"startLine": finding.line}
        result["locations"] = [{"physicalLocation": physical}]
    related = [
        {
            "id": index,
            "physicalLocation": {
                "artifactLocation": {"uri": quote(where, safe="/"), "uriBaseId": "%SRCROOT%"},
                "region": {"startLine": line},
            },
        }
        for index, (path, line) in enumerate(finding.also, 1)
        if (where := display_path(replace(finding, path=path, line=line), root, base)) is not None
        and line > 0
    ]
    if related:
        result["relatedLocations"] = related
    return result


def dumps(log: dict[str, object]) -> str:
    text = json.dumps(log, indent=2, sort_keys=True, ensure_ascii=False)
    return escape_surrogates(text) + "\n"  # a lone surrogate as its JSON escape, never raw


def report(findings: Sequence[Finding], config: Config) -> str:
    """``jobledger check --format sarif``."""
    context = GitHubContext.from_environ()
    return dumps(sarif_log(findings, root=config.root, workspace=context.workspace))
