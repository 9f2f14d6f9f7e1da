"""SARIF 2.1.0 for code scanning: one rule per finding kind, one result per finding.

File locations are relative to the workspace when the project sits inside one (so code scanning,
which reads paths from the repository root, finds them), else to the project root; either base is
declared in ``originalUriBaseIds`` as ``%SRCROOT%``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from urllib.parse import quote

from .. import __version__
from ..config import Config
from ..findings import Finding, Kind
from ..github import GitHubContext, display_path, order_findings

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://pypi.org/project/pytest-jobledger/"

RULES: dict[Kind, tuple[str, str]] = {
    Kind.UNSIGNED: (
        "A required policy cell is missing, empty or holds a blocked value.",
        "Sign the cell in the overlay with a real value; a job with no entry needs one.",
    ),
    Kind.NOT_YES_NO: (
        "`idempotent` is not exactly the string yes or no.",
        'Write `idempotent: "yes"` or `"no"` (quoted), so YAML 1.1 and 1.2 readers agree.',
    ),
    Kind.NOT_TEXT: (
        "A policy cell holds a value that is not text (a number, list or mapping).",
        "Write the cell as a quoted string.",
    ),
    Kind.ORPHAN: (
        "An overlay entry names a job that is not in the ledger.",
        "Rename the entry to the job's current id, or delete it if the job is gone.",
    ),
    Kind.LANE_MIXING: (
        "An overlay entry carries a field that belongs to the ledger.",
        "Remove the field from the overlay; the ledger states it from source.",
    ),
    Kind.UNKNOWN_KEY: (
        "An overlay entry has a key the overlay schema does not know.",
        "Fix the spelling or remove the key.",
    ),
    Kind.UNSUPPORTED: (
        "A job registration the static parser cannot follow.",
        "Register the job in a form the parser reads, or exclude the place on purpose.",
    ),
    Kind.DUPLICATE_ID: (
        "Two registrations share one job id.",
        "Rename one of the functions or give each a distinct registered name.",
    ),
    Kind.OVERLAY_INVALID: (
        "The overlay does not parse or does not match its schema.",
        "Fix the overlay at the reported line.",
    ),
    Kind.LEDGER_STALE: (
        "The committed ledger differs from a fresh extraction.",
        "Run `jobledger extract` and commit the result.",
    ),
}
_FALLBACK = ("A policy cell fails the gate.", "See the message of each result.")


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
            "shortDescription": {"text": RULES.get(kind, _FALLBACK)[0]},
            "help": {"text": RULES.get(kind, _FALLBACK)[1]},
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
        "originalUriBaseIds": {"%SRCROOT%": {"uri": base.resolve().as_uri() + "/"}},
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
        "level": "error",
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
    return result


def dumps(log: dict[str, object]) -> str:
    return json.dumps(log, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def report(findings: Sequence[Finding], config: Config) -> str:
    """``jobledger check --format sarif``."""
    context = GitHubContext.from_environ()
    return dumps(sarif_log(findings, root=config.root, workspace=context.workspace))
